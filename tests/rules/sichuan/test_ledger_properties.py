"""Properties of the Sichuan settlement (docs/reference/rules/sichuan.md §3, §8): every
component is zero-sum; a player who has won never pays or receives again (except 退税 refunds
to original payers, §12.12); the same occurrences settle identically."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from replayer.rules.sichuan.options import SichuanOptions
from replayer.rules.sichuan.settlement import (
    COMPONENTS,
    DrawOcc,
    KongOcc,
    Ledger,
    SeatHand,
    WinOcc,
)

# Hands that win on B5 (平胡), on W9 (清一色) and a hand that is not ready / a 花猪.
WIN_B5 = ("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "B2", "B3", "B4", "B5")
WIN_W9 = ("W1", "W1", "W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "W9", "W9")
NOT_READY = ("W1", "W3", "W5", "W7", "W9", "B1", "B3", "B5", "B7", "B9", "B2", "B4", "B8")
PIG = ("W1", "W3", "W5", "T7", "T9", "B1", "B3", "B5", "B7", "B9", "B2", "B4", "B8")
READY = ("T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "B2", "B3", "B4", "B5")

occurrence = st.one_of(
    st.tuples(st.just("kong"), st.integers(0, 3), st.sampled_from(["concealed", "melded", "added"]), st.integers(1, 3)),
    st.tuples(st.just("win"), st.integers(0, 3), st.sampled_from(["self", "discard"]), st.integers(1, 3)),
    st.tuples(st.just("draw"), st.integers(0, 3), st.just(""), st.just(0)),
)
end_hands = st.lists(st.sampled_from([NOT_READY, PIG, READY]), min_size=4, max_size=4)
opts = st.builds(SichuanOptions, cap=st.sampled_from([None, 3, 4]), tuishui=st.booleans(),
                 hujiao_zhuanyi=st.booleans(), zimo_bonus=st.sampled_from(["none", "jiadi", "jiafan"]))


def run(options, occs, ends):
    led = Ledger(options)
    trace = []
    for kind, seat, how, off in occs:
        if led.over:
            break
        before = led.total()
        out_before = tuple(led.out)
        if led.out[seat]:
            continue
        other = next((s for s in ((seat + k) % 4 for k in (off, 1, 2, 3)) if not led.out[s] and s != seat), None)
        if kind == "kong":
            if how == "melded" and other is None:
                continue
            led = led.kong(KongOcc(seat, how, "T5", other if how == "melded" else None))  # type: ignore[arg-type]
        elif kind == "win":
            hand = SeatHand(seat, WIN_W9 if how == "self" else WIN_B5)
            if how == "self":
                led = led.win(WinOcc("W9", (hand,), None))
            elif other is not None:
                led = led.win(WinOcc("B5", (hand,), other))
        else:
            led = led.draw(DrawOcc(seat))
        trace.append((out_before, before, led.total()))
    if not led.over:
        led = led.exhaust(tuple(SeatHand(s, ends[s]) for s in led.still_in()))
    return led, trace


@settings(max_examples=150, deadline=None)
@given(opts, st.lists(occurrence, max_size=12), end_hands)
def test_zero_sum_and_seats_out_never_pay(options, occs, ends):
    led, trace = run(options, occs, ends)
    for c in COMPONENTS:
        assert sum(led.component(c)) == 0, c
    for out_before, before, after in trace:
        for s in range(4):
            if out_before[s]:
                assert before[s] == after[s], "a seat that has won paid or received"
    # after the hand: only 退税 may move money of seats that won (refunds to original payers)
    for p in led.component_payments("huazhu") + led.component_payments("chajiao"):
        assert not led.out[p.payer] and not led.out[p.payee]
    again, _ = run(options, occs, ends)
    assert again.components() == led.components() and again.next_dealer() == led.next_dealer()
