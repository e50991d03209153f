"""Every text names amounts in the game's ruleset's own unit, declared by the ruleset as data
(``RulesetSpec.score_unit``): Changsha totals are units (changsha.md §5: small and big units,
an item worth X or 6X points), Sichuan totals fan (sichuan.md §6), Nanchang items factors
(nanchang.md §9.5 b: 大七对 ×2 …), MCR points (competition.md Part B); and events that name a
ruleset's item by id show its names (Changsha's 六六顺, changsha.md §3.2)."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from eventlog import events as ev
from eventlog.describe import describe_words
from replayer.rules.base import known_rulesets, ruleset_words_of, score_unit_of

DOCS = Path(__file__).resolve().parents[1] / "docs" / "analytics.md"


def _event(payload):
    return SimpleNamespace(type=payload.TYPE, payload=payload, seq=9)


def _table():
    return SimpleNamespace(seats=[SimpleNamespace(wind=w) for w in ("F1", "F2", "F3", "F4")],
                           find_discard=lambda seq: None)


@pytest.mark.parametrize("ruleset,total,en,zh", [
    ("changsha", 1, "North's win: 1 unit,", "：1 个单位"),
    ("sichuan", 0, "North's win: 0 fan,", "：0 番"),
    ("mcr", 12, "North's win: 12 points,", "：12 分"),
])
def test_the_reported_score_is_in_the_rulesets_unit(ruleset, total, en, zh):
    e = _event(ev.ScoreReported(winner=3, score_changes=[-10, -10, -10, 30], total=total))
    words_en, words_zh = describe_words(e, _table(), ruleset_words_of(ruleset))
    assert en in words_en and zh in words_zh
    if ruleset != "mcr":
        assert "points" not in words_en


def test_opening_wins_are_named_as_the_ruleset_names_them():
    e = _event(ev.OpeningWinsDeclared(seat=1, wins=[ev.OpeningWin(kind="two_pungs", tiles=["W3"] * 3 + ["B7"] * 3)]))
    en, zh = describe_words(e, _table(), ruleset_words_of("changsha"))
    assert "六六顺" in en and "two_pungs" not in en
    assert "六六顺" in zh and "two_pungs" not in zh


def test_a_preset_has_its_base_rulesets_unit():
    assert score_unit_of("ji_an") == score_unit_of("nanchang")
    assert score_unit_of("nanchang").item_value(2) == "×2"  # a factor, not 2 points
    assert score_unit_of("changsha").item_value(10) == "10 points per unit"


def test_docs_say_per_ruleset_what_the_parquet_value_columns_hold():
    text = DOCS.read_text(encoding="utf-8")
    units = text[text.index("**Units.**"):]
    rows = [ln for ln in units.splitlines() if ln.startswith("| `")]
    for rid in known_rulesets():
        row = next((r for r in rows if f"`{rid}`" in r.split("|")[1]), None)
        assert row is not None, f"docs/analytics.md Units: no row for {rid}"
        unit = score_unit_of(rid)
        cells = row.split("|")
        assert unit.total[1] in cells[2], (rid, unit.total, cells[2])  # wins.total
        assert re.search(rf"\b{re.escape(unit.item)}\b", cells[3]), (rid, unit.item, cells[3])  # fans.points
