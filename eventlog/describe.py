"""Events in words, tiles shown as Unicode glyphs (DESIGN.md §3) — the one describer the terminal
replay (``paipu replay``) and the dashboard share; it sits in the log layer so neither imports
the other.

* :func:`describe_event` — one technical line: ``#12 tile_discarded seat=0 tile=🀋W5``.
* :func:`describe_words` — the event in plain words in English and Chinese, seats named by
  their wind: ``("East discards 🀋 5万", "东家打出 🀋 五万")``, ``("South pungs 🀄 Red from
  East", "南家碰东家的 🀄 中")``. A ruleset's own event type describes itself
  (:meth:`eventlog.events.Payload.words`); this module names no ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from eventlog import tiles as T

__all__ = ["describe_event", "hand_ordinal", "payload_text", "plain_value", "describe_words", "tile_words", "seat_words",
           "RulesetWords", "TableView"]

WIND_EN = {"F1": "East", "F2": "South", "F3": "West", "F4": "North"}
WIND_ZH = {"F1": "东", "F2": "南", "F3": "西", "F4": "北"}
_SUIT_EN = {"W": "万", "T": "条", "B": "饼"}
_HONOR_EN = {"F1": "East", "F2": "South", "F3": "West", "F4": "North",
             "J1": "Red", "J2": "Green", "J3": "White"}
_FLOWER_EN = dict(zip(T.FLOWERS, ("Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo",
                                  "Chrysanthemum")))
_ZH_NUM = "零一二三四五六七八九十"


class TableView(Protocol):
    """What the describer reads of the table after the event (replayer.state.TableState has
    it): each seat's wind, and who made a discard."""

    @property
    def seats(self) -> Sequence[Any]: ...

    def find_discard(self, seq: int) -> tuple[int, int, Any] | None: ...


@dataclass(frozen=True)
class RulesetWords:
    """What the game's ruleset calls things, for the words of its events — data the ruleset
    declares (replayer/rules/base.py ``RulesetSpec.score_unit`` / ``item_names``, read by
    ``ruleset_words_of``); this layer names no ruleset. ``total``: the unit of a win's total,
    singular and plural (``("point", "points")``, ``("unit", "units")``, ``("fan", "fan")``);
    ``total_zh``: the same in Chinese (``分``, ``番``); ``items``: id → (English, Chinese) of the
    ruleset's scoring items an event names by id (Changsha's opening small wins:
    ``two_pungs`` → ``("two pungs", "六六顺")``)."""

    total: tuple[str, str] = ("point", "points")
    total_zh: str = "分"
    items: Mapping[str, tuple[str, str]] = field(default_factory=dict)

    def amount(self, n: int) -> tuple[str, str]:
        """``n`` in the unit: ``("1 unit", "1 单位")``, ``("12 points", "12 分")``."""
        return f"{n} {self.total[0] if n == 1 else self.total[1]}", f"{n} {self.total_zh}"

    def item(self, item_id: str) -> tuple[str, str]:
        """An item's names (English, Chinese); the id itself for both when not declared."""
        return self.items.get(item_id, (item_id, item_id))


_POINTS = RulesetWords()


def hand_ordinal(hand_number: int | None) -> str:
    """A hand as people count it, from 1: ``hand_number`` 0 (the data's, 0-based) → ``"1"``;
    ``"?"`` when unknown. Words and views show this; data and JSON keep ``hand_number``."""
    return "?" if hand_number is None else str(hand_number + 1)


def tile_words(tile: str | None) -> tuple[str, str]:
    """A tile as (English, Chinese): ``W5`` → ``("🀋 5万", "🀋 五万")``, ``J1`` → ``("🀄 Red",
    "🀄 中")``, ``H5`` → ``("🀢 Plum", "🀢 梅")``; None (a hidden tile) → ``("a tile", "一张牌")``."""
    if tile is None:
        return "a tile", "一张牌"
    g = T.to_unicode(tile)
    if tile in _HONOR_EN:
        en = _HONOR_EN[tile]
    elif tile in _FLOWER_EN:
        en = _FLOWER_EN[tile]
    else:
        en = f"{tile[1]}{_SUIT_EN[tile[0]]}"
    return f"{g} {en}", f"{g} {T.CHINESE_NAMES[tile]}"


