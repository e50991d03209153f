"""A hand that goes on after a win (issue 14 items 1 and 7), driven by the test ruleset
``blood_test`` (tests/replayer/continuing_ruleset.py): three wins in one hand, seats that
have won skipped, an out seat trying to draw, the hand ending at the third winner, an
exhaustive draw with two seats out, and how many seats may win on one discard.

Expected values come from the rules the test ruleset states (PlayRules.hand_end,
winners_per_discard; "play resumes from the seat after the last winner in turn order from
the discarder": shared/rules/sichuan.md §4), not from the replayer."""

from __future__ import annotations

import continuing_ruleset  # noqa: F401 - registers blood_test
import pytest
from replay_builder import GameBuilder

from eventlog import events as ev
from eventlog.seats import next_seat, seats_after
from replayer.actions import legal_actions
from replayer.findings import ReplayError
from replayer.replay import replay, run
from replayer.rules.base import get_ruleset
from replayer.simulate.engine import SimulationConfig, simulate_game

# Seats 1 and 2 both wait on B9 alone, seat 3 on F1 alone; the dealer discards B9.
DEALER = "W5 W5 W6 W6 W7 W7 W8 W8 T5 T6 T7 B5 B6 B9"
WAIT_B9_1 = "T1 T1 T1 T2 T2 T2 T3 T3 T3 T4 T4 T4 B9"
WAIT_B9_2 = "B1 B1 B1 B2 B2 B2 B3 B3 B3 B4 B4 B4 B9"
WAIT_F1 = "W1 W1 W1 W2 W2 W2 W3 W3 W3 W4 W4 W4 F1"


def _start(options: dict | None = None) -> tuple[GameBuilder, int]:
    g = GameBuilder("blood", ruleset="blood_test", options=options or {})
    g.hand(0, dealer=0)
    for seat, tiles in enumerate((DEALER, WAIT_B9_1, WAIT_B9_2, WAIT_F1)):
        g.deal(seat, tiles)
    return g, g.discard(0, "B9")


def test_next_seat_skips_seats_out():
    out_12 = (True, False, False, True)
    assert [next_seat(s) for s in range(4)] == [1, 2, 3, 0]
    assert next_seat(0, out_12) == 3 and next_seat(3, out_12) == 0
    assert next_seat(1, out_12) == 3  # from a seat that is out itself
    assert seats_after(0, out_12) == (3,)
    assert next_seat(2, (False, False, True, False)) == 2  # nobody else left


def test_three_wins_in_one_hand_end_at_the_third():
    g, d = _start()
    g.win(1, "B9", from_seat=0, dseq=d)
    g.win(2, "B9", from_seat=0, dseq=d)
    g.draw(3, "F1")
    g.win(3, "F1")
    g.end(0)
    steps = list(replay(g.events(), mode="strict"))
    after_two = steps[d + 2].state
    assert after_two.in_hand == (True, False, False, True)
    assert after_two.phase == "claims" and after_two.turn == 3  # seats 1 and 2 skipped
    assert legal_actions(after_two, get_ruleset("blood_test")) == []  # the discard's claims are settled
    last = steps[-2].state
    assert last.phase == "hand_over"
    assert [w.seat for w in last.wins if w.legal] == [1, 2, 3]
    # 1 + 1 from the discarder; the self-drawn win is paid by the only other seat still in (0)
    assert last.scores == (-3, 1, 1, 1)
    assert steps[-1].state.hands[0].winners == (1, 2, 3)


def test_play_resumes_after_the_last_winner_and_skips_out_seats():
    g, d = _start()
    g.win(1, "B9", from_seat=0, dseq=d)
    g.win(2, "B9", from_seat=0, dseq=d)
    g.draw(3, "W9")
    d2 = g.discard(3, "W9")
    g.draw(0, "T9")
    g.discard(0, "T9")
    states = [s.state for s in replay(g.events(), mode="strict")]
    assert states[d2].turn == 0  # after seat 3 comes seat 0: seats 1, 2 are out
    assert states[-1].turn == 3 and states[-1].in_hand == (True, False, False, True)


def test_a_seat_that_is_out_trying_to_draw():
    g, d = _start()
    g.win(1, "B9", from_seat=0, dseq=d)
    g.win(2, "B9", from_seat=0, dseq=d)
    g.draw(1, "W9")
    findings = run(g.events()).findings
    out = [f for f in findings if f.rule_id == "seat_out_of_hand"]
    assert len(out) == 1 and out[0].seat == 1 and out[0].seq == d + 3
    assert "continuing_ruleset.py" in out[0].source  # the ruleset names the rule's source
    with pytest.raises(ReplayError) as e:
        run(g.events(), mode="strict")
    assert e.value.finding.rule_id == "seat_out_of_hand"


