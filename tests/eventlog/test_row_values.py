"""Rows read as tuples (eventlog.store.rows.inspect_values, the read path of read_game and
verify) are judged exactly as rows read as dicts (inspect_row, DESIGN.md §5 "corruption is
reported, never served as good data"): the same event from an intact row, the same
CorruptEvent from a damaged one, whether or not the payload text was parsed before. A run of
a game's rows judged in one loop (inspect_run) takes exactly the rows the row-by-row checks
(GameLinks, then inspect_values) accept, as the same events, up to the first row it leaves
to them."""

from __future__ import annotations

import json

import pytest

from eventlog.events import chain_hash
from eventlog.hashing import GENESIS_HASH, canonical_text
from eventlog.store import CorruptEvent, MissingEvents
from eventlog.store import rows as rows_mod
from eventlog.store.rows import GameLinks, inspect_row, inspect_run, inspect_values
from eventlog.store.types import COLUMNS


def _rehash(row: dict) -> dict:
    """The row with the hash its (decoded) content deserves: an edit by someone who knows
    the chain, or a writer that encoded JSON another way."""
    out = dict(row)
    out["hash"] = chain_hash(
        row["prev_hash"], game_id=row["game_id"], seq=row["seq"], event_id=row["event_id"], type_=row["type"],
        schema_version=row["schema_version"], payload=json.loads(row["payload"]),
        metadata=json.loads(row["metadata"]), recorded_at=row["recorded_at"],
    )
    return out


def _variants(row: dict) -> list[tuple[str, dict]]:
    payload = json.loads(row["payload"])
    return [
        ("intact", row),
        ("payload edited", {**row, "payload": row["payload"].replace('"seat":0', '"seat":1')}),
        ("payload edited, re-hashed", _rehash({**row, "payload": json.dumps({**payload, "seat": 1})})),
        ("non-canonical texts, hash over objects", _rehash({**row, "payload": json.dumps(payload, indent=1),
                                                            "metadata": json.dumps({"a": 1}, indent=2)})),
        ("metadata not an object", _rehash({**row, "metadata": "[1]"})),
        ("metadata not JSON", {**row, "metadata": "{"}),
        ("seq as text", {**row, "seq": str(row["seq"])}),
        ("seq as bool", {**row, "seq": True}),
        ("hash as bytes", {**row, "hash": row["hash"].encode()}),
        ("event id not canonical", _rehash({**row, "event_id": row["event_id"].upper()})),
        ("payload does not parse", _rehash({**row, "payload": json.dumps({**payload, "seat": 9})})),
    ]


def _outcome(fn, arg):
    try:
        return ("event", fn(arg).model_dump())
    except CorruptEvent as e:
        return ("error", str(e))


@pytest.mark.parametrize("warm", [False, True], ids=["cold cache", "warm cache"])
def test_tuple_rows_are_judged_as_dict_rows(sqlite_store, discards, warm):
    sqlite_store.append("g", discards(3, tag="g"))
    stored = list(sqlite_store.iter_raw("g"))
    assert [tuple(r[c] for c in COLUMNS) for r in stored] == list(sqlite_store.iter_raw_values("g"))
    seen = set()
    for row in stored:
        for name, variant in _variants(row):
            if not warm:
                rows_mod.clear_payload_cache()
            as_dict = _outcome(inspect_row, dict(variant))
            if not warm:
                rows_mod.clear_payload_cache()
            as_tuple = _outcome(inspect_values, tuple(variant[c] for c in COLUMNS))
            assert as_tuple == as_dict, name
            seen.add((name, as_dict[0]))
    # the damaged rows are refused, the others read (a re-hashed edit reads as a row: the
    # chain catches it, at the next row's prev_hash)
    for name in ("intact", "non-canonical texts, hash over objects", "payload edited, re-hashed"):
        assert (name, "event") in seen, name
    for name in ("payload edited", "metadata not an object", "metadata not JSON", "seq as text", "seq as bool",
                 "hash as bytes", "event id not canonical", "payload does not parse"):
        assert (name, "error") in seen, name