def _tiles_words(tiles: Sequence[str]) -> tuple[str, str]:
    glyphs = T.to_unicode(list(tiles))
    return f"{glyphs} ({' '.join(tiles)})", glyphs + "（" + "".join(T.CHINESE_NAMES[t] for t in tiles) + "）"


def seat_words(seat: int, state: TableView | None = None) -> tuple[str, str]:
    """A seat by its wind when the table knows it (``("East", "东家")``), else by number
    (``("Seat 2", "2号位")``)."""
    wind = None
    if state is not None and 0 <= seat < len(state.seats):
        wind = state.seats[seat].wind
    if wind in WIND_EN:
        return WIND_EN[wind], WIND_ZH[wind] + "家"
    return f"Seat {seat}", f"{seat}号位"


def _num_zh(n: int) -> str:
    if 0 <= n <= 10:
        return _ZH_NUM[n]
    return str(n)


def describe_words(event: Any, state: TableView | None = None,
                   words: RulesetWords | None = None) -> tuple[str, str]:
    """The event in plain words: (English, Chinese). ``state``: the table after the event
    (seat winds; who made a claimed discard), optional — without it seats are named by
    number and a claim does not say from whom. ``words``: what the game's ruleset calls its
    amounts and items (``replayer.rules.base.ruleset_words_of``); without it amounts are
    points and items their ids. Never raises for a well-formed event; an unknown type is
    shown field by field."""
    p = event.payload
    vocab = words or _POINTS

    def who(seat: int) -> tuple[str, str]:
        return seat_words(seat, state)

    def discarder(seq: int | None) -> tuple[str, str] | None:
        if seq is None or state is None:
            return None
        found = state.find_discard(seq)
        return who(found[0]) if found is not None else None

    own = p.words(who)
    if own is not None:
        return own
    worded = _WORDED.get(event.type)
    if worded is not None:
        return worded(p, who, vocab)
    fn = _CORE.get(event.type)
    if fn is None:
        line = describe_event(event).split(" ", 2)
        rest = line[2] if len(line) > 2 else ""
        return f"{event.type}: {rest}".strip(), f"{event.type}：{rest}".strip()
    return fn(p, who, discarder)


def _claim(verb_en: str, verb_zh: str, *, run: bool = False) -> Callable[..., tuple[str, str]]:
    def f(p: Any, who, discarder) -> tuple[str, str]:
        en_s, zh_s = who(p.seat)
        tile = p.claimed_tile if run else p.tile
        te, tz = tile_words(tile)
        src = discarder(p.discard_seq)
        en = f"{en_s} {verb_en} {te}" + (f" from {src[0]}" if src else "")
        zh = f"{zh_s}{verb_zh}" + (f"{src[1]}的" if src else "") + f" {tz}"
        if run:
            ge, gz = _tiles_words(p.tiles)
            en += f": {ge}"
            zh += f"：{gz}"
        return en, zh
    return f


def _kong(p: Any, who, discarder) -> tuple[str, str]:
    en_s, zh_s = who(p.seat)
    te, tz = tile_words(p.tile)
    if p.kind == "concealed":
        if p.tile is None:  # face down, and the record does not show it (another seat's, in one seat's view)
            return f"{en_s} declares a concealed kong (hidden)", f"{zh_s}暗杠（不可见）"
        return f"{en_s} declares a concealed kong of {te}", f"{zh_s}暗杠 {tz}"
    if p.kind == "added":
        return f"{en_s} adds {te} to a pung (added kong)", f"{zh_s}加杠 {tz}"
    src = discarder(p.discard_seq)
    return (f"{en_s} kongs {te}" + (f" from {src[0]}" if src else ""),
            f"{zh_s}明杠" + (f"{src[1]}的" if src else "") + f" {tz}")


def _drawn(p: Any, who, _d) -> tuple[str, str]:
    en_s, zh_s = who(p.seat)
    te, tz = tile_words(p.tile)
    how_en = {"wall": "", "kong_replacement": " (replacement after a kong)",
              "flower_replacement": " (replacement for a flower)"}[p.source]
    how_zh = {"wall": "摸", "kong_replacement": "杠后补", "flower_replacement": "补花摸"}[p.source]
    return f"{en_s} draws {te}{how_en}", f"{zh_s}{how_zh} {tz}"


