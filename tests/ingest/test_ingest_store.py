"""Imported games go into a real SQLite event store; a second import is a no-op."""

from __future__ import annotations

from ingest_helpers import load

from eventlog.store import NO_STREAM, open_store
from paipu.samples import sample_files


def test_samples_into_sqlite_twice(tmp_path):
    store = open_store(tmp_path / "log.sqlite")
    try:
        first, again = [], []
        for rnd in (first, again):
            for p in sample_files():
                games, issues = load(p)
                assert issues == []
                for g in games:
                    rnd.append(store.append(g.game_id, g.events, expected_version=NO_STREAM))
        assert len(first) == 16 + 7 + 1
        assert not any(r.duplicate for r in first)
        assert all(r.duplicate for r in again)
        assert [(r.game_id, r.version) for r in again] == [(r.game_id, r.version) for r in first]
        # a claim's discard_seq is the stored seq of the discard it takes
        g = load(sample_files()[0])[0][0]
        stored = list(store.read_game(g.game_id))
        assert [e.event_id for e in stored] == [e.event_id for e in g.events]
        chow = next(e for e in stored if e.type == "chow")
        taken = stored[chow.payload.discard_seq]
        assert taken.seq == chow.payload.discard_seq and taken.type == "tile_discarded"
        assert taken.payload.tile == chow.payload.claimed_tile
        # 0x61602cb4 (the ObjectId's first 4 bytes of "Match 61602cb4...") = 1633692852 s
        # after 1970-01-01 UTC = 2021-10-08.
        assert stored[0].metadata == {"source": "sample_16_games.txt",
                                      "format": "botzone-text", "line": 1, "date": "2021-10-08",
                                          "encoding": "utf-8"}
    finally:
        store.close()
