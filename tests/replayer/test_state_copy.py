"""The replayer's fast copy-on-write (replayer.state.replace / fast_init) must behave exactly
like dataclasses.replace on the frozen state classes."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle

import pytest

from replayer import state as S


def _seat() -> S.SeatState:
    return S.SeatState(counts=(1,) + (0,) * 33, tiles=("W1",), score=5, wind="F1")


def test_replace_equals_dataclasses_replace_and_leaves_the_original():
    table = S.TableState(seq=3, game_id="g", players=("a", "b", "c", "d"))
    seat = _seat()
    new = S.replace(table, seq=4, seats=(seat, seat, seat, seat))
    assert new == dataclasses.replace(table, seq=4, seats=(seat, seat, seat, seat))
    assert table.seq == 3 and table.seats[0] == S.SeatState()
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.seq = 9  # type: ignore[misc]


def test_replace_refuses_unknown_fields():
    with pytest.raises(TypeError):
        S.replace(S.TableState(), no_such_field=1)


def test_settlement_keeps_its_zero_sum_check():
    s = S.Settlement(changes=(1, -1, 0, 0))
    with pytest.raises(AssertionError):
        S.replace(s, changes=(1, 1, 0, 0))


def test_fast_init_keeps_signature_pickle_and_deepcopy():
    sig = inspect.signature(S.SeatState)
    assert list(sig.parameters)[:3] == ["counts", "tiles", "hidden"]
    seat = _seat()
    assert pickle.loads(pickle.dumps(seat)) == seat
    assert copy.deepcopy(seat) == seat
    assert S.SeatState() == S.SeatState(counts=S.EMPTY_COUNTS)