def _win(p: Any, who, _d) -> tuple[str, str]:
    en_s, zh_s = who(p.seat)
    te, tz = tile_words(p.tile)
    if p.self_drawn:
        return f"{en_s} wins by self-draw on {te}", f"{zh_s}自摸 {tz} 和牌"
    fe, fz = who(p.from_seat)
    if p.robbing_kong:
        return f"{en_s} robs {fe}'s kong and wins on {te}", f"{zh_s}抢{fz}的杠 {tz} 和牌"
    return f"{en_s} wins on {te} from {fe}", f"{zh_s}和{fz}打出的 {tz}"


def _pass(p: Any, who, discarder) -> tuple[str, str]:
    en_s, zh_s = who(p.seat)
    claim_zh = {"chow": "吃", "pung": "碰", "kong": "杠", "win": "和"}
    if p.claim:
        return (f"{en_s}'s {p.claim} claim gives way (lower priority)",
                f"{zh_s}的{claim_zh[p.claim]}让位（优先级低）")
    return f"{en_s} passes", f"{zh_s}过"


def _changes(v: Sequence[int] | None) -> str:
    return "[" + ", ".join(f"{x:+d}" for x in v) + "]" if v else "–"


def _opening(p: Any, who, vocab: RulesetWords) -> tuple[str, str]:
    en_s, zh_s = who(p.seat)
    parts = [(vocab.item(w.kind), T.to_unicode(list(w.tiles))) for w in p.wins]
    return (f"{en_s} shows opening small wins: "
            + "; ".join(f"{en} ({zh}) {g}" if zh != en else f"{en} {g}" for (en, zh), g in parts),
            f"{zh_s}起手小胡：" + "；".join(f"{zh} {g}" for (_en, zh), g in parts))


def _reported(p: Any, who, vocab: RulesetWords) -> tuple[str, str]:
    amount = vocab.amount(p.total) if p.total is not None else None
    return ("The log reports the score" + (f" of {who(p.winner)[0]}'s win" if p.winner is not None else "")
            + (f": {amount[0]}" if amount else "") + f", changes {_changes(p.score_changes)}",
            "记录的得分" + (f"（{who(p.winner)[1]}和牌）" if p.winner is not None else "")
            + (f"：{amount[1]}" if amount else "") + f"，分数变化 {_changes(p.score_changes)}")


def _seat_of(p: Any, who) -> tuple[str, str]:
    return who(p.seat)


