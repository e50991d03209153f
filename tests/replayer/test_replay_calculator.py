"""The replayer with the project's own fan calculator (the default MCR scorer): the same
hands as the other replayer tests must score the same totals (worked out there from the
fan table) and settle the same way."""

from __future__ import annotations

import pytest

from replay_hands import dealer_win_game, legal_hand, robbing_hand, two_winners_hand
from replayer.replay import run
from replayer.rules.base import get_ruleset

pytest.importorskip("replayer.rules.mcr.fans.calculator")


@pytest.mark.parametrize(
    "name,build,points,scores",
    [
        ("legal", lambda: legal_hand()[0], [27], (-35, 105, -35, -35)),
        ("robbing", lambda: robbing_hand()[0], [30], (-8, -8, -38, 54)),
        ("two-winners", lambda: two_winners_hand({"multiple_winners": "all"})[0], [22, 20], (-58, 38, -16, 36)),
        ("dealer-win", lambda: dealer_win_game(1), [29], (111, -37, -37, -37)),
    ],
)
def test_default_scorer(name, build, points, scores):
    result = run(build().events(), mode="strict")  # ruleset from game_started
    assert [w.points for w in result.state.wins] == points
    assert result.state.scores == scores
    assert result.findings == ()


def test_fan_options_reach_the_calculator():
    rs = get_ruleset("mcr", {"concealed_and_melded_kong": "one_plus_two", "multiple_winners": "all"})
    assert rs.fan_options.concealed_and_melded_kong == "one_plus_two"
    assert rs.options.multiple_winners == "all"
