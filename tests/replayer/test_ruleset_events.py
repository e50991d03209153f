"""A ruleset's own event types (issue 14 item 2), with the test ruleset's
``blood_test.void_suit_declared``: parsed and stored like core events, the protobuf round
trip through RulesetEvent, the docs/events.md example, one handler dispatched by type,
registration refusing a type outside the ruleset's namespace, and a finding when a game of
another ruleset carries it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import continuing_ruleset as blood
from eventlog import events as ev
from eventlog.convert import from_proto, to_proto
from eventlog.store.memory import MemoryStore
from replay_builder import GameBuilder
from replayer.findings import RulesetError
from replayer.replay import run
from replayer.rules.base import RulesetSpec, register

DOC = Path(__file__).resolve().parents[2] / "docs" / "events.md"


def _declare(seat: int, suit: str) -> ev.Payload:
    return blood.VoidSuitDeclared(seat=seat, suit=suit)


def test_the_docs_example_parses_and_round_trips_through_protobuf():
    (line,) = re.findall(r"^```json ruleset\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.S | re.M)
    e = ev.parse_event(line)
    assert e.type == "blood_test.void_suit_declared" and e.payload == _declare(1, "W")
    msg = to_proto(e)
    assert msg.WhichOneof("payload") == "ruleset_event"
    assert msg.ruleset_event.payload.type_url.endswith("paipu.v1.blood_test.VoidSuitDeclared")
    assert from_proto(msg) == e


def test_unknown_and_invalid():
    with pytest.raises(ev.EventError, match="no ruleset 'nosuch' declares it"):
        ev.parse_event({"event_id": "3f0e8a52-5b7c-4d3e-9a41-0c6f2b1d7e21", "type": "nosuch.thing", "payload": {}})
    with pytest.raises(ev.EventError, match="suit"):
        ev.parse_payload("blood_test.void_suit_declared", {"seat": 1, "suit": "F"})


def test_stored_and_read_back():
    store = MemoryStore()
    g = GameBuilder("rs", ruleset="blood_test")
    g.add(_declare(2, "T"))
    store.append("rs", [ev.NewEvent.of(p, id_seed=f"rs/{i}") for i, p in enumerate(g.payloads)], expected_version="no_stream")
    back = list(store.read_game("rs"))
    assert back[1].type == "blood_test.void_suit_declared" and back[1].payload == _declare(2, "T")


def _hand(declare: ev.Payload | None, *, ruleset: str = "blood_test") -> GameBuilder:
    g = GameBuilder("rs", ruleset=ruleset)
    g.hand(0, dealer=0)
    tiles = ("W5 W5 W6 W6 W7 W7 W8 W8 T5 T6 T7 B5 B6 B9", "T1 T1 T1 T2 T2 T2 T3 T3 T3 T4 T4 T4 B9",
             "B1 B1 B1 B2 B2 B2 B3 B3 B3 B4 B4 B4 B9", "W1 W1 W1 W2 W2 W2 W3 W3 W3 W4 W4 W4 F1")
    for seat, t in enumerate(tiles):
        g.deal(seat, t)
    if declare is not None:
        g.add(declare)
    d = g.discard(0, "B9")
    g.win(1, "B9", from_seat=0, dseq=d)
    return g


def test_one_handler_dispatched_by_type_and_the_ruleset_judges_with_it():
    # seat 1 declared bamboo (T) void but wins with T1..T4: a false win under the ruleset
    result = run(_hand(_declare(1, "T")).events())
    assert [f.rule_id for f in result.findings] == ["void_suit"]
    assert result.state.rule_memory.void == (None, "T", None, None)
    # declared dots (B) void for seat 3: seat 1's win stands
    assert not run(_hand(_declare(3, "B")).events()).findings


def test_declared_out_of_phase_and_twice():
    g = _hand(_declare(2, "W"))
    g.add(_declare(2, "W"))
    rules = [f.rule_id for f in run(g.events()).findings]
    assert rules == ["void_suit_out_of_phase", "void_suit_twice"]


def test_in_a_game_of_another_ruleset():
    g = GameBuilder("rs", ruleset="mcr")
    g.hand(0, dealer=0)
    g.add(_declare(1, "T"))
    findings = run(g.events()).findings
    assert [f.rule_id for f in findings] == ["event_not_in_ruleset"]


def test_registration_refuses_foreign_or_doubled_types():
    spec = RulesetSpec(id="other_test", description="", options_model=blood.BloodOptions, build=blood.build,
                       events=((blood.VoidSuitDeclared, blood.void_suit_declared),))
    with pytest.raises(RulesetError, match="prefix"):
        register(spec)
    twice = RulesetSpec(id="blood_test2", description="", options_model=blood.BloodOptions, build=blood.build,
                        events=((blood.VoidSuitDeclared, blood.void_suit_declared),) * 2)
    with pytest.raises(RulesetError):
        register(twice)
