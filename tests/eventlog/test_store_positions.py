"""A row moved to another position, or a stream record deleted, is damage every reader
names — not only ``paipu verify``.

The guarantee (eventlog/store/base.py, shared/DESIGN.md §5): positions are global, dense
and given in commit order, so a game's events lie at positions rising with seq, within
its stream record's ``first_position`` … ``last_position``; and every event belongs to a
stream with a record. A store damaged by hand (its triggers dropped) breaks that; the
read path (``read_game``, ``paipu read``, ``paipu export``) raises :class:`CorruptEvent`
naming game, seq and position, and the export names a game whose record is gone.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from damaged_store import batch, interleaved_store, shell
from typer.testing import CliRunner

from eventlog.store import CorruptEvent, SqliteStore
from paipu.cli import app

runner = CliRunner()



@pytest.fixture
def log(tmp_path):
    store = interleaved_store(tmp_path)
    yield store
    store.close()



def _move(store: SqliteStore, *moves: tuple[int, int]) -> None:
    """Set game g's row ``seq`` to position ``to``, for each (seq, to), triggers dropped."""
    shell(store, "DROP TRIGGER events_no_update",
           *(f"UPDATE events SET position = {to} WHERE game_id = 'g' AND seq = {seq}" for seq, to in moves))


def _cli(store: SqliteStore, *args: str):
    return runner.invoke(app, [*args, "--data", str(Path(store.path).parent)], catch_exceptions=False)


def _one_line(output: str, words: str) -> bool:
    return any(words in line for line in output.splitlines())


def test_an_intact_store_reads_and_exports_as_before(log):
    assert [(e.seq, e.position) for e in log.read_game("g")] == [(0, 1), (1, 2), (2, 3), (3, 4),
                                                                 (4, 8), (5, 9), (6, 10), (7, 11)]
    assert [e.seq for e in log.read_game("g", backward=True, from_seq=-1)] == list(range(7, -1, -1))
    assert [e.position for e in log.read_game("g", from_seq=5)] == [9, 10, 11]
    assert _cli(log, "read", "g").exit_code == 0
    res = _cli(log, "export", "--quiet")
    assert res.exit_code == 0, res.output


def test_events_appended_during_a_read_lie_past_the_record_read_at_its_start_and_are_served(log):
    """The stream record is read when the read starts; events appended since lie past its
    last position, as they should (only rising is asked of them)."""
    forward, backward = log.read_game("g"), log.read_game("g", backward=True, from_seq=-1)
    log.append("h", batch("h2", 2))  # positions 12, 13
    log.append("g", batch("g3", 2))  # seqs 8, 9 at positions 14, 15
    assert [(e.seq, e.position) for e in forward][-3:] == [(7, 11), (8, 14), (9, 15)]
    assert [e.seq for e in backward] == list(range(7, -1, -1))


# seq 5 of g (position 9) moved past the log's head (11), as the breaker did
PAST_HEAD = "game 'g' seq 5 (position 100000009)"


@pytest.mark.parametrize("kwargs", [{}, {"from_seq": 3}, {"from_seq": 6}, {"from_seq": 6, "limit": 1},
                                    {"backward": True, "from_seq": -1}])
def test_a_row_moved_past_the_head_is_a_corrupt_event_for_every_read_of_the_game(log, kwargs):
    _move(log, (5, 100_000_009))
    with pytest.raises(CorruptEvent, match=r"outside the stream's record \(positions 1\.\.11\)") as err:
        list(log.read_game("g", **kwargs))  # from seq 6: the row seq 6 links to (seq 5) is read too
    assert str(err.value).startswith(PAST_HEAD)
    assert [e.seq for e in log.read_game("g", limit=5)] == [0, 1, 2, 3, 4]  # the intact prefix still reads
    assert [e.seq for e in log.read_game("h")] == [0, 1, 2]  # the other game is untouched


def test_a_last_row_moved_past_the_head_is_a_corrupt_event(log):
    _move(log, (7, 100_000_011))
    with pytest.raises(CorruptEvent) as err:
        list(log.read_game("g"))
    assert str(err.value).startswith("game 'g' seq 7 (position 100000011): ")


def test_a_first_row_moved_before_the_record_is_a_corrupt_event(log):
    _move(log, (0, -5))
    with pytest.raises(CorruptEvent) as err:
        list(log.read_game("g"))
    assert str(err.value).startswith("game 'g' seq 0 (position -5): ")


def test_two_rows_swapped_are_a_corrupt_event_at_the_second(log):
    _move(log, (1, 1_000), (2, 2), (1, 3))  # seq 1 at position 3, seq 2 at position 2
    with pytest.raises(CorruptEvent, match=r"position 2 does not rise with seq \(seq 1's is 3\)") as err:
        list(log.read_game("g"))
    assert str(err.value).startswith("game 'g' seq 2 (position 2): ")
    with pytest.raises(CorruptEvent, match="does not fall with seq"):
        list(log.read_game("g", backward=True, from_seq=-1))


def test_paipu_read_and_export_name_a_moved_row(log):
    _move(log, (5, 100_000_009))
    read = _cli(log, "read", "g")
    assert read.exit_code != 0 and _one_line(read.output, PAST_HEAD), read.output
    export = _cli(log, "export", "--quiet")
    assert export.exit_code != 0 and _one_line(export.output, PAST_HEAD), export.output


def test_paipu_export_names_a_game_whose_stream_record_was_deleted(log):
    shell(log, "DROP TRIGGER streams_no_delete", "DELETE FROM streams WHERE game_id = 'h'")
    export = _cli(log, "export", "--quiet")
    assert export.exit_code != 0, export.output
    assert _one_line(export.output, "game 'h': its events have no stream record"), export.output
    again = _cli(log, "export", "--quiet")  # named by every run, not only the first
    assert again.exit_code != 0 and _one_line(again.output, "game 'h'"), again.output