_CORE: dict[str, Callable[..., tuple[str, str]]] = {
    "game_started": lambda p, who, _d: (
        f"Game starts under {p.ruleset}: " + ", ".join(p.players),
        f"对局开始（规则 {p.ruleset}）：" + "、".join(p.players)),
    "hand_started": lambda p, who, _d: (
        f"Hand {hand_ordinal(p.hand_number)} starts: {WIND_EN[p.prevalent_wind]} round, dealer seat {p.dealer}",
        f"第{hand_ordinal(p.hand_number)}局开始：{WIND_ZH[p.prevalent_wind]}风圈，庄家 {p.dealer}号位"),
    "tiles_dealt": lambda p, who, _d: (
        (f"{who(p.seat)[0]} is dealt {len(p.tiles)} tiles", f"{who(p.seat)[1]}起牌 {len(p.tiles)} 张") if p.tiles
        else (f"{who(p.seat)[0]} is dealt tiles (hidden)", f"{who(p.seat)[1]}起牌（不可见）")),
    "wildcard_indicator_revealed": lambda p, who, _d: (
        f"Wildcard indicator turned up: {tile_words(p.indicator)[0]}",
        f"翻精：{tile_words(p.indicator)[1]}"),
    "flower_replaced": lambda p, who, _d: (
        f"{who(p.seat)[0]} sets aside the flower {tile_words(p.flower)[0]}",
        f"{who(p.seat)[1]}补花 {tile_words(p.flower)[1]}"),
    "tile_drawn": _drawn,
    "tile_discarded": lambda p, who, _d: (
        f"{who(p.seat)[0]} discards {tile_words(p.tile)[0]}", f"{who(p.seat)[1]}打出 {tile_words(p.tile)[1]}"),
    "chow": _claim("chows", "吃", run=True),
    "pung": _claim("pungs", "碰"),
    "kong": _kong,
    "pass": _pass,
    "win_declared": _win,
    "exhaustive_draw": lambda p, who, _d: ("Exhaustive draw: the wall is empty and nobody won",
                                           "荒庄：牌墙摸完，无人和牌"),
    "penalty": lambda p, who, _d: (
        f"Penalty on {who(p.seat)[0]}: {_changes(p.score_changes)}" + (f" ({p.reason})" if p.reason else ""),
        f"{who(p.seat)[1]}被罚：{_changes(p.score_changes)}" + (f"（{p.reason}）" if p.reason else "")),
    "referee_ruling": lambda p, who, _d: (
        f"Referee ruling ({p.kind}) on event {p.ref_seq}: {p.ruling}"
        + (f", changes {_changes(p.score_changes)}" if p.score_changes else ""),
        f"裁判裁定（{p.kind}，第 {p.ref_seq} 号事件）：{p.ruling}"
        + (f"，分数变化 {_changes(p.score_changes)}" if p.score_changes else "")),
    "hand_ended": lambda p, who, _d: (f"Hand {hand_ordinal(p.hand_number)} ends", f"第{hand_ordinal(p.hand_number)}局结束"),
    "game_ended": lambda p, who, _d: (
        "Game over" + (f": final scores {list(p.final_scores)}" if p.final_scores else ""),
        "对局结束" + (f"：最终分数 {list(p.final_scores)}" if p.final_scores else "")),
    "kong_tiles_revealed": lambda p, who, _d: (
        f"{who(p.seat)[0]} opens the kong (dice {' '.join(map(str, p.dice))}): {_tiles_words(p.tiles)[0]}",
        f"{who(p.seat)[1]}开杠（骰子 {' '.join(map(str, p.dice))}）：{_tiles_words(p.tiles)[1]}"),
    "last_tile_declined": lambda p, who, _d: (
        f"{who(p.seat)[0]} declines the last tile of the wall", f"{who(p.seat)[1]}不要海底牌"),
    "player_aliased": lambda p, who, _d: (
        (f"{p.alias!r} is another name of {p.player!r}" if p.alias != p.player
         else f"{p.alias!r} is no longer an alias"),
        (f"“{p.alias}”是“{p.player}”的别名" if p.alias != p.player else f"“{p.alias}”不再是别名")),
    "birds_turned": lambda p, who, _d: (
        "Birds turned: " + (_tiles_words(p.tiles)[0] if p.tiles else "none"),
        "扎鸟：" + (_tiles_words(p.tiles)[1] if p.tiles else "无")),
}


#: Events whose words name the ruleset's amounts or items: worded with its RulesetWords.
_WORDED: dict[str, Callable[..., tuple[str, str]]] = {"score_reported": _reported, "opening_wins_declared": _opening}


def plain_value(v: Any) -> str:
    """A payload value for people, never a Python repr: None → ``-``, a bool → ``yes`` /
    ``no``, a tile → its glyph and code (``🀋W5``), a list of tiles → glyphs and codes
    (codes only past 20 tiles), another list → ``[a, b]``, a record → ``k=v`` pairs (empty
    ones left out), records in a list → ``[k=v; k=v]``."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, str):
        return f"{T.to_unicode(v)}{v}" if T.is_valid(v) else v
    if isinstance(v, dict):
        return " ".join(f"{k}={plain_value(x)}" for k, x in v.items() if x not in (None, [], {}, ""))
    if isinstance(v, (list, tuple)):
        if v and all(isinstance(x, str) and T.is_valid(x) for x in v):
            return " ".join(v) if len(v) > 20 else T.to_unicode(list(v)) + " " + " ".join(v)
        if v and all(isinstance(x, dict) for x in v):
            return "[" + "; ".join(plain_value(x) for x in v) + "]"
        return "[" + ", ".join(plain_value(x) for x in v) + "]"
    return str(v)


def payload_text(event: Any) -> str:
    """An event's payload as ``key=value`` pairs for people (:func:`plain_value`; empty values
    left out): ``seat=0 tile=🀋W5``."""
    p = event.payload_json() if hasattr(event, "payload_json") else {}
    parts = []
    for k, v in p.items():
        if v in (None, [], {}, ""):
            continue
        if isinstance(v, dict):
            parts.append(f"{k}={{{plain_value(v)}}}")
        else:
            parts.append(f"{k}={plain_value(v)}")
    return " ".join(parts)


def describe_event(event: Any) -> str:
    """One line for an event: ``#seq type key=value ...`` (:func:`payload_text`)."""
    return f"#{getattr(event, 'seq', '?')} {event.type} " + payload_text(event)
