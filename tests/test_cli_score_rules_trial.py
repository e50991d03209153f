"""``paipu score`` against the rules text (a user trial of score and rulesets): melds reach
every ruleset's win check, chows only where the ruleset has them, 天胡 only on the first
draw, flowers are never won on, context a ruleset does not read is refused. Expected values
come from docs/reference/rules/*.md (cited per test), never from the code."""

from __future__ import annotations

import json

import pytest
from cli_run import run, one_error



NC_HAND = ["--hand", "W1 W2 W3 W4 W5 W6 T6 T6 T7 T8"]  # 123m 456m 66s 78s: + a set + T9
# 正精 B2, 副精 B3 (nanchang.md §4); nobody else holds a jing (said: one hand cannot tell, §6.7)
NC = ["--ruleset", "nanchang", "--context", "wildcard_indicator=B1", "--context", "others_hold_wild=no"]


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
    jing (B2/B3) at the table given (others_hold_wild=no) → 德中德 ×4 (§6.7); seat 0 deals and wins on seat 3's
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
    tianhu = json.loads(run(*args, "--context", "first_draw=yes").output)
    assert tianhu["total"] == 5 and "天胡" in [i["name_zh"] for i in tianhu["items"]]
    dihu = json.loads(run(*args, "--context", "first_draw=yes", "--context", "dealer=2").output)
    assert dihu["total"] == 5 and "地胡" in [i["name_zh"] for i in dihu["items"]]


def test_changsha_tianhu_and_dihu_need_the_first_draw():
    """changsha.md §3.3 #1 天胡: the dealer's dealt 14; #2 地胡: a win on the dealer's first
    discard — neither on an ordinary self-draw or discard."""
    args = ["score", "--ruleset", "changsha", "--hand", "W2 W2 W3 W4 W5 T3 T4 T5 B6 B7 B8 W7 W8", "--win", "W9",
            "--json"]
    names = lambda *more: [i["name_zh"] for i in json.loads(run(*args, *more).output)["items"]]
    assert "天胡" not in names("--self-drawn") and "地胡" not in names("--context", "dealer=3")
    assert "天胡" in names("--self-drawn", "--context", "first_draw=yes")
    assert "地胡" in names("--context", "first_draw=yes", "--context", "dealer=3")


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


def test_nanchang_shows_factors_and_what_each_payer_pays():
    """nanchang.md §9.5 (b): M = 1 × 2 (德国) = 2; seat 0 deals and wins on seat 3's discard:
    the discarder pays M × 2 × 2 + 5 = 13, the others M × 2 = 4 each → 21. The ×2 is a
    factor, never "2 points"."""
    args = ["score", "--ruleset", "nanchang", "--hand", "W1 W2 W3 W4 W5 W6 W7 W8 W9 T2 T2 T3 T4", "--win", "T5",
            "--context", "wildcard_indicator=T1"]
    obj = json.loads(run(*args, "--json").output)
    assert obj["total"] == 21
    deguo = next(i for i in obj["items"] if i["name_zh"] == "德国")
    assert (deguo["factor"], deguo["points"]) == (2, None)
    win = {p["payer"]: p["amount"] for p in obj["payments"] if p["reason"] == "Win"}
    assert win == {1: 4, 2: 4, 3: 13}
    assert next(p for p in obj["payments"] if p["payer"] == 3)["roles"] == ["discarder"]
    out = run(*args).output
    assert "×2" in out and "seat 3 (discarder) 13 = 21 to seat 0" in out.replace("Win: seat 1 4, seat 2 4, ", "")


def test_cjm_chips_items_say_what_they_are_counted_on():
    """competition.md §A6.2 清龙 is the 1-9 straight; §A6.3 门清 the whole concealed hand."""
    obj = json.loads(run("score", "--ruleset", "cjm_chips", "--hand", "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T2 T3",
                         "--win", "T4", "--json").output)
    on = {i["name_zh"]: i["tiles"] for i in obj["items"]}
    assert on["清龙"] == [["W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9"]]
    assert sorted(on["门清"][0]) == sorted("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T2 T3 T4".split())


