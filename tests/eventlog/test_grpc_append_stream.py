"""Issue 19: AppendStream — many batches over one gRPC call, committed many per durable
transaction, each batch whole or not at all, one result per batch in order."""

from __future__ import annotations

import pytest

from eventlog.events import GameStarted, HandStarted, NewEvent, RefereeRuling, TileDrawn
from eventlog.store import NO_STREAM, open_store
from eventlog.store.base import ANY, IdempotencyConflict, StreamAlreadyExists, WrongExpectedVersion
from eventlog.verify import verify_all, verify_log
from services.client import EventLogClient
from services.server import build_server, load_tokens


def _game(game: str, n: int = 3) -> list[NewEvent]:
    payloads = [GameStarted(ruleset="mcr", players=["E", "S", "W", "N"], source="test"),
                HandStarted(hand_number=0, prevalent_wind="F1", dealer=0, dice=[3, 4])]
    payloads += [TileDrawn(seat=i % 4, tile="W1") for i in range(n - 2)]
    return [NewEvent.of(p, id_seed=f"{game}/{i}") for i, p in enumerate(payloads)]


@pytest.fixture
def served(store):
    """A server over a store of every backend (the stream's new games are sealed: SQLite
    writes a run of them with one insert, the others plan each as usual)."""
    srv, port = build_server(store, port=0)
    srv.start()
    with EventLogClient(f"127.0.0.1:{port}", timeout=30) as client:
        yield store, client
    srv.stop(None)


def test_append_stream_writes_each_batch_whole_and_reports_each_refusal(served):
    store, client = served
    client.append("taken", _game("taken"), NO_STREAM)
    batches = [(f"g{i}", _game(f"g{i}", 3 + i % 5), NO_STREAM) for i in range(450)]  # three groups
    batches.insert(7, ("taken", _game("other"), NO_STREAM))  # the game exists
    batches.insert(300, ("taken", _game("other2"), 5))  # not its version
    batches.insert(400, ("h", _game("g1"), ANY))  # g1's event ids in another game
    results = client.append_stream(batches)
    assert len(results) == len(batches)
    assert isinstance(results[7], StreamAlreadyExists)
    assert isinstance(results[300], WrongExpectedVersion) and results[300].current == 2
    assert isinstance(results[400], IdempotencyConflict)
    written = [r for r in results if not isinstance(r, Exception)]
    assert len(written) == 450 and not any(r.duplicate for r in written)
    assert [r.first_position for r in written] == sorted(r.first_position for r in written)
    games = {g.game_id: g.event_count for g in store.list_games()}
    assert games == {"taken": 3, **{f"g{i}": 3 + i % 5 for i in range(450)}}
    assert all(r.ok for r in verify_all(store)) and verify_log(store).ok
    again = client.append_stream(batches[:5])  # a resent stream: duplicates, nothing written
    assert all(r.duplicate for r in again) and store.head_position() == sum(games.values())


def test_append_stream_refuses_rulings_and_needs_a_recorder(tmp_path):
    token_file = tmp_path / "tokens.txt"
    token_file.write_text("viewer t-view\nrecorder t-rec\n")
    store = open_store(tmp_path / "data")
    srv, port = build_server(store, port=0, tokens=load_tokens(token_file))
    srv.start()
    try:
        with EventLogClient(f"127.0.0.1:{port}", token="t-view", timeout=10) as viewer:
            with pytest.raises(Exception, match="viewer may not append"):
                viewer.append_stream([("g", _game("g"), NO_STREAM)])
        with EventLogClient(f"127.0.0.1:{port}", token="t-rec", timeout=10) as recorder:
            ruling = NewEvent.of(RefereeRuling(ref_seq=1, kind="note", ruling="a note", rule="A9"), id_seed="r/0")
            with pytest.raises(ValueError, match="goes through Append"):
                recorder.append_stream([("g", [*_game("g"), ruling], NO_STREAM)])
            # named first, as before, even when another event of the request is malformed
            bad = _game("bad")  # a draw by seat 9 (model_copy does not validate: the server does)
            bad[2] = bad[2].model_copy(update={"payload": bad[2].payload.model_copy(update={"seat": 9})})
            with pytest.raises(ValueError, match=r"requests\[0\]\.events\[2\]: tile_drawn: payload\.seat"):
                recorder.append_stream([("g1", bad, NO_STREAM)])
            with pytest.raises(ValueError, match=r"requests\[1\]\.events\[3\]: a referee_ruling goes through Append"):
                recorder.append_stream([("g0", _game("g0"), NO_STREAM), ("g", [*bad, ruling], NO_STREAM)])
            assert [r.game_id for r in recorder.append_stream([("g", _game("g"), NO_STREAM)])] == ["g"]
        assert [g.game_id for g in store.list_games()] == ["g"]
    finally:
        srv.stop(None)
        store.close()


def test_a_stream_ending_with_a_resent_batch_leaves_a_store_that_opens_and_verifies(tmp_path):
    """The proto's promise for AppendStream: "sending the same stream again is safe, the
    retries are duplicates" — also when the retry comes last, after a batch that was written
    in the same transaction. The checkpoint written after that transaction must record the
    last event *written* (a duplicate writes none), so the store opens again (not DATA LOSS)
    and verify finds the log intact."""
    from eventlog.store.checkpoint import CheckpointFile
    from eventlog.store.sqlite import checkpoint_path

    store = open_store(tmp_path / "data")
    srv, port = build_server(store, port=0)
    srv.start()
    try:
        with EventLogClient(f"127.0.0.1:{port}", timeout=30) as client:
            client.append("g-A", _game("g-A"), NO_STREAM)
            results = client.append_stream([("g-B", _game("g-B"), NO_STREAM), ("g-A", _game("g-A"), ANY)])
            assert [r.duplicate for r in results] == [False, True]
    finally:
        srv.stop(None)
        store.close()
    path = tmp_path / "data" / "events.sqlite"
    with open_store(tmp_path / "data", create=False) as again:  # raised LogTruncated (DATA LOSS)
        assert verify_log(again).ok and all(r.ok for r in verify_all(again))
        last = list(again.read_all(from_position=6))[-1]
    ck = CheckpointFile(checkpoint_path(path))
    try:
        assert (ck.read().position, ck.read().event_hash) == (6, last.hash)
    finally:
        ck.close()
