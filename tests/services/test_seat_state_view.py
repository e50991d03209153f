"""One seat's view of the *table* (not only of the event) withholds what that seat cannot
know: DESIGN.md §8 (docs/reference/DESIGN.md) "one seat's view" — another seat's concealed
tiles are not seen; docs/events.md: a draw's ``tile`` is ``null`` "when the source hides it
(another player's draw in a one-seat view)"; the wall order is nobody's to see.

A user trial found ``paipu replay GAME --at 60 --seat 0 --json`` masking the event while
``state.last_draw`` named seat 1's drawn tile and ``state.seen`` counted every tile out of
the wall (subtracting seat 0's own tiles gave the other hands exactly).

The oracle is the rule itself, written here from DESIGN.md §8, never the code under test:
of the whole table (the replay with every hand) a seat sees the rivers, the declared sets
(another seat's concealed kong face down), the flowers set aside, the wildcard indicator and
its own concealed tiles — nothing else that names a tile.
Real games (two Botzone logs shipped with paipu, one with a concealed kong) are ingested
with the CLI into a store in tmp_path; every event from every seat is checked in the CLI's
``replay --json`` and in the protobuf of a real gRPC server on a loopback port."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import grpc
import pytest
from typer.testing import CliRunner

from eventlog import tiles as T
from eventlog.store import open_store
from paipu.cli import app
from paipu.samples import SAMPLES_DIR
from paipu.v1 import events_pb2
from paipu.v1 import replay_service_pb2 as rpb
from paipu.v1 import replay_service_pb2_grpc as rpb_grpc
from replayer.replay import replay
from services.server import build_server

DEADLINE = 30.0  # seconds; only reached when something is broken
LOGS = SAMPLES_DIR / "botzone-mcr-matchlog-json"
GAMES = {
    "botzone-6a20243a58ebe27b197dabab": LOGS / "6a20243a58ebe27b197dabab_lite.json",  # the trial's game
    "botzone-6a2045aa58ebe27b197dc65e": LOGS / "6a2045aa58ebe27b197dc65e_lite.json",  # a concealed kong at 71
}
runner = CliRunner()


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    d = tmp_path_factory.mktemp("seatview") / "paipu-data"
    for path in GAMES.values():
        res = runner.invoke(app, ["ingest", str(path), "--data", str(d)], catch_exceptions=False)
        assert res.exit_code == 0, res.output
    return d


@pytest.fixture(scope="module")
def events(data):
    store = open_store(data)
    try:
        return {g: list(store.read_game(g)) for g in GAMES}
    finally:
        store.close()


def _tables(events: list[Any]) -> list[Any]:
    """The whole table (every hand) after each event."""
    return [s.state for s in replay(events, mode="audit")]


def _visible(k: Any, seat: int) -> list[int]:
    """Copies of each tile that ``seat`` sees on the whole table ``k``: its own concealed tiles, every river tile (a claimed one once, in its river),
    every set's other tiles (another seat's concealed kong lies face down), the flowers set
    aside and the wildcard indicator."""
    n = Counter(k.seats[seat].tiles)
    for i, st in enumerate(k.seats):
        n.update(d.tile for d in st.discards)
        for m in st.melds:
            if m.kong_kind == "concealed" and i != seat:
                continue
            rest = list(m.tiles)
            if m.discard_seq is not None:
                rest.remove(m.claimed_tile)
            n.update(rest)
        n.update(st.flowers)
    if k.wildcard_indicator:
        n[k.wildcard_indicator] += 1
    return [n[t] for t in T.ALL_TILES]


def _tile_strings(obj: Any) -> Counter:
    """Every tile code in a JSON value, counted (a seat's ``wind``, F1..F4, is no tile)."""
    out: Counter = Counter()
    if isinstance(obj, dict):
        for key, v in obj.items():
            if key != "wind":
                out += _tile_strings(v)
    elif isinstance(obj, list):
        for v in obj:
            out += _tile_strings(v)
    elif isinstance(obj, str) and T.is_valid(obj):
        out[obj] += 1
    return out


def _held(k: Any, seat: int) -> list[str]:
    return sorted(k.seats[seat].tiles)


def _cli_json(data, game: str, seq: int, seat: int) -> dict:
    res = runner.invoke(app, ["replay", game, "--at", str(seq), "--seat", str(seat), "--json", "--data", str(data)],
                        catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_cli_replay_json_from_a_seat_holds_no_tile_it_cannot_know(data, events):
    """Every event from every seat, as ``paipu replay --at SEQ --seat N --json`` writes it:
    the command itself at the trial's event, around the concealed kong and at each game's
    end; every other event through the same function the command writes its JSON with
    (one replay per game: a command per event would replay the game a thousand times)."""
    from paipu.cli.replay import _state_json

    for game, evs in events.items():
        known = _tables(evs)
        steps = list(replay(evs, mode="audit"))
        kong = [e.seq for e in evs if e.type == "kong" and e.payload.kind == "concealed"]
        by_command = {60, evs[-1].seq, *kong, *(q + 1 for q in kong)}
        for seat in range(4):
            for e, k, step in zip(evs, known, steps, strict=True):
                if e.seq in by_command:
                    out = _cli_json(data, game, e.seq, seat)
                    assert out == json.loads(json.dumps(_state_json(game, step, seat), ensure_ascii=False,
                                                        sort_keys=True, default=str))
                else:
                    out = json.loads(json.dumps(_state_json(game, step, seat), default=str))
                assert out["view_seat"] == seat
                state = out["state"]
                where = (game, e.seq, seat)
                assert state["wall"] is None and state["deal_pool"] is None, where
                assert state["rule_memory"] is None, where  # a ruleset's memory may hold every deal
                ld = state["last_draw"]
                if ld is not None and ld["seat"] != seat:
                    assert ld["tile"] is None, where
                assert state["seen"] == _visible(k, seat), where
                for i, st in enumerate(state["seats"]):
                    if i == seat:
                        assert sorted(st["tiles"]) == _held(k, seat), where
                        continue
                    assert st["tiles"] == [] and not any(st["counts"]), where
                    for m in st["melds"]:
                        if m["kong_kind"] == "concealed":
                            assert m["tiles"] == [], where
                # no tile more often than the seat's part of the whole table shows it
                mine = _tile_strings({k2: v for k2, v in state.items() if k2 in ("seats", "last_draw", "pending",
                                                                                   "pending_kong")})
                last = _json(k.last_draw) if k.last_draw is not None and k.last_draw.seat == seat else None
                theirs = _tile_strings(json.loads(json.dumps(
                    {"seats": [_seat_json(st, i == seat) for i, st in enumerate(k.seats)], "last_draw": last,
                     "pending": _json(k.pending), "pending_kong": _json(k.pending_kong)}, default=str)))
                assert not mine - theirs, (where, mine - theirs)


def _json(obj: Any) -> Any:
    from dataclasses import asdict, is_dataclass

    return asdict(obj) if obj is not None and is_dataclass(obj) else obj


def _seat_json(st: Any, own: bool) -> dict:
    """What of a seat names tiles that the viewing seat sees (``own``: its own seat)."""
    return {"tiles": list(st.tiles) if own else [],
            "melds": [_json(m) for m in st.melds if own or m.kong_kind != "concealed"],
            "discards": [_json(d) for d in st.discards], "flowers": list(st.flowers)}


@pytest.fixture
def stub(data):
    store = open_store(data)
    srv, port = build_server(store, port=0)
    srv.start()
    ch = grpc.insecure_channel(f"127.0.0.1:{port}")
    yield rpb_grpc.ReplayServiceStub(ch)
    ch.close()
    srv.stop(None)
    store.close()


def test_grpc_state_from_a_seat_holds_no_tile_it_cannot_know(stub, events):
    for game, evs in events.items():
        known = _tables(evs)
        for seat in range(4):
            got = [r.state for r in stub.StepThrough(rpb.StepThroughRequest(game_id=game, from_seq=0, seat=seat),
                                                     timeout=DEADLINE)]
            assert [m.seq for m in got] == [e.seq for e in evs]
            one = stub.GetState(rpb.GetStateRequest(game_id=game, seq=evs[60].seq, seat=seat), timeout=DEADLINE)
            assert one.state == got[60]
            for msg, k in zip(got, known, strict=True):
                where = (game, msg.seq, seat)
                assert msg.view_seat == seat
                for i, st in enumerate(msg.seats):
                    if i == seat:
                        assert sorted(st.concealed_tiles) == _held(k, seat), where
                        continue
                    assert list(st.concealed_tiles) == [] and st.hidden_from_view, where
                    assert st.unknown_tiles == st.concealed_count, where
                    for m in st.melds:
                        if m.kong_kind == events_pb2.KONG_KIND_CONCEALED:
                            assert list(m.tiles) == [], where
                # every tile string in the seats, counted, is on the table replayed from its own events
                mine: Counter = Counter()
                for st in msg.seats:
                    mine.update(st.concealed_tiles)
                    mine.update(st.flowers)
                    mine.update(d.tile for d in st.discards)
                    for m in st.melds:
                        mine.update(m.tiles)
                theirs: Counter = Counter()
                for i, st in enumerate(k.seats):
                    theirs.update(st.tiles if i == seat else ())
                    theirs.update(st.flowers)
                    theirs.update(d.tile for d in st.discards)
                    for m in st.melds:
                        theirs.update(m.tiles if (i == seat or m.kong_kind != "concealed") else ())
                assert not mine - theirs, (where, mine - theirs)
