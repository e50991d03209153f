"""Fuzz the gRPC services (issue 12 items 6-7, "fuzzed ... RPCs"): requests with hostile
values sent to a real server over a real SQLite store.

    python scripts/fuzz_rpcs.py [--calls 3000] [--seed 1] [--json]

Every request message is built from its protobuf descriptor, each field set or left out
at random, with values drawn from hostile pools: integers at and past every 32/64-bit
bound, empty, huge (70,000 characters), control-character, non-ASCII and deeply nested
JSON strings, unknown enum numbers, random bytes; nested messages and oneofs recursively
(bounded depth). Each method (Append, AppendStream, ReadGame, ListGames, Subscribe,
IngestLog, GetState, StepThrough, Verify, VerifyStream and the TournamentService's five) gets the same
share of calls; a third of the requests name a stored game so they get past the "no such
game" check. The server is ``paipu serve``'s: the store's services and the tournaments in
the data directory.

The contract (docs/grpc.md, issue 12): a request is answered OK or with a status the
contract names for the client's fault (INVALID_ARGUMENT, NOT_FOUND, ALREADY_EXISTS,
ABORTED, FAILED_PRECONDITION, OUT_OF_RANGE); never UNKNOWN or INTERNAL (a server bug),
never DATA_LOSS (the log is intact), with details and trailers far below gRPC's 16 KiB
trailer limit. Afterwards the log must still verify. Counted: calls, statuses by code,
violations by (method, code, first words of the details). Exit 1 on any violation.

The bounded version runs in the test suite (tests/services/test_rpc_fuzz.py), through
:func:`fuzz`.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import grpc
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from paipu.v1 import event_log_service_pb2 as el
from paipu.v1 import event_log_service_pb2_grpc as el_grpc
from paipu.v1 import ingest_service_pb2 as ing
from paipu.v1 import ingest_service_pb2_grpc as ing_grpc
from paipu.v1 import replay_service_pb2 as rp
from paipu.v1 import replay_service_pb2_grpc as rp_grpc
from paipu.v1 import tournament_service_pb2 as tn
from paipu.v1 import tournament_service_pb2_grpc as tn_grpc

__all__ = ["ALLOWED", "TRAILER_LIMIT", "Fuzzer", "fuzz"]

#: Statuses a hostile request may get: the client's fault, said so.
ALLOWED = frozenset({
    grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND,
    grpc.StatusCode.ALREADY_EXISTS, grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.OUT_OF_RANGE,
})
#: gRPC refuses trailers beyond 16 KiB.
TRAILER_LIMIT = 16 * 1024

_INT_BOUNDS = {
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SINT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_FIXED32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SINT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
    FieldDescriptor.TYPE_FIXED64: (0, 2**64 - 1),
}
_INTS = [0, 1, 2, 3, 4, 5, 7, 13, 135, 600, 999_999_999, 2**31 - 1, 2**31, 2**32 - 1, 2**53 + 1,
         2**62, 2**63 - 1, 2**63, 2**64 - 1, -1, -2, -(2**31), -(2**63)]
_STRINGS = ["", " ", "g1", "W1", "B5", "J1", "F1", "mcr", "sichuan", "chow", "pung", "kong", "²", "٣",
            "\x00", "\n" * 40, "x" * 70_000, "中" * 5_000, "../../etc/passwd", "{}", "[]", "null",
            '{"a": ' + "[" * 5_000 + "]" * 5_000 + "}", "[" * 100_000, '{"a": 1e999999}',
            '{"a": ' + "9" * 5_000 + "}", "00000000-0000-4000-8000-0000000000aa", "\ud7ff\ue000",
            "botzone-text", "botzone-json", "pmn", "jsonl", "a.txt", "", "/", "..", "\\x"]
_BYTES = [b"", b"\x00" * 10, b"Match 1\n", b"\xff\xfe" * 100, b"[" * 20_000, b"{\"logs\": 5}"]


class Fuzzer:
    """Builds hostile request messages from ``rng`` (a seeded :class:`random.Random`).
    ``game_ids``: ids of stored games, used in a third of the string fields named
    ``game_id``."""

    def __init__(self, rng: random.Random, game_ids: list[str]) -> None:
        self.rng = rng
        self.game_ids = game_ids

    def message(self, cls: type[Message], depth: int = 0) -> Message:
        msg = cls()
        desc = msg.DESCRIPTOR
        oneof_fields = {f.name for o in desc.oneofs for f in o.fields}
        for oneof in desc.oneofs:
            if self.rng.random() < 0.7:
                self._set(msg, self.rng.choice(oneof.fields), depth)
        for fd in desc.fields:
            if fd.name in oneof_fields or self.rng.random() < 0.4:
                continue
            self._set(msg, fd, depth)
        return msg

    def _set(self, msg: Message, fd: FieldDescriptor, depth: int) -> None:
        repeated = fd.is_repeated if hasattr(fd, "is_repeated") else fd.label == fd.LABEL_REPEATED
        if fd.type == FieldDescriptor.TYPE_MESSAGE:
            if fd.message_type.GetOptions().map_entry:
                target = getattr(msg, fd.name)
                for _ in range(self.rng.randrange(3)):
                    k = self._scalar(fd.message_type.fields_by_name["key"], fd.name)
                    v = self._scalar(fd.message_type.fields_by_name["value"], fd.name)
                    target[k] = v
                return
            if depth >= 3:
                return
            if repeated:
                container = getattr(msg, fd.name)
                for _ in range(self.rng.choice([0, 1, 1, 2, 5])):
                    container.add().CopyFrom(self.message(fd.message_type._concrete_class, depth + 1))
            else:
                getattr(msg, fd.name).CopyFrom(self.message(fd.message_type._concrete_class, depth + 1))
            return
        if repeated:
            getattr(msg, fd.name).extend(self._scalar(fd, fd.name) for _ in range(self.rng.choice([0, 1, 4, 14])))
        else:
            setattr(msg, fd.name, self._scalar(fd, fd.name))

    def _scalar(self, fd: FieldDescriptor, name: str) -> Any:
        rng = self.rng
        t = fd.type
        if t in _INT_BOUNDS:
            lo, hi = _INT_BOUNDS[t]
            v = rng.choice(_INTS) if rng.random() < 0.8 else rng.randrange(-300, 300)
            return min(max(v, lo), hi)
        if t == FieldDescriptor.TYPE_BOOL:
            return rng.random() < 0.5
        if t in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
            return rng.choice([0.0, -1.0, 1e308, float("inf"), float("nan")])
        if t == FieldDescriptor.TYPE_ENUM:
            numbers = [v.number for v in fd.enum_type.values]
            return rng.choice(numbers + [99, -1, 2**31 - 1])
        if t == FieldDescriptor.TYPE_BYTES:
            return rng.choice(_BYTES)
        if name == "game_id" and self.game_ids and rng.random() < 0.35:
            return rng.choice(self.game_ids)
        if name == "event_id" and rng.random() < 0.5:
            return "%08x-0000-4000-8000-%012x" % (rng.randrange(2**32), rng.randrange(2**48))
        return rng.choice(_STRINGS)


def _calls(channel: grpc.Channel, fz: Fuzzer, timeout: float) -> list[tuple[str, Callable[[], Any]]]:
    log = el_grpc.EventLogServiceStub(channel)
    replay = rp_grpc.ReplayServiceStub(channel)
    ingest = ing_grpc.IngestServiceStub(channel)
    tour = tn_grpc.TournamentServiceStub(channel)

    def stream_some(it: Iterator[Any], n: int = 50) -> None:
        for i, msg in enumerate(it):
            caught_up = isinstance(msg, el.SubscribeResponse) and msg.WhichOneof("content") == "caught_up"
            if i >= n or caught_up:  # a live subscription runs until the client stops it
                it.cancel()  # type: ignore[attr-defined]
                return

    def upload() -> Any:
        msgs = [ing.IngestLogRequest(header=fz.message(ing.IngestLogHeader))] if fz.rng.random() < 0.9 else []
        msgs += [fz.message(ing.IngestLogRequest) for _ in range(fz.rng.randrange(4))]
        return ingest.IngestLog(iter(msgs), timeout=timeout)

    return [
        ("Append", lambda: log.Append(fz.message(el.AppendRequest), timeout=timeout)),
        ("AppendStream", lambda: log.AppendStream(
            iter([fz.message(el.AppendRequest) for _ in range(fz.rng.randrange(4))]), timeout=timeout)),
        ("ReadGame", lambda: stream_some(log.ReadGame(fz.message(el.ReadGameRequest), timeout=timeout))),
        ("ListGames", lambda: log.ListGames(fz.message(el.ListGamesRequest), timeout=timeout)),
        ("Subscribe", lambda: stream_some(log.Subscribe(fz.message(el.SubscribeRequest), timeout=timeout), 20)),
        ("IngestLog", upload),
        ("GetState", lambda: replay.GetState(fz.message(rp.GetStateRequest), timeout=timeout)),
        ("StepThrough", lambda: stream_some(replay.StepThrough(fz.message(rp.StepThroughRequest), timeout=timeout))),
        ("Verify", lambda: replay.Verify(fz.message(rp.VerifyRequest), timeout=timeout)),
        ("VerifyStream", lambda: stream_some(replay.VerifyStream(fz.message(rp.VerifyRequest), timeout=timeout))),
        ("CreateTournament", lambda: tour.CreateTournament(fz.message(tn.CreateTournamentRequest), timeout=timeout)),
        ("AddGame", lambda: tour.AddGame(fz.message(tn.AddGameRequest), timeout=timeout)),
        ("AddTeam", lambda: tour.AddTeam(fz.message(tn.AddTeamRequest), timeout=timeout)),
        ("AddPenalty", lambda: tour.AddPenalty(fz.message(tn.AddPenaltyRequest), timeout=timeout)),
        ("GetStandings", lambda: tour.GetStandings(fz.message(tn.GetStandingsRequest), timeout=timeout)),
    ]


def fuzz(target: str, calls: int, rng: random.Random, game_ids: list[str], *,
         timeout: float = 10.0) -> tuple[Counter, Counter]:
    """Send ``calls`` hostile requests to the server at ``target``. Returns (statuses by
    code name, violations by ``(method, code, details[:80])``)."""
    codes: Counter = Counter()
    bad: Counter = Counter()
    fz = Fuzzer(rng, game_ids)
    with grpc.insecure_channel(target) as channel:
        methods = _calls(channel, fz, timeout)
        for i in range(calls):
            name, call = methods[i % len(methods)]
            try:
                call()
                code, details, trailers = grpc.StatusCode.OK, "", 0
            except grpc.RpcError as e:
                code, details = e.code(), e.details() or ""  # type: ignore[attr-defined]
                trailers = sum(len(k) + len(v) for k, v in (e.trailing_metadata() or ()))  # type: ignore[attr-defined]
            if code == grpc.StatusCode.CANCELLED:
                code = grpc.StatusCode.OK  # the client stopped reading a stream
            codes[code.name] += 1
            if code not in ALLOWED or trailers + len(details) > TRAILER_LIMIT // 2:
                bad[(name, code.name, details[:80])] += 1
    return codes, bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    from analytics.tournament_service import register as register_tournaments
    from eventlog.store import open_store
    from eventlog.verify import verify_all, verify_log
    from paipu.samples import sample_files
    from services.server import build_server
    from eventlog.ingest.load import ingest_files

    with tempfile.TemporaryDirectory(prefix="paipu-rpcfuzz-") as tmp:
        store = open_store(Path(tmp) / "data")
        ingest_files(store, sample_files()[:2])
        ids = [g.game_id for g in store.list_games()]
        server, port = build_server(store, port=0, poll_interval=0.02,
                                    extra_services=(register_tournaments(Path(tmp) / "data"),))
        server.start()
        t = time.perf_counter()
        try:
            codes, bad = fuzz(f"127.0.0.1:{port}", a.calls, random.Random(a.seed), ids)
        finally:
            server.stop(None)
        seconds = time.perf_counter() - t
        log_ok = verify_log(store).ok and all(r.ok for r in verify_all(store))
        store.close()
    if a.json:
        print(json.dumps({"calls": a.calls, "codes": dict(codes), "violations": sum(bad.values()),
                          "log_ok": log_ok, "seconds": round(seconds, 1)}, sort_keys=True))
    else:
        print(f"calls {a.calls:,}  seed {a.seed}  {a.calls / seconds:.0f} calls/s ({seconds:.1f} s)")
        print("statuses: " + ", ".join(f"{k} {v:,}" for k, v in codes.most_common()))
        print(f"log verifies afterwards: {log_ok}")
        print(f"violations: {sum(bad.values())}")
        for (name, code, details), n in bad.most_common():
            print(f"  {n:5d}  {name} {code}: {details}")
    return 0 if not bad and log_ok else 1


if __name__ == "__main__":
    sys.exit(main())