def test_exhaustive_draw_with_two_seats_out():
    # 136 − 53 dealt = 83 left; a dead wall of 79 leaves exactly 4 draws
    g, d = _start({"dead_wall": 79})
    g.win(1, "B9", from_seat=0, dseq=d)
    g.win(2, "B9", from_seat=0, dseq=d)
    for seat, tile in ((3, "W9"), (0, "W9"), (3, "T9"), (0, "T9")):
        g.draw(seat, tile)
        g.discard(seat, tile)
    g.add(ev.ExhaustiveDraw())
    g.end(0)
    result = run(g.events(), mode="strict")
    hand = result.state.hands[0]
    assert hand.exhaustive_draw and hand.winners == (1, 2)
    assert result.state.scores == (-2, 1, 1, 0)


def test_hand_ends_after_n_winners():
    g, d = _start({"hand_end": "winners", "hand_end_winners": 2})
    g.win(1, "B9", from_seat=0, dseq=d)
    g.win(2, "B9", from_seat=0, dseq=d)
    g.end(0)
    result = run(g.events(), mode="strict")
    assert not result.findings and result.state.hands[0].winners == (1, 2)


@pytest.mark.parametrize(("per_discard", "rule"), [(1, "one_winner_per_discard"), (2, None)])
def test_winners_per_discard(per_discard, rule):
    g, d = _start({"winners_per_discard": per_discard})
    g.win(1, "B9", from_seat=0, dseq=d)
    g.win(2, "B9", from_seat=0, dseq=d)
    findings = run(g.events()).findings
    assert [f.rule_id for f in findings] == ([rule] if rule else [])


def test_three_winners_when_two_are_allowed():
    g, d = _start({"winners_per_discard": 2})
    g.win(1, "B9", from_seat=0, dseq=d)
    g.win(2, "B9", from_seat=0, dseq=d)
    g.win(3, "B9", from_seat=0, dseq=d)
    assert "too_many_winners" in [f.rule_id for f in run(g.events()).findings]


def test_simulated_continuing_hands_replay_strictly():
    """The simulator plays the test ruleset's hands to their end in strict mode: every hand
    ends at the third winner or at an exhaustive draw, with its winners out."""
    cfg = SimulationConfig(ruleset="blood_test", options={"hands": 4}, seed=7, claim_probability=0.0)
    rs = get_ruleset("blood_test", {"hands": 4})
    ends = []
    for game in range(3):
        sim = simulate_game(cfg, game, rs)
        for h in sim.state.hands:
            assert len(h.winners) == 3 or h.exhaustive_draw
            ends.append((len(h.winners), h.exhaustive_draw))
        assert sum(sim.state.scores) == 0
    assert any(n == 3 for n, _ in ends)


def test_kong_takes_the_rulesets_number_of_replacements():
    """PlayRules.kong_replacements = 2 (Changsha 开杠 takes two tiles): after the first
    replacement draw a second is still due; a third is unexpected. (What happens to the
    extra tile — Changsha exposes both — is the ruleset's own event.)"""
    g, d = _start({"kong_replacements": 2})
    g.payloads = g.payloads[:-1]  # no B9 discard: the dealer konges instead
    g.payloads[2] = ev.TilesDealt(seat=0, tiles="W5 W5 W5 W5 W7 W7 W8 W8 T5 T6 T7 B5 B6 B9".split())
    k = g.kong(0, "concealed", "W5")
    g.draw(0, "T9", "kong_replacement")
    g.draw(0, "T8", "kong_replacement")
    steps = [s.state for s in replay(g.events(), mode="strict")]
    assert steps[k + 1].phase == "replacement" and steps[k + 1].seats[0].replacements_due == 1
    assert steps[k + 2].phase == "discard" and steps[k + 2].seats[0].replacements_due == 0
    g.draw(0, "T7", "kong_replacement")
    assert "unexpected_replacement" in [f.rule_id for f in run(g.events()).findings]


def test_flowers_are_the_rulesets_data():
    """PlayRules.flower_tiles: 发 (J2) set aside and replaced like a flower (Jiujiang);
    a tile that is not one of the ruleset's flowers is not_a_flower."""
    g, d = _start({"flower_tiles": ["J2"]})
    g.payloads = g.payloads[:-1]
    g.payloads[2] = ev.TilesDealt(seat=0, tiles="W5 W5 W6 W6 W7 W7 W8 W8 T5 T6 T7 B5 J2 B9".split())
    g.add(ev.FlowerReplaced(seat=0, flower="J2"))
    g.draw(0, "B6", "flower_replacement")
    g.discard(0, "B9")
    result = run(g.events(), mode="strict")
    assert result.state.seats[0].flowers == ("J2",)
    g.add(ev.FlowerReplaced(seat=1, flower="T1"))
    assert "not_a_flower" in [f.rule_id for f in run(g.events()).findings]
