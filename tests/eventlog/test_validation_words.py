"""pydantic's refusals said in our one-line form, from one place (eventlog.errors.validation_line):
the field path and why in words — never pydantic's multi-line text, its `[type=…]`, its URL or its
"Input should be …" — for events, ruleset options, tournament records and vector cases alike."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from eventlog.errors import validation_line, validation_problem
from eventlog.events import EventError, parse_event
from replayer.findings import RulesetError
from replayer.rules.base import get_ruleset

ROOT = Path(__file__).resolve().parents[2]
UID = "1df71f86-ab94-84a5-a35c-4d0c00000000"
PYDANTIC = re.compile(r"Input should|Extra inputs|Field required|errors\.pydantic\.dev|\[type=|validation error")


class _Meld(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tiles: list[str] = Field(min_length=3)


class _Case(BaseModel):
    model_config = ConfigDict(extra="forbid")
    points: int = Field(ge=-5, le=5)
    scope: Literal["table", "best"] = "table"
    table: str = Field("1", min_length=1)
    melds: list[_Meld] = []


def _error(**fields) -> ValidationError:
    with pytest.raises(ValidationError) as e:
        _Case(**fields)
    return e.value


@pytest.mark.parametrize("fields, line", [
    ({"points": 9}, "points: must be at most 5, got 9"),
    ({"points": "x"}, "points: must be a whole number, got 'x'"),
    ({}, "points: missing (a required field)"),
    ({"points": 1, "scope": "all"}, "scope: must be one of 'table' or 'best', got 'all'"),
    ({"points": 1, "table": ""}, "table: must not be empty"),
    ({"points": 1, "tabel": "2"}, "tabel: not a known field (known: melds, points, scope, table)"),
    ({"points": 1, "melds": [{"tiles": ["W1"]}]}, "melds[0].tiles: must have at least 3 items, got ['W1']"),
])
def test_one_line_naming_the_field(fields, line):
    assert validation_line(_error(**fields), known=_Case.model_fields) == line


def test_where_prefix_and_unknown_words():
    e = _error(points=1, nosuch=2)
    assert validation_line(e, "f.jsonl:3: ", prefix=("options",), unknown="no such option") == \
        "f.jsonl:3: options.nosuch: no such option"
    assert validation_problem(e) == ("nosuch", "not a known field")


@pytest.mark.parametrize("ruleset, options, want", [
    ("mcr", {"min_fans": "x"}, "mcr option min_fans: must be a whole number, got 'x'"),
    ("mcr", {"nosuch": 1}, "mcr option nosuch: no such option"),
    ("nanchang", {"nosuch": 1}, "nanchang option nosuch: no such option"),
    ("sichuan", {"nosuch": 1}, "sichuan option nosuch: no such option"),
    ("cjm_chips", {"nosuch": 1}, "cjm_chips option nosuch: no such option"),
    ("changsha", {"nosuch": 1}, "changsha option nosuch: no such option (docs/reference/rules/changsha.md §6)"),
])
def test_ruleset_options_are_refused_in_our_words(ruleset, options, want):
    with pytest.raises(RulesetError) as e:
        get_ruleset(ruleset, options)
    assert str(e.value) == want


def test_events_are_refused_in_our_words():
    with pytest.raises(EventError) as e:
        parse_event({"event_id": UID, "type": "penalty", "payload": {"seat": 0, "score_changes": [1, 2, 3]}})
    assert (e.value.field, str(e.value)) == (
        "payload.score_changes", "penalty: payload.score_changes: must have at least 4 items, got [1, 2, 3]")
    with pytest.raises(EventError) as e:
        parse_event({"event_id": UID, "type": "exhaustive_draw", "payload": {"winner": 1}})
    assert str(e.value) == "exhaustive_draw: payload.winner: not a known field"
    assert not PYDANTIC.search(str(e.value))


def test_no_module_words_pydantic_errors_itself():
    # one shared place: a module reading pydantic's error text ("msg") would say it its own way
    hits = []
    # the project's own packages only: a virtual environment inside the checkout (CI's .venv-ci)
    # holds other people's code
    packages = ("eventlog", "replayer", "analytics", "services", "dashboard", "paipu")
    for path in sorted(p for pkg in packages for p in (ROOT / pkg).glob("**/*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("paipu/v1/") or rel == "eventlog/errors.py":
            continue
        text = path.read_text(encoding="utf-8")
        if re.search(r"""\[["']msg["']\]""", text):
            hits.append(rel)
    assert hits == []
