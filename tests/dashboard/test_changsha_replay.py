"""The dashboard's replay page shows a Changsha hand's own procedures (issue 16 item 5): the
opening small wins shown and paid at once, the two tiles of an open kong (开杠) in the konger's
river, the bird tiles and the seats they hit — from a game replayed out of a real event log."""

from __future__ import annotations

from eventlog import events as ev
from eventlog.store import open_store
from tests.rules.changsha.game import new_game, scripted_hand

N_HAND = "T7 T7 T7 W1 W1 W1 B1 B1 B1 T2 T3 T5 T5"
S_HAND = "W2 W3 W4 W7 W8 T1 T2 T3 B5 B5 B6 B7 B8"
W_HAND = "W3 W3 W3 W6 W9 B7 B7 B7 B9 B9 W1 W9 W6"  # no bamboo: 缺一色, and 六六顺


def _game() -> list[ev.NewEvent]:
    payloads = new_game()
    payloads += scripted_hand(
        start=1, hand_number=0, dealer=0, hands={1: S_HAND, 2: W_HAND, 3: N_HAND},
        turns=[("opening", 2, [("missing_suit", W_HAND), ("two_pungs", "W3 W3 W3 B7 B7 B7")]),
               ("turn", 0, None, None), ("turn", 1, None, None), ("turn", 2, "T7", "T7"),
               ("kong", 3, "melded", "T7"), ("reveal", 3, (3, 5), "B3 W9"), ("win", 1, "W9", 3)],
        birds=["T4"])
    payloads.append(ev.GameEnded())
    return [ev.NewEvent.of(p, id_seed=f"cs-dash/{i}") for i, p in enumerate(payloads)]


def test_replay_page_shows_opening_wins_kong_tiles_and_birds(tmp_path, open_page):
    events = _game()
    store = open_store(tmp_path)
    try:
        store.append("cs-dash", events, -1)
    finally:
        store.close()
    birds_seq = next(i for i, e in enumerate(events) if e.type == "birds_turned")
    at = open_page(tmp_path, "replay", game="cs-dash", seq=str(birds_seq))
    text = "\n".join(m.value for m in at.markdown)
    assert "birds_turned" in text and "T4" in text
    assert "Score changes this hand" in text
    assert "opening small wins of seat 2: 缺一色, 六六顺" in text and "[-30, -20, 70, -20]" in text
    assert "birds of seat 1's win: T4→seat 3" in text  # 4 counted from the dealer E: 上家 N, the konger
    # the two revealed tiles lie in the konger's river
    table = next(m.value for m in at.markdown if '<div class="pp-seat' in m.value)
    n_block = table.split('<div class="pp-seat')[4]
    assert "B3" in n_block and "W9" in n_block
    assert not at.error
