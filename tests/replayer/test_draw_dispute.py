"""A hand that ended in an exhaustive draw (流局/荒庄) says so on the dispute pages — not "No win
in this game." — and shows what its draw settled by rule item, each with its source
(sichuan.md §7 查花猪 / 查大叫). Expected payments are §11 Ex 9's (cap 4): 花猪 W (seat 2) pays
E, S, N 16 each; 查大叫: S (seat 1) pays E 4 and N 1; E +20, S +11, W −48, N +17."""

from __future__ import annotations

from dashboard.package import dispute_html
from eventlog import events as ev
from eventlog.store import MemoryStore
from eventlog.verify import verify_game_events
from replayer.audit import audit_game
from tests.rules.sichuan.test_replay_examples import example_9_hand


def _ex9_events() -> list:
    """§11 Ex 9 (cap 4) as stored events, no score reported."""
    return [ev.NewEvent.of(e.payload, id_seed=f"sc-ex9/{e.seq}") for e in example_9_hand({"cap": 4}).events()]


def test_audit_keeps_the_draw_and_its_settlement():
    store = MemoryStore()
    store.append("sc-ex9", _ex9_events())
    _, events = verify_game_events(store, "sc-ex9")
    audit = audit_game(events)
    (d,) = audit.exhaustive_draws
    assert events[d.seq].type == "exhaustive_draw"
    assert d.hand_number == 0 and d.changes == (20, 11, -48, 17)
    assert audit.no_win_words == "No win in this game: hand 1 ended in an exhaustive draw (流局/荒庄)."


def test_dispute_package_says_the_hand_was_drawn_and_shows_the_draw_settlement():
    store = MemoryStore()
    store.append("sc-ex9", _ex9_events())
    chain, events = verify_game_events(store, "sc-ex9")
    assert chain.ok and events is not None
    page = dispute_html(events, chain, audit_game(events))
    assert "No win in this game." not in page
    assert "hand 1 ended in an exhaustive draw (流局/荒庄)" in page
    assert "exhaustive draw (流局/荒庄) — the draw settles +20 +11 -48 +17" in page
    assert "2→0 16, 2→1 16, 2→3 16" in page and "1→0 4, 1→3 1" in page
    assert "docs/reference/rules/sichuan.md §7 (查花猪" in page and "查大叫" in page
