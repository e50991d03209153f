"""Sichuan win evaluation: shapes, the base pattern, 根 and the situational additions
(docs/reference/rules/sichuan.md §5.1, §6, §12).

Shapes come from the shared decomposition (:mod:`replayer.rules.shared.decompose` for sets
and a pair, :mod:`replayer.rules.shared.shapes` for seven pairs, four identical tiles being
two pairs); this module only names the patterns of §6.1 and prices them. A hand is a 34-count
vector of its concealed tiles (*with* the winning tile) plus its declared sets as
``(tile index, copies)`` pairs (3 for a pung, 4 for a kong) — Sichuan has no chows.

Everything keyed on tile counts is memoised (``functools.lru_cache``): the best reading of a
hand, and the waits of a ready hand with their best fan (§7 查大叫).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from eventlog import tiles as _tiles
from replayer.explained import ScoreLine, Vec4
from replayer.rules.shared import decompose as _dec
from replayer.rules.shared import shapes as _shapes
from replayer.rules.sichuan.options import SichuanOptions

__all__ = [
    "ADDITIONS",
    "ADDITION_ORDER",
    "PATTERNS",
    "SUIT_LETTERS",
    "MeldKey",
    "Reading",
    "ScoreItem",
    "Wait",
    "WinFacts",
    "WinValue",
    "best_reading",
    "evaluate_win",
    "hand_key",
    "ready_waits",
    "suits_of",
]

#: Suit letters of the notation in dense-index order (W 万 = 0, T 条 = 1, B 筒 = 2).
SUIT_LETTERS = ("W", "T", "B")

#: Base patterns of §6.1: id -> (fan, English, Chinese).
PATTERNS: dict[str, tuple[int, str, str]] = {
    "pinghu": (0, "Plain win", "平胡"),
    "duiduihu": (1, "All pungs", "对对胡"),
    "qingyise": (2, "Pure one suit", "清一色"),
    "qidui": (2, "Seven pairs", "七对"),
    "yaojiu": (2, "Terminals in every set", "幺九"),
    "qingdui": (3, "Pure all pungs", "清对"),
    "jiangdui": (3, "2-5-8 all pungs", "将对"),
    "qingqidui": (4, "Pure seven pairs", "清七对"),
    "longqidui": (4, "Dragon seven pairs", "龙七对"),
    "qingyaojiu": (4, "Pure terminals in every set", "清幺九"),
    "qinglongqidui": (5, "Pure dragon seven pairs", "清龙七对"),
}

#: Additions of §6.2 (and the self-draw bonus of §5.4): id -> (English, Chinese).
ADDITIONS: dict[str, tuple[str, str]] = {
    "gen": ("Root (four of a kind)", "根"),
    "gangshanghua": ("Bloom on the kong", "杠上花"),
    "gangshangpao": ("Cannon on the kong", "杠上炮"),
    "qianggang": ("Robbing the kong", "抢杠胡"),
    "haidi": ("Moon from the sea bottom", "海底捞月"),
    "jingoudiao": ("Golden hook (four melds, single wait)", "金钩钓"),
    "zimo_jiafan": ("Self-draw extra fan", "自摸加番"),
    "tianhu": ("Heavenly hand", "天胡"),
    "dihu": ("Earthly hand", "地胡"),
}
ADDITION_ORDER = tuple(ADDITIONS)

MeldKey = tuple[int, int]  # (tile index, copies: 3 pung / 4 kong)


def suits_of(counts: tuple[int, ...], melds: tuple[MeldKey, ...]) -> frozenset[int]:
    """The suits (0 W, 1 T, 2 B) present among concealed ``counts`` and ``melds``."""
    out = {s for s in range(3) if any(counts[9 * s: 9 * s + 9])}
    out.update(t // 9 for t, _ in melds)
    return frozenset(out)


def hand_key(concealed: tuple[str, ...] | list[str], melds) -> tuple[tuple[int, ...], tuple[MeldKey, ...]]:
    """(34-count vector of ``concealed``, sorted meld keys) for tile codes and melds with
    ``tile`` and ``kind`` ("pung"/"kong") attributes."""
    c = [0] * 34
    for t in concealed:
        c[_tiles.index(t)] += 1
    keys = tuple(sorted((_tiles.index(m.tile), 4 if m.kind == "kong" else 3) for m in melds))
    return tuple(c), keys


@dataclass(frozen=True)
class Reading:
    """The best reading of a complete hand (§6.3: the highest fan).

    ``shape``: ``standard`` (sets and a pair) or ``seven_pairs``; ``pattern`` an id of
    :data:`PATTERNS`; ``quartets``: tile indices held four times (declared kongs, pung +
    fourth tile, four concealed); ``gen``: 根 this reading pays (for 龙七对 the first quartet
    is in the pattern); ``groups``: the concealed sets and pair as tile-index tuples (for
    seven pairs: the pairs)."""

    shape: Literal["standard", "seven_pairs"]
    pattern: str
    quartets: tuple[int, ...]
    gen: int
    groups: tuple[tuple[int, ...], ...]

    @property
    def pattern_fan(self) -> int:
        return PATTERNS[self.pattern][0]

    @property
    def fan(self) -> int:
        """Pattern + 根 (what 查大叫 counts, §12.7)."""
        return self.pattern_fan + self.gen


def _rank(t: int) -> int:
    return t % 9 + 1


def _standard_pattern(sets: tuple[tuple[int, ...], ...], pair: tuple[int, ...], qing: bool) -> str:
    """The §6.1 pattern of one division (sets include the declared pungs/kongs as 3 tiles)."""
    dui = all(s[0] == s[1] for s in sets)
    yaojiu = all(any(_rank(t) in (1, 9) for t in g) for g in (*sets, pair))
    jiang = dui and all(_rank(t) in (2, 5, 8) for g in (*sets, pair) for t in g)
    if qing and yaojiu:
        return "qingyaojiu"
    if qing and dui:
        return "qingdui"
    if jiang:
        return "jiangdui"
    if qing:
        return "qingyise"
    if yaojiu:
        return "yaojiu"
    if dui:
        return "duiduihu"
    return "pinghu"


@lru_cache(maxsize=1 << 16)
def best_reading(counts: tuple[int, ...], melds: tuple[MeldKey, ...] = ()) -> Reading | None:
    """The highest-fan reading (§6.3) of concealed ``counts`` (with the winning tile, 3n + 2
    tiles) and declared ``melds``, or None when the tiles form no winning shape (§5.1). The
    suit conditions (at most two suits, none of a declared void suit) are checked by
    :func:`evaluate_win`, not here. Ties (§12.4): the higher pattern fan, then the pattern
    met first in :data:`PATTERNS`."""
    copies = list(counts)
    for t, n in melds:
        copies[t] += n
    quartets = tuple(t for t in range(34) if copies[t] == 4)
    qing = len({t // 9 for t in range(27) if copies[t]}) == 1
    order = list(PATTERNS)
    candidates: list[Reading] = []
    meld_sets = tuple((t, t, t) for t, _ in melds)
    for d in _dec.decompose(counts):
        sets = tuple(g.tiles for g in d.sets) + meld_sets
        pattern = _standard_pattern(sets, d.pair.tiles, qing)
        groups = tuple(g.tiles for g in d.sets) + (d.pair.tiles,)
        candidates.append(Reading("standard", pattern, quartets, len(quartets), groups))
    if not melds and _shapes.is_seven_pairs(counts):
        long_ = any(n == 4 for n in counts)
        pattern = ("qinglongqidui" if long_ else "qingqidui") if qing else ("longqidui" if long_ else "qidui")
        pairs = tuple((t, t) for t in range(34) for _ in range(counts[t] // 2))
        candidates.append(Reading("seven_pairs", pattern, quartets, len(quartets) - (1 if long_ else 0), pairs))
    if not candidates:
        return None
    return max(candidates, key=lambda r: (r.fan, r.pattern_fan, -order.index(r.pattern)))


@dataclass(frozen=True)
class ScoreItem:
    """One line of the explained score: ``id`` (a pattern or addition id), English and
    Chinese name, ``fan`` it adds, ``count`` (根: how many), ``tiles`` the tiles that form it
    (per set / quartet)."""

    id: str
    name_en: str
    name_zh: str
    fan: int
    count: int = 1
    tiles: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class WinFacts:
    """How a win happened (§5.4, §6.2): ``self_drawn``; ``kong_replacement`` (杠上花: on the
    replacement of the winner's own kong, ``kong_tile``); ``after_kong`` (杠上炮: the discard
    right after the discarder's kong replacement); ``robbed_kong`` (抢杠); ``heavenly`` (天胡),
    ``earthly`` (地胡); ``last_tile`` (海底捞月: self-drew the last wall tile)."""

    self_drawn: bool = False
    kong_replacement: bool = False
    kong_tile: str | None = None
    after_kong: bool = False
    robbed_kong: bool = False
    heavenly: bool = False
    earthly: bool = False
    last_tile: bool = False


@dataclass(frozen=True)
class WinValue:
    """A priced win: ``legal`` False with ``rule_id``/``message`` when the tiles are no
    Sichuan win. Otherwise the ``reading``, ``additions`` (``(id, fan)`` in
    :data:`ADDITION_ORDER`), ``fan`` (pattern + additions, before the cap), ``paid_fan``
    (capped), ``per_payer`` (底金 × 2^paid_fan, + 底金 with ``jiadi`` on a self-draw) and the
    explained ``items``."""

    legal: bool
    reading: Reading | None = None
    additions: tuple[tuple[str, int], ...] = ()
    fan: int = 0
    paid_fan: int = 0
    per_payer: int = 0
    items: tuple[ScoreItem, ...] = ()
    rule_id: str | None = None
    message: str = ""
    cap: int | None = None  # the 封顶 option the win was priced with (§6)
    dijin: int = 1  # 底金 (§6)
    jiadi: int = 0  # 加底 added per payer (zimo_bonus = jiadi on a self-draw, §5.4, §12.9)

    def payment_steps(self) -> tuple[str, ...]:
        """From fan to what each payer pays (§5.4, §6, §12.9): the fan, the cap (封顶) when it
        cuts, 底金 × 2^fan, and 加底 on a self-draw with ``zimo_bonus = jiadi``."""
        if not self.legal:
            return ()
        steps = [f"{self.fan} fan"]
        if self.paid_fan != self.fan:
            steps.append(f"capped at {self.paid_fan} fan (封顶, option cap = {self.cap}, §6)")
        base = self.dijin * 2 ** self.paid_fan
        steps.append(f"底金 {self.dijin} × 2^{self.paid_fan} = {base} (§6)")
        if self.jiadi:
            steps.append(f"+ 加底 {self.jiadi} on a self-draw (option zimo_bonus = jiadi, §5.4, §12.9) = {base + self.jiadi}")
        steps[-1] += " per payer (§5.4)"
        return tuple(steps)

    # the explained-score interface (replayer/explained.py)
    def lines(self) -> tuple[ScoreLine, ...]:
        """The base pattern, 根 and additions: ``points`` the fan one instance adds (根: 1 per
        quartet, ``count`` quartets), the tiles that form it."""
        return tuple(ScoreLine(i.id, i.name_en, i.name_zh, points=i.fan // i.count if i.count > 1 else i.fan,
                               count=i.count, tiles=i.tiles)
                     for i in self.items)

    def excluded(self) -> tuple[ScoreLine, ...]:
        return ()

    def settlement_parts(self) -> tuple[tuple[str, Vec4], ...]:
        return ()

    @property
    def pattern(self) -> str | None:
        return self.reading.pattern if self.reading else None


def _codes(idx: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(_tiles.ALL_TILES[i] for i in idx)


def evaluate_win(concealed: tuple[int, ...], melds: tuple[MeldKey, ...], win_tile: str, facts: WinFacts,
                 options: SichuanOptions, void_suit: int | None = None) -> WinValue:
    """Price a declared win (§5, §6). ``concealed``: the winner's concealed counts *without*
    ``win_tile``; ``melds``: its declared pungs/kongs; ``void_suit``: its declared void suit
    (0 W, 1 T, 2 B) with ``dingque_declared``. An illegal hand (no shape, three suits, a tile
    of the declared void suit) gives ``legal=False`` with rule ``false_win`` or
    ``void_suit``."""
    c = list(concealed)
    c[_tiles.index(win_tile)] += 1
    counts = tuple(c)
    suits = suits_of(counts, melds)
    if any(counts[27:]):
        return WinValue(False, rule_id="false_win", message="Sichuan has no honor tiles (§1)")
    if len(suits) > 2:
        return WinValue(False, rule_id="false_win", message="a winning hand holds at most two suits (§2 缺一门)")
    if void_suit is not None and void_suit in suits:
        return WinValue(False, rule_id="void_suit",
                        message=f"the hand holds its declared void suit {SUIT_LETTERS[void_suit]} (§2 定缺)")
    reading = best_reading(counts, melds)
    if reading is None:
        return WinValue(False, rule_id="false_win", message="the tiles form no winning shape (§5.1)")
    return price(reading, melds, win_tile, facts, options)


def price(reading: Reading, melds: tuple[MeldKey, ...], win_tile: str, facts: WinFacts,
          options: SichuanOptions) -> WinValue:
    """Additions, cap and payment of a winning ``reading`` (§5.4, §6.2, §12.9)."""
    adds: list[tuple[str, int]] = []
    items: list[ScoreItem] = []
    en, zh = PATTERNS[reading.pattern][1:]
    groups = reading.groups + tuple((t, t, t, t) if n == 4 else (t, t, t) for t, n in melds)
    items.append(ScoreItem(reading.pattern, en, zh, reading.pattern_fan, 1, tuple(_codes(g) for g in groups)))
    quartets = reading.quartets
    gen = reading.gen
    if facts.kong_replacement and options.gangshanghua_mode == "plus2_no_gen" and facts.kong_tile is not None:
        k = _tiles.index(facts.kong_tile)
        if k in quartets:
            quartets = tuple(q for q in quartets if q != k)
            gen -= 1
    if reading.shape == "seven_pairs" and reading.pattern in ("longqidui", "qinglongqidui"):
        quartets = quartets[1:]  # the first quartet is in the pattern (§6.2)
    if gen > 0:
        adds.append(("gen", gen))
    if facts.kong_replacement:
        adds.append(("gangshanghua", 2 if options.gangshanghua_mode == "plus2_no_gen" else 1))
    if facts.after_kong:
        adds.append(("gangshangpao", 1))
    if facts.robbed_kong and options.qianggang_fan:
        adds.append(("qianggang", options.qianggang_fan))
    if options.haidi and facts.last_tile and facts.self_drawn and not facts.kong_replacement:
        adds.append(("haidi", 1))
    if options.jingoudiao and len(melds) == 4:
        adds.append(("jingoudiao", 1))
    if facts.self_drawn and options.zimo_bonus == "jiafan":
        adds.append(("zimo_jiafan", 1))
    fan = reading.pattern_fan + sum(f for _, f in adds)
    for special, on in (("tianhu", facts.heavenly), ("dihu", facts.earthly)):
        if on:
            extra = 5 if options.tianhu_stack else max(0, 5 - fan)
            adds.append((special, extra))
            fan += extra
    for aid, f in adds:
        en, zh = ADDITIONS[aid]
        if aid == "gen":
            items.append(ScoreItem(aid, en, zh, f, f, tuple(_codes((q,) * 4) for q in quartets)))
        else:
            items.append(ScoreItem(aid, en, zh, f, 1, ((win_tile,),)))
    paid = options.capped(fan)
    jiadi = options.dijin if facts.self_drawn and options.zimo_bonus == "jiadi" else 0
    per = options.dijin * (2 ** paid) + jiadi
    return WinValue(True, reading, tuple(adds), fan, paid, per, tuple(items), cap=options.cap, dijin=options.dijin,
                    jiadi=jiadi)


@dataclass(frozen=True)
class Wait:
    """A ready hand's waits (§7.2, §12.6): ``tiles`` every winning kind, ``best_fan`` the
    highest pattern + 根 of a discard win on one of them (before the cap), ``best_tiles`` the
    waits reaching it."""

    tiles: tuple[str, ...]
    best_fan: int
    best_tiles: tuple[str, ...]


@lru_cache(maxsize=1 << 16)
def ready_waits(concealed: tuple[int, ...], melds: tuple[MeldKey, ...], void_suit: int | None = None) -> Wait | None:
    """The waits of a 13-tile hand (concealed counts + declared sets) and its best fan, or
    None when it is not ready. A kind the player holds four of is no wait (§12.6); a wait
    must give a legal win (≤ two suits, none of the declared void suit). Memoised on the
    tile counts (the 查大叫 search, issue 15 item 7)."""
    if any(concealed[27:]):
        return None
    held = list(concealed)
    for t, n in melds:
        held[t] += n
    best = -1
    out: list[tuple[str, int]] = []
    for t in _dec.waits(concealed, seven_pairs=not melds):
        if held[t] >= 4:
            continue
        c = list(concealed)
        c[t] += 1
        counts = tuple(c)
        suits = suits_of(counts, melds)
        if len(suits) > 2 or (void_suit is not None and void_suit in suits):
            continue
        r = best_reading(counts, melds)
        if r is None:
            continue
        out.append((_tiles.ALL_TILES[t], r.fan))
        best = max(best, r.fan)
    if not out:
        return None
    return Wait(tuple(t for t, _ in out), best, tuple(t for t, f in out if f == best))
