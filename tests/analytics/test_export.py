"""The Parquet export: incremental, deterministic, crash-safe, damage reported by name."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from analytics.export import MANIFEST, DamagedExport, ExportError, export, open_export
from analytics.queries import Analytics
from analytics.schema import TABLES
from analytics_samples import fill
from eventlog.events import GameEnded, NewEvent, RefereeRuling
from eventlog.store import open_store

DOCS = Path(__file__).resolve().parents[2] / "docs" / "analytics.md"
SMALL_BLOCKS = 700  # log positions per block: the 24 sample games span 4 blocks


def _files(out: Path) -> dict[str, str]:
    """Relative path → SHA-256 of every Parquet file and the manifest."""
    found = sorted(p for p in out.rglob("*") if p.is_file() and (p.suffix == ".parquet" or p.name == MANIFEST))
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest() for p in found}


def _counts(out: Path) -> dict[str, int]:
    with Analytics.open(out) as a:
        return {t.name: a.con.execute(f"SELECT count(*) FROM {t.name}").fetchone()[0] for t in TABLES}


def test_tables_have_one_row_per_fact(all_export, all_games):
    _, out = all_export
    counts = _counts(out)
    hands = sum(g.count("hand_ended") for g in all_games)
    assert counts["games"] == len(all_games) == 24
    assert counts["hands"] == hands == 24
    assert counts["seat_results"] == 4 * hands
    assert counts["wins"] == sum(g.count("win_declared") for g in all_games)  # every win is legal here
    actions = sum(g.count(t) for g in all_games for t in
                  ("tile_drawn", "tile_discarded", "chow", "pung", "kong", "pass", "win_declared", "flower_replaced"))
    assert counts["actions"] == actions
    with Analytics.open(out) as a:
        dup = a.con.execute("SELECT count(*) FROM (SELECT game_id, hand_number, seat FROM seat_results "
                            "GROUP BY ALL HAVING count(*) > 1)").fetchone()[0]
        zero_sum = a.con.execute("SELECT count(*) FROM (SELECT game_id, hand_number, sum(score_change) s "
                                 "FROM seat_results GROUP BY ALL) WHERE s <> 0").fetchone()[0]
    assert dup == 0 and zero_sum == 0


def test_files_are_hive_partitioned_by_ruleset(all_export):
    _, out = all_export
    for t in TABLES:
        parts = sorted((out / t.name).glob("ruleset=*/part-*.parquet"))
        assert [p.parent.name for p in parts] == ["ruleset=mcr"]
        assert pq.read_schema(parts[0]).names == t.columns


def test_incremental_export_equals_one_shot_export(tmp_path, all_games):
    """Exporting as the log grows (with small blocks and frequent checkpoints) gives the
    same bytes as exporting the final log once; re-running writes nothing."""
    store = open_store(tmp_path / "data")
    steps = tmp_path / "steps"
    reports = []
    for lo, hi in ((0, 5), (5, 6), (6, 17), (17, 24)):
        fill(store, all_games[lo:hi])
        reports.append(export(store, steps, block_positions=SMALL_BLOCKS, flush_rows=300))
    assert [r.games for r in reports] == [5, 1, 11, 7]
    assert reports[-1].checkpoint == store.head_position()
    once = tmp_path / "once"
    export(store, once, block_positions=SMALL_BLOCKS)
    assert _files(steps) == _files(once)
    assert len([f for f in _files(once) if f.startswith("games/")]) == 4
    before = _files(steps)
    again = export(store, steps)
    assert (again.games, again.files) == (0, 0)
    assert _files(steps) == before
    assert _counts(steps)["games"] == 24


def test_unfinished_game_waits_for_game_ended(tmp_path, all_games):
    store = open_store(tmp_path / "data")
    out = tmp_path / "pq"
    g = all_games[0]
    fill(store, all_games[1:3])
    body, end = g.events[:-1], g.events[-1]
    assert end.type == "game_ended"
    store.append(g.game_id, body, -1)
    first = export(store, out)
    assert (first.games, first.unfinished) == (2, 1)
    store.append(g.game_id, [end], len(body) - 1)
    second = export(store, out)
    assert (second.games, second.unfinished, second.reexported) == (1, 0, 0)
    with Analytics.open(out) as a:
        ids = [r[0] for r in a.con.execute("SELECT game_id FROM games").fetchall()]
    assert sorted(ids) == sorted([g.game_id, all_games[1].game_id, all_games[2].game_id])


def test_late_event_reexports_the_game_without_duplicates(tmp_path, all_games):
    """A referee ruling appended after game_ended re-exports that game in place."""
    store = open_store(tmp_path / "data")
    out = tmp_path / "pq"
    fill(store, all_games[:4])
    export(store, out, block_positions=SMALL_BLOCKS)
    g = all_games[1]
    version = store.version(g.game_id)
    ruling = NewEvent.of(RefereeRuling(ref_seq=version, ruling="scoring error corrected",
                                       score_changes=[10, -10, 0, 0]), id_seed=f"{g.game_id}/ruling")
    store.append(g.game_id, [ruling], version)
    fill(store, all_games[4:6])
    rep = export(store, out)
    assert (rep.games, rep.reexported) == (3, 1)
    with Analytics.open(out) as a:
        rows = a.con.execute("SELECT final_scores, event_count FROM games WHERE game_id = ?",
                             [g.game_id]).fetchall()
        n = a.con.execute("SELECT count(*) FROM games").fetchone()[0]
    final = list(g.events[-1].payload.final_scores)
    assert rows == [([final[0] + 10, final[1] - 10, final[2], final[3]], len(g.events) + 1)]
    assert n == 6
    fresh = tmp_path / "fresh"
    export(store, fresh, block_positions=SMALL_BLOCKS)
    assert _files(out) == _files(fresh)


def test_crash_midway_keeps_previous_export_and_next_run_completes(tmp_path, all_games):
    store = open_store(tmp_path / "data")
    out = tmp_path / "pq"
    fill(store, all_games[:10])
    export(store, out, block_positions=SMALL_BLOCKS)
    before_files = _files(out)
    before = _counts(out)
    fill(store, all_games[10:])

    class Crash(Exception):
        pass

    written = []

    def crash_after_two(path: Path) -> None:
        written.append(path)
        if len(written) == 2:
            raise Crash

    with pytest.raises(Crash):
        export(store, out, on_file=crash_after_two)
    # the committed export is untouched and still reads (extra files are not listed)
    assert _counts(out) == before
    assert all(_files(out)[k] == v for k, v in before_files.items())
    rep = export(store, out)
    assert rep.games == 14
    fresh = tmp_path / "fresh"
    export(store, fresh, block_positions=SMALL_BLOCKS)
    assert _files(out) == _files(fresh)
    assert not [p for p in out.rglob("*.tmp")]


def test_damaged_or_missing_file_is_named_with_the_rebuild_command(tmp_path, all_games):
    store = open_store(tmp_path / "data")
    out = tmp_path / "pq"
    fill(store, all_games)
    export(store, out, block_positions=SMALL_BLOCKS)
    good = _files(out)
    victim = sorted((out / "seat_results").rglob("part-*.parquet"))[1]
    data = bytearray(victim.read_bytes())
    data[len(data) // 2] ^= 0xFF  # same size, one flipped byte
    victim.write_bytes(bytes(data))
    with pytest.raises(DamagedExport) as err:
        Analytics.open(out)
    assert str(victim) in str(err.value) and "checksum" in str(err.value)
    assert f"paipu export --repair --out {out}" in str(err.value)
    # a query that does not touch the damaged table still works
    with Analytics.open(out, tables=["hands"]) as a:
        assert a.con.execute("SELECT count(*) FROM hands").fetchone()[0] == 24
    missing = sorted((out / "fans").rglob("part-*.parquet"))[0]
    missing.unlink()
    with pytest.raises(DamagedExport, match=re.escape(f"{missing}: missing")):
        Analytics.open(out, tables=["fans"])
    # merging into a damaged block refuses; --repair rebuilds exactly what was there
    rep = export(store, out, repair=True)
    assert rep.repaired == sorted({f"mcr/{victim.name.split('-')[1]}", f"mcr/{missing.name.split('-')[1]}"})
    assert _files(out) == good


def test_unreadable_manifest_and_missing_export(tmp_path, all_games):
    with pytest.raises(ExportError, match="no analytics export"):
        open_export(tmp_path / "nothing")
    store = open_store(tmp_path / "data")
    out = tmp_path / "pq"
    fill(store, all_games[:3])
    export(store, out)
    (out / MANIFEST).write_text("{not json", encoding="utf-8")
    with pytest.raises(DamagedExport, match="--rebuild"):
        open_export(out)
    rep = export(store, out, rebuild=True)
    assert rep.games == 3 and _counts(out)["games"] == 3


def test_log_behind_the_export_is_refused(tmp_path, all_games):
    big = open_store(tmp_path / "big")
    fill(big, all_games[:6])
    out = tmp_path / "pq"
    export(big, out)
    small = open_store(tmp_path / "small")
    fill(small, all_games[:1])
    with pytest.raises(ExportError, match="right --data"):
        export(small, out)


def test_game_without_a_known_ruleset_is_skipped_and_reported(tmp_path, all_games):
    from eventlog.events import GameStarted

    store = open_store(tmp_path / "data")
    g = all_games[0]
    started = g.events[0].payload.model_copy(update={"ruleset": "no_such_ruleset"})
    assert isinstance(started, GameStarted)
    events = [NewEvent.of(started, id_seed="odd/0"),
              NewEvent.of(GameEnded(final_scores=None), id_seed="odd/1")]
    store.append("odd-game", events, -1)
    fill(store, all_games[1:2])
    rep = export(store, tmp_path / "pq")
    assert rep.games == 1
    assert [gid for gid, _ in rep.skipped] == ["odd-game"]
    assert "no_such_ruleset" in rep.skipped[0][1]


def test_docs_describe_every_column():
    text = DOCS.read_text(encoding="utf-8")
    for t in TABLES:
        section = text.split(f"### `{t.name}`", 1)
        assert len(section) == 2, f"docs/analytics.md has no section for {t.name}"
        body = section[1].split("\n### ", 1)[0]
        for col in t.columns:
            assert f"| `{col}` |" in body, f"docs/analytics.md: {t.name}.{col} is not documented"


def test_worker_processes_write_the_same_files(tmp_path, all_export):
    data, one_process = all_export
    store = open_store(data)
    out = tmp_path / "two"
    rep = export(store, out, workers=2)
    store.close()
    assert rep.games == 24
    assert _files(out) == _files(one_process)


def test_export_with_other_columns_must_be_rebuilt(tmp_path, all_games):
    import json

    store = open_store(tmp_path / "data")
    fill(store, all_games[:2])
    out = tmp_path / "pq"
    export(store, out)
    m = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    m["schema"] = "0" * 16  # as written by a paipu with other table columns
    (out / MANIFEST).write_text(json.dumps(m), encoding="utf-8")
    with pytest.raises(ExportError, match="--rebuild"):
        open_export(out)
    with pytest.raises(ExportError, match="other table columns"):
        export(store, out)
    assert export(store, out, rebuild=True).games == 2
    assert _counts(out)["games"] == 2


def test_a_tampered_game_is_named_and_the_intact_ones_exported(tmp_path, all_games):
    """Issue 12 item 9: one damaged game (a payload edited behind the store's back no
    longer matches its hash) used to stop the whole export. Now the intact games are
    exported, the damaged one is named with its seq, kept in the manifest and named again
    by every later run; `paipu export` exits non-zero."""
    import sqlite3

    from typer.testing import CliRunner

    from paipu.cli import app

    game, other_game = all_games[0], all_games[1]
    store = open_store(tmp_path / "data")
    fill(store, [game, other_game])
    store.close()
    with sqlite3.connect(tmp_path / "data" / "events.sqlite") as db:
        seq, payload = db.execute("SELECT seq, payload FROM events WHERE game_id = ? AND type = "
                                  "'tile_discarded' ORDER BY seq LIMIT 1", (game.game_id,)).fetchone()
        tile = re.search(r'"tile":"(\w+)"', payload).group(1)
        other = "W1" if tile != "W1" else "W2"
        db.execute("DROP TRIGGER events_no_update")  # tampering behind the store's back
        db.execute("UPDATE events SET payload = ? WHERE game_id = ? AND seq = ?",
                   (payload.replace(f'"tile":"{tile}"', f'"tile":"{other}"'), game.game_id, seq))
    store = open_store(tmp_path / "data")
    rep = export(store, tmp_path / "pq")
    assert rep.games == 1 and [g for g, _ in rep.damaged] == [game.game_id]
    assert f"seq {seq}" in rep.damaged[0][1] and "hash mismatch" in rep.damaged[0][1]
    exported = open_export(tmp_path / "pq")
    assert exported.damaged_games.keys() == {game.game_id}
    assert _counts(tmp_path / "pq")["games"] == 1
    again = export(store, tmp_path / "pq")  # still named, nothing else to do
    assert (again.games, [g for g, _ in again.damaged]) == (0, [game.game_id])
    store.close()
    res = CliRunner().invoke(app, ["export", "--data", str(tmp_path / "data"), "--out", str(tmp_path / "pq")])
    assert res.exit_code == 1 and game.game_id in res.output and "damaged" in res.output, res.output


def test_a_game_with_a_deleted_event_is_not_exported_with_a_hole(tmp_path, all_games):
    import sqlite3

    game = all_games[0]
    store = open_store(tmp_path / "data")
    fill(store, [game, all_games[1]])
    store.close()
    with sqlite3.connect(tmp_path / "data" / "events.sqlite") as db:
        db.execute("DROP TRIGGER events_no_delete")
        db.execute("DELETE FROM events WHERE game_id = ? AND seq = 10", (game.game_id,))
    with open_store(tmp_path / "data") as store:
        rep = export(store, tmp_path / "pq")
    assert rep.games == 1 and rep.damaged[0][0] == game.game_id and "seq 10 is missing" in rep.damaged[0][1]


@pytest.mark.parametrize("edit", ["drop_checkpoint", "drop_files", "drop_table", "bad_sha", "bad_rows"])
def test_a_manifest_that_parses_but_lost_a_key_names_the_rebuild_command(tmp_path, all_games, edit):
    """Issue 12 item 8: `paipu stats`, `export --repair` and the dashboard crashed with
    KeyError on such a manifest; it is validated as a model instead."""
    import json

    from typer.testing import CliRunner

    from paipu.cli import app

    store = open_store(tmp_path / "data")
    fill(store, all_games[:2])
    out = tmp_path / "data" / "parquet"
    export(store, out)
    store.close()
    m = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    block = next(iter(m["blocks"].values()))
    if edit == "drop_checkpoint":
        del m["checkpoint"]
    elif edit == "drop_files":
        del block["files"]
    elif edit == "drop_table":
        del block["files"]["wins"]
    elif edit == "bad_sha":
        block["files"]["games"]["sha256"] = 12
    else:
        block["files"]["games"]["rows"] = "many"
    (out / MANIFEST).write_text(json.dumps(m), encoding="utf-8")
    with pytest.raises(DamagedExport, match=r"invalid manifest: .*paipu export --rebuild"):
        open_export(out)
    runner = CliRunner()
    for args in (["stats"], ["export", "--repair"]):
        res = runner.invoke(app, [*args, "--data", str(tmp_path / "data")])
        assert res.exit_code == 2, (args, res.output)
        assert "invalid manifest" in res.output and "paipu export --rebuild" in res.output
        assert "internal error" not in res.output and "KeyError" not in res.output
    with open_store(tmp_path / "data") as store:
        assert export(store, out, rebuild=True).games == 2


def test_rows_stored_with_other_json_spacing_still_export(tmp_path, all_games):
    """The hash covers the decoded payload and metadata, not their text: a row whose JSON
    text is not canonical (here: spaces added) is still valid and exports the same rows."""
    import json
    import sqlite3

    game = all_games[0]
    stores = {}
    for name in ("plain", "spaced"):
        store = open_store(tmp_path / name)
        fill(store, [game])
        store.close()
        stores[name] = tmp_path / name
    with sqlite3.connect(stores["spaced"] / "events.sqlite") as db:
        db.execute("DROP TRIGGER events_no_update")
        for pos, payload, metadata in db.execute("SELECT position, payload, metadata FROM events").fetchall():
            db.execute("UPDATE events SET payload = ?, metadata = ? WHERE position = ?",
                       (json.dumps(json.loads(payload), ensure_ascii=False, indent=1),
                        json.dumps(json.loads(metadata), ensure_ascii=False, indent=1), pos))
    outs = {}
    for name, data in stores.items():
        store = open_store(data)
        export(store, tmp_path / f"pq-{name}")
        store.close()
        outs[name] = {}
        for t in TABLES:  # every row but when each store recorded the game (its own clock)
            tab = pq.read_table(tmp_path / f"pq-{name}" / t.name)
            outs[name][t.name] = tab.drop_columns([c for c in ("recorded_at", "date") if c in tab.column_names]).to_pylist()
    assert outs["spaced"] == outs["plain"] and outs["plain"]["actions"]


def test_score_components_add_up_to_each_seats_score_change(all_export):
    """Every component is zero-sum over the seats, and a seat's components sum to its
    score change in the hand (docs/analytics.md, score_components)."""
    _data, pq = all_export
    comp = f"read_parquet('{pq}/score_components/*/*.parquet', hive_partitioning=true)"
    seats = f"read_parquet('{pq}/seat_results/*/*.parquet', hive_partitioning=true)"
    import duckdb

    assert duckdb.execute(f"SELECT count(*) FROM (SELECT sum(points) s FROM {comp} "
                      "GROUP BY game_id, hand_number, component) WHERE s <> 0").fetchone()[0] == 0
    bad = duckdb.execute(
        f"WITH c AS (SELECT game_id, hand_number, seat, sum(points) p FROM {comp} GROUP BY ALL) "
        f"SELECT count(*) FROM {seats} s LEFT JOIN c USING (game_id, hand_number, seat) "
        "WHERE coalesce(c.p, 0) <> s.score_change").fetchone()[0]
    assert bad == 0
    # MCR settles wins only: the 22 bundled wins give 'win' rows and nothing else.
    assert duckdb.execute(f"SELECT DISTINCT component FROM {comp}").fetchall() == [("win",)]


def test_rows_turned_into_arrow_in_lots_give_the_same_files(tmp_path, all_export, monkeypatch):
    """Issue 19: the pending games' rows are held as tuples for at most ARROW_ROWS rows, then
    turned into Arrow columns (a third of the memory); the files are the same bytes whatever
    the lots, also across several flushes."""
    from analytics.export import writer

    data, one_process = all_export
    store = open_store(data)
    held: list[int] = []
    add = writer.BlockWriter.add

    def add_and_count(self, facts, key, replaces):  # the real add; only how many rows stay tuples is noted
        add(self, facts, key, replaces)
        held.append(sum(len(g.rows[t.name]) for b in self.pending.values() for g in b.facts for t in TABLES))

    monkeypatch.setattr(writer.BlockWriter, "add", add_and_count)
    for lot, flush_rows in ((300, 10**9), (1, 10**9), (300, 2_000)):
        monkeypatch.setattr(writer, "ARROW_ROWS", lot)
        held.clear()
        out = tmp_path / f"lots-{lot}-{flush_rows}"
        rep = export(store, out, flush_rows=flush_rows)
        assert rep.games == 24
        assert _files(out) == _files(one_process)
        assert len(held) == 24 and max(held) < lot  # at ARROW_ROWS the held rows are turned into Arrow
    store.close()
