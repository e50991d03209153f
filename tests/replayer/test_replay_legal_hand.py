"""A legal MCR hand (chow, pung, concealed / melded / added kongs, flowers in the deal and
in play, a self-drawn win after a flower replacement) replayed in strict mode, with the
exact final state worked out by hand from the script in replay_hands.legal_hand."""

from __future__ import annotations

import json

import pytest

from eventlog import events as ev
from replay_hands import legal_hand
from eventlog import tiles as T
from replayer.replay import replay, run
from replayer.state import DeclaredMeld, Discard, to_dict


def _sorted(text: str) -> list[str]:
    return T.sort_tiles(T.parse(text))


@pytest.mark.parametrize("wall", [False, True], ids=["no-wall", "known-wall"])
def test_legal_hand_strict_final_state(mcr, wall):
    g, s = legal_hand(wall=wall)
    g.end(0)
    g.add(ev.GameEnded(final_scores=[-35, 105, -35, -35]))
    result = run(g.events(), mode="strict", ruleset=mcr)
    st = result.state
    assert result.findings == ()
    assert st.phase == "game_over"
    # 144 tiles − 53 dealt − 12 draws (4 flower/kong replacements … see the script)
    assert st.wall_remaining == 79
    if wall:
        assert st.wall is not None and len(st.wall) == 79

    s0, s1, s2, s3 = st.seats
    # seat 0: dealt 14, H1→F4, −W3, +B7, −T5, +T1, −J3
    assert T.sort_tiles(s0.tiles) == _sorted("T1 T1 T1 B1 B2 B3 B4 B5 B6 B7 F4 F4 F4")
    assert s0.melds == ()
    assert s0.flowers == ("H1",)
    assert s0.discards == (Discard(s["d_w3"], "W3", 1), Discard(s["d_t5"], "T5", 3),
                           Discard(s["d_j3"], "J3", None))
    # seat 1: chow W1W2W3 from seat 0, pung J1 from seat 3, wins on F2 (kept in hand)
    assert T.sort_tiles(s1.tiles) == _sorted("W4 W5 W6 W7 W8 W9 F2 F2")
    assert s1.melds == (
        DeclaredMeld("chow", ("W1", "W2", "W3"), s["d_w3"] + 1, "W3", 0, s["d_w3"]),
        DeclaredMeld("pung", ("J1", "J1", "J1"), s["d_j1"] + 1, "J1", 3, s["d_j1"]),
    )
    assert s1.flowers == ("H3",)
    assert [(d.tile, d.claimed_by) for d in s1.discards] == [("T9", None), ("B8", None)]
    # seat 2: concealed kong B9, flower H5
    assert T.sort_tiles(s2.tiles) == _sorted("T2 T3 T4 T6 T7 T8 B7 B7 F3 F3")
    assert [(m.kind, m.tiles[0], m.kong_kind, m.from_seat) for m in s2.melds] == [("kong", "B9", "concealed", None)]
    assert s2.flowers == ("H5",)
    assert [(d.tile, d.claimed_by) for d in s2.discards] == [("T9", None), ("J2", 3)]
    # seat 3: pung J2 (from seat 2) promoted to an added kong, melded kong T5 (from seat 0)
    assert T.sort_tiles(s3.tiles) == _sorted("T6 T7 T8 B2 B3 F1 F1")
    assert [(m.kind, m.tiles, m.kong_kind, m.from_seat, m.added_seq) for m in s3.melds] == [
        ("kong", ("J2",) * 4, "added", 2, s["k_j2"]),
        ("kong", ("T5",) * 4, "melded", 0, None),
    ]
    assert [(d.tile, d.claimed_by) for d in s3.discards] == [("J1", 1), ("W9", None), ("W2", None)]
    assert [x.hand_size for x in st.seats] == [13, 14, 13, 13]

    # The win: 清龙 16 + 混一色 6 + 箭刻 2 + 单钓将 1 + 自摸 1 + 1 flower = 27 (seed 001 fan
    # table values); seed 001 self-draw: each other seat pays 8 + 27 = 35.
    (win,) = st.wins
    assert win.legal and win.points == 27 and win.score.total_without_flowers == 26
    sit = win.situation
    assert sit.hand == tuple(_sorted("W4 W5 W6 W7 W8 W9 F2")) and sit.win_tile == "F2"
    assert [(m.type, m.claimed_from) for m in sit.melds] == [("chow", 1), ("pung", 2)]
    assert (sit.self_drawn, sit.kong_related, sit.last_of_wall, sit.last_tile) == (True, False, False, False)
    assert (sit.seat_wind, sit.prevalent_wind, sit.flowers) == ("S", "E", 1)
    assert st.scores == (-35, 105, -35, -35)
    assert st.hands[0].changes == (-35, 105, -35, -35) and st.hands[0].winners == (1,)
    json.dumps(to_dict(st))  # the JSON form is plain data


def test_state_after_each_event_keeps_tile_invariants(mcr):
    """Invariants checked after every event: tiles held + melded + discarded + flowers
    + left in the wall = 144, and no seat ever shows a negative count."""
    g, _ = legal_hand()
    for step in replay(g.events(), mode="strict", ruleset=mcr):
        st = step.state
        if st.phase in ("pregame", "idle"):
            continue
        out = 0
        for seat in st.seats:
            assert min(seat.counts) >= 0
            out += seat.concealed_size + len(seat.flowers)
            out += sum(len(m.tiles) for m in seat.melds)
            out += sum(1 for d in seat.discards if d.claimed_by is None)
        # a discard won on stays in the river and in the winner's hand count once
        assert out + st.wall_remaining == 144, step.event.seq


def test_kong_replacement_win_is_kong_related(mcr):
    """杠上开花: a self-drawn win on the replacement of a kong sets kong_related."""
    g, s = legal_hand()
    events = g.truncated(s["k_j2"] + 1, ev.TileDrawn(seat=3, tile="T8", source="kong_replacement")).events()
    st = run(events, mode="strict", ruleset=mcr).state
    assert st.last_draw is not None and st.last_draw.after_kong and st.last_draw.seat == 3


@pytest.mark.parametrize("wall", [False, True], ids=["no-wall", "known-wall"])
def test_hidden_draw(mcr, wall):
    """A draw whose tile the log hides (tile null): without a wall the seat holds one
    unknown tile until it is played; with the wall, the wall says which tile it was."""
    g, s = legal_hand(wall=wall)
    full = g._with_walls()
    draw_w2 = s["d_j1"] - 1
    assert full[draw_w2] == ev.TileDrawn(seat=3, tile="W2")
    hidden = g.truncated(draw_w2, ev.TileDrawn(seat=3, tile=None), *full[draw_w2 + 1:])
    steps = list(replay(hidden.events(), mode="strict", ruleset=mcr))
    after_draw = steps[draw_w2].state
    if wall:
        assert after_draw.seats[3].hidden == 0 and after_draw.last_draw.tile == "W2"
    else:
        assert after_draw.seats[3].hidden == 1 and after_draw.last_draw.tile is None
    final = steps[-1].state
    assert final.seats[3].hidden == 0  # W2 was discarded out of the unknown tile
    assert final.scores == (-35, 105, -35, -35)
