"""Nanchang hands as event logs for the replay tests.

:func:`hand_from_vector` turns a meld-free settlement vector (tests/data/nanchang) into the
events of a whole hand that ends in that situation: each player is dealt their final
concealed tiles (the dealer also their first discard), every later draw is discarded at once
in turn order from the dealer, and the hand ends with the vector's win. The replayed
settlement must then equal the vector's expected totals."""

from __future__ import annotations

from typing import Any

from eventlog import events as ev
from eventlog import tiles as T


def new_game(options: dict[str, Any] | None = None) -> list[ev.Payload]:
    return [ev.GameStarted(ruleset="nanchang", ruleset_options=options or {}, players=["A", "B", "C", "D"],
                           initial_scores=[0, 0, 0, 0])]


def as_events(payloads: list[ev.Payload], game_id: str = "nc") -> list[ev.NewEvent]:
    return [ev.NewEvent.of(p, id_seed=f"{game_id}/{i}") for i, p in enumerate(payloads)]


def hand_from_vector(case: dict[str, Any], hand_number: int = 1, dice: tuple[int, int] = (2, 3)) -> list[ev.Payload]:
    """The events of one hand (hand_started … hand_ended) ending in ``case``'s situation.
    Raises ValueError when the case has melds or its discards do not fit turn order."""
    dealer = case["dealer"]
    players = case["players"]
    out = case["outcome"]
    if any(p["melds"] for p in players) or out["type"] != "win" or out.get("robbed_from") is not None \
            or out.get("kong_replacement") or out.get("heavenly") or out.get("earthly"):
        raise ValueError(f"{case['id']}: not a meld-free plain win")
    winner, discarder = out["winner"], out["discarder"]
    rivers = [list(p["unclaimed_discards"]) for p in players]
    if discarder is not None:
        rivers[discarder].append(out["win_tile"])
        last = discarder
    else:
        last = (winner - 1) % 4
    order: list[int] = []
    pos = [0, 0, 0, 0]
    seat = dealer
    while True:
        if pos[seat] >= len(rivers[seat]):
            raise ValueError(f"{case['id']}: discards do not fit turn order")
        order.append(seat)
        pos[seat] += 1
        if seat == last and all(pos[s] == len(rivers[s]) for s in range(4)):
            break
        seat = (seat + 1) % 4
    hp: list[ev.Payload] = [ev.HandStarted(hand_number=hand_number, prevalent_wind="F1", dealer=dealer)]
    for s in range(4):
        tiles = list(players[s]["concealed"]) + ([rivers[s][0]] if s == dealer else [])
        hp.append(ev.TilesDealt(seat=s, tiles=tiles))
    if case.get("indicator") is not None:  # no indicator without jing (jiangxi jing_mode = none)
        hp.append(ev.WildcardIndicatorRevealed(indicator=case["indicator"], dice=list(dice)))
    seq = len(hp)  # index of the next payload within this hand
    k = [0, 0, 0, 0]
    last_discard = None
    for t, s in enumerate(order):
        tile = rivers[s][k[s]]
        if not (s == dealer and k[s] == 0 and t == 0):
            hp.append(ev.TileDrawn(seat=s, tile=tile))
        hp.append(_discard(s, tile))
        last_discard = len(hp) - 1
        k[s] += 1
    base = None  # discard_seq is filled in by the caller's offset
    if discarder is None:
        hp.append(ev.TileDrawn(seat=winner, tile=out["win_tile"]))
        hp.append(ev.WinDeclared(seat=winner, tile=out["win_tile"], self_drawn=True))
    else:
        hp.append(ev.WinDeclared(seat=winner, tile=out["win_tile"], self_drawn=False, from_seat=discarder,
                                 discard_seq=last_discard))  # relative; see with_offsets
    hp.append(ev.HandEnded(hand_number=hand_number))
    del base, seq
    return hp


def _discard(seat: int, tile: str) -> ev.Payload:
    """A discard; a flower is a 宝 flown (鹰潭 flower_bao: Nanchang's own ``nanchang.bao_flown``)."""
    if T.is_flower(tile):
        from replayer.rules.nanchang.events import BaoFlown

        return BaoFlown(seat=seat, tile=tile)
    return ev.TileDiscarded(seat=seat, tile=tile)


def with_offsets(payloads: list[ev.Payload]) -> list[ev.Payload]:
    """Make the relative ``discard_seq`` of each hand's win absolute (seq = list index)."""
    out: list[ev.Payload] = []
    start = 0
    for i, p in enumerate(payloads):
        if isinstance(p, ev.HandStarted):
            start = i
        if isinstance(p, ev.WinDeclared) and p.discard_seq is not None:
            p = p.model_copy(update={"discard_seq": p.discard_seq + start})
        out.append(p)
    return out
