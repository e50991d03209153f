"""定缺 — Sichuan's own event type ``sichuan.void_suit_declared`` (docs/reference/rules/sichuan.md
§2, option ``dingque_declared``): parsed, stored and carried through protobuf like a core
event (the docs/events.md example), and each rule it brings is a finding naming §2 in audit,
an error in strict: a win holding the declared suit, must_discard_void_first, a pung of one's
own void suit (§12.20, option void_suit_melds), the dealer discarding before every seat
declared, a second declaration, a declaration without the option."""

from __future__ import annotations

import re
from pathlib import Path

from eventlog import events as ev
from eventlog.convert import from_proto, to_proto
from replayer.replay import run
from replayer.rules.sichuan.events import VoidSuitDeclared
from replayer.rules.sichuan.play import build

from tests.rules.sichuan.hands import SichuanHand
from tests.rules.sichuan.test_rules import E_JUNK, N_JUNK, S_READY, W_JUNK, check

DOC = Path(__file__).resolve().parents[3] / "docs" / "events.md"
DQ = {"dingque_declared": True}


def test_docs_example_parses_and_round_trips_through_protobuf():
    (line,) = re.findall(r"^```json sichuan\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.S | re.M)
    e = ev.parse_event(line)
    assert e.type == "sichuan.void_suit_declared" and e.payload == VoidSuitDeclared(seat=2, suit="T")
    msg = to_proto(e)
    assert msg.WhichOneof("payload") == "ruleset_event"
    assert msg.ruleset_event.payload.type_url.endswith("paipu.v1.SichuanVoidSuitDeclared")
    assert from_proto(msg) == e


def declared(hands: dict[int, str], voids: str, options: dict | None = None, **kw) -> SichuanHand:
    h = SichuanHand(hands, options={**DQ, **(options or {})}, **kw)
    for seat, suit in enumerate(voids):
        h.g.add(VoidSuitDeclared(seat=seat, suit=suit))
    return h


def test_declared_voids_are_remembered_and_a_clean_hand_replays():
    h = declared({0: E_JUNK, 1: S_READY, 2: W_JUNK, 3: N_JUNK}, "TTWW")
    h.discard(0, "W6")
    h.turn(1)
    h.draw(2, "B3")
    d = h.discard(2, "B3")
    h.win(1, "B3", from_seat=2, dseq=d)  # S holds W and B, declared T: legal
    res = run(h.events(), mode="strict", ruleset=build(DQ))
    assert res.findings == ()
    assert build(DQ).seat_notes(res.state) == ("void T 条", "void T 条", "void W 万", "void W 万")


def test_a_win_holding_the_declared_suit_s2():
    h = declared({0: E_JUNK, 1: S_READY, 2: W_JUNK, 3: N_JUNK}, "TBWW")  # S declared B and holds B
    h.discard(0, "W6")
    h.turn(1)
    h.draw(2, "B3")
    d = h.discard(2, "B3")
    w = h.win(1, "B3", from_seat=2, dseq=d)
    check(h, "void_suit", "§2", DQ, seq=w)


def test_must_discard_void_first_s2():
    opts = {"must_discard_void_first": True}
    h = declared({0: E_JUNK, 1: S_READY, 2: W_JUNK, 3: N_JUNK}, "TBWW", opts)
    h.discard(0, "T1")  # E declared T: fine
    h.draw(1, "T3")
    d = h.discard(1, "T3")  # S declared B and still holds B4 B5 B8 B8: must discard them first
    check(h, "must_discard_void_first", "§2", {**DQ, **opts}, seq=d)


def test_no_pung_of_ones_own_void_suit_s12_20():
    h2 = declared({0: E_JUNK.replace("W6", "B8"), 1: "W1 W2 W3 W4 W5 W6 W7 W8 W9 B8 B8 T6 T6", 2: W_JUNK, 3: N_JUNK},
                  "TBWW")
    d = h2.discard(0, "B8")
    p = h2.pung(1, "B8", d)  # S declared B (筒): no pung of it
    check(h2, "void_suit_meld", "§12.20", DQ, seq=p)
    # with void_suit_melds = allowed the pung stands
    res = run(h2.events(), mode="audit", ruleset=build({**DQ, "void_suit_melds": "allowed"}))
    assert not [f for f in res.findings if f.rule_id == "void_suit_meld"]


def test_the_dealer_may_not_discard_before_every_seat_declared_s2():
    h = SichuanHand({0: E_JUNK, 1: S_READY, 2: W_JUNK, 3: N_JUNK}, options=DQ)
    h.g.add(VoidSuitDeclared(seat=0, suit="T"))
    d = h.discard(0, "W6")
    check(h, "void_suit_not_declared", "§2", DQ, seq=d)


def test_declaring_twice_or_without_the_option():
    h = SichuanHand({0: E_JUNK, 1: S_READY, 2: W_JUNK, 3: N_JUNK}, options=DQ)
    h.g.add(VoidSuitDeclared(seat=1, suit="T"))
    s = h.g.add(VoidSuitDeclared(seat=1, suit="W"))
    check(h, "void_suit_declared_twice", "§2", DQ, seq=s)
    h = SichuanHand({0: E_JUNK, 1: S_READY, 2: W_JUNK, 3: N_JUNK})
    s = h.g.add(VoidSuitDeclared(seat=1, suit="T"))
    check(h, "void_suit_not_in_options", "§2", {}, seq=s)
