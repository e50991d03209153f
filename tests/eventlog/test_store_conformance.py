"""Conformance suite: every store backend (the ``store`` fixture is parametrised) must
behave as shared/DESIGN.md §4-§5 say. Expected values follow from those rules: seqs
dense from 0 per game, positions from 1 in commit order, version = last seq (-1: none).
"""

from __future__ import annotations

import re
import threading

import pytest

from eventlog.events import GENESIS_HASH, NewEvent, TileDiscarded, chain_hash, expected_hash
from eventlog.store import (
    PositionOutOfRange,
    ANY,
    NO_STREAM,
    AppendResult,
    CaughtUp,
    GameInfo,
    GameNotFound,
    IdempotencyConflict,
    StoreClosed,
    StreamAlreadyExists,
    WrongExpectedVersion,
)
from eventlog.errors import InvalidArgument
from eventlog.verify import verify_all, verify_game


def seqs_positions(events):
    return [(e.game_id, e.seq, e.position) for e in events]


def test_an_empty_store(store):
    assert store.head_position() == 0
    assert store.list_games() == []
    assert store.version("g") == -1
    assert list(store.read_all()) == []
    assert list(store.read_all(-1, backward=True)) == []
    with pytest.raises(GameNotFound) as e:
        store.read_game("g")
    assert e.value.game_id == "g"
    with pytest.raises(GameNotFound):
        verify_game(store, "g")
    assert verify_all(store) == []


def test_appends_get_dense_seqs_and_global_positions(store, discards):
    r1 = store.append("g1", discards(3), NO_STREAM)
    r2 = store.append("g2", discards(2), NO_STREAM)
    r3 = store.append("g1", discards(2), 2)
    assert r1 == AppendResult("g1", 0, 2, 1, 3, 2, False)
    assert r2 == AppendResult("g2", 0, 1, 4, 5, 1, False)
    assert r3 == AppendResult("g1", 3, 4, 6, 7, 4, False)
    assert seqs_positions(store.read_all()) == [
        ("g1", 0, 1), ("g1", 1, 2), ("g1", 2, 3), ("g2", 0, 4), ("g2", 1, 5), ("g1", 3, 6), ("g1", 4, 7),
    ]
    assert [(e.seq, e.position) for e in store.read_game("g1")] == [(0, 1), (1, 2), (2, 3), (3, 6), (4, 7)]
    assert store.version("g1") == 4 and store.version("g2") == 1
    assert store.head_position() == 7


def test_stored_events_keep_what_was_appended(store, discards):
    batch = discards(2, seat=3, tag="keep") + [
        NewEvent.of(TileDiscarded(seat=1, tile="J3"), metadata={"source": "a.log", "line": 7, "x": [1.5, None]})
    ]
    store.append("g", batch)
    got = list(store.read_game("g"))
    assert [(e.event_id, e.type, e.payload, e.metadata, e.schema_version) for e in got] == [
        (e.event_id, e.type, e.payload, e.metadata, e.schema_version) for e in batch
    ]
    assert all(e.game_id == "g" for e in got)


def test_each_event_extends_the_games_hash_chain(store, discards):
    store.append("g", discards(3))
    store.append("h", discards(1))
    store.append("g", discards(2))
    for game in ("g", "h"):
        prev = GENESIS_HASH
        for e in store.read_game(game):
            assert e.prev_hash == prev
            assert e.hash == expected_hash(e)
            assert e.hash == chain_hash(
                prev,
                game_id=game,
                seq=e.seq,
                event_id=e.event_id,
                type_="tile_discarded",
                schema_version=1,
                payload=e.payload.model_dump(mode="json"),
                metadata=e.metadata,
                recorded_at=e.recorded_at,
            )
            prev = e.hash
    assert all(r.ok for r in verify_all(store))
    assert [(r.game_id, r.events) for r in verify_all(store)] == [("g", 5), ("h", 1)]


def test_recorded_at_comes_from_the_commit_clock(store_factory, discards):
    fixed = store_factory(clock=lambda: "2026-01-02T03:04:05.000006Z")
    fixed.append("g", discards(2))
    assert {e.recorded_at for e in fixed.read_all()} == {"2026-01-02T03:04:05.000006Z"}
    real = store_factory()
    real.append("g", discards(1))
    (e,) = real.read_all()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", e.recorded_at)


# ---- expected version ---------------------------------------------------------------


