"""Tiles in paipu's one canonical notation (shared/DESIGN.md §3).

Codes: ``W1``..``W9`` characters 万, ``T1``..``T9`` bamboo 条, ``B1``..``B9`` dots 饼,
``F1``..``F4`` winds East 东 South 南 West 西 North 北, ``J1`` ``J2`` ``J3`` dragons
Red 中 Green 发 White 白, ``H1``..``H8`` flowers 春 夏 秋 冬 梅 兰 竹 菊.

Every tile also has a dense index (``W1`` = 0 … ``J3`` = 33, ``H1`` = 34 … ``H8`` = 41),
which is what hand evaluation works on: a hand is a count vector of length 34.

Parsers accept the canonical codes, the common ``mpsz`` form (``123m456p789s1234567z``)
and Unicode mahjong tiles (U+1F000 block). In mpsz, ``z`` follows the usual
riichi convention: 1-4 = East South West North, 5 = White, 6 = Green, 7 = Red, so
``5z`` is ``J3`` and ``7z`` is ``J1``. ``f`` is accepted for flowers (``1f`` = ``H1``).
Output is always canonical.

Errors: every parser raises :class:`TileError` naming the bad token.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from eventlog.errors import InvalidArgument

__all__ = [
    "TileError",
    "ALL_TILES",
    "PLAYING_TILES",
    "FLOWERS",
    "SUITS",
    "WINDS",
    "DRAGONS",
    "HONORS",
    "TERMINALS",
    "index",
    "code",
    "is_valid",
    "check",
    "parse",
    "parse_mpsz",
    "parse_unicode",
    "to_unicode",
    "to_counts",
    "from_counts",
    "sort_key",
    "sort_tiles",
    "suit_of",
    "rank_of",
    "is_honor",
    "is_flower",
    "is_terminal",
    "is_terminal_or_honor",
    "next_in_cycle",
    "CHINESE_NAMES",
]


class TileError(InvalidArgument):
    """A tile code, mpsz group or Unicode character that is not a tile."""


SUITS = ("W", "T", "B")
WINDS = ("F1", "F2", "F3", "F4")
DRAGONS = ("J1", "J2", "J3")
HONORS = WINDS + DRAGONS
FLOWERS = tuple(f"H{i}" for i in range(1, 9))
PLAYING_TILES: tuple[str, ...] = (
    tuple(f"{s}{r}" for s in SUITS for r in range(1, 10)) + WINDS + DRAGONS
)
ALL_TILES: tuple[str, ...] = PLAYING_TILES + FLOWERS
TERMINALS = tuple(f"{s}{r}" for s in SUITS for r in (1, 9))

_INDEX = {t: i for i, t in enumerate(ALL_TILES)}

# U+1F000 block: winds 1F000-1F003, dragons red/green/white 1F004-1F006,
# characters 1F007-1F00F, bamboo 1F010-1F018, dots 1F019-1F021,
# plum orchid bamboo chrysanthemum 1F022-1F025, spring summer autumn winter 1F026-1F029.
_UNICODE: dict[str, str] = {}
for _i, _t in enumerate(WINDS + DRAGONS):
    _UNICODE[_t] = chr(0x1F000 + _i)
for _si, _s in enumerate(SUITS):
    for _r in range(1, 10):
        _UNICODE[f"{_s}{_r}"] = chr(0x1F007 + 9 * _si + _r - 1)
for _r in range(1, 5):
    _UNICODE[f"H{_r}"] = chr(0x1F026 + _r - 1)  # seasons 春夏秋冬
    _UNICODE[f"H{_r + 4}"] = chr(0x1F022 + _r - 1)  # plants 梅兰竹菊
_FROM_UNICODE = {v: k for k, v in _UNICODE.items()}
# U+1F004 often carries an emoji variation selector; accept it.
_VS16 = "\ufe0f"

_NUMERALS = "一二三四五六七八九"
CHINESE_NAMES: dict[str, str] = {}
for _s, _zh in zip(SUITS, ("万", "条", "饼")):
    for _r in range(1, 10):
        CHINESE_NAMES[f"{_s}{_r}"] = _NUMERALS[_r - 1] + _zh
CHINESE_NAMES.update(
    dict(zip(HONORS, ("东", "南", "西", "北", "中", "发", "白")))
)
CHINESE_NAMES.update(dict(zip(FLOWERS, "春夏秋冬梅兰竹菊")))

_MPSZ_SUIT = {"m": "W", "s": "T", "p": "B"}
_MPSZ_HONOR = {1: "F1", 2: "F2", 3: "F3", 4: "F4", 5: "J3", 6: "J2", 7: "J1"}
_MPSZ_GROUP = re.compile(r"([0-9]+)([mpszf])")


def is_valid(tile: str) -> bool:
    """True when ``tile`` is a canonical code (``W1`` … ``H8``)."""
    return tile in _INDEX


def check(tile: str) -> str:
    """Return ``tile`` unchanged if canonical; raise :class:`TileError` otherwise."""
    if tile not in _INDEX:
        raise TileError(f"not a tile: {tile!r} (expected W1-9, T1-9, B1-9, F1-4, J1-3, H1-8)")
    return tile


def index(tile: str) -> int:
    """Dense index of a canonical code: ``W1`` = 0 … ``J3`` = 33, ``H1`` = 34 … ``H8`` = 41."""
    try:
        return _INDEX[tile]
    except KeyError:
        raise TileError(
            f"not a tile: {tile!r} (expected W1-9, T1-9, B1-9, F1-4, J1-3, H1-8)"
        ) from None


def code(i: int) -> str:
    """Canonical code of a dense index (inverse of :func:`index`)."""
    if not 0 <= i < len(ALL_TILES):
        raise TileError(f"not a tile index: {i!r} (expected 0..{len(ALL_TILES) - 1})")
    return ALL_TILES[i]


def suit_of(tile: str) -> str:
    """``'W'``, ``'T'``, ``'B'``, ``'F'`` (winds), ``'J'`` (dragons) or ``'H'`` (flowers)."""
    return check(tile)[0]


def rank_of(tile: str) -> int:
    """The number after the suit letter (1..9 for suits, 1..4 winds, 1..3 dragons, 1..8 flowers)."""
    return int(check(tile)[1])


def is_honor(tile: str) -> bool:
    return check(tile)[0] in "FJ"


def is_flower(tile: str) -> bool:
    return check(tile)[0] == "H"


def is_terminal(tile: str) -> bool:
    return check(tile) in TERMINALS


def is_terminal_or_honor(tile: str) -> bool:
    return is_terminal(tile) or is_honor(tile)


def next_in_cycle(tile: str) -> str:
    """The tile after ``tile`` in its own cycle: 9 wraps to 1 in a suit, North to East,
    White to Red. Used for indicator → wildcard rules (e.g. rules/nanchang.md §1)."""
    s, r = check(tile)[0], int(tile[1])
    size = {"W": 9, "T": 9, "B": 9, "F": 4, "J": 3, "H": 8}[s]
    return f"{s}{r % size + 1}"


def sort_key(tile: str) -> int:
    """Sort order W, T, B, F, J, H then rank (the order of the shared MCR vectors)."""
    return index(tile)


def sort_tiles(tiles: Iterable[str]) -> list[str]:
    return sorted(tiles, key=sort_key)


def to_unicode(tiles: str | Iterable[str]) -> str:
    """Render one code or an iterable of codes as Unicode mahjong tiles."""
    if isinstance(tiles, str):
        return _UNICODE[check(tiles)]
    return "".join(_UNICODE[check(t)] for t in tiles)


def parse_unicode(text: str) -> list[str]:
    """Parse a string of Unicode mahjong tiles (whitespace and U+FE0F are ignored)."""
    out: list[str] = []
    for pos, ch in enumerate(text):
        if ch.isspace() or ch == _VS16:
            continue
        try:
            out.append(_FROM_UNICODE[ch])
        except KeyError:
            raise TileError(f"not a mahjong tile character at position {pos}: {ch!r}") from None
    return out


def parse_mpsz(text: str) -> list[str]:
    """Parse the mpsz form, e.g. ``"123m456p789s11z"``. ``0`` (red five) reads as 5."""
    compact = "".join(text.split())
    out: list[str] = []
    pos = 0
    for m in _MPSZ_GROUP.finditer(compact):
        if m.start() != pos:
            raise TileError(f"bad mpsz group: {compact[pos:m.start()]!r} in {text!r}")
        digits, suit = m.group(1), m.group(2)
        for d in digits:
            r = int(d)
            if suit in _MPSZ_SUIT:
                out.append(f"{_MPSZ_SUIT[suit]}{r or 5}")
            elif suit == "z":
                if r not in _MPSZ_HONOR:
                    raise TileError(f"bad honor in mpsz: {d}z in {text!r} (1-7z)")
                out.append(_MPSZ_HONOR[r])
            else:
                if not 1 <= r <= 8:
                    raise TileError(f"bad flower in mpsz: {d}f in {text!r} (1-8f)")
                out.append(f"H{r}")
        pos = m.end()
    if pos != len(compact) or not compact:
        raise TileError(f"bad mpsz group: {compact[pos:]!r} in {text!r}")
    return out


def parse(text: str | Iterable[str]) -> list[str]:
    """Parse tiles in any accepted form.

    ``text`` may be an iterable of codes, a whitespace/comma separated string of codes
    (``"W1 W2 W3"``), an mpsz string (``"123m"``) or Unicode tiles. Raises
    :class:`TileError` naming the first bad token.
    """
    if not isinstance(text, str):
        return [check(t) for t in text]
    s = text.strip()
    if not s:
        return []
    if any(0x1F000 <= ord(c) <= 0x1F02B for c in s):
        return parse_unicode(s)
    tokens = s.replace(",", " ").split()
    if all(len(t) >= 2 and t[0] in "WTBFJH" and t[1:].isdigit() for t in tokens):
        return [check(t) for t in tokens]
    if re.fullmatch(r"(?:[0-9]+[mpszf]\s*)+", s):
        return parse_mpsz(s)
    codes = [t for t in tokens if is_valid(t)]
    groups = [t for t in tokens if re.fullmatch(r"(?:[0-9]+[mpszf])+", t)]
    if groups and not codes and len(groups) == len(tokens):  # mpsz groups separated by commas
        return parse_mpsz(" ".join(groups))
    if codes and groups and len(codes) + len(groups) == len(tokens):  # each token fine alone: the mix is wrong
        raise TileError(f"tiles in two notations: tile codes ({' '.join(codes)}) and mpsz "
                        f"({' '.join(groups)}); write every tile in one of them, e.g. "
                        f"{' '.join(parse(' '.join(groups)) + codes)!r}")
    for t in tokens:
        if not is_valid(t) and t not in groups:  # an mpsz group is a tile notation too: name the bad token
            # the input itself only when it is more than the bad token ("not a tile: 'X9' in 'X9'")
            where = f" in {text!r}" if t != s else ""
            raise TileError(f"not a tile: {t!r}{where} (expected W1-9, T1-9, B1-9, F1-4, J1-3, H1-8, or mpsz "
                            "such as 123m456p)")
    return tokens  # pragma: no cover - unreachable


def to_counts(tiles: Iterable[str]) -> list[int]:
    """Count vector of length 34 over playing tiles (flowers raise :class:`TileError`)."""
    counts = [0] * 34
    for t in tiles:
        i = index(t)
        if i >= 34:
            raise TileError(f"a flower has no place in a hand count vector: {t!r}")
        counts[i] += 1
    return counts


def from_counts(counts: Iterable[int]) -> list[str]:
    """Sorted tile codes from a count vector."""
    out: list[str] = []
    for i, n in enumerate(counts):
        out.extend([ALL_TILES[i]] * n)
    return out
