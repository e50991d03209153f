"""Simulated Sichuan games (paipu simulate --ruleset sichuan: bots pick a void suit and play
on after wins) replay with no finding, zero-sum per settlement and per component, seats out
never pay, byte-identical replays — under the default options and each non-default option of
docs/reference/rules/sichuan.md §9 (tests/rules/sichuan/sim_checks.py). The long run (1,000
default games, 200 per option) is scripts/sichuan_games.py."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replayer.simulate.engine import SimulationConfig, simulate
from tests.rules.sichuan.sim_checks import check_game

NON_DEFAULT = [
    {"mode": "standard"}, {"cap": 3}, {"zimo_bonus": "jiadi"}, {"zimo_bonus": "jiafan"},
    {"qianggang_fan": 0}, {"tianhu_stack": True}, {"tuishui": True}, {"hujiao_zhuanyi": True},
    {"huazhu_fan": 3}, {"draw_dealer": "next"}, {"declarations": True},
    {"gangshanghua_mode": "plus2_no_gen"}, {"haidi": True}, {"jingoudiao": True}, {"dijin": 2},
    {"dingque_declared": True}, {"dingque_declared": True, "must_discard_void_first": True},
    {"dingque_declared": True, "void_suit_melds": "allowed"}, {"xiayu": False},
]


def run_games(options: dict, games: int, seed: str = "t") -> Counter:
    stats: Counter = Counter()
    cfg = SimulationConfig(ruleset="sichuan", options=options, seed=seed, hands_per_game=4)
    for game in simulate(cfg, games):
        assert check_game(game, stats) == []
    return stats


def test_default_games_exercise_the_blood_battle():
    stats = run_games({}, 12)
    assert stats["hands with 3 winners"] > 0 and stats["component kong"] > 0
    assert stats["component win"] > 0


@pytest.mark.parametrize("options", NON_DEFAULT, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_non_default_options(options):
    run_games(options, 2)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), cap=st.sampled_from([None, 4]), tuishui=st.booleans(),
       hujiao=st.booleans(), bots=st.sampled_from(["greedy", "random"]))
def test_property_any_seed(seed, cap, tuishui, hujiao, bots):
    opts = {"tuishui": tuishui, "hujiao_zhuanyi": hujiao} | ({"cap": cap} if cap else {})
    cfg = SimulationConfig(ruleset="sichuan", options=opts, seed=seed, hands_per_game=2, bots=(bots,))
    for game in simulate(cfg, 1):
        assert check_game(game) == []