def test_no_stream_creates_and_then_conflicts(store, discards):
    store.append("g", discards(2), NO_STREAM)
    with pytest.raises(StreamAlreadyExists) as e:
        store.append("g", discards(1), NO_STREAM)
    assert (e.value.game_id, e.value.expected, e.value.current) == ("g", NO_STREAM, 1)
    assert store.version("g") == 1


def test_minus_one_means_no_stream(store, discards):
    store.append("g", discards(1), -1)
    with pytest.raises(StreamAlreadyExists):
        store.append("g", discards(1), -1)


def test_exact_version_conflict_reports_the_current_version(store, discards):
    with pytest.raises(WrongExpectedVersion) as e:
        store.append("g", discards(1), 0)
    assert (e.value.expected, e.value.current) == (0, -1)
    assert not isinstance(e.value, StreamAlreadyExists)
    store.append("g", discards(3), ANY)
    with pytest.raises(WrongExpectedVersion) as e:
        store.append("g", discards(1), 5)
    assert (e.value.game_id, e.value.expected, e.value.current) == ("g", 5, 2)
    with pytest.raises(WrongExpectedVersion):
        store.append("g", discards(1), 1)
    assert store.append("g", discards(1), 2).version == 3
    assert store.head_position() == 4


@pytest.mark.parametrize("bad", ["latest", -2, 1.0, True, None])
def test_malformed_expected_version_is_refused(store, discards, bad):
    with pytest.raises(ValueError):
        store.append("g", discards(1), bad)
    assert store.head_position() == 0


def test_malformed_batches_are_refused(store, discards):
    with pytest.raises(ValueError):
        store.append("g", [])
    with pytest.raises(ValueError):
        store.append("", discards(1))
    ev = discards(1)[0]
    with pytest.raises(ValueError):
        store.append("g", [ev, ev])
    with pytest.raises(ValueError):
        store.append("g", ev)  # an event, not a batch
    assert store.head_position() == 0


# ---- idempotency ----------------------------------------------------------------------


def test_the_same_batch_again_is_a_duplicate_and_writes_nothing(store, discards):
    store.append("other", discards(1))
    batch = discards(3)
    first = store.append("g", batch, NO_STREAM)
    store.append("g", discards(1))
    again = store.append("g", batch, NO_STREAM)  # a retry after a lost acknowledgement
    assert again == AppendResult("g", 0, 2, 2, 4, 3, True)
    assert (first.first_seq, first.last_seq, first.first_position, first.last_position) == (0, 2, 2, 4)
    assert store.append("g", batch[1:], 0).duplicate  # a tail of a stored batch
    assert store.head_position() == 5
    assert store.version("g") == 3


def test_a_partial_overlap_is_a_conflict_and_writes_nothing(store, discards):
    batch = discards(2)
    store.append("g", batch)
    with pytest.raises(IdempotencyConflict) as e:
        store.append("g", [batch[1], *discards(2)])
    assert e.value.event_id == batch[1].event_id
    assert store.head_position() == 2


def test_an_id_reused_with_other_content_is_a_conflict(store, discards):
    (ev,) = discards(1)
    store.append("g", [ev])
    changed = NewEvent.of(TileDiscarded(seat=2, tile="W9"), event_id=ev.event_id)
    with pytest.raises(IdempotencyConflict):
        store.append("g", [changed])
    with pytest.raises(IdempotencyConflict) as e:
        store.append("elsewhere", [ev])
    assert "'g'" in str(e.value)
    assert store.head_position() == 1
    assert store.version("elsewhere") == -1


def test_stored_ids_in_another_order_are_a_conflict(store, discards):
    batch = discards(2)
    store.append("g", batch)
    with pytest.raises(IdempotencyConflict):
        store.append("g", batch[::-1])


# ---- reads --------------------------------------------------------------------------------


def test_read_game_forward_backward_and_limits(store, discards):
    store.append("g", discards(4))
    store.append("x", discards(1))
    store.append("g", discards(3))

    def seqs(**kw):
        return [e.seq for e in store.read_game("g", **kw)]

    assert seqs() == [0, 1, 2, 3, 4, 5, 6]
    assert seqs(from_seq=3) == [3, 4, 5, 6]
    assert seqs(from_seq=3, limit=2) == [3, 4]
    assert seqs(from_seq=7) == []
    assert seqs(limit=0) == []
    assert seqs(from_seq=-1, backward=True) == [6, 5, 4, 3, 2, 1, 0]
    assert seqs(from_seq=4, backward=True, limit=3) == [4, 3, 2]
    assert seqs(from_seq=0, backward=True) == [0]
    assert seqs(from_seq=99, backward=True, limit=2) == [6, 5]
    with pytest.raises(ValueError):
        store.read_game("g", from_seq=-1)  # the end, forward
    with pytest.raises(ValueError):
        store.read_game("g", limit=-1)


