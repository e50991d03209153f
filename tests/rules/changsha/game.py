"""Changsha hands as event logs for the replay tests.

:func:`scripted_hand` writes the events of one whole hand from a short script: the hands
that matter (the others are filled with tiles nobody needs), the turns in order, and the bird
tiles. The hand's ``hand_started`` carries the whole 108-tile wall the script implies (dealt
tiles, wall draws from the front, then the birds — the next tiles a draw would take —, the
untouched tiles, replacement draws from the back), so the replayer turns the same birds.

Turn steps (``seat``: 0..3; tiles as codes):

* ``("turn", seat, drawn, discard)`` — draw ``drawn`` (None: a filler tile, discarded at once
  when ``discard`` is None too) and discard; the dealer's first turn has ``drawn`` None and
  discards from the dealt hand;
* ``("discard", seat, tile)`` — discard without a draw (after a pung or chow);
  ``("draw", seat, tile)`` — a draw alone (before a kong or a self-drawn win);
* ``("pung", seat, tile)``, ``("chow", seat, "W1 W2 W3", tile)`` — claim the last discard;
* ``("kong", seat, kind, tile)`` then ``("replacement", seat, tile)`` — a kong and its 补张;
* ``("win", seat, tile, from_seat)`` — a win on the last discard (several in a row: 通炮);
* ``("selfwin", seat, tile)`` — draw ``tile`` and win on it; ``("rob", seat, tile, from)``;
* ``("pass", seat, claim)`` — a pass on the last discard;
* ``("opening", seat, [(kind, "tiles"), ...])`` — opening small wins declared (起手小胡);
* ``("reveal", seat, (d1, d2), "t1 t2")`` — 开杠: the tiles are placed in the wall at the stack
  the dice count from the tail at that moment;
* ``("decline", seat)`` — the 海底 declined.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from eventlog import events as ev
from eventlog import tiles as T


def new_game(options: dict[str, Any] | None = None) -> list[ev.Payload]:
    return [ev.GameStarted(ruleset="changsha", ruleset_options=options or {}, players=["A", "B", "C", "D"],
                           initial_scores=[0, 0, 0, 0])]


def as_events(payloads: list[ev.Payload], game_id: str = "cs") -> list[ev.NewEvent]:
    return [ev.NewEvent.of(p, id_seed=f"{game_id}/{i}") for i, p in enumerate(payloads)]


ALL = [T.code(i) for i in range(27) for _ in range(4)]
# filler tiles: terminals and honours-free odd tiles that make no sets with one another
_FILLER_ORDER = [f"{s}{r}" for r in (1, 9, 4, 7, 3, 6) for s in "WTB"] + [f"{s}{r}" for r in (2, 5, 8) for s in "WTB"]


def scripted_hand(*, start: int, hand_number: int, dealer: int, hands: dict[int, str], turns: list[tuple],
                  birds: list[str] = (), end: bool = True, turned: list[str] | None = None,
                  dice: list[int] = ()) -> list[ev.Payload]:
    """The payloads of one hand; ``start`` is the seq of its ``hand_started`` (discard_seq
    values are absolute). After a win the ``birds`` (or ``turned``: a 海底 win turns the 海底
    tile) are turned (``birds_turned``) before ``hand_ended``. Raises ValueError when the
    script needs a fifth copy of a tile."""
    fixed = {s: T.parse(t) for s, t in hands.items()}
    need = Counter(t for ts in fixed.values() for t in ts)
    for step in turns:
        if step[0] == "turn" and step[2] is not None or step[0] in ("selfwin", "replacement", "draw"):
            need[step[2]] += 1
        elif step[0] == "reveal":
            need.update(T.parse(step[3]))
    need.update(birds)
    pool = Counter(ALL)
    pool.subtract(need)
    if any(n < 0 for n in pool.values()):
        raise ValueError(f"the script needs more than four copies of {[t for t, n in pool.items() if n < 0]}")

    def filler() -> str:
        for t in _FILLER_ORDER:
            if pool[t] > 0:
                pool[t] -= 1
                return t
        raise ValueError("no filler tile left")

    dealt: dict[int, list[str]] = {}
    for s in range(4):
        size = 14 if s == dealer else 13
        dealt[s] = list(fixed.get(s, []))
        while len(dealt[s]) < size:
            dealt[s].append(filler())
    out: list[ev.Payload] = [ev.HandStarted(hand_number=hand_number, prevalent_wind="F1", dealer=dealer,
                                            dice=list(dice))]
    for k in range(4):
        s = (dealer + k) % 4
        out.append(ev.TilesDealt(seat=s, tiles=dealt[s]))
    front: list[str] = []
    back: list[str] = []
    pinned: dict[int, str] = {}  # absolute wall index -> tile (开杠 reveals)
    last_discard: int | None = None
    last_kong: int | None = None

    def seq() -> int:
        return start + len(out)

    for step in turns:
        kind = step[0]
        if kind == "turn":
            _, s, drawn, discard = step
            if drawn is not None or s != dealer or front or last_discard is not None:
                tile = drawn if drawn is not None else filler()
                front.append(tile)
                out.append(ev.TileDrawn(seat=s, tile=tile))
                discard = discard if discard is not None else tile
            elif discard is None:  # the dealer's first discard: the last (filler) dealt tile
                discard = dealt[dealer][-1]
            last_discard = seq()
            out.append(ev.TileDiscarded(seat=s, tile=discard))
        elif kind == "draw":
            front.append(step[2])
            out.append(ev.TileDrawn(seat=step[1], tile=step[2]))
        elif kind == "discard":
            last_discard = seq()
            out.append(ev.TileDiscarded(seat=step[1], tile=step[2]))
        elif kind == "pung":
            out.append(ev.Pung(seat=step[1], tile=step[2], discard_seq=last_discard))
        elif kind == "chow":
            out.append(ev.Chow(seat=step[1], tiles=T.parse(step[2]), claimed_tile=step[3], discard_seq=last_discard))
        elif kind == "kong":
            _, s, kk, tile = step
            last_kong = seq()
            out.append(ev.Kong(seat=s, kind=kk, tile=tile, discard_seq=last_discard if kk == "melded" else None))
        elif kind == "replacement":
            back.append(step[2])
            out.append(ev.TileDrawn(seat=step[1], tile=step[2], source="kong_replacement"))
        elif kind == "win":
            _, s, tile, frm = step
            out.append(ev.WinDeclared(seat=s, tile=tile, self_drawn=False, from_seat=frm, discard_seq=last_discard))
        elif kind == "rob":
            _, s, tile, frm = step
            out.append(ev.WinDeclared(seat=s, tile=tile, self_drawn=False, from_seat=frm, discard_seq=last_kong,
                                      robbing_kong=True))
        elif kind == "selfwin":
            front.append(step[2])
            out.append(ev.TileDrawn(seat=step[1], tile=step[2]))
            out.append(ev.WinDeclared(seat=step[1], tile=step[2], self_drawn=True))
        elif kind == "opening":
            out.append(ev.OpeningWinsDeclared(seat=step[1], wins=[ev.OpeningWin(kind=k, tiles=T.parse(t))
                                                                  for k, t in step[2]]))
        elif kind == "reveal":
            from replayer.rules.changsha.table import kaigang_stack

            _, s, dice, shown = step
            tiles = T.parse(shown)
            start_i = 53 + len(front)
            remaining = 108 - start_i - len(back) - len(pinned)
            for i, t in zip(kaigang_stack(remaining, sum(dice), len(back) % 2 == 1), tiles):
                pinned[start_i + i] = t
            last_discard = seq()  # wins on the revealed tiles name the reveal
            out.append(ev.KongTilesRevealed(seat=s, dice=list(dice), tiles=tiles))
        elif kind == "decline":
            out.append(ev.LastTileDeclined(seat=step[1]))
        elif kind == "pass":
            out.append(ev.Pass(seat=step[1], discard_seq=last_discard, claim=step[2]))
        elif kind == "exhaustive_draw":
            out.append(ev.ExhaustiveDraw())
        else:
            raise ValueError(f"unknown step {step!r}")
    rest = [t for t in sorted(pool.elements(), key=T.sort_key)]
    deal_order = [t for k in range(4) for t in dealt[(dealer + k) % 4]]
    slots: list[str | None] = [None] * 108
    for i, t in enumerate(deal_order + front + list(birds)):
        slots[i] = t
    for k, t in enumerate(back):
        slots[107 - k] = t
    for i, t in pinned.items():
        assert slots[i] is None, f"a 开杠 tile lands on a used wall position {i}"
        slots[i] = t
    it = iter(rest)
    wall = [t if t is not None else next(it) for t in slots]
    assert len(wall) == 108 and next(it, None) is None
    out[0] = out[0].model_copy(update={"wall": wall})
    won = any(isinstance(p, ev.WinDeclared) for p in out)
    shown = list(birds) if turned is None else list(turned)
    if end and won and shown:
        out.append(ev.BirdsTurned(tiles=shown))
    if end:
        out.append(ev.HandEnded(hand_number=hand_number))
    return out
