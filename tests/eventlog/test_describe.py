"""Events in plain words (issue 21 item 1): the one describer of eventlog/describe.py, shared by
``paipu replay`` and the dashboard. Every core event type has its words (none falls back to the
field dump); a ruleset's own event type describes itself; seats are named by their wind;
tiles as glyph + name (the glyphs and Chinese names are those of DESIGN.md §3 / Unicode's
Mahjong Tiles block, written out here by hand)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from eventlog import events as ev
from eventlog.describe import _CORE, _WORDED, describe_words, tile_words


def _table(winds=("F1", "F2", "F3", "F4"), discards=None):
    """A stand-in for the table after the event: seat winds and who made each discard."""
    discards = discards or {}
    return SimpleNamespace(seats=[SimpleNamespace(wind=w) for w in winds],
                           find_discard=lambda seq: (discards[seq], 0, None) if seq in discards else None)


def _event(payload, seq=7):
    return SimpleNamespace(type=payload.TYPE, payload=payload, seq=seq,
                           payload_json=lambda: payload.model_dump(mode="json"))


def test_every_core_event_type_has_words():
    assert set(ev.EVENT_TYPES) <= set(_CORE) | set(_WORDED)  # _WORDED: in the ruleset's words


@pytest.mark.parametrize("tile,en,zh", [
    ("W5", "🀋 5万", "🀋 五万"), ("J1", "🀄 Red", "🀄 中"), ("F2", "🀁 South", "🀁 南"),
    ("B9", "🀡 9饼", "🀡 九饼"), ("H5", "🀢 Plum", "🀢 梅"),
])
def test_tile_words(tile, en, zh):
    assert tile_words(tile) == (en, zh)


def test_the_issues_examples():
    t = _table(discards={3: 0})
    assert describe_words(_event(ev.TileDiscarded(seat=0, tile="W5")), t) == ("East discards 🀋 5万", "东家打出 🀋 五万")
    assert describe_words(_event(ev.Pung(seat=1, tile="J1", discard_seq=3)), t) == (
        "South pungs 🀄 Red from East", "南家碰东家的 🀄 中")


def test_wins_and_kongs_in_words():
    t = _table(winds=("F3", "F4", "F1", "F2"), discards={9: 2})
    en, zh = describe_words(_event(ev.WinDeclared(seat=0, tile="B2", self_drawn=False, from_seat=2, discard_seq=9)), t)
    assert en == "West wins on 🀚 2饼 from East" and zh == "西家和东家打出的 🀚 二饼"
    en, zh = describe_words(_event(ev.WinDeclared(seat=1, tile="B2", self_drawn=True)), t)
    assert en == "North wins by self-draw on 🀚 2饼" and zh.startswith("北家自摸")
    en, zh = describe_words(_event(ev.Kong(seat=3, kind="concealed", tile="T1")), t)
    assert en == "South declares a concealed kong of 🀐 1条" and zh == "南家暗杠 🀐 一条"


def test_without_a_table_seats_are_numbered():
    assert describe_words(_event(ev.TileDiscarded(seat=2, tile="F1")))[0] == "Seat 2 discards 🀀 East"


def test_a_ruleset_event_describes_itself():
    from replayer.rules.base import get_ruleset

    get_ruleset("sichuan")  # registers its event types
    cls = ev.payload_model("sichuan.void_suit_declared")
    en, zh = describe_words(_event(cls(seat=1, suit="T")), _table())
    assert en == "South declares 条 void (定缺)" and zh == "南家定缺：条"
    cls = ev.payload_model("sichuan.ready_declared")
    en, zh = describe_words(_event(cls(seat=0, waits=["W1", "W4"])), _table())
    assert "🀇🀊" in en and zh.startswith("东家跳舞")
