"""docs/events.md runs as a test, and the event models refuse what the docs say is invalid.

* every ```json example parses with parse_event, sits under the heading of its type, and
  every type of EVENT_TYPES has exactly one example;
* the two stored examples carry the hash the documented algorithm gives, computed here
  with hashlib from the text of docs/events.md (not with eventlog.events.chain_hash);
* the examples survive the protobuf round trip.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from eventlog.convert import from_proto, to_proto
from eventlog.events import (
    EVENT_TYPES,
    EventError,
    NewEvent,
    StoredEvent,
    TileDrawn,
    chain_hash,
    expected_hash,
    parse_event,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "events.md"
_BLOCK = re.compile(r"^```json( stored)?\n(.*?)^```", re.S | re.M)


def _examples() -> list[tuple[str, bool, str]]:
    """(heading type or "", stored?, JSON line) for every line of every json block."""
    text = DOC.read_text(encoding="utf-8")
    out = []
    for m in _BLOCK.finditer(text):
        heading = re.findall(r"^### `([a-z_]+)`", text[: m.start()], re.M)
        for line in m.group(2).splitlines():
            if line.strip():
                out.append((heading[-1] if heading else "", bool(m.group(1)), line))
    return out


EXAMPLES = _examples()
APPEND_FORM = [(t, line) for t, stored, line in EXAMPLES if not stored]
STORED_FORM = [line for _, stored, line in EXAMPLES if stored]


def test_every_event_type_has_exactly_one_example() -> None:
    assert sorted(t for t, _ in APPEND_FORM) == sorted(EVENT_TYPES)
    assert len(STORED_FORM) == 2


@pytest.mark.parametrize(("heading", "line"), APPEND_FORM, ids=[t for t, _ in APPEND_FORM])
def test_example_parses_under_its_heading_and_round_trips(heading: str, line: str) -> None:
    ev = parse_event(line)
    assert ev.type == heading
    assert from_proto(to_proto(ev)) == ev


def _canonical(obj) -> bytes:
    # docs/events.md "The hash chain": sorted keys, "," and ":" separators, UTF-8 as is
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def test_stored_examples_carry_the_documented_hash_chain() -> None:
    prev = "0" * 64
    for line in STORED_FORM:
        data = json.loads(line)
        body = {k: data[k] for k in ("event_id", "game_id", "metadata", "payload", "recorded_at",
                                     "schema_version", "seq", "type")}
        digest = hashlib.sha256(prev.encode("ascii") + b"\n" + _canonical(body)).hexdigest()
        assert data["prev_hash"] == prev
        assert data["hash"] == digest
        ev = StoredEvent.model_validate(data)
        assert expected_hash(ev) == digest  # the code agrees with the documented algorithm
        assert parse_event(line).event_id == ev.event_id  # stored fields are ignored
        prev = digest


def test_position_is_not_hashed_but_every_other_field_is() -> None:
    data = json.loads(STORED_FORM[0])
    ev = StoredEvent.model_validate(data)
    assert expected_hash(ev.model_copy(update={"position": 999})) == ev.hash
    for field, value in [("seq", 5), ("recorded_at", "2026-11-30T00:00:00.000000Z"), ("game_id", "other"),
                         ("metadata", {"line": 2})]:
        assert expected_hash(ev.model_copy(update={field: value})) != ev.hash, field
    other = dict(data["payload"], source="edited")
    args = dict(game_id=ev.game_id, seq=0, event_id=ev.event_id, type_=ev.type, schema_version=1,
                payload=other, metadata=ev.metadata, recorded_at=ev.recorded_at)
    assert chain_hash(ev.prev_hash, **args) != ev.hash


# ----------------------------------------------------------------------------- refusals
UID = "3f0e8a52-5b7c-4d3e-9a41-0c6f2b1d7eff"


@pytest.mark.parametrize(
    ("type_", "payload", "field"),
    [
        ("tile_discarded", {"seat": 4, "tile": "W1"}, "payload.seat"),
        ("tile_discarded", {"seat": 0, "tile": "H2"}, "payload.tile"),  # flowers are never discarded
        ("tile_discarded", {"seat": 0, "tile": "W0"}, "payload.tile"),
        ("hand_started", {"hand_number": 0, "prevalent_wind": "J1", "dealer": 0}, "payload.prevalent_wind"),
        ("flower_replaced", {"seat": 0, "flower": "X9"}, "payload.flower"),
        ("chow", {"seat": 1, "tiles": ["W2", "W4", "W5"], "claimed_tile": "W4", "discard_seq": 3}, "payload"),
        ("chow", {"seat": 1, "tiles": ["W2", "W3", "W4"], "claimed_tile": "W5", "discard_seq": 3}, "payload"),
        ("kong", {"seat": 1, "kind": "melded", "tile": "W2"}, "payload"),  # names no discard
        ("kong", {"seat": 1, "kind": "added", "tile": "W2", "discard_seq": 3}, "payload"),
        ("win_declared", {"seat": 1, "tile": "W2", "self_drawn": True, "from_seat": 2}, "payload"),
        ("win_declared", {"seat": 1, "tile": "W2", "self_drawn": False}, "payload"),
        ("penalty", {"seat": 0, "score_changes": [1, 2, 3]}, "payload.score_changes"),
        ("exhaustive_draw", {"winner": 1}, "payload.winner"),  # no unknown fields
        ("tile_swapped", {}, "type"),
    ],
)
def test_malformed_payload_names_the_field(type_: str, payload: dict, field: str) -> None:
    with pytest.raises(EventError) as exc:
        parse_event({"event_id": UID, "type": type_, "payload": payload})
    assert exc.value.field == field


def test_a_win_on_the_winners_own_discard_is_an_event() -> None:
    """What happened, not whether it was legal (issue 13 item 7): a source log may say a seat
    won on its own discard; the event holds it and the replayer reports claim_own_discard."""
    ev = parse_event({"event_id": UID, "type": "win_declared",
                      "payload": {"seat": 1, "tile": "W2", "self_drawn": False, "from_seat": 1, "discard_seq": 7}})
    assert (ev.payload.seat, ev.payload.from_seat) == (1, 1)


def test_missing_envelope_fields_are_named() -> None:
    for data, field in [({"type": "exhaustive_draw"}, "event_id"), ({"event_id": UID}, "type"),
                        ({"event_id": "x", "type": "exhaustive_draw"}, "event_id")]:
        with pytest.raises(EventError) as exc:
            parse_event(data)
        assert exc.value.field == field


def test_chow_tiles_are_stored_sorted() -> None:
    ev = parse_event({"event_id": UID, "type": "chow",
                      "payload": {"seat": 1, "tiles": ["T7", "T5", "T6"], "claimed_tile": "T5", "discard_seq": 4}})
    assert ev.payload.tiles == ["T5", "T6", "T7"]


def test_id_seed_gives_the_same_event_id_on_every_import() -> None:
    a = NewEvent.of(TileDrawn(seat=0), id_seed="table3.jsonl:17")
    b = NewEvent.of(TileDrawn(seat=0), id_seed="table3.jsonl:17")
    c = NewEvent.of(TileDrawn(seat=0), id_seed="table3.jsonl:18")
    assert a.event_id == b.event_id != c.event_id