def test_sichuan_cap_caps_the_payment():
    """sichuan.md §6: pay = 底金 × 2^min(fan, cap). 清七对 is 4 fan (§6.1); with cap 3 the
    discarder pays 2^3 = 8, not 16."""
    args = ["score", "--ruleset", "sichuan", "--hand", "W1 W1 W2 W2 W3 W3 W4 W4 W5 W5 W6 W6 W7", "--win", "W7",
            "--json"]
    assert [(p["payer"], p["amount"]) for p in json.loads(run(*args).output)["payments"]] == [(3, 16)]
    capped = json.loads(run(*args, "--option", "cap=3").output)
    assert capped["total"] == 4 and [(p["payer"], p["amount"]) for p in capped["payments"]] == [(3, 8)]


def test_nine_gates_counts_one_terminal_pung_and_shows_one():
    """tests/data/mcr/README.md (reference calculator note 3): Nine Gates won on 5 adds Two
    Concealed Pungs and *one* Pung of Terminals or Honors — the tiles listed are one pung."""
    obj = json.loads(run("score", "--hand", "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9", "--win", "W5",
                         "--json").output)
    pung = next(i for i in obj["items"] if i["name_zh"] == "幺九刻")
    assert pung["count"] == 1 and len(pung["tiles"]) == 1
    assert pung["tiles"][0] in (["W1"] * 3, ["W9"] * 3)


def test_verify_lists_reported_fans_in_the_computed_language(tmp_path):
    """A simulated Sichuan game reports its fans by English name; verify lists them by the
    names the computed fans use (sichuan.md §6.1: 平胡 …), so both sides read alike."""
    assert run("simulate", "--ruleset", "sichuan", "--games", "1", "--hands-per-game", "2", "--seed", "1",
               "--data", tmp_path).exit_code == 0  # seed 1: three plain wins in the second hand
    gid = json.loads(run("games", "--json", "--data", tmp_path).output.splitlines()[0])["game_id"]
    out = run("verify", gid, "--data", tmp_path).output
    reported = [ln for ln in out.splitlines() if ln.strip().startswith("reported")]
    assert reported and all("Plain win" not in ln for ln in reported)
    assert any("平胡" in ln for ln in reported), out


# Ex 12 (nanchang.md §15): dealer E self-draws 七星十三烂 + 德国, I = 3p (正精 3p, 副精 4p) —
# "Not 德中德 (others hold jing)": M = 2 × 4 × 2 = 16; dealer winner → 32; +5 → 37 from each
EX12 = ["score", "--ruleset", "nanchang", "--hand", "1234567z147m28s5p", "--win", "9p", "--self-drawn",
        "--context", "wildcard_indicator=3p"]


def test_nanchang_score_does_not_assume_nobody_else_holds_jing():
    """德中德 needs that no player holds any jing (§6.7), which one hand cannot show: by
    default another seat does, so Ex 12 is 德国 ×2, 37 from each, E +111, and the output says
    what was assumed; ``--context others_hold_wild=no`` states that nobody does → 德中德 ×4:
    M = 2 × 4 × 4 = 32, ×2 dealer, +5 → 69 from each."""
    obj = json.loads(run(*EX12, "--json").output)
    names = [i["name_zh"] for i in obj["items"]]
    assert "德国" in names and "德中德" not in names
    assert {p["payer"]: p["amount"] for p in obj["payments"] if p["reason"] == "Win"} == {1: 37, 2: 37, 3: 37}
    assert obj["changes"][0] == 111 and obj["assumed"]["others_hold_wild"] == "yes"
    out = run(*EX12).output
    assert "assumed" in out and "others_hold_wild=yes" in out
    said = json.loads(run(*EX12, "--context", "others_hold_wild=no", "--json").output)
    assert "德中德" in [i["name_zh"] for i in said["items"]] and said["changes"][0] == 3 * 69
    assert "others_hold_wild" not in said["assumed"]


