"""Stateful property test: each backend against a plain in-memory model of the rules
in DESIGN.md §4-§5 (a list per game, one global list), over random sequences of
appends with every kind of expected version, idempotent retries, conflicting reuse of
event ids, and reads forward and backward.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from eventlog.events import GameStarted, NewEvent, TileDiscarded, TileDrawn
from eventlog.store.postgres import PostgresStore
from eventlog.store import (
    ANY,
    NO_STREAM,
    AppendResult,
    GameInfo,
    GameNotFound,
    IdempotencyConflict,
    MemoryStore,
    SqliteStore,
    StreamAlreadyExists,
    WrongExpectedVersion,
)

GAMES = ("a", "b", "c")
PLAY_TILES = ("W1", "W9", "T2", "B5", "F3", "J1")
RULESETS = ("mcr", "nanchang", "sichuan")

payloads = st.one_of(
    st.builds(TileDiscarded, seat=st.integers(0, 3), tile=st.sampled_from(PLAY_TILES)),
    st.builds(TileDrawn, seat=st.integers(0, 3), tile=st.sampled_from(PLAY_TILES)),
    st.builds(
        GameStarted,
        ruleset=st.sampled_from(RULESETS),
        players=st.just(["A", "B", "C", "D"]),
    ),
)
new_events = st.builds(lambda p: NewEvent.of(p), payloads)
batches = st.lists(new_events, min_size=1, max_size=4)


def key(e) -> tuple:
    return (e.event_id, e.type, e.payload, e.metadata)


class StoreMachine(RuleBasedStateMachine):
    make_store = None  # set by the test

    def __init__(self) -> None:
        super().__init__()
        self.store = type(self).make_store()
        self.games: dict[str, list[tuple[NewEvent, int]]] = {}  # game -> [(event, position)]
        self.log: list[tuple[str, int, NewEvent]] = []  # index = position - 1
        self.batches: list[tuple[str, list[NewEvent]]] = []

    def teardown(self) -> None:
        self.store.close()

    def version(self, game: str) -> int:
        return len(self.games.get(game, [])) - 1

    # ---- appends ---------------------------------------------------------------------

    def commit(self, game: str, batch: list[NewEvent]) -> AppendResult:
        v, head = self.version(game), len(self.log)
        stream = self.games.setdefault(game, [])
        for i, e in enumerate(batch):
            stream.append((e, head + 1 + i))
            self.log.append((game, v + 1 + i, e))
        self.batches.append((game, batch))
        n = len(batch)
        return AppendResult(game, v + 1, v + n, head + 1, head + n, v + n, False)

    @rule(game=st.sampled_from(GAMES), batch=batches)
    def append_any(self, game, batch):
        assert self.store.append(game, batch, ANY) == self.commit(game, batch)

    @rule(game=st.sampled_from(GAMES), batch=batches, minus_one=st.booleans())
    def append_no_stream(self, game, batch, minus_one):
        v = self.version(game)
        expected = -1 if minus_one else NO_STREAM
        if v >= 0:
            with pytest.raises(StreamAlreadyExists) as e:
                self.store.append(game, batch, expected)
            assert e.value.current == v
        else:
            assert self.store.append(game, batch, expected) == self.commit(game, batch)

    @precondition(lambda self: self.games)
    @rule(data=st.data(), batch=batches)
    def append_exact(self, data, batch):
        game = data.draw(st.sampled_from(sorted(self.games)))
        v = self.version(game)
        assert self.store.append(game, batch, v) == self.commit(game, batch)

    @rule(game=st.sampled_from(GAMES), batch=batches, off=st.integers(1, 3), above=st.booleans())
    def append_wrong_version(self, game, batch, off, above):
        v = self.version(game)
        expected = v + off if above or v - off < 0 else v - off
        with pytest.raises(WrongExpectedVersion) as e:
            self.store.append(game, batch, expected)
        assert (e.value.expected, e.value.current) == (expected, v)
        assert not isinstance(e.value, StreamAlreadyExists)

    # ---- retries and id reuse ----------------------------------------------------------

    @precondition(lambda self: self.batches)
    @rule(data=st.data())
    def retry_stored_run(self, data):
        """A retry of a stored batch (or of a run inside it) is a duplicate, whatever
        expected version it carries."""
        game, batch = data.draw(st.sampled_from(self.batches))
        i = data.draw(st.integers(0, len(batch) - 1))
        j = data.draw(st.integers(i + 1, len(batch)))
        expected = data.draw(st.sampled_from([ANY, NO_STREAM, 0, 99]))
        ids = [e.event_id for e, _ in self.games[game]]
        first = ids.index(batch[i].event_id)
        positions = [p for _, p in self.games[game]]
        got = self.store.append(game, batch[i:j], expected)
        assert got == AppendResult(
            game, first, first + j - i - 1, positions[first], positions[first + j - i - 1], self.version(game), True
        )

    @precondition(lambda self: self.batches)
    @rule(data=st.data(), fresh=batches)
    def partial_overlap(self, data, fresh):
        game, batch = data.draw(st.sampled_from(self.batches))
        mixed = data.draw(st.permutations([batch[-1], *fresh]))
        with pytest.raises(IdempotencyConflict):
            self.store.append(game, mixed, ANY)

    @precondition(lambda self: self.batches)
    @rule(data=st.data(), other_game=st.sampled_from(GAMES), tile=st.sampled_from(PLAY_TILES))
    def reuse_id(self, data, other_game, tile):
        game, batch = data.draw(st.sampled_from(self.batches))
        old = data.draw(st.sampled_from(batch))
        changed = NewEvent.of(TileDiscarded(seat=0, tile=tile), event_id=old.event_id, metadata={"x": 1})
        with pytest.raises(IdempotencyConflict):
            self.store.append(game, [changed])
        if other_game != game:
            with pytest.raises(IdempotencyConflict):
                self.store.append(other_game, [old])

    # ---- reads -------------------------------------------------------------------------------

    @rule(
        game=st.sampled_from(GAMES),
        from_seq=st.integers(-1, 12),
        limit=st.none() | st.integers(0, 5),
        backward=st.booleans(),
    )
    def read_game(self, game, from_seq, limit, backward):
        if from_seq == -1 and not backward:
            from_seq = 0
        if game not in self.games:
            with pytest.raises(GameNotFound):
                self.store.read_game(game, from_seq, limit, backward)
            return
        stream = [(e, s, p) for s, (e, p) in enumerate(self.games[game])]
        if backward:
            end = len(stream) if from_seq == -1 else min(from_seq + 1, len(stream))
            want = stream[:end][::-1]
        else:
            want = stream[from_seq:]
        want = want if limit is None else want[:limit]
        got = list(self.store.read_game(game, from_seq, limit, backward))
        assert [(key(e), e.game_id, e.seq, e.position) for e in got] == [
            (key(e), game, s, p) for e, s, p in want
        ]

    @rule(from_position=st.integers(-1, 40), limit=st.none() | st.integers(0, 6), backward=st.booleans())
    def read_all(self, from_position, limit, backward):
        if from_position == -1 and not backward:
            from_position = 1
        rows = [(g, s, e, p + 1) for p, (g, s, e) in enumerate(self.log)]
        if backward:
            end = len(rows) if from_position == -1 else min(from_position, len(rows))
            want = rows[:end][::-1]
        else:
            want = rows[max(from_position, 1) - 1 :]
        want = want if limit is None else want[:limit]
        got = list(self.store.read_all(from_position, limit, backward))
        assert [(e.game_id, e.seq, key(e), e.position) for e in got] == [
            (g, s, key(e), p) for g, s, e, p in want
        ]

    # ---- invariants -----------------------------------------------------------------------------

    @invariant()
    def heads_and_games(self):
        assert self.store.head_position() == len(self.log)
        expected = []
        for game, stream in sorted(self.games.items(), key=lambda kv: kv[1][0][1]):
            rulesets = [e.payload.ruleset for e, _ in stream if e.type == "game_started"]
            expected.append(
                GameInfo(game, len(stream) - 1, len(stream), stream[0][1], stream[-1][1], (rulesets or [None])[0])
            )
        assert self.store.list_games() == expected
        for game in GAMES:
            assert self.store.version(game) == self.version(game)


def test_the_store_behaves_like_the_model(backend, tmp_path, request):
    counter = itertools.count()
    server = request.getfixturevalue("postgres") if backend == "postgres" else None

    def make():
        if backend == "sqlite":
            return SqliteStore(tmp_path / f"model-{next(counter)}.sqlite")
        if server is not None:
            return PostgresStore(server.new_schema())
        return MemoryStore()

    machine = type("Machine", (StoreMachine,), {"make_store": staticmethod(make)})
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=100,
            stateful_step_count=30,
            deadline=None,
            derandomize=True,  # the same cases on every run and in CI
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        ),
    )
