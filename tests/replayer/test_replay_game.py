"""A whole game: 16 hands with the dealer passing every hand (seed 001), end of game,
dealer-rotation findings, determinism, and state_at against a full replay."""

from __future__ import annotations

import json

import pytest

from eventlog import events as ev
from replay_hands import dealer_win_game, legal_hand
from replayer.findings import RulesetError
from replayer.replay import apply, replay, run
from replayer.snapshots import SnapshotCache, state_at
from replayer.rules.base import get_ruleset
from replayer.state import TableState, to_dict

# Each hand: the dealer wins at once with 清龙 16 + 混一色 6 + 不求人 4 + 箭刻 2 + 单钓将 1 = 29;
# each other seat pays 8 + 29 = 37 (seed 001).
DEALER_HAND = 3 * 37


def test_sixteen_hands_dealer_passes_every_hand(mcr):
    g = dealer_win_game()
    result = run(g.events(), mode="strict", ruleset=mcr)
    st = result.state
    assert len(st.hands) == 16 and st.game_over
    assert [(h.dealer, h.prevalent_wind) for h in st.hands] == [
        (n % 4, ("F1", "F2", "F3", "F4")[n // 4]) for n in range(16)
    ]
    assert st.hands[0].changes == (DEALER_HAND, -37, -37, -37)
    assert st.scores == (0, 0, 0, 0)  # each seat dealt and won 4 times


def test_seat_winds_follow_the_dealer(mcr):
    g = dealer_win_game(2)
    steps = list(replay(g.events(), mode="strict", ruleset=mcr))
    second_hand = next(s.state for s in steps if s.state.hands_started == 2)
    assert [s.wind for s in second_hand.seats] == ["F4", "F1", "F2", "F3"]  # seat 1 deals: East


def test_a_seventeenth_hand_is_after_the_end_of_the_game(mcr):
    g = dealer_win_game(17)  # 7 events a hand after game_started
    result = run(g.events(), mode="audit", ruleset=mcr)
    assert [(f.rule_id, f.seq) for f in result.findings] == [("game_over", 16 * 7 + 1)]
    assert "seed 001" in result.findings[0].source


def test_wrong_dealer_is_a_dealer_rotation_finding(mcr):
    g = dealer_win_game(2, dealers=[0, 0])
    (f,) = run(g.events(), mode="audit", ruleset=mcr).findings
    assert f.rule_id == "dealer_rotation" and "expected dealer 1" in f.message


def test_dealer_continues_option(mcr_with):
    """dealer_rotation = dealer_continues (连庄, seed 003): a dealer who wins deals again."""
    g = dealer_win_game(3, dealers=[0, 0, 0], options={"dealer_rotation": "dealer_continues"})
    result = run(g.events(), mode="strict", ruleset=mcr_with(dealer_rotation="dealer_continues"))
    assert result.findings == () and result.state.scores == (3 * DEALER_HAND, -111, -111, -111)


def test_replay_is_deterministic(mcr):
    events = dealer_win_game(5).events()
    a = [(s.state, s.findings) for s in replay(events, ruleset=mcr)]
    b = [(s.state, s.findings) for s in replay(events, ruleset=mcr)]
    assert a == b
    ja = json.dumps(to_dict(a[-1][0]), sort_keys=True)
    jb = json.dumps(to_dict(b[-1][0]), sort_keys=True)
    assert ja == jb


@pytest.mark.parametrize("game", ["legal", "sixteen"])
def test_state_at_equals_full_replay(mcr, game):
    events = legal_hand()[0].events() if game == "legal" else dealer_win_game().events()
    full = [s.state for s in replay(events, ruleset=mcr)]
    cache = SnapshotCache(every=8)
    for seq in (len(events) - 1, 0, 7, 8, 9, len(events) // 2):
        assert state_at(events, seq, ruleset=mcr, cache=cache) == full[seq]
    for seq in range(len(events)):  # every seq, now with cached snapshots
        assert state_at(events, seq, ruleset=mcr, cache=cache) == full[seq]
    assert cache.hits > 0


def test_state_at_unknown_seq(mcr):
    with pytest.raises(KeyError):
        state_at(legal_hand()[0].events(), 999, ruleset=mcr)


def test_ruleset_from_game_started():
    """Without an override the ruleset and its options come from game_started."""
    g = dealer_win_game(1, options={"multiple_winners": "all"})
    st, _ = apply(TableState(), g.events()[0])
    assert st.ruleset_id == "mcr" and dict(st.ruleset_options) == {"multiple_winners": "all"}


def test_unknown_ruleset_and_bad_options():
    with pytest.raises(RulesetError):
        get_ruleset("no_such_ruleset")
    with pytest.raises(RulesetError):
        get_ruleset("mcr", {"multiple_winners": "some"})
    with pytest.raises(ValueError, match="unknown ruleset 'nope'"):  # a new game is refused where it is made
        ev.GameStarted(ruleset="nope", players=["a", "b", "c", "d"])
    stored = ev.parse_payload("game_started", {"ruleset": "nope", "players": ["a", "b", "c", "d"]}, stored=True)
    with pytest.raises(RulesetError):  # one stored before that check cannot be replayed
        apply(TableState(), ev.NewEvent.of(stored))


def test_mcr_is_a_ruleset_plugin():
    from replayer.rules.base import Ruleset, get_spec

    rs = get_ruleset("mcr")
    assert isinstance(rs, Ruleset)
    assert get_spec("mcr").id == "mcr"
    assert rs.play.total_tiles == 144 and rs.play.flowers  # seed 001: 144 tiles with 8 flowers
    assert get_ruleset("mcr", {"flowers": False}).play.total_tiles == 136
    assert rs.play.priority("win") > rs.play.priority("pung") == rs.play.priority("kong") > rs.play.priority("chow")
