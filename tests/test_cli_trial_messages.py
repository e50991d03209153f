"""A newcomer's trial of the CLI (README + --help only), items 2–4: impossible input is exit 2
(README "Exit status"), messages say where and why once, options are refused with the values
that would do, a ruleset's amounts are in its own unit, and a hand's table context (the
wildcard indicator) can be given."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_run import run, one_error


HAND = ["--hand", "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 B1"]
PMN = "pmn-mahjongsoft.com-74621-1-3"


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("trial") / "paipu-data"
    assert run("quickstart", "--data", d).exit_code == 0
    assert run("export", "--data", d).exit_code == 0
    return d


# ------------------------------------------------------------- 2. exit status 2 for bad input

def test_stats_for_a_ruleset_nobody_knows_is_a_bad_argument(data):
    for extra in ((), ("--json",)):
        res = run("stats", "--ruleset", "nosuch", *extra, "--data", data)
        assert res.exit_code == 2, res.output
        assert "--ruleset nosuch: unknown ruleset or preset (known: " in one_error(res)
    # a known ruleset without exported games is still "no matching rows" (1)
    assert run("stats", "--ruleset", "sichuan", "--data", data).exit_code == 1


def test_a_tile_the_ruleset_is_played_without_is_impossible_input():
    # sichuan.md §1: 108 tiles, no honors
    res = run("score", "--ruleset", "sichuan", "--hand", "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 F1", "--win", "F1")
    assert res.exit_code == 2, res.output
    assert one_error(res) == "error: --hand: sichuan is played without F1 (its tiles: W1-W9, T1-T9, B1-B9)"
    res = run("score", "--ruleset", "sichuan", *HAND, "--win", "B1", "--flowers", "1")
    assert res.exit_code == 2 and "--flowers: sichuan is played without H1" in one_error(res)


# ------------------------------------------------------------- 3. messages

def test_a_false_win_says_why_once():
    res = run("score", *HAND, "--win", "B3")  # no winning shape
    assert res.exit_code == 1
    why = next(ln for ln in res.output.splitlines() if ln.startswith("not a legal win"))
    assert why.count("not a winning hand") == 1 and why.count("not a legal win") == 1, why
    res = run("score", "--ruleset", "sichuan", *HAND, "--win", "B2")  # three suits: 缺一门 (§2)
    why = next(ln for ln in res.output.splitlines() if ln.startswith("not a legal win"))
    assert why.count("not a legal win") == 1 and "seat 0" not in why, why


def test_a_bad_tile_is_named_once_with_its_flag():
    err = one_error(run("score", *HAND, "--win", "X9"))
    assert err.startswith("error: --win X9: not a tile: 'X9' (expected ") and "in 'X9'" not in err
    err = one_error(run("score", "--hand", "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1", "--meld", "pung:X1", "--win", "T1"))
    assert err.startswith("error: --meld pung:X1: not a tile: 'X1'")


def test_vectors_file_errors_name_the_file_in_words(tmp_path):
    missing = tmp_path / "nosuch.jsonl"
    res = run("score", "--vectors", missing)
    assert res.exit_code == 2 and one_error(res) == f"error: --vectors {missing}: no such file"
    res = run("score", "--vectors", tmp_path)
    assert res.exit_code == 2 and one_error(res) == f"error: --vectors {tmp_path}: a directory, not a file"
    src = tmp_path / "v.jsonl"
    src.write_text("{}\n", encoding="utf-8")
    res = run("score", "--vectors", src, "--out", src / "out.jsonl")  # a missing directory is made (README)
    assert res.exit_code == 2 and one_error(res) == f"error: --out {src / 'out.jsonl'}: {src} is a file, not a directory"
    src.write_bytes(b"\xff\xfe\n")
    res = run("score", "--vectors", src)
    assert res.exit_code == 2 and "Errno" not in res.output and f"--vectors {src}: not UTF-8 text" in res.output


def test_vectors_run_errors_name_the_file(tmp_path):
    src = tmp_path / "v.jsonl"
    src.write_text('{"id": 5}\n[1]\n', encoding="utf-8")
    res = run("score", "--vectors", src)
    assert res.exit_code == 1
    assert f"error: {src}: 2 of 2 lines are malformed" in res.output
    assert f'"error": "{src}:2: bad situation: not a JSON object"' in res.output
    res = run("score", "--ruleset", "cjm_chips", "--vectors", src)
    assert res.exit_code == 2 and one_error(res).startswith(
        "error: --vectors with --ruleset cjm_chips: it scores no vectors file (rulesets that do: ")


@pytest.mark.parametrize(("args", "want"), [
    # README: multiple_winners (first_only | all)
    (["score", *HAND, "--win", "B1", "--option", "multiple_winners=some"],
     "error: --option multiple_winners=some: multiple_winners is one of first_only, all"),
    (["score", *HAND, "--win", "B1", "--option", "min_fans=x"],
     "error: --option min_fans=x: min_fans takes integer values"),
    (["score", *HAND, "--win", "B1", "--option", "nosuch=1"],
     "error: --option: mcr option nosuch: no such option; the options `paipu rulesets mcr` documents: multiple_winners, "),
    (["simulate", "--options", '{"multiple_winners": "x"}', "--out", "{tmp}/s.jsonl"],
     "error: --options multiple_winners=x: multiple_winners is one of first_only, all"),
    (["score", "--ruleset", "ji_an", "--vectors", "-", "--option", "jing_mode=x"],
     "error: --option jing_mode=x: jing_mode is one of zheng_fu, successor_only, none"),
])
def test_a_bad_option_lists_what_would_do(args, want, tmp_path):
    res = run(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert res.exit_code == 2, res.output
    err = one_error(res)
    assert err.startswith(want) and "Input should" not in err and "Extra inputs" not in err, err


def test_verify_and_dispute_refuse_a_bad_option_before_reading(data, tmp_path):
    res = run("verify", PMN, "--as", "mcr1998", "--option", "multiple_winners=some", "--data", data)
    assert res.exit_code == 2 and one_error(res).startswith("error: --option multiple_winners=some: multiple_winners is one of")
    res = run("verify", PMN, "--as", "nope", "--data", data)
    assert res.exit_code == 2 and one_error(res).startswith("error: --as nope: unknown ruleset or preset")
    res = run("verify", PMN, "--option", "multiple_winners=some", "--data", data)  # the game's own ruleset
    assert res.exit_code == 2 and "multiple_winners is one of first_only, all" in res.output
    res = run("dispute", PMN, "--option", "nosuch=1", "--out", tmp_path / "d.html", "--data", data)
    assert res.exit_code == 2 and "no such option; the options `paipu rulesets mcr` documents" in one_error(res)


# ------------------------------------------------------------- 4. units and the hand's table

def test_changsha_amounts_are_in_its_units():
    """changsha.md §5: a small unit is X, a big unit 6X, X = 10 points (option ``unit``);
    清一色 is one big unit (§3.3)."""
    args = ["score", "--ruleset", "changsha", "--hand", "W2 W2 W2 W3 W4 W5 W6 W7 W8 W1 W1 W1 W5", "--win", "W5"]
    res = run(*args)
    assert res.exit_code == 0, res.output
    assert "points per unit" in res.output and "total 1 unit (docs/reference/rules/changsha.md §5)" in res.output
    assert "60" in res.output and "total 1 point" not in res.output
    obj = json.loads(run(*args, "--json").output)
    assert (obj["total"], obj["total_unit"], obj["item_unit"]) == (1, "units", "points per unit")
    assert [(i["name_zh"], i["points"]) for i in obj["items"]] == [("清一色", 60)]
    mcr = json.loads(run("score", *HAND, "--win", "B1", "--json").output)
    assert mcr["total_unit"] == "points"


def test_a_wildcard_indicator_is_given_with_context():
    args = ["score", "--ruleset", "nanchang", "--hand", "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9", "--win", "W5"]
    res = run(*args)  # nanchang.md §4: the hand's jing come from the indicator
    assert res.exit_code == 2 and "--context wildcard_indicator=TILE" in one_error(res)
    res = run(*args, "--context", "wildcard_indicator=J1", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["legal"] is True
    res = run("score", *HAND, "--win", "B1", "--context", "wildcard_indicator=J1")
    assert res.exit_code == 2 and "mcr is played without a wildcard indicator" in one_error(res)
    res = run("score", *HAND, "--win", "B1", "--context", "jing=J1")
    assert res.exit_code == 2 and "NAME one of wildcard_indicator, dealer, scores" in one_error(res)
    assert "--context" in " ".join(run("score", "--help").output.split())


def test_the_replay_counts_a_changsha_win_in_units(tmp_path):
    """A simulated Changsha hand (seed 1) ends in a small win on a discard: one small unit
    (changsha.md §3.1, §5), never "1 points"."""
    assert run("simulate", "--ruleset", "changsha", "--games", "1", "--hands-per-game", "1", "--seed", "1",
               "--data", tmp_path).exit_code == 0
    gid = json.loads(run("games", "--json", "--data", tmp_path).output.splitlines()[0])["game_id"]
    res = run("replay", gid, "--data", tmp_path)
    assert res.exit_code == 0, res.output
    win = next(ln for ln in res.output.splitlines() if "win: seat" in ln)
    assert "legal; 1 unit: small win" in win and " points:" not in win, win


def test_dispute_gives_each_what_if_the_options_it_has(data, tmp_path):
    """Several --as of different rulesets: each --option goes to those that list it (`paipu
    rulesets NAME`: min_fans is MCR 1998's, cap Sichuan's); the page names each what-if's
    options in plain text (once escaped: a reader sees the quotes, not &quot;)."""
    import html as _html

    out = tmp_path / "d.html"
    res = run("dispute", PMN, "--out", out, "--as", "mcr1998", "--as", "sichuan", "--option", "min_fans=1",
              "--option", "cap=3", "--data", data)
    assert res.exit_code == 0, res.output
    page = out.read_text(encoding="utf-8")
    assert "&amp;quot;" not in page
    titles = [_html.unescape(t) for t in re.findall(r"<h3>As ([^<]*) — ", page)]
    mcr1998 = json.loads(next(t for t in titles if t.startswith("mcr1998 "))[len("mcr1998 "):])
    sichuan = json.loads(next(t for t in titles if t.startswith("sichuan "))[len("sichuan "):])
    assert mcr1998["min_fans"] == 1 and "cap" not in mcr1998
    assert sichuan["cap"] == 3 and "min_fans" not in sichuan
    res = run("dispute", PMN, "--out", out, "--as", "mcr1998", "--as", "sichuan", "--option", "nosuch=1",
              "--data", data)
    assert res.exit_code == 2
    assert one_error(res).startswith("error: --option nosuch: no option of mcr1998, sichuan is called nosuch")
