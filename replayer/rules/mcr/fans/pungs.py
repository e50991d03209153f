"""Fans made of pungs and kongs (刻子, 杠): suit patterns over pungs, concealed pungs, kongs,
All Pungs. Wind and dragon pungs are in :mod:`.honors`.

A pung is given by its tile (dense index); kongs count as pungs for patterns. Which pungs
combine into which pattern fan is decided by :mod:`.combine`. Source: shared/rules/
competition.md Part B3; the 明暗杠 option: :class:`~replayer.rules.mcr.options.McrOptions`.
"""

from __future__ import annotations

from .base import ON_PUNGS, ON_WIN, Fan, WinContext, codes, combo_count, combo_tiles, sets_where


def _numbered(*ts: int) -> bool:
    return all(t < 27 for t in ts)


def _suits(*ts: int) -> set[int]:
    return {t // 9 for t in ts}


def _ranks(*ts: int) -> list[int]:
    return sorted(t % 9 + 1 for t in ts)


# --- four pungs (sorted) ---
def four_pure_shifted(ts: tuple[int, ...]) -> bool:
    """一色四节高: four pungs of one suit, ranks one apart."""
    return _numbered(*ts) and len(_suits(*ts)) == 1 and all(b - a == 1 for a, b in zip(ts, ts[1:]))


def big_four_winds(ts: tuple[int, ...]) -> bool:
    """大四喜: pungs of all four winds."""
    return ts == (27, 28, 29, 30)


# --- three pungs (sorted) ---
def mixed_shifted(ts: tuple[int, ...]) -> bool:
    """三色三节高: three suits, ranks one apart."""
    r = _ranks(*ts)
    return _numbered(*ts) and len(_suits(*ts)) == 3 and r[1] == r[0] + 1 and r[2] == r[1] + 1


def triple(ts: tuple[int, ...]) -> bool:
    """三同刻: the same rank in three suits."""
    r = _ranks(*ts)
    return _numbered(*ts) and len(_suits(*ts)) == 3 and r[0] == r[2]


def pure_shifted(ts: tuple[int, ...]) -> bool:
    """一色三节高: one suit, ranks one apart."""
    return _numbered(*ts) and len(_suits(*ts)) == 1 and ts[1] == ts[0] + 1 and ts[2] == ts[1] + 1


def big_three_winds(ts: tuple[int, ...]) -> bool:
    """三风刻: pungs of three winds."""
    return all(27 <= t <= 30 for t in ts)


def big_three_dragons(ts: tuple[int, ...]) -> bool:
    """大三元: pungs of the three dragons."""
    return ts == (31, 32, 33)


# --- two pungs (unordered) ---
def double(a: int, b: int) -> bool:
    """双同刻: the same rank in two suits."""
    return _numbered(a, b) and a % 9 == b % 9


def two_dragons(a: int, b: int) -> bool:
    """双箭刻: two dragon pungs."""
    return a >= 31 and b >= 31


FOUR_PUNG_PATTERNS = (("four_pure_shifted_pungs", four_pure_shifted), ("big_four_winds", big_four_winds))
THREE_PUNG_PATTERNS = (
    ("mixed_shifted_pungs", mixed_shifted),
    ("triple_pung", triple),
    ("pure_shifted_pungs", pure_shifted),
    ("big_three_winds", big_three_winds),
    ("big_three_dragons", big_three_dragons),
)
TWO_PUNG_PATTERNS = (("double_pung", double), ("two_dragons_pungs", two_dragons))


def _combo(number: int, fid: str, en: str, zh: str, pts: int, excludes: tuple = ()) -> Fan:
    return Fan(number, fid, en, zh, pts, combo_count(fid), combo_tiles(fid), excludes, combination=True)


_kongs = sets_where(lambda kind, tiles: kind == "kong")


def _concealed_kongs(ctx: WinContext) -> tuple[tuple[str, ...], ...]:
    """The concealed kongs (暗杠) only, for 暗杠 and 双暗杠."""
    return tuple([codes(tiles) for tiles in ctx.concealed_kong_sets])


def _melded_kongs(ctx: WinContext) -> tuple[tuple[str, ...], ...]:
    """The melded kongs (明杠) only, for 明杠 and 双明杠: the kongs that are not concealed."""
    return tuple([codes(tiles) for kind, tiles in ctx.sets
                  if kind == "kong" and tiles not in ctx.concealed_kong_sets])
_pungs = sets_where(lambda kind, tiles: kind != "chow")


def _concealed_pungs(ctx: WinContext) -> tuple[tuple[str, ...], ...]:
    """The concealed pungs and kongs (暗刻) themselves: not the claimed pungs and melded
    kongs, nor a pung completed by the winning discard (what ``concealed_pungs`` counts)."""
    return tuple([codes(tiles) for tiles in ctx.concealed_sets])


def _kong_count(ctx: WinContext) -> int:
    return ctx.melded_kongs + ctx.concealed_kongs


def _mixed_kongs_fan(ctx: WinContext) -> bool:
    return ctx.kong_fan == "five_point_fan" and ctx.melded_kongs == 1 and ctx.concealed_kongs == 1


_KONG_FANS_EXCLUDED = ("melded_kong", "concealed_kong", "two_melded_kongs", "two_concealed_kongs",
                       "concealed_kong_and_melded_kong")

FANS = (
    Fan(5, "four_kongs", "Four Kongs", "四杠", 88, lambda c: int(_kong_count(c) == 4), _kongs,
        excludes=("three_kongs", *_KONG_FANS_EXCLUDED, "all_pungs", "single_wait"), reads=ON_WIN),
    Fan(12, "four_concealed_pungs", "Four Concealed Pungs", "四暗刻", 64,
        lambda c: int(c.concealed_pungs == 4), _concealed_pungs,
        excludes=("all_pungs", "concealed_hand", "fully_concealed_hand", "three_concealed_pungs",
                  "two_concealed_pungs"), reads=ON_WIN),
    _combo(15, "four_pure_shifted_pungs", "Four Pure Shifted Pungs", "一色四节高", 48,
           ("pure_shifted_pungs", "pure_triple_chow", "all_pungs")),
    Fan(17, "three_kongs", "Three Kongs", "三杠", 32, lambda c: int(_kong_count(c) == 3), _kongs,
        excludes=_KONG_FANS_EXCLUDED, reads=ON_WIN),
    _combo(24, "pure_shifted_pungs", "Pure Shifted Pungs", "一色三节高", 24, ("pure_triple_chow",)),
    _combo(32, "triple_pung", "Triple Pung", "三同刻", 16),
    Fan(33, "three_concealed_pungs", "Three Concealed Pungs", "三暗刻", 16,
        lambda c: int(c.concealed_pungs == 3), _concealed_pungs, excludes=("two_concealed_pungs",),
        reads=ON_WIN),
    _combo(42, "mixed_shifted_pungs", "Mixed Shifted Pungs", "三色三节高", 8),
    Fan(48, "all_pungs", "All Pungs", "碰碰和", 6, lambda c: int(len(c.pungs) == 4), _pungs, reads=ON_PUNGS),
    Fan(53, "two_concealed_kongs", "Two Concealed Kongs", "双暗杠", 6,
        lambda c: int(c.concealed_kongs >= 2), _concealed_kongs,
        excludes=("concealed_kong", "two_concealed_pungs"), reads=ON_WIN),
    Fan(57, "two_melded_kongs", "Two Melded Kongs", "双明杠", 4,
        lambda c: int(c.melded_kongs >= 2), _melded_kongs, excludes=("melded_kong",), reads=ON_WIN),
    _combo(65, "double_pung", "Double Pung", "双同刻", 2),
    Fan(66, "two_concealed_pungs", "Two Concealed Pungs", "双暗刻", 2,
        lambda c: int(c.concealed_pungs == 2), _concealed_pungs, reads=ON_WIN),
    Fan(67, "concealed_kong", "Concealed Kong", "暗杠", 2, lambda c: int(c.concealed_kongs >= 1), _concealed_kongs,
        reads=ON_WIN),
    Fan(74, "melded_kong", "Melded Kong", "明杠", 1, lambda c: int(c.melded_kongs >= 1), _melded_kongs, reads=ON_WIN),
    Fan(82, "concealed_kong_and_melded_kong", "Concealed Kong and Melded Kong", "明暗杠", 5,
        lambda c: int(_mixed_kongs_fan(c)), _kongs, excludes=("melded_kong", "concealed_kong"), reads=ON_WIN),
)
