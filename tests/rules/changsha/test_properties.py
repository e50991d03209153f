"""Properties of Changsha settlement (docs/reference/rules/changsha.md §5): every component is
zero-sum, birds never lower what a winner receives, a discard win takes money from the
discarder only, and scoring is deterministic."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from replayer.rules.changsha.options import parse_options
from replayer.rules.changsha.settlement import kong_money, pay
from replayer.rules.changsha.vectors import score_case

seats = st.integers(0, 3)
options = st.fixed_dictionaries({
    "unit": st.integers(1, 50),
    "birds": st.sampled_from([1, 2, 4, 6]),
    "bird_origin": st.sampled_from(["dealer", "winner"]),
    "bird_mode": st.sampled_from(["add", "multiply"]),
    "bird_excludes_dealer_bonus": st.booleans(),
    "kong_pay": st.fixed_dictionaries({"ming": st.integers(0, 30), "an": st.integers(0, 30)}),
}).map(parse_options)


@settings(max_examples=300, deadline=None)
@given(opts=options, winner=seats, discarder=st.none() | seats, dealer=seats, units=st.integers(1, 6),
       big=st.booleans(), hits=st.lists(seats, max_size=6))
def test_a_payment_is_zero_sum_and_birds_only_add(opts, winner, discarder, dealer, units, big, hits):
    if discarder == winner:
        discarder = None
    value = opts.unit * (6 if big else 1)
    win, bird = pay(winner=winner, discarder=discarder, units=units, value=value, dealer=dealer,
                    hits_on=hits, options=opts)
    assert sum(win) == 0 and sum(bird) == 0
    assert win[winner] > 0 and bird[winner] >= 0
    for s in range(4):
        if s != winner:
            assert win[s] <= 0 and bird[s] <= 0
            if discarder is not None and s != discarder:
                assert win[s] == 0 and bird[s] == 0
    no_birds, _ = pay(winner=winner, discarder=discarder, units=units, value=value, dealer=dealer, hits_on=(),
                      options=opts)
    assert no_birds == win


@settings(max_examples=100, deadline=None)
@given(opts=options, seat=seats, kind=st.sampled_from(["melded", "added", "concealed"]))
def test_kong_money_is_zero_sum(opts, seat, kind):
    assert sum(kong_money(seat, kind, opts)) == 0


DATA = Path(__file__).resolve().parents[2] / "data" / "changsha" / "settlement_vectors.jsonl"


@settings(max_examples=60, deadline=None)
@given(idx=st.integers(0, 44), opts=st.fixed_dictionaries({
    "unit": st.integers(1, 50), "bird_mode": st.sampled_from(["add", "multiply"]),
    "bird_excludes_dealer_bonus": st.booleans(), "bird_origin": st.sampled_from(["dealer", "winner"]),
    "kong_pay": st.fixed_dictionaries({"ming": st.integers(0, 30), "an": st.integers(0, 30)}),
}))
def test_every_vector_under_other_options_is_zero_sum_and_deterministic(idx, opts):
    case = json.loads(DATA.read_text(encoding="utf-8").splitlines()[idx])
    case["options"] = {**case["options"], **opts}
    a = score_case(json.loads(json.dumps(case)))
    b = score_case(json.loads(json.dumps(case)))
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert "error" not in a, a
    for comp in a["components"].values():
        assert sum(comp) == 0
    assert a["total"] == [sum(v[i] for v in a["components"].values()) for i in range(4)]
