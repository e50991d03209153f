"""The dashboard's replay of a Sichuan 血战 hand (spec §11 Example 4, written event by event in
tests/rules/sichuan): kong payments shown at the kong, a winner marked as out of the hand with
its winning tile while play goes on, fans in English and Chinese."""

from __future__ import annotations

from eventlog import events as ev
from eventlog.store import open_store
from tests.rules.sichuan.test_replay_examples import example_4_hand


def _data(tmp_path):
    h = example_4_hand()
    payloads = h.g._with_walls()
    store = open_store(tmp_path)
    try:
        store.append("sc-ex4", [ev.NewEvent.of(p, id_seed=f"sc-ex4/{i}") for i, p in enumerate(payloads)])
    finally:
        store.close()
    return tmp_path, payloads


def test_kong_paid_at_once_and_winner_out(tmp_path, open_page):
    data, payloads = _data(tmp_path)
    kong = next(i for i, p in enumerate(payloads) if isinstance(p, ev.Kong))
    at = open_page(data, "replay", game="sc-ex4", seq=str(kong))
    assert any("Score changes at this event (kong" in i.value and "[-2, 6, -2, -2]" in i.value for i in at.info)
    win = next(i for i, p in enumerate(payloads) if isinstance(p, ev.WinDeclared))
    at = open_page(data, "replay", game="sc-ex4", seq=str(win + 2))  # play goes on after E's win
    table = next(m.value for m in at.markdown if '<div class="pp-seat' in m.value)
    seat0 = table.split('<div class="pp-seat')[1]
    assert "<b>won</b>" in seat0 and "out of the hand" in seat0
    assert any("Win: seat 0" in s.value and "All pungs 对对胡 1" in s.value for s in at.success)


def _export(data):
    from analytics.export import export

    store = open_store(data)
    try:
        export(store, data / "parquet", data_dir=data)
    finally:
        store.close()


def test_overview_fans_players_for_sichuan(tmp_path, open_page):
    data, _ = _data(tmp_path)
    store = open_store(data)
    try:
        store.append("sc-ex4", [ev.NewEvent.of(ev.GameEnded(), id_seed="sc-ex4/end")])
    finally:
        store.close()
    _export(data)
    at = open_page(data)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["games"] == "1" and metrics["wins"] == "2"
    at = open_page(data, "fans")
    text = "\n".join(str(d.value) for d in at.dataframe)
    for en, zh in (("All pungs", "对对胡"), ("Plain win", "平胡"), ("Root (four of a kind)", "根")):
        assert en in text and zh in text
    at = open_page(data, "players")
    assert not at.exception


def test_declared_void_suits_are_shown(tmp_path, open_page):
    """定缺 (spec §2, option dingque_declared): each seat's declared void suit beside it."""
    from tests.rules.sichuan.test_dingque import declared
    from tests.rules.sichuan.test_rules import E_JUNK, N_JUNK, S_READY, W_JUNK

    h = declared({0: E_JUNK, 1: S_READY, 2: W_JUNK, 3: N_JUNK}, "TBWW")
    d = h.discard(0, "W6")
    store = open_store(tmp_path)
    try:
        store.append("sc-dq", [ev.NewEvent.of(p, id_seed=f"sc-dq/{i}") for i, p in enumerate(h.g._with_walls())])
    finally:
        store.close()
    at = open_page(tmp_path, "replay", game="sc-dq", seq=str(d))
    table = next(m.value for m in at.markdown if '<div class="pp-seat' in m.value)
    seats = table.split('<div class="pp-seat')[1:]
    assert ["void T 条" in seats[0], "void B 筒" in seats[1], "void W 万" in seats[2], "void W 万" in seats[3]] == [True] * 4
