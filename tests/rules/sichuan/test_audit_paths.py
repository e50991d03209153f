"""Less common Sichuan paths (docs/reference/rules/sichuan.md), replayed as whole hands with
amounts worked out by hand from the spec text. Seats: E 0 (dealer), S 1, W 2, N 3."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from eventlog import events as ev
from replayer.replay import run
from replayer.rules.sichuan.play import build
from replayer.rules.sichuan.vectors import score_case
from tests.rules.sichuan.hands import SichuanHand


def _cannon_with_two_winners(order: tuple[int, ...], options: dict) -> SichuanHand:
    """N 暗杠 9p (E, S, W pay 2 each), draws its replacement 8p and discards 1s; E (平胡 with
    1s1s) and S (平胡, single wait 1s) both win on it (杠上炮 + 1 → 1 fan, 2 each from N),
    declared in ``order``."""
    h = SichuanHand({
        0: "W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W8 T1 T1 T9",
        1: "T2 T3 T4 T5 T6 T7 B2 B3 B4 B7 B7 B7 T1",
        2: "W9 W9 T8 T8 B5 B5 W6 T6 B6 W3 T3 B1 B1",
        3: "B9 B9 B9 B9 T1 W2 W2 T9 T9 B8 B8 W5 B6",
    }, options=options, reserve="B8")
    h.discard(0, "T9")
    h.turn(1)
    h.turn(2)
    t = h.safe_tile(3)
    h.draw(3, t, filler=True)
    h.kong(3, "concealed", "B9")
    h.draw(3, "B8", "kong_replacement")
    d = h.discard(3, "T1")
    for seat in order:
        h.win(seat, "T1", from_seat=3, dseq=d)
    h.fill(2)
    h.g.add(ev.ExhaustiveDraw())
    h.g.end(0)
    return h


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_hujiao_zhuanyi_goes_to_the_first_winner_in_turn_order_s12_11(order):
    """§3, §12.11 呼叫转移 with 一炮多响: N's kong collected 6; it moves to E, the first winner
    in turn order from N, whichever winner the log declares first. E −2 + 2 + 6 = +6,
    S −2 + 2 = 0, W −2, N +6 − 2 − 2 − 6 = −4."""
    opts = {"hujiao_zhuanyi": True}
    res = run(_cannon_with_two_winners(order, opts).events(), mode="strict", ruleset=build(opts))
    assert res.findings == ()
    assert res.state.scores == (6, 0, -2, -4)


def test_without_hujiao_zhuanyi_the_konger_keeps_its_income_s3():
    """The same hand without 呼叫转移: E 0, S 0, W −2, N +6 − 4 = +2."""
    res = run(_cannon_with_two_winners((1, 0), {}).events(), mode="strict", ruleset=build({}))
    assert res.findings == ()
    assert res.state.scores == (0, 0, -2, 2)


def _vector(case_id: str, options: dict) -> dict:
    data = Path(__file__).resolve().parents[2] / "data" / "sichuan" / "settlement_vectors.jsonl"
    case = next(c for c in (json.loads(x) for x in data.read_text(encoding="utf-8").splitlines() if x.strip())
                if c["id"] == case_id)
    case = copy.deepcopy(case)
    case["options"] = {**case["options"], **options}
    return score_case(case)


@pytest.mark.parametrize("case_id, total", [
    ("sc-ex03", [-3, 5, -1, -1]),     # §11 Ex 3: the three kong kinds
    ("sc-ex09", [20, 11, -48, 17]),   # §11 Ex 9: 花猪 and 查大叫 (cap 4)
    ("sc-g18", [-40, 57, 15, -32]),   # zimo_bonus = jiadi: + 1 底金 per payer
])
def test_every_payment_is_in_dijin_s6(case_id, total):
    """§6 底金 (``dijin``): every payment — kongs (§3), wins and the jiadi bonus (§5.4), 花猪 and
    查大叫 (§7) — is a multiple of 底金: with 底金 = 3 each total is 3 × the 底金 = 1 total."""
    assert _vector(case_id, {"dijin": 3})["total"] == [3 * x for x in total]
