"""Nanchang games export like MCR games, with the jing bonuses in their own table
(issue: "jing bonuses as their own table or columns"): analytics' score_components.

Expected values are the spec's: shared/rules/nanchang.md §15 Example 1 (vector nc-ex01)
settles jing [-3, 1, -3, 5] and win [-2, 5, -2, -1], total [-5, 6, -5, 4]."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb

from analytics.export import export
from eventlog import events as ev
from eventlog.store import open_store

from .game import as_events, hand_from_vector, new_game, with_offsets

DATA = Path(__file__).resolve().parents[2] / "data" / "nanchang" / "settlement_vectors.jsonl"


def test_example_1_exports_its_jing_and_win_components(tmp_path):
    case = next(json.loads(x) for x in DATA.read_text(encoding="utf-8").splitlines() if '"nc-ex01"' in x)
    payloads = with_offsets(new_game() + hand_from_vector(case, hand_number=1)) + [ev.GameEnded()]
    store = open_store(tmp_path / "data")
    store.append("nc-ex01", as_events(payloads, "nc-ex01"))
    export(store, tmp_path / "pq")
    store.close()
    parts = str(tmp_path / "pq" / "score_components" / "*" / "*.parquet")
    rows = duckdb.execute(
        f"SELECT ruleset, component, list(points ORDER BY seat) FROM read_parquet('{parts}', "
        "hive_partitioning=true) GROUP BY ALL ORDER BY component"
    ).fetchall()
    assert rows == [("nanchang", "jing", [-3, 1, -3, 5]), ("nanchang", "win", [-2, 5, -2, -1])]
    seats = str(tmp_path / "pq" / "seat_results" / "*" / "*.parquet")
    changes = duckdb.execute(f"SELECT list(score_change ORDER BY seat) FROM read_parquet('{seats}')").fetchone()[0]
    assert changes == [-5, 6, -5, 4]
    fans = str(tmp_path / "pq" / "fans" / "*" / "*.parquet")
    assert duckdb.execute(f"SELECT name_zh FROM read_parquet('{fans}')").fetchall() == [("平胡",)]
