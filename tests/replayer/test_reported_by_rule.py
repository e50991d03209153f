"""A reported score that disagrees names the rules that decide it: the computed changes by rule
item, each payment with its rule and source section (replayer/itemized.py), in the
``reported_score_mismatch`` finding (``paipu verify``) and on the dispute package. Every
expected payment is the rules text's: competition.md §A8 and §A11 #7 (包牌), sichuan.md §11
Ex 7 with §3 / §12.11 (呼叫转移) and Ex 9 with §7 (查花猪 / 查大叫)."""

from __future__ import annotations

from test_cjm_hands import _three_chows

from dashboard.package import dispute_html
from eventlog import events as ev
from eventlog.store import MemoryStore
from eventlog.verify import verify_game_events
from replayer.audit import audit_game
from replayer.itemized import breakdown
from replayer.replay import run
from replayer.rules.base import get_ruleset
from tests.rules.sichuan.test_replay_examples import example_7_hand, example_9_hand


def _report_before_end(payloads: list, winner: int | None, changes: list[int]) -> None:
    """``score_reported`` put before the hand's ``hand_ended`` (the last event)."""
    assert isinstance(payloads[-1], ev.HandEnded)
    payloads.insert(len(payloads) - 1, ev.ScoreReported(winner=winner, score_changes=changes))


def _mismatch(events, ruleset):
    res = run(events, mode="audit", ruleset=ruleset)
    found = [f for f in res.findings if f.rule_id == "reported_score_mismatch"]
    assert len(found) == 1, res.findings
    return found[0], res.state.reported[-1]


def test_baopai_dispute_names_a8():
    """§A11 #7 / §A8.1: S (seat 1) chowed E's discards three times in a row and self-draws
    T = 22 (清龙 16 + 混一色 6, counted in test_cjm_hands): E alone pays 3T = 66. A source
    that paid it as a plain self-draw (§A6.4: 22 from each) disagrees — on 包牌."""
    g = _three_chows()
    _report_before_end(g.payloads, 1, [-22, 66, -22, -22])
    f, rep = _mismatch(g.events(), get_ruleset("cjm_chips"))
    assert "computed [-66, 66, 0, 0]" in f.message
    assert "computed by rule: 包牌: 3T [-66, +66, 0, 0] (competition.md §A8 (包牌))" in f.message
    assert "docs/reference/rules/competition.md §A8" in f.source
    (row,) = breakdown(rep)
    assert (row.rule, row.changes, row.payments) == ("包牌: 3T", "-66 +66 +0 +0", "0→1 66")
    assert row.source.startswith("docs/reference/rules/competition.md §A8")


def test_hujiao_zhuanyi_dispute_names_12_11():
    """§11 Ex 7 with 呼叫转移 on (§3, §12.11): E (seat 0) wins N's kong-replacement discard
    (对对胡 + 杠上炮 = 2 fan: N pays 4, §5.4) and takes what N's 补杠 collected (1 from each of
    E, S, W = 3). A source that reports only the 4 disagrees — on 呼叫转移."""
    opts = {"hujiao_zhuanyi": True}
    h = example_7_hand(opts)
    _report_before_end(h.g.payloads, 0, [4, 0, 0, -4])
    f, rep = _mismatch(h.events(), get_ruleset("sichuan", opts))
    assert "reported [4, 0, 0, -4], computed [7, 0, 0, -7]" in f.message
    assert "win [+4, 0, 0, -4] (sichuan.md §5.4, §6 (who pays a win))" in f.message
    assert "hujiao_zhuanyi [+3, 0, 0, -3] (sichuan.md §3, §12.11 (呼叫转移))" in f.message
    assert "docs/reference/rules/sichuan.md §3, §12.11" in f.source
    assert [(r.rule, r.changes) for r in breakdown(rep)] == [("win", "+4 +0 +0 -4"), ("hujiao_zhuanyi", "+3 +0 +0 -3")]


def ex9_wrong_report() -> list:
    """§11 Ex 9 (cap 4) reported as if nothing were paid at the draw: the game's payloads."""
    h = example_9_hand({"cap": 4})
    _report_before_end(h.g.payloads, None, [0, 0, 0, 0])
    return h.g.events()


def test_draw_dispute_names_section_7():
    """§11 Ex 9: 花猪 W (seat 2) pays E, S, N 16 each; 查大叫: S (seat 1) pays E 4 and N 1."""
    f, rep = _mismatch(ex9_wrong_report(), get_ruleset("sichuan", {"cap": 4}))
    assert "reported [0, 0, 0, 0], computed [20, 11, -48, 17]" in f.message
    assert "huazhu [+16, +16, -48, +16] (sichuan.md §7 (查花猪))" in f.message
    assert "chajiao [+4, -5, 0, +1] (sichuan.md §7, §12.7 (查大叫))" in f.message
    rows = breakdown(rep)
    assert [(r.rule, r.payments) for r in rows] == [("huazhu", "2→0 16, 2→1 16, 2→3 16"), ("chajiao", "1→0 4, 1→3 1")]


def test_dispute_package_shows_the_settlement_by_rule():
    store = MemoryStore()
    store.append("sc-ex9", [ev.NewEvent.of(e.payload, id_seed=f"sc-ex9/{e.seq}") for e in ex9_wrong_report()])
    chain, events = verify_game_events(store, "sc-ex9")
    assert chain.ok and events is not None
    page = dispute_html(events, chain, audit_game(events))
    assert "the computed changes +20 +11 -48 +17 by rule" in page
    assert "查花猪" in page and "查大叫" in page and "docs/reference/rules/sichuan.md §7" in page
    assert "2→0 16, 2→1 16, 2→3 16" in page


def test_a_breakdown_too_long_for_one_line_points_to_the_pages():
    """Many rule items do not fit a one-line finding: it says how many, their sections, and
    where each payment is listed."""
    from replayer.itemized import ONE_LINE, settlement_words
    from replayer.state import Payment, ReportedScore, SettledPayment

    src = "docs/reference/rules/sichuan.md §3 (下雨 / 刮风: kong payments)"
    paid = tuple(SettledPayment(10 + k, "kong", Payment(k % 4, (k + 1) % 4, 1, f"rule item number {k}", src))
                 for k in range(12))
    rep = ReportedScore(seq=40, winner=None, score_changes=(0, 0, 0, 0), total=None, fans=(),
                        computed_changes=(0, 0, 0, 0), computed_total=None, agrees=False, computed_payments=paid)
    words = settlement_words(rep)
    assert len(words) < ONE_LINE
    assert words == ("12 rule items (sichuan.md §3 (下雨 / 刮风)): each payment with its rule is on "
                     "`paipu dispute` and the dashboard's Dispute page")
