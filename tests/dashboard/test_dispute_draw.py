"""The dashboard's Dispute page for a hand that ended in an exhaustive draw (流局/荒庄): it says
so — not "No win in this game." — and shows the draw's settlement by rule item. Expected
payments are sichuan.md §11 Ex 9's (cap 4): 花猪 W (seat 2) pays E, S, N 16 each (§7 查花猪);
查大叫: S (seat 1) pays E 4 and N 1; E +20, S +11, W −48, N +17."""

from __future__ import annotations

from eventlog import events as ev
from eventlog.store import open_store
from tests.rules.sichuan.test_replay_examples import example_9_hand


def test_dispute_page_says_the_hand_was_drawn_and_shows_the_draw_settlement(tmp_path, open_page):
    store = open_store(tmp_path)
    try:
        store.append("sc-ex9", [ev.NewEvent.of(e.payload, id_seed=f"sc-ex9/{e.seq}") for e in example_9_hand({"cap": 4}).events()])
    finally:
        store.close()
    at = open_page(tmp_path, "dispute", game="sc-ex9")
    texts = [m.value for m in at.markdown]
    assert not any("No win in this game." == t for t in texts)
    assert any("hand 1 ended in an exhaustive draw (流局/荒庄)" in t for t in texts)
    assert any("exhaustive draw (流局/荒庄) — the draw settles +20 +11 -48 +17" in t for t in texts)
    table = next(d.value for d in at.dataframe if "payments (payer→payee amount)" in d.value.columns)
    assert list(table["rule"]) == ["huazhu", "chajiao"]
    assert list(table["changes by seat"]) == ["+16 +16 -48 +16", "+4 -5 +0 +1"]
    assert list(table["payments (payer→payee amount)"]) == ["2→0 16, 2→1 16, 2→3 16", "1→0 4, 1→3 1"]
