"""Fans made of chows (顺子): patterns over 2, 3 or 4 chows and the terminal-chow hands.

A chow is given by its lowest tile (dense index). Patterns here are pure functions over those
tiles; which chows may combine into which fan (不得相同, 套算一次 …) is decided once by
:mod:`.combine`, and each fan's predicate reads that allocation. Source: shared/rules/
competition.md Part B3 (fan table); definitions as in the MCR fan list (README table rows).
"""

from __future__ import annotations

from .base import Fan, combo_count, combo_tiles


def _suit(t: int) -> int:
    return t // 9


def _rank(t: int) -> int:
    return t % 9 + 1


def _one_suit(*ts: int) -> bool:
    return len({_suit(t) for t in ts}) == 1


def _three_suits(*ts: int) -> bool:
    return len({_suit(t) for t in ts}) == 3


def _steps(ts: tuple[int, ...], step: int) -> bool:
    return all(b - a == step for a, b in zip(ts, ts[1:]))


# --- four chows (sorted) ---
def four_pure_shifted(ts: tuple[int, ...]) -> bool:
    """一色四步高: one suit, each chow 1 or each 2 higher than the last."""
    return _one_suit(*ts) and (_steps(ts, 1) or _steps(ts, 2))


def quadruple(ts: tuple[int, ...]) -> bool:
    """一色四同顺: the same chow four times."""
    return ts[0] == ts[1] == ts[2] == ts[3]


# --- three chows (sorted) ---
def mixed_shifted(ts: tuple[int, ...]) -> bool:
    """三色三步高: three suits, ranks one apart (in any suit order)."""
    r = sorted(_rank(t) for t in ts)
    return _three_suits(*ts) and r[1] == r[0] + 1 and r[2] == r[1] + 1


def mixed_triple(ts: tuple[int, ...]) -> bool:
    """三色三同顺: the same chow in three suits."""
    return _three_suits(*ts) and _rank(ts[0]) == _rank(ts[1]) == _rank(ts[2])


def mixed_straight(ts: tuple[int, ...]) -> bool:
    """花龙: 123, 456, 789 in three different suits."""
    return _three_suits(*ts) and sorted(_rank(t) for t in ts) == [1, 4, 7]


def pure_straight(ts: tuple[int, ...]) -> bool:
    """清龙: 123 456 789 of one suit."""
    return _one_suit(*ts) and _rank(ts[0]) == 1 and _steps(ts, 3)


def pure_shifted(ts: tuple[int, ...]) -> bool:
    """一色三步高: one suit, shifted by 1 or by 2."""
    return _one_suit(*ts) and (_steps(ts, 1) or _steps(ts, 2))


def pure_triple(ts: tuple[int, ...]) -> bool:
    """一色三同顺: the same chow three times."""
    return ts[0] == ts[1] == ts[2]


# --- two chows (unordered) ---
def mixed_double(a: int, b: int) -> bool:
    """喜相逢: the same chow in two suits."""
    return _suit(a) != _suit(b) and _rank(a) == _rank(b)


def short_straight(a: int, b: int) -> bool:
    """连六: two chows of one suit making six consecutive tiles."""
    return _suit(a) == _suit(b) and abs(a - b) == 3


def two_terminal(a: int, b: int) -> bool:
    """老少副: 123 and 789 of one suit."""
    return _suit(a) == _suit(b) and {_rank(a), _rank(b)} == {1, 7}


def pure_double(a: int, b: int) -> bool:
    """一般高: the same chow twice."""
    return a == b


# --- four chows with the pair ---
def three_suited_terminal(ts: tuple[int, ...], pair: int) -> bool:
    """三色双龙会: 123+789 in two suits, a pair of 5 in the third."""
    if pair < 0 or pair >= 27 or _rank(pair) != 5:
        return False
    others = sorted((_suit(t), _rank(t)) for t in ts)
    suits = sorted({s for s, _ in others})
    return (
        _suit(pair) not in suits
        and len(suits) == 2
        and others == [(suits[0], 1), (suits[0], 7), (suits[1], 1), (suits[1], 7)]
    )


def pure_terminal(ts: tuple[int, ...], pair: int) -> bool:
    """一色双龙会: two 123 and two 789 of one suit with a pair of 5 of that suit."""
    if pair < 0 or pair >= 27 or _rank(pair) != 5:
        return False
    return all(_suit(t) == _suit(pair) for t in ts) and sorted(_rank(t) for t in ts) == [1, 1, 7, 7]


# Patterns by arity, in the order the reference tries them (only the order across
# combinations matters; the patterns of one arity never overlap).
FOUR_CHOW_PATTERNS = (("four_pure_shifted_chows", four_pure_shifted), ("quadruple_chow", quadruple))
THREE_CHOW_PATTERNS = (
    ("mixed_shifted_chows", mixed_shifted),
    ("mixed_triple_chow", mixed_triple),
    ("mixed_straight", mixed_straight),
    ("pure_straight", pure_straight),
    ("pure_shifted_chows", pure_shifted),
    ("pure_triple_chow", pure_triple),
)
TWO_CHOW_PATTERNS = (
    ("pure_double_chow", pure_double),
    ("mixed_double_chow", mixed_double),
    ("short_straight", short_straight),
    ("two_terminal_chows", two_terminal),
)
TERMINAL_CHOW_PATTERNS = (
    ("three_suited_terminal_chows", three_suited_terminal),
    ("pure_terminal_chows", pure_terminal),
)


def _combo(number: int, fid: str, en: str, zh: str, pts: int, excludes: tuple = ()) -> Fan:
    return Fan(number, fid, en, zh, pts, combo_count(fid), combo_tiles(fid), excludes, combination=True)


FANS = (
    _combo(13, "pure_terminal_chows", "Pure Terminal Chows", "一色双龙会", 64,
           ("seven_pairs", "full_flush", "all_chows", "pure_double_chow", "two_terminal_chows",
            "one_voided_suit", "no_honors")),
    _combo(14, "quadruple_chow", "Quadruple Chow", "一色四同顺", 48,
           ("pure_shifted_pungs", "pure_triple_chow", "pure_double_chow", "tile_hog")),
    _combo(16, "four_pure_shifted_chows", "Four Pure Shifted Chows", "一色四步高", 32,
           ("pure_shifted_chows", "short_straight", "two_terminal_chows")),
    _combo(23, "pure_triple_chow", "Pure Triple Chow", "一色三同顺", 24,
           ("pure_shifted_pungs", "pure_double_chow")),
    _combo(28, "pure_straight", "Pure Straight", "清龙", 16),
    _combo(29, "three_suited_terminal_chows", "Three-Suited Terminal Chows", "三色双龙会", 16,
           ("all_chows", "no_honors", "mixed_double_chow", "two_terminal_chows")),
    _combo(30, "pure_shifted_chows", "Pure Shifted Chows", "一色三步高", 16),
    _combo(39, "mixed_straight", "Mixed Straight", "花龙", 8),
    _combo(41, "mixed_triple_chow", "Mixed Triple Chow", "三色三同顺", 8),
    _combo(50, "mixed_shifted_chows", "Mixed Shifted Chows", "三色三步高", 6),
    _combo(69, "pure_double_chow", "Pure Double Chow", "一般高", 1),
    _combo(70, "mixed_double_chow", "Mixed Double Chow", "喜相逢", 1),
    _combo(71, "short_straight", "Short Straight", "连六", 1),
    _combo(72, "two_terminal_chows", "Two Terminal Chows", "老少副", 1),
)
