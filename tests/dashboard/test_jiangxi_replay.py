"""The dashboard's replay of Jiangxi preset hands with Nanchang's own table events: 景德镇's
六对摊牌 (jx-jingdezhen-03 with its show, tests/rules/nanchang) noted beside the seat that
showed, and 鹰潭's 宝 pung (jx-yingtan-01 written event by event) drawn among the seat's melds,
the flown 宝 in the rivers."""

from __future__ import annotations

from eventlog.store import open_store
from replayer.rules.nanchang.events import BaoPung, SixPairsShown
from tests.rules.nanchang.game import as_events
from tests.rules.nanchang.test_jiangxi_play import JDZ3, _with_show, _yingtan_01


def _store(tmp_path, game_id, payloads):
    store = open_store(tmp_path)
    try:
        store.append(game_id, as_events(payloads, game_id=game_id))
    finally:
        store.close()


def test_six_pairs_shown_and_bao_pung_in_the_replay_page(tmp_path, open_page):
    shown, at = _with_show(JDZ3)
    _store(tmp_path, "jdz", shown)
    _, yt = _yingtan_01()
    _store(tmp_path, "yt", yt)
    assert isinstance(shown[at], SixPairsShown)
    page = open_page(tmp_path, "replay", game="jdz", seq=str(at + 1))
    table = next(m.value for m in page.markdown if '<div class="pp-seat' in m.value)
    seat = table.split('<div class="pp-seat')[1 + shown[at].seat]
    assert "six pairs shown 六对摊牌" in seat
    pung = next(i for i, p in enumerate(yt) if isinstance(p, BaoPung))
    page = open_page(tmp_path, "replay", game="yt", seq=str(pung))
    table = next(m.value for m in page.markdown if '<div class="pp-seat' in m.value)
    seat1 = table.split('<div class="pp-seat')[2]
    sets = seat1.split('<span class="pp-label">sets</span>')[1].split('<span class="pp-label">discards')[0]
    assert [c for c in ("H1", "H3", "H7") if f'<span class="c">{c}</span>' in sets] == ["H1", "H3", "H7"]
    assert "pung ← seat 2" in sets
    river = seat1.split('<span class="pp-label">discards')[1]
    assert '<span class="c">H6</span>' in river  # the 宝 it flew
    assert any("nanchang.bao_pung" in str(m.value) for m in page.markdown)
