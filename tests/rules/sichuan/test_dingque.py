"""Sichuan's own event types — 定缺 ``sichuan.void_suit_declared`` (docs/reference/rules/sichuan.md
§2, option ``dingque_declared``) and 唱歌/跳舞 ``sichuan.ready_declared`` (§5.2, option
``declarations``): parsed and carried through protobuf like core events (the docs/events.md
examples), and each rule they bring is a finding naming its section in audit, an error in
strict: a win holding the declared suit, must_discard_void_first, a pung of one's own void
suit (§12.20, option void_suit_melds), the dealer discarding before every seat declared, a
second declaration, a declaration without the option; a dancer's winning tile discarded by a
player who has not announced, a dance showing waits the hand does not have."""

from __future__ import annotations

import re
from pathlib import Path

from eventlog import events as ev
from eventlog.convert import from_proto, to_proto
from replayer.replay import run
from replayer.rules.sichuan.events import ReadyDeclared, VoidSuitDeclared
from replayer.rules.sichuan.play import build

from tests.rules.sichuan.hands import SichuanHand
from tests.rules.sichuan.test_rules import E_JUNK, N_JUNK, S_READY, W_JUNK, check

DOC = Path(__file__).resolve().parents[3] / "docs" / "events.md"
DQ = {"dingque_declared": True}


def test_docs_examples_parse_and_round_trip_through_protobuf():
    lines = re.findall(r"^```json sichuan\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.S | re.M)
    assert len(lines) == 2
    want = [(VoidSuitDeclared(seat=2, suit="T"), "SichuanVoidSuitDeclared"),
            (ReadyDeclared(seat=1, waits=["B3", "B6"]), "SichuanReadyDeclared")]
    for line, (payload, message) in zip(lines, want):
        e = ev.parse_event(line)
        assert e.type == payload.TYPE and e.payload == payload
        msg = to_proto(e)
        assert msg.WhichOneof("payload") == "ruleset_event"
        assert msg.ruleset_event.payload.type_url.endswith("paipu.v1." + message)
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


def test_dancers_winning_tile_may_not_be_discarded_by_a_silent_player_s5_2():
    opts = {"declarations": True}
    h = SichuanHand({0: E_JUNK, 1: S_READY, 2: W_JUNK, 3: N_JUNK}, options=opts, reserve="B3 B6")
    h.discard(0, "W6")
    h.turn(1)
    h.g.add(ReadyDeclared(seat=1, waits=["B3", "B6"]))  # S dances: shows 3p / 6p
    h.draw(2, "B6")
    d = h.discard(2, "B6")  # W has not announced: may not discard S's winning tile
    check(h, "dancer_wait_discarded", "§5.2", opts, seq=d)


def test_a_false_dance_is_a_finding_s5_2():
    opts = {"declarations": True}
    h = SichuanHand({0: E_JUNK, 1: S_READY, 2: W_JUNK, 3: N_JUNK}, options=opts, reserve="B3 B6")
    h.discard(0, "W6")
    h.turn(1)
    h.g.add(ReadyDeclared(seat=1, waits=["B3", "B6"]))
    h.g.add(ReadyDeclared(seat=0, waits=["B3"]))  # E (not ready) dances: a false announcement
    h.g.add(ReadyDeclared(seat=1, waits=["B3"]))  # S shows only one of its two waits
    res = run(h.events(), mode="audit", ruleset=build(opts))
    assert [(f.rule_id, f.seat) for f in res.findings] == [("declaration_not_ready", 0), ("declaration_not_ready", 1)]