def test_read_all_forward_backward_and_limits(store, discards):
    store.append("a", discards(3))
    store.append("b", discards(2))

    def positions(*a, **kw):
        return [e.position for e in store.read_all(*a, **kw)]

    assert positions() == [1, 2, 3, 4, 5]
    assert positions(0) == [1, 2, 3, 4, 5]
    assert positions(4) == [4, 5]
    assert positions(2, limit=2) == [2, 3]
    assert positions(6) == []
    assert positions(-1, backward=True) == [5, 4, 3, 2, 1]
    assert positions(3, backward=True) == [3, 2, 1]
    assert positions(-1, backward=True, limit=2) == [5, 4]
    assert positions(0, backward=True) == []


def test_reads_page_through_long_streams(store, discards):
    n = 1234  # more than two pages of 500
    store.append("g", discards(n))
    store.append("h", discards(3))
    assert [e.seq for e in store.read_game("g")] == list(range(n))
    assert [e.seq for e in store.read_game("g", -1, backward=True)] == list(range(n - 1, -1, -1))
    assert [e.seq for e in store.read_game("g", 100, limit=700)] == list(range(100, 800))
    assert [e.position for e in store.read_all(-1, backward=True, limit=1001)] == list(
        range(n + 3, n + 3 - 1001, -1)
    )
    assert [e.position for e in store.read_all()] == list(range(1, n + 4))


def test_list_games_in_first_position_order_with_ruleset(store, discards, game_started):
    store.append("late", discards(1))
    store.append("mcr-game", [game_started("mcr"), *discards(2)])
    store.append("nc-game", discards(1))
    store.append("nc-game", [game_started("nanchang")])
    store.append("late", [game_started("sichuan")])
    store.append("late", [game_started("changsha")])  # only the first one counts
    assert store.list_games() == [
        GameInfo("late", 2, 3, 1, 8, "sichuan"),
        GameInfo("mcr-game", 2, 3, 2, 4, "mcr"),
        GameInfo("nc-game", 1, 2, 5, 6, "nanchang"),
    ]


def test_list_games_pages_after_a_first_position(store, discards, game_started):
    # five games whose first positions are 1, 3, 5, 7, 9 (two events each); a page starts after
    # a first position, holds at most `limit`, and a ruleset filter keeps only that ruleset's
    for i, ruleset in enumerate(("mcr", "sichuan", "mcr", "mcr", "sichuan")):
        store.append(f"g{i}", [game_started(ruleset), *discards(1)])
    ids = lambda infos: [g.game_id for g in infos]
    assert ids(store.list_games(after=0, limit=2)) == ["g0", "g1"]
    assert ids(store.list_games(after=3, limit=2)) == ["g2", "g3"]
    assert ids(store.list_games(after=4)) == ["g2", "g3", "g4"]
    assert ids(store.list_games(after=9)) == []
    assert ids(store.list_games(ruleset="mcr")) == ["g0", "g2", "g3"]
    assert ids(store.list_games(after=1, limit=1, ruleset="sichuan")) == ["g1"]
    assert ids(store.list_games(after=3, ruleset="sichuan")) == ["g4"]
    assert store.list_games(limit=0) == []
    assert store.list_games(ruleset="changsha") == []
    for bad in ({"after": -1}, {"limit": -1}):
        with pytest.raises(InvalidArgument):
            store.list_games(**bad)


# ---- subscriptions -------------------------------------------------------------------------


def test_subscribe_delivers_history_then_caught_up_then_live(store, discards):
    store.append("g", discards(3))
    stop = threading.Event()
    sub = store.subscribe(2, stop=stop, poll_interval=0.01)
    got = [next(sub), next(sub), next(sub)]
    assert [getattr(x, "position", None) for x in got] == [2, 3, 3]
    assert isinstance(got[2], CaughtUp)
    live = discards(2)
    threading.Timer(0.05, lambda: store.append("h", live)).start()
    a, b = next(sub), next(sub)
    assert [(a.game_id, a.position, a.event_id), (b.game_id, b.position, b.event_id)] == [
        ("h", 4, live[0].event_id),
        ("h", 5, live[1].event_id),
    ]
    stop.set()
    assert list(sub) == []


def test_subscribe_on_an_empty_log_is_caught_up_at_zero(store):
    stop = threading.Event()
    sub = store.subscribe(stop=stop, poll_interval=0.01)
    assert next(sub) == CaughtUp(0)
    stop.set()
    assert list(sub) == []


