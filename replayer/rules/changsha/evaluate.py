"""Changsha hand evaluation (docs/reference/rules/changsha.md §3): which opening small wins a dealt
hand holds and whether a declaration proves one (§3.2), and a win's units — the small win with
its 2-5-8 pair (§3.1) or the big wins (§3.3), with what lifts the pair rule (§8.3).

Shapes use the shared decomposition (replayer/rules/shared/decompose.py) with
``pair_tiles=PAIR_258`` for the 2-5-8 pair (将) and the shared seven-pairs test.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from eventlog import tiles as _tiles
from eventlog.errors import PaipuError
from replayer.rules.changsha.options import ChangshaOptions
from replayer.rules.changsha.units import (
    OPENING_UNITS,
    UNIT_BY_ID,
    UnitKind,
)
from replayer.rules.shared import decompose as _dec
from replayer.rules.shared import shapes as _shapes
from replayer.state import DeclaredMeld

__all__ = [
    "DeclarationError",
    "Unit",
    "WinContextKind",
    "WinEvaluation",
    "WinInput",
    "check_declaration",
    "counts_of",
    "evaluate_win",
    "is_258",
    "opening_holdings",
]

WinContextKind = Literal["plain", "heavenly", "earthly", "haidi", "kaigang", "robbed_kong"]
OpeningKind = Literal["four_identical", "no_258", "missing_suit", "two_pungs"]


def counts_of(tiles: Sequence[str]) -> tuple[int, ...]:
    """34-count vector of suited/honor tiles."""
    c = [0] * 34
    for t in tiles:
        c[_tiles.index(t)] += 1
    return tuple(c)


def is_258(tile: str) -> bool:
    """A suited tile of rank 2, 5 or 8 (将 tiles)."""
    return not _tiles.is_honor(tile) and not _tiles.is_flower(tile) and _tiles.rank_of(tile) in (2, 5, 8)


@dataclass(frozen=True)
class Unit:
    """One scoring unit of a win or an opening declaration: ``id`` (see
    :mod:`replayer.rules.changsha.units`), ``count`` (units it is worth; 豪华七小对 =
    ``haohua_units``), ``tiles`` (the tiles it counts). ``kind`` gives the English and Chinese
    names and the rule source."""

    id: str
    count: int
    tiles: tuple[str, ...]

    @property
    def kind(self) -> UnitKind:
        return UNIT_BY_ID[self.id]

    @property
    def name(self) -> str:
        return self.kind.name

    @property
    def chinese(self) -> str:
        return self.kind.chinese


@dataclass(frozen=True)
class WinInput:
    """A declared win: ``concealed`` (without the win tile), ``melds``, ``win_tile``,
    ``self_drawn``, and the ``context`` (§3.3: ``plain`` — any ordinary discard or
    self-draw, a 补张 replacement included; ``heavenly`` 天胡; ``earthly`` 地胡; ``haidi`` the
    海底 tile; ``kaigang`` a tile revealed by a 开杠; ``robbed_kong`` 抢杠). ``earthly_too``: the
    win is also 地胡 (a tile of the dealer's 开杠 before his first discard, option
    ``kaigang_reveal_earthly``)."""

    concealed: tuple[str, ...]
    melds: tuple[DeclaredMeld, ...]
    win_tile: str
    self_drawn: bool
    context: WinContextKind = "plain"
    earthly_too: bool = False


@dataclass(frozen=True)
class WinEvaluation:
    """The verdict on a declared win: ``legal`` (else ``rule_id``/``message`` say why, citing
    the spec), ``category`` (``small`` | ``big``), ``units`` in canonical order,
    ``unit_count`` (their counts added: small units 1X each, big units 6X each, §5)."""

    legal: bool
    category: Literal["small", "big"] | None = None
    units: tuple[Unit, ...] = ()
    rule_id: str | None = None
    message: str = ""

    @property
    def unit_count(self) -> int:
        return sum(u.count for u in self.units)


def _not_a_win(rule_id: str, message: str) -> WinEvaluation:
    return WinEvaluation(False, rule_id=rule_id, message=message)


def evaluate_win(win: WinInput, options: ChangshaOptions) -> WinEvaluation:
    """Units of a declared win (changsha.md §3.1, §3.3, §8.2–8.8). Rule ids of a false win:
    ``wrong_tile_count`` (concealed is not 13 − 3 × melds), ``not_a_winning_hand`` (no
    winning shape, or a flower in the hand: §1), ``pair_not_258`` (a standard shape whose pair is not 2, 5 or 8 and no
    shape big win, §3.1, §8.3)."""
    concealed = tuple(win.concealed)
    if len(concealed) != 13 - 3 * len(win.melds):
        return _not_a_win("wrong_tile_count",
                          f"{len(concealed)} concealed tiles with {len(win.melds)} sets; expected "
                          f"{13 - 3 * len(win.melds)} (docs/reference/rules/changsha.md §3)")
    hand = concealed + (win.win_tile,)
    flowers = [t for t in hand if _tiles.is_flower(t)]
    if flowers:  # a damaged log (the replayer's tile accounting has its finding)
        return _not_a_win("not_a_winning_hand", f"the hand holds {' '.join(flowers)}: Changsha has no flowers "
                                                "(docs/reference/rules/changsha.md §1)")
    c = counts_of(hand)
    meld_tiles = tuple(t for m in win.melds for t in m.tiles)
    every = hand + meld_tiles
    n_melds = len(win.melds)

    regular = _dec.is_complete(c)
    regular_258 = regular and _dec.is_complete(c, pair_tiles=_dec.PAIR_258)
    shape: list[Unit] = []
    if regular and all(m.kind != "chow" for m in win.melds) and _dec.can_complete(c, chows=False):
        shape.append(Unit("all_pungs", 1, every))
    if all(is_258(t) for t in every):
        shape.append(Unit("all_258", 1, every))
    seven = n_melds == 0 and _shapes.is_seven_pairs(c)
    luxury = seven and any(n == 4 for n in c)
    suits = {_tiles.suit_of(t) for t in every}
    if len(suits) == 1 and (regular or seven or any(u.id == "all_258" for u in shape)):
        shape.append(Unit("full_flush", 1, every))
    if luxury:
        shape.append(Unit("luxury_seven_pairs", options.haohua_units, hand))
    elif seven:
        shape.append(Unit("seven_pairs", 1, hand))
    if n_melds == 4 and len(concealed) == 1 and concealed[0] == win.win_tile:
        shape.append(Unit("all_melded", 1, every))

    if not shape and not regular_258:
        if regular:
            return _not_a_win("pair_not_258",
                              "the pair is not 2, 5 or 8 and the hand is no shape big win "
                              "(二五八做将, docs/reference/rules/changsha.md §3.1, §8.3)")
        return _not_a_win("not_a_winning_hand",
                          "the tiles are no winning hand (docs/reference/rules/changsha.md §3)")

    context: list[Unit] = []
    wt = (win.win_tile,)
    if win.context == "heavenly":
        context.append(Unit("heavenly", 1, hand))
    elif win.context == "earthly":
        context.append(Unit("earthly", 1, wt))
    elif win.context == "haidi":
        context.append(Unit("last_tile_draw" if win.self_drawn else "last_tile_claim", 1, wt))
    elif win.context == "kaigang":
        context.append(Unit("kong_replacement_win" if win.self_drawn else "kong_reveal_claim", 1, wt))
    elif win.context == "robbed_kong":
        context.append(Unit("robbing_the_kong", 1, wt))
    if win.earthly_too and win.context != "earthly":
        context.append(Unit("earthly", 1, wt))

    big = sorted(shape + context, key=lambda u: UNIT_BY_ID[u.id].order)
    if big:
        return WinEvaluation(True, "big", tuple(big))
    return WinEvaluation(True, "small", (Unit("small_win", 1, every),))


# --- opening small wins (起手小胡, §3.2) -------------------------------------------------------


class DeclarationError(PaipuError, ValueError):
    """An opening declaration the shown tiles do not prove (§3.2). ``rule_id`` names the
    rule."""

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(message)
        self.rule_id = rule_id


def opening_holdings(dealt: Sequence[str]) -> dict[str, int]:
    """The opening small wins a dealt hand (13 or 14 tiles) holds, as ``{kind: count}`` in
    canonical order (§3.2, §8.5): 大四喜 once per quartet; 板板胡, 缺一色 and 六六顺 (two or
    more pungs, a quartet holding one) once each."""
    c = Counter(dealt)
    out: dict[str, int] = {}
    quartets = sum(1 for n in c.values() if n == 4)
    if quartets:
        out["four_identical"] = quartets
    if not any(is_258(t) for t in dealt):
        out["no_258"] = 1
    if len({_tiles.suit_of(t) for t in dealt}) < 3:
        out["missing_suit"] = 1
    if sum(1 for n in c.values() if n >= 3) >= 2:
        out["two_pungs"] = 1
    return out


def check_declaration(kind: str, tiles: Sequence[str], *, dealer: bool) -> None:
    """Check that the shown ``tiles`` prove one opening small win ``kind`` (§3.2): the quartet
    for 大四喜; the whole dealt hand (14 tiles for the dealer, 13 otherwise) for 板板胡 and
    缺一色; two pungs (3 + 3 tiles) for 六六顺. Raises :class:`DeclarationError`."""
    src = "docs/reference/rules/changsha.md §3.2"
    if kind not in {u.id for u in OPENING_UNITS}:
        raise DeclarationError("unknown_opening_win", f"unknown opening small win {kind!r} ({src})")
    c = Counter(tiles)
    if kind == "four_identical":
        if len(tiles) != 4 or len(c) != 1:
            raise DeclarationError("opening_not_proved", f"大四喜 shows four identical tiles, got {list(tiles)} ({src})")
        return
    if kind == "two_pungs":
        if len(tiles) != 6 or sorted(c.values()) != [3, 3]:
            raise DeclarationError("opening_not_proved", f"六六顺 shows two pungs (3 + 3 tiles), got {list(tiles)} ({src})")
        return
    need = 14 if dealer else 13
    if len(tiles) != need:
        raise DeclarationError("opening_not_proved",
                               f"{UNIT_BY_ID[kind].chinese} shows the whole dealt hand ({need} tiles), got {len(tiles)} ({src})")
    if any(n > 4 for n in c.values()):
        raise DeclarationError("opening_not_proved", f"more than four copies of a tile in {list(tiles)} ({src})")
    if kind == "no_258" and any(is_258(t) for t in tiles):
        raise DeclarationError("opening_not_proved", f"板板胡: the hand holds a 2, 5 or 8: {list(tiles)} ({src})")
    if kind == "missing_suit" and len({_tiles.suit_of(t) for t in tiles}) == 3:
        raise DeclarationError("opening_not_proved", f"缺一色: every suit is in the hand: {list(tiles)} ({src})")


_OPENING_ORDER = {u.id: u.order for u in OPENING_UNITS}


def check_declarations(decls: Sequence[tuple[str, Sequence[str]]], *, dealer: bool,
                       hand: Sequence[str] | None = None) -> tuple[Unit, ...]:
    """One seat's opening declarations ``(kind, tiles shown)`` checked together (§3.2, §8.5):
    each proved by its tiles; 板板胡 / 缺一色 / 六六顺 at most once, a quartet once; every shown
    tile inside the shown whole hand (if one is shown) and inside the seat's dealt ``hand``
    when known (the whole-hand kinds show exactly that hand). Returns the units (count per
    kind, canonical order). Raises :class:`DeclarationError`."""
    src = "docs/reference/rules/changsha.md §3.2"
    kinds: Counter[str] = Counter()
    whole: Counter[str] | None = None
    quartets: set[str] = set()
    for kind, tiles in decls:
        check_declaration(kind, tiles, dealer=dealer)
        kinds[kind] += 1
        if kind in ("no_258", "missing_suit"):
            shown = Counter(tiles)
            if whole is not None and shown != whole:
                raise DeclarationError("opening_not_proved", f"two different dealt hands are shown ({src})")
            whole = shown
        if kind == "four_identical":
            if tiles[0] in quartets:
                raise DeclarationError("opening_not_proved", f"the quartet {tiles[0]} is declared twice ({src})")
            quartets.add(tiles[0])
    for kind in ("no_258", "missing_suit", "two_pungs"):
        if kinds[kind] > 1:
            raise DeclarationError("opening_not_proved", f"{UNIT_BY_ID[kind].chinese} counts once, declared "
                                                         f"{kinds[kind]} times (docs/reference/rules/changsha.md §8.5)")
    held = Counter(hand) if hand is not None else None
    for kind, tiles in decls:
        if whole is not None and Counter(tiles) - whole:
            raise DeclarationError("opening_not_proved", f"the tiles {list(tiles)} of {kind} are not in the shown "
                                                         f"dealt hand ({src})")
        if held is not None:
            if Counter(tiles) - held:
                raise DeclarationError("opening_not_proved", f"{UNIT_BY_ID[kind].chinese}: the seat does not hold "
                                                             f"{sorted((Counter(tiles) - held).elements())} ({src})")
            if kind in ("no_258", "missing_suit") and Counter(tiles) != held:
                raise DeclarationError("opening_not_proved", f"{UNIT_BY_ID[kind].chinese} shows the whole dealt "
                                                             f"hand ({src})")
    return tuple(Unit(k, n, tuple(t for kk, ts in decls if kk == k for t in ts))
                 for k, n in sorted(kinds.items(), key=lambda kv: _OPENING_ORDER[kv[0]]))


def shown_opening_wins(hand: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Every opening small win ``hand`` holds with the tiles that prove it (what a player who
    declares all of them shows): each quartet; the whole hand for 板板胡 and 缺一色; the first
    two pungs for 六六顺."""
    c = Counter(hand)
    held = opening_holdings(hand)
    out: list[tuple[str, list[str]]] = []
    for t in sorted((t for t, n in c.items() if n == 4), key=_tiles.sort_key):
        out.append(("four_identical", [t] * 4))
    whole = _tiles.sort_tiles(hand)
    if "no_258" in held:
        out.append(("no_258", list(whole)))
    if "missing_suit" in held:
        out.append(("missing_suit", list(whole)))
    if "two_pungs" in held:
        pungs = sorted((t for t, n in c.items() if n >= 3), key=_tiles.sort_key)[:2]
        out.append(("two_pungs", [pungs[0]] * 3 + [pungs[1]] * 3))
    return out