def test_nanchang_bawang_needs_the_winner_to_be_the_only_jing_holder():
    """Ex 7b (nanchang.md §15): I = 白 (正精 白, 副精 中); dealer E holds 白白 (n = 4, s = 4) and
    self-draws 5p; N holds 中, so E is not the only holder: no 霸王 (§9.1 step 3) — E gets 4
    from each for its own jing (E +11 in the example is 12 − N's 1); win 21 from each. Only
    when nobody else holds a jing is E's s doubled to 8 (霸王)."""
    args = ["score", "--ruleset", "nanchang", "--hand", "1p2p3p 3p4p 7s8s9s 1z2z4z 5z5z", "--win", "5p",
            "--self-drawn", "--context", "wildcard_indicator=5z", "--json"]

    def jing(*more):
        obj = json.loads(run(*args, *more).output)
        assert {p["payer"]: p["amount"] for p in obj["payments"] if p["reason"] == "Win"} == {1: 21, 2: 21, 3: 21}
        return {p["payer"]: p["amount"] for p in obj["payments"] if p["reason"] != "Win"}
    assert jing() == {1: 4, 2: 4, 3: 4}
    assert jing("--context", "others_hold_wild=no") == {1: 8, 2: 8, 3: 8}


def test_others_hold_wild_needs_a_wildcard_ruleset():
    res = run("score", "--ruleset", "sichuan", "--hand", "W1 W2 W3 W4 W5 W6 W7 W8 W9 T6 T6 T7 T8", "--win", "T9",
              "--context", "others_hold_wild=no")
    assert res.exit_code == 2 and "sichuan is played without a wildcard indicator" in one_error(res)


# ---- situation flags a ruleset does not read are refused, as --context is; read ones honoured
CS_KONG_HAND = ["score", "--ruleset", "changsha", "--hand", "W2 W2 W3 W4 W5 T3 T4 T5 B6 B7", "--meld", "ckong:T9"]


def test_changsha_kong_replacement_is_refused_and_kaigang_is_said_with_context():
    """changsha.md §8.8: a win on a 补张 replacement is an ordinary self-draw, so --self-drawn
    --kong would change nothing: refused, naming the rule and the way to say 开杠. §3.3 #10
    杠上开花 (a win on a 开杠 reveal) is one big unit: seat 1 deals, so it pays 7X = 70 and the
    others 6X = 60 each (§5)."""
    res = run(*CS_KONG_HAND, "--win", "B8", "--self-drawn", "--kong")
    assert res.exit_code == 2
    err = one_error(res)
    assert "--self-drawn --kong" in err and "would change nothing" in err and "§8.8" in err
    assert "--context kong_reveal=yes" in err
    obj = json.loads(run(*CS_KONG_HAND, "--win", "B8", "--self-drawn", "--context", "kong_reveal=yes",
                         "--context", "dealer=1", "--json").output)
    assert [i["name_zh"] for i in obj["items"]] == ["杠上开花"] and obj["total"] == 1
    assert obj["changes"] == [190, -70, -60, -60]
    # 开杠 reveals in place of the replacement: a self-drawn 杠上开花 needs the seat's own kong
    res = run("score", "--ruleset", "changsha", "--hand", "W2 W2 W3 W4 W5 T3 T4 T5 B6 B7 T9 T9 T9", "--win", "B8",
              "--self-drawn", "--context", "kong_reveal=yes")
    assert res.exit_code == 2 and "no kong is declared" in one_error(res)


def test_changsha_example_8_gangshangpao():
    """changsha.md §7 Ex 8: S wins on a tile N's 开杠 revealed with a small shape and a 5p pair;
    杠上炮 is a big win → 1 big unit, N (the 开杠 player, as discarder) pays 60 before the bird
    (neither is the dealer: --context dealer=1 puts the deal elsewhere)."""
    obj = json.loads(run("score", "--ruleset", "changsha", "--hand", "W1 W2 W3 T4 T5 T6 B7 B8 B9 W7 W8 B5 B5",
                         "--win", "W9", "--context", "kong_reveal=yes", "--context", "dealer=1", "--json").output)
    assert [i["name_zh"] for i in obj["items"]] == ["杠上炮"]
    assert obj["changes"] == [60, 0, 0, -60]


