"""A Sichuan 血战 hand exported (spec §11 Example 4): score_components per component and per
event (each kong when made, each win, 查大叫 at the draw), seats that left the hand, wins and
fans with English and Chinese names."""

from __future__ import annotations

import duckdb

from analytics.export import export
from eventlog import events as ev
from eventlog.store import open_store
from tests.rules.sichuan.test_replay_examples import example_4_hand


def test_example_4_exports_components_per_event_and_seats_out(tmp_path):
    h = example_4_hand()
    h.g.add(ev.GameEnded())
    payloads = h.g._with_walls()
    store = open_store(tmp_path / "data")
    store.append("sc-ex4", [ev.NewEvent.of(p, id_seed=f"sc-ex4/{i}") for i, p in enumerate(payloads)])
    export(store, tmp_path / "pq")
    store.close()
    seq_of = {name: [i for i, p in enumerate(payloads) if isinstance(p, cls)]
              for name, cls in (("kong", ev.Kong), ("win", ev.WinDeclared), ("draw", ev.ExhaustiveDraw))}

    def table(name: str) -> str:
        return f"read_parquet('{tmp_path}/pq/{name}/*/*.parquet', hive_partitioning=true)"

    rows = duckdb.execute(f"SELECT seq, component, list(points ORDER BY seat) FROM {table('score_components')} "
                          "GROUP BY ALL ORDER BY seq, component").fetchall()
    k1, k2 = seq_of["kong"]
    w1, w2 = seq_of["win"]
    (d,) = seq_of["draw"]
    assert rows == [
        (k1, "kong", [-2, 6, -2, -2]),
        (w1, "win", [6, -2, -2, -2]),
        (k2 + 1, "kong", [0, -1, 2, -1]),  # a 补杠 is paid when it stands: at its replacement draw
        (w2, "win", [0, 2, 0, -2]),
        (d, "chajiao", [0, 0, 8, -8]),
    ]
    seats = duckdb.execute(f"SELECT seat, won, left_at_seq, score_change FROM {table('seat_results')} "
                           "ORDER BY seat").fetchall()
    assert seats == [(0, True, w1, 4), (1, True, w2, 5), (2, False, None, 6), (3, False, None, -15)]
    fans = duckdb.execute(f"SELECT win_seq, name_en, name_zh, points, count FROM {table('fans')} "
                          "ORDER BY win_seq, name_en").fetchall()
    assert fans == [(w1, "All pungs", "对对胡", 1, 1), (w2, "Plain win", "平胡", 0, 1),
                    (w2, "Root (four of a kind)", "根", 1, 1)]