def _row_by_row(rows: list[tuple]) -> list:
    """The events GameLinks and inspect_values accept, up to the first row they refuse."""
    links, out = GameLinks("g", 0, False, None), []
    for row in rows:
        try:
            links.check_values(row[2], row[0], row[9], row[10])
            out.append(inspect_values(row))
        except (CorruptEvent, MissingEvents):
            break
    return out


@pytest.mark.parametrize("warm", [False, True], ids=["cold cache", "warm cache"])
def test_a_run_of_rows_is_judged_as_row_by_row(sqlite_store, discards, warm):
    sqlite_store.append("g", discards(3, tag="g"))
    stored = list(sqlite_store.iter_raw("g"))
    taken_of = {}
    edited = canonical_text({**json.loads(stored[1]["payload"]), "seat": 1})
    variants = [*_variants(stored[1]), ("payload edited as the store writes, re-hashed",
                                        _rehash({**stored[1], "payload": edited}))]
    for name, variant in variants:  # the middle row of three
        rows = [tuple(r[c] for c in COLUMNS) for r in (stored[0], variant, stored[2])]
        if not warm:
            rows_mod.clear_payload_cache()
        run: list = []
        taken = inspect_run(rows, 0, "g", 0, GENESIS_HASH, run)
        if not warm:
            rows_mod.clear_payload_cache()
        expected = _row_by_row(rows)
        assert [e.model_dump() for e in run] == [e.model_dump() for e in expected[:taken]], name
        taken_of[name] = taken
    # intact rows as the store writes them are all taken; a re-hashed edit in the store's
    # encoding is taken (it is self-consistent) and the next row's link is left to GameLinks;
    # the rest stop at row 1
    assert taken_of.pop("intact") == 3
    assert taken_of.pop("payload edited as the store writes, re-hashed") == 2
    assert set(taken_of.values()) == {1}
    # a run from the middle of the game: from seq 1, linked to seq 0's hash
    rows = [tuple(r[c] for c in COLUMNS) for r in stored]
    run = []
    assert inspect_run(rows, 1, "g", 1, stored[0]["hash"], run) == 3
    assert [e.seq for e in run] == [1, 2]


def test_log_links_are_the_link_columns_of_every_row(store, discards):
    """verify_log walks EventStore.iter_log_links: the rows of iter_raw_log, by position,
    reduced to position, game id, seq and the two hashes (every backend)."""
    from eventlog.store.base import LINK_COLUMNS

    store.append("g", discards(3, tag="g"))
    store.append("h", discards(2, tag="h"))
    store.append("g", discards(2, tag="g2"))
    links = list(store.iter_log_links())
    assert links == [tuple(r[c] for c in LINK_COLUMNS) for r in store.iter_raw_log()]
    assert [p for p, *_ in links] == list(range(1, 8)) and list(store.iter_log_links(6)) == links[5:]


def test_the_parsed_payloads_kept_are_bounded_and_the_repeated_ones_stay(sqlite_store, monkeypatch):
    """Issue 19 (memory flat in the number of games): the parsed payload texts a process keeps
    never exceed two generations of the bound, however many new texts it reads; a text read in
    every generation stays parsed (the same object, not parsed again)."""
    from eventlog.events import NewEvent, TileDiscarded

    monkeypatch.setattr(rows_mod, "_PAYLOAD_CACHE_SIZE", 8)
    rows_mod.clear_payload_cache()
    tiles = ["W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "T1", "T2", "T3", "T4", "T5", "T6", "T7"]
    sqlite_store.append("hot", [NewEvent.of(TileDiscarded(seat=0, tile="B1"))])
    for k in range(8):  # games of 8 texts no other game has
        seat, half = divmod(k, 2)
        sqlite_store.append(f"g{k}", [NewEvent.of(TileDiscarded(seat=seat, tile=t))
                                       for t in tiles[8 * half: 8 * half + 8]])
    (first,) = sqlite_store.read_game("hot")
    for k in range(8):
        assert [e.payload.tile for e in sqlite_store.read_game(f"g{k}")] == tiles[8 * (k % 2): 8 * (k % 2) + 8]
        (again,) = sqlite_store.read_game("hot")
        assert again.payload is first.payload
        assert len(rows_mod._payload_cache) <= 8 and len(rows_mod._payload_older) <= 8
    rows_mod.clear_payload_cache()
    assert not rows_mod._payload_cache and not rows_mod._payload_older