def test_subscribe_past_the_head(store, discards):
    """From head + 1 a subscriber waits for the next event; from further on nothing could
    ever be delivered in order, so it is refused at once (issue 12 item 9: it used to
    report caught-up at 999999998 and never deliver)."""
    store.append("g", discards(2))
    stop = threading.Event()
    sub = store.subscribe(3, stop=stop, poll_interval=0.01)
    assert next(sub) == CaughtUp(2)
    stop.set()
    assert list(sub) == []
    for past in (4, 10, 999_999_999):
        with pytest.raises(PositionOutOfRange, match=f"from_position {past} is past the end of the log"):
            store.subscribe(past)
    for huge in (2**63, 2**64 - 1):
        with pytest.raises(PositionOutOfRange, match="from_position must be from"):
            store.subscribe(huge)
        with pytest.raises(PositionOutOfRange, match="from_position must be from"):
            store.read_all(huge)
        with pytest.raises(PositionOutOfRange, match="from_seq must be from"):
            store.read_game("g", huge)


# ---- closing -----------------------------------------------------------------------------


def test_a_closed_store_refuses_every_call(store_factory, discards):
    store = store_factory()
    store.append("g", discards(1))
    reader = store.read_all()
    store.close()
    store.close()  # idempotent
    for call in (
        lambda: store.append("g", discards(1)),
        lambda: store.read_game("g"),
        lambda: list(store.read_all()),
        lambda: list(reader),
        store.head_position,
        store.list_games,
        lambda: store.version("g"),
    ):
        with pytest.raises(StoreClosed):
            call()


def test_a_store_is_a_context_manager(store_factory, discards):
    with store_factory() as store:
        store.append("g", discards(1))
    with pytest.raises(StoreClosed):
        store.head_position()


def test_subscribe_stops_mid_history(store, discards):
    store.append("g", discards(5))
    stop = threading.Event()
    sub = store.subscribe(stop=stop)
    assert [next(sub).position, next(sub).position] == [1, 2]
    stop.set()
    assert list(sub) == []


def test_store_errors_keep_their_fields_across_pickling():
    import pickle

    for err, fields in [
        (StreamAlreadyExists("g", NO_STREAM, 3), ("game_id", "expected", "current")),
        (WrongExpectedVersion("g", 4, 2), ("game_id", "expected", "current")),
        (IdempotencyConflict("g", "id", "why"), ("game_id", "event_id", "reason")),
        (GameNotFound("g"), ("game_id",)),
    ]:
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err) and str(back) == str(err)
        assert [getattr(back, f) for f in fields] == [getattr(err, f) for f in fields]


def test_a_bulk_append_stores_what_it_was_given_only_at_its_commit(store, discards):
    """bulk_append (the bulk import: games written a few at a time while the next ones are
    parsed, one durable transaction for all): nothing is seen before the commit, each
    batch is all or nothing, the outcomes are append_batches' in order, and a bulk left
    without its commit leaves nothing."""
    from eventlog.store.planning import Batch, SealedBatch

    store.append("taken", discards(1, tag="t"), NO_STREAM)
    with store.bulk_append() as bulk:
        bulk.write([SealedBatch.seal(Batch.encode("a", discards(3, tag="a"), NO_STREAM), store.now())])
        assert store.head_position() == 1 and store.version("a") == -1  # not before the commit
        bulk.write([Batch.encode("taken", discards(2, tag="u"), NO_STREAM),  # refused alone
                    Batch.encode("b", discards(2, tag="b"), NO_STREAM)])
        results = bulk.commit()
        assert [type(r).__name__ for r in results] == ["AppendResult", "StreamAlreadyExists", "AppendResult"]
        assert [(r.game_id, r.first_position) for r in (results[0], results[2])] == [("a", 2), ("b", 5)]
        assert store.head_position() == 6 and store.version("taken") == 0
        bulk.write([Batch.encode("c", discards(4, tag="c"), NO_STREAM)])  # the next transaction
        assert bulk.commit()[0].last_position == 10
        bulk.write([Batch.encode("lost", discards(2, tag="l"), NO_STREAM)])  # never committed
    assert store.version("lost") == -1 and store.head_position() == 10
    assert [g.game_id for g in store.list_games()] == ["taken", "a", "b", "c"]
    assert all(r.ok for r in verify_all(store))
    store.append("after", discards(1, tag="z"), NO_STREAM)  # the store goes on as before
    assert store.head_position() == 11
