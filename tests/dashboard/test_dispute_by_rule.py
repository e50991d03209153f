"""The Dispute page shows a reported score's computed changes by rule item, each with its rule
source (docs/dashboard.md: findings with their event, rule and source section): sichuan.md §11
Ex 9 (cap 4) reported as if nothing were paid at the draw — §7: 花猪 W (seat 2) pays E, S, N
16 each; 查大叫: S (seat 1) pays E 4 and N 1."""

from __future__ import annotations

from eventlog import events as ev
from eventlog.store import open_store
from tests.rules.sichuan.test_replay_examples import example_9_hand


def test_dispute_page_breaks_the_computed_draw_settlement_down_by_rule(tmp_path, open_page):
    h = example_9_hand({"cap": 4})
    h.g.payloads.insert(len(h.g.payloads) - 1, ev.ScoreReported(winner=None, score_changes=[0, 0, 0, 0]))
    store = open_store(tmp_path)
    try:
        store.append("sc-ex9", [ev.NewEvent.of(e.payload, id_seed=f"sc-ex9/{e.seq}") for e in h.events()])
    finally:
        store.close()
    at = open_page(tmp_path, "dispute", game="sc-ex9")
    table = next(d.value for d in at.dataframe if "payments (payer→payee amount)" in d.value.columns)
    assert list(table["rule"]) == ["huazhu", "chajiao"]
    assert list(table["changes by seat"]) == ["+16 +16 -48 +16", "+4 -5 +0 +1"]
    assert list(table["payments (payer→payee amount)"]) == ["2→0 16, 2→1 16, 2→3 16", "1→0 4, 1→3 1"]
    assert table["rule source"][0].startswith("docs/reference/rules/sichuan.md §7 (查花猪")
    assert table["rule source"][1].startswith("docs/reference/rules/sichuan.md §7, §12.7 (查大叫")
    md = "\n".join(m.value for m in at.markdown)
    assert "the computed changes +20 +11 -48 +17 by rule" in md
    findings = next(d.value for d in at.dataframe if "rule source" in d.value.columns and "what" in d.value.columns)
    assert list(findings["rule"]) == ["reported_score_mismatch"]
    assert "computed [20, 11, -48, 17]" in findings["what"][0]
    assert "docs/reference/rules/sichuan.md §7" in findings["rule source"][0]
