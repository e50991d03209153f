"""A reported Changsha hand score is the win's whole settlement, birds included
(docs/events.md ``score_reported``; changsha.md §5.1, and §7's worked examples, whose totals
include the birds): the replay compares a report with the win and its birds, and the
simulator reports them so."""

from __future__ import annotations

from eventlog import events as ev
from replayer.audit import audit_game
from replayer.replay import run
from replayer.simulate import SimulationConfig, simulate

from .game import as_events, new_game, scripted_hand


def _ex3_reported(changes: list[int], total: int = 1) -> list[ev.NewEvent]:
    """changsha.md §7 Ex 3: W (seat 2) self-draws a small win; the bird, rank 5, hits the dealer
    E, who pays 20 × 2 = 40, S and N 10 each — W +60, E −40, S −10, N −10. The source's
    report follows the birds, before ``hand_ended``."""
    payloads = new_game()
    hand = scripted_hand(start=len(payloads), hand_number=0, dealer=0,
                         hands={2: "W3 W4 W5 W8 W8 T1 T2 T3 T6 T6 T6 B7 B9"},
                         turns=[("turn", 0, None, None), ("turn", 1, None, None), ("selfwin", 2, "B8")],
                         birds=["B5"])
    assert isinstance(hand[-1], ev.HandEnded) and isinstance(hand[-2], ev.BirdsTurned)
    report = ev.ScoreReported(winner=2, score_changes=changes, total=total,
                              fans=[ev.ReportedFan(name="小胡", points=10, count=1)])
    return as_events(payloads + hand[:-1] + [report, hand[-1]])


def _mismatches(res) -> list[str]:
    return [f.message for f in res.findings if f.rule_id == "reported_score_mismatch"]


def test_example_3_reported_with_its_bird_agrees():
    res = run(_ex3_reported([-40, -10, 60, -10]), mode="audit")
    assert _mismatches(res) == []
    [rep] = res.state.reported
    assert rep.agrees and rep.computed_changes == (-40, -10, 60, -10)
    audit = audit_game(_ex3_reported([-40, -10, 60, -10]))
    [w] = audit.wins
    assert w.changes == (-40, -10, 60, -10) and w.score_agrees is True


def test_example_3_reported_without_its_bird_is_a_mismatch():
    # the bird on the dealer doubles E's payment: a report of E −20 leaves the bird out
    res = run(_ex3_reported([-20, -10, 40, -10]), mode="audit")
    (msg,) = _mismatches(res)
    assert "reported [-20, -10, 40, -10], computed [-40, -10, 60, -10]" in msg


def test_the_simulator_reports_the_birds():
    """Every simulated win's report equals the win's payments plus its birds' (§5.1) as the
    replay's score log has them (one seed's games, with birds that double), and the games
    replay with no finding."""
    doubled = 0
    for game in simulate(SimulationConfig(ruleset="changsha", seed=7, hands_per_game=3), 3):
        events = [ev.parse_event(line.decode()) for line in game.jsonl_lines()]
        res = run(events, mode="audit")
        assert res.findings == (), game.game_id
        start = 0
        for seq, e in enumerate(events):  # a game's events are numbered from 0 in order
            if e.type == "hand_started":
                start = seq
            elif e.type == "score_reported":
                settled = [0, 0, 0, 0]
                for entry in res.state.score_log:
                    if start < entry.seq < seq and entry.kind in ("win", "bird"):
                        settled = [a + b for a, b in zip(settled, entry.changes)]
                        doubled += entry.kind == "bird"
                assert list(e.payload.score_changes) == settled, (game.game_id, seq)
    assert doubled


def _tongpao_reported(report: ev.ScoreReported) -> list[ev.NewEvent]:
    """通炮 (§5.2): E (dealer) discards 5m, S and N both win on it; each is paid 20 by E (the
    dealer surcharge), the bird (rank 1 → the dealer E, the discarder) doubles both: E −80,
    S +40, N +40. ``report`` follows the birds."""
    payloads = new_game()
    hand = scripted_hand(start=len(payloads), hand_number=0, dealer=0,
                         hands={1: "W1 W2 W3 W5 T2 T3 T4 T7 T8 T9 B4 B5 B6",
                                3: "W4 W6 T5 T5 B1 B2 B3 B7 B8 B9 T6 T7 T8"},
                         turns=[("turn", 0, None, None), ("turn", 1, None, None), ("turn", 2, None, None),
                                ("turn", 3, None, None), ("turn", 0, "W5", "W5"), ("win", 1, "W5", 0),
                                ("win", 3, "W5", 0)], birds=["W1"])
    return as_events(payloads + hand[:-1] + [report, hand[-1]])


def test_several_winners_reported_together_birds_included():
    res = run(_tongpao_reported(ev.ScoreReported(score_changes=[-80, 40, 0, 40])), mode="audit")
    assert _mismatches(res) == []


def test_a_total_with_no_computed_counterpart_says_why_in_words():
    """A hand total reported with no winner named for two winners has nothing to compare
    with: the finding says so in words, never a Python ``None``."""
    res = run(_tongpao_reported(ev.ScoreReported(score_changes=[-80, 40, 0, 40], total=1)), mode="audit")
    (msg,) = _mismatches(res)
    assert "total reported 1, not computed (the hand has 2 legal wins and the report names no winner" in msg
    assert "None" not in msg and "none" not in msg


def test_a_report_for_a_seat_without_a_win_says_why_in_words():
    res = run(_tongpao_reported(ev.ScoreReported(winner=2, score_changes=[-80, 40, 0, 40], total=1)), mode="audit")
    (msg,) = _mismatches(res)
    assert msg == ("reported winner seat 2, but the replay has no legal win by that seat, so it computes no score "
                   "to compare (reported: score changes [-80, 40, 0, 40], total 1)")



def test_a_voided_win_gives_back_its_birds():
    """A referee voids Ex 3's win after its bird was turned (competition-style ruling,
    docs/events.md ``referee_ruling`` ``void_win``: the win's settlement is undone): the bird
    was part of that win's settlement (§5.1), so every score is back at 0, not at the bird's
    extra (E −20, W +20)."""
    payloads = new_game()
    hand = scripted_hand(start=len(payloads), hand_number=0, dealer=0,
                         hands={2: "W3 W4 W5 W8 W8 T1 T2 T3 T6 T6 T6 B7 B9"},
                         turns=[("turn", 0, None, None), ("turn", 1, None, None), ("selfwin", 2, "B8")],
                         birds=["B5"])
    win = len(payloads) + next(i for i, p in enumerate(hand) if isinstance(p, ev.WinDeclared))
    ruling = ev.RefereeRuling(ref_seq=win, ruling="the win is voided", kind="void_win")
    res = run(as_events(payloads + hand[:-1] + [ruling, hand[-1]]), mode="audit")
    assert res.state.scores == (0, 0, 0, 0)
    [w] = res.state.wins
    assert not w.legal and w.later_changes == (0, 0, 0, 0)
