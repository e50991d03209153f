"""``paipu score`` against the rules text (a user trial of score and rulesets): melds reach
every ruleset's win check, chows only where the ruleset has them, 天胡 only on the first
draw, flowers are never won on, context a ruleset does not read is refused. Expected values
come from docs/reference/rules/*.md (cited per test), never from the code."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from paipu.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False, prog_name="paipu")


def one_error(res) -> str:
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.output
    return lines[0]


NC_HAND = ["--hand", "W1 W2 W3 W4 W5 W6 T6 T6 T7 T8"]  # 123m 456m 66s 78s: + a set + T9
NC = ["--ruleset", "nanchang", "--context", "wildcard_indicator=B1"]  # 正精 B2, 副精 B3 (nanchang.md §4)


def test_sichuan_has_no_chow():
    """sichuan.md §2, §10: no chi — a hand with a chow cannot happen (exit 2), never a pung."""
    res = run("score", "--ruleset", "sichuan", *NC_HAND, "--meld", "chow:W7 W8 W9@1", "--win", "T9")
    assert res.exit_code == 2
    assert "--meld chow:W7 W8 W9@1: sichuan has no chow" in one_error(res)
    ok = run("score", "--ruleset", "sichuan", *NC_HAND, "--meld", "pung:W7@2", "--win", "T9")
    assert ok.exit_code == 0, ok.output


@pytest.mark.parametrize("ruleset", ["nanchang", "ji_an"])
@pytest.mark.parametrize("meld", ["pung:F1@2", "kong:F1@2", "chow:W7W8W9@1"])
def test_nanchang_melds_reach_the_win_check(ruleset, meld):
    """The declared set completes the hand (nanchang.md §6.1: sets + a pair). Nobody holds a
    jing (B2/B3) at the table given → 德中德 ×4 (§6.7); seat 0 deals and wins on seat 3's
    discard (§9.5 b): the discarder pays 4×2×2+5 = 21, the others 4×2 = 8 each → 37."""
    res = run("score", *NC[2:], "--ruleset", ruleset, *NC_HAND, "--meld", meld, "--win", "T9", "--json")
    assert res.exit_code == 0, res.output
    obj = json.loads(res.output)
    assert obj["legal"] is True and obj["total"] == 37
    assert "德中德" in [i["name_zh"] for i in obj["items"]]


def test_tianhu_is_only_the_first_draw():
    """nanchang.md §6.11: 天胡 is the dealer's 14 dealt tiles (no draw, no claim); §9.5 (a)
    flat 20 from each. An ordinary dealer self-draw is §9.5 (b): 德中德 ×4, self-draw ×2,
    dealer ×2, +5 → 21 from each of three."""
    concealed = ["--hand", "W1 W2 W3 W4 W5 W6 W7 W8 W9 T6 T6 T7 T8"]
    for args in ([*NC_HAND, "--meld", "chow:W7W8W9@1"], concealed):
        obj = json.loads(run("score", *NC, *args, "--win", "T9", "--self-drawn", "--json").output)
        assert obj["total"] == 63 and "天胡" not in [i["name_zh"] for i in obj["items"]], obj
    obj = json.loads(run("score", *NC, *concealed, "--win", "T9", "--self-drawn", "--context", "first_draw=yes",
                         "--json").output)
    assert obj["total"] == 60 and [i["name_zh"] for i in obj["items"]] == ["天胡"]
    # a hand with a meld is never 天胡, whatever is said
    obj = json.loads(run("score", *NC, *NC_HAND, "--meld", "chow:W7W8W9@1", "--win", "T9", "--self-drawn",
                         "--context", "first_draw=yes", "--json").output)
    assert obj["total"] == 63


def test_sichuan_tianhu_needs_the_first_draw():
    """sichuan.md §6.2: 天胡 (dealer wins on the dealt 14) is max(5, fan); an ordinary
    dealer self-draw of a plain hand (平胡) is 0 fan."""
    args = ["score", "--ruleset", "sichuan", "--hand", "W1 W2 W3 W4 W5 W6 W7 W8 W9 T6 T6 T7 T8", "--win", "T9",
            "--self-drawn", "--json"]
    assert json.loads(run(*args).output)["total"] == 0
    assert json.loads(run(*args, "--context", "first_draw=yes").output)["total"] == 5


def test_a_flower_is_never_the_winning_tile():
    """competition.md §A2: a flower is exposed and replaced at once — never won on (H = flowers)."""
    res = run("score", "--hand", "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T2 T3", "--win", "H1")
    assert res.exit_code == 2
    err = one_error(res)
    assert err.startswith("error: --win H1: a flower") and "--flowers" in err


def test_context_the_ruleset_does_not_read_is_refused():
    """MCR scores a hand from its tiles and winds (competition.md Part B): no dealer, no scores."""
    hand = ["score", "--hand", "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T2 T3", "--win", "T4"]
    for ctx in ("dealer=2", "scores=1,2,3,4", "first_draw=yes"):
        res = run(*hand, "--context", ctx)
        assert res.exit_code == 2 and "the context mcr reads: none" in one_error(res)
    res = run("score", "--ruleset", "sichuan", "--hand", "W1 W2 W3 W4 W5 W6 W7 W8 W9 T6 T6 T7 T8", "--win", "T9",
              "--context", "scores=1,2,3,4")
    assert res.exit_code == 2 and "the context sichuan reads: dealer, first_draw" in one_error(res)


def test_meld_help_says_what_from_means():
    text = " ".join(run("score", "--help").output.split())
    assert "1 = 上家" in text and "2 = 对家" in text and "3 = 下家" in text


def test_rulesets_describe_mcr_as_the_docs_do():
    """competition.md Part B: the 1998 scoring of seed 001 is `mcr1998`; mcr's default table
    is the current one — and no Python None in human text."""
    out = run("rulesets").output
    mcr = next(ln for ln in out.splitlines() if ln.startswith("mcr "))
    assert "current fan table" in mcr and "1998 table of seed 001 is the preset mcr1998" in mcr
    assert "seed 001's table" in next(ln for ln in out.splitlines() if ln.strip().startswith("mcr1998"))
    assert "None" not in run("rulesets", "sichuan").output