def test_flags_a_ruleset_does_not_read_are_refused():
    """Nanchang has no 海底 (nanchang.md §3.3 "南昌麻將不設海底"): --last-of-wall changes nothing
    unless a variant reads it (jiangxi_variants.md: last_draw_no_discard — nobody wins on the
    last tile's discard); Sichuan's 海底捞月 is the option haidi (sichuan.md §6.2); Changsha
    has no honors, so no seat wind (changsha.md §1)."""
    nc = ["score", "--ruleset", "nanchang", "--hand", "W1 W2 W3 W4 W5 W6 W7 W8 W9 T2 T2 T3 T4", "--win", "T5",
          "--context", "wildcard_indicator=T1"]
    res = run(*nc, "--last-of-wall")
    assert res.exit_code == 2
    assert "--last-of-wall" in one_error(res) and "last_draw_no_discard=true" in one_error(res)
    assert run(*nc, "--last-of-wall", "--option", "last_draw_no_discard=true").exit_code == 1  # no win on it
    sc = ["score", "--ruleset", "sichuan", "--hand", "W1 W2 W3 W4 W5 W6 T2 T2 T3 T4", "--meld", "pung:T9@2",
          "--win", "T5", "--self-drawn", "--last-of-wall"]
    res = run(*sc)
    assert res.exit_code == 2 and "haidi=true" in one_error(res)
    obj = json.loads(run(*sc, "--option", "haidi=true", "--json").output)
    assert "海底捞月" in [i["name_zh"] for i in obj["items"]]
    res = run(*CS_KONG_HAND, "--win", "B8", "--seat-wind", "S")
    assert res.exit_code == 2 and "--seat-wind: changsha scores a hand without it" in one_error(res)


# A win robbing seat 3's added kong, per ruleset (every one of them may rob a kong): the hand
# and the extra flags each needs.
_ROBBED = {
    "cjm_chips": ["--hand", "W1 W2 W3 W4 W6 W7 W8 W9 J1 J1", "--meld", "pung:F1F1F1@2"],
    "mcr": ["--hand", "W1 W2 W3 W4 W6 W7 W8 W9 J1 J1", "--meld", "pung:F1F1F1@2"],
    "sichuan": ["--hand", "W1 W2 W3 W4 W6 W7 W8 W9 B1 B1", "--meld", "pung:B2B2B2@2"],
    "changsha": ["--hand", "W1 W2 W3 W4 W6 W7 W8 W9 B2 B2", "--meld", "pung:B1B1B1@2"],
    "nanchang": ["--hand", "W1 W2 W3 W4 W6 W7 W8 W9 B2 B2", "--meld", "pung:B1B1B1@2",
                 "--context", "wildcard_indicator=T5"],
}


@pytest.mark.parametrize("ruleset", sorted(_ROBBED))
def test_a_robbed_konger_is_named_as_such_not_as_a_discarder(ruleset):
    """抢杠: the payer discarded nothing — its added kong was robbed (competition.md §A6.4
    "the robbed konger alone pays 3T"; sichuan.md §5.3 "the robbed player pays as a
    discarder"): its role is ``robbed konger``, in the table and in --json."""
    args = ["score", "--ruleset", ruleset, *_ROBBED[ruleset], "--win", "W5", "--kong"]
    obj = json.loads(run(*args, "--json").output)
    assert obj["legal"], obj
    assert {tuple(p["roles"]) for p in obj["payments"] if p["payer"] == 3} == {("robbed konger",)}
    out = run(*args).output
    assert "seat 3 (robbed konger)" in out and "(discarder)" not in out


def test_cjm_robbed_kong_pays_3t():
    """competition.md §A6.4: 抢杠和 — the robbed konger alone pays 3T; T = 清龙 16 + 混一色 6
    (provisional, §A6.2) + single wait 4 (§A6.3) = 26 → 78 (example 3's shape, §A11.3)."""
    obj = json.loads(run("score", "--ruleset", "cjm_chips", *_ROBBED["cjm_chips"], "--win", "W5", "--kong",
                         "--json").output)
    assert obj["changes"] == [78, 0, 0, -78]
