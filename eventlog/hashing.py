"""The hash chain, defined once (shared/DESIGN.md §4 ``prev_hash``/``hash``, §5).

Every stored event carries ``hash = SHA-256(prev_hash + "\\n" + body)`` where ``body`` is
the canonical JSON object (sorted keys, no spaces, UTF-8) of everything stored about the
event except its global position::

    {"event_id":…,"game_id":…,"metadata":{…},"payload":{…},"recorded_at":…,
     "schema_version":…,"seq":…,"type":…}

``prev_hash`` is the hash of the game's previous event, :data:`GENESIS_HASH` for seq 0.
:func:`chain_body_text` builds the body from the stored JSON texts of payload and metadata
(the store's fast path), :func:`chain_hash` from decoded objects; both give the same bytes.

The *log hash* (:func:`log_hash`) chains every event of the whole log in position order —
``log_hash(prev, position, event_hash)`` — so a store can anchor the set of games and the
log's length in a checkpoint the database cannot lose together with its tail.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

__all__ = [
    "GENESIS_HASH",
    "canonical_bytes",
    "canonical_text",
    "chain_body_text",
    "link_hash",
    "stored_row_hash",
    "chain_links",
    "chain_rows",
    "chain_links_logged",
    "chain_hash",
    "log_hash",
    "log_hash_run",
]

#: ``prev_hash`` of a game's seq 0, and the log hash of an empty log.
GENESIS_HASH = "0" * 64

#: A string as canonical JSON: what ``JSONEncoder(ensure_ascii=False).encode`` returns for
#: a ``str`` (it calls this very function), without the method call around it.
_json_string = json.encoder.encode_basestring


#: The one canonical encoder: ``JSONEncoder(sort_keys=True, separators=(",", ":"),
#: ensure_ascii=False).encode`` — the standard library's C encoder with exactly those
#: settings, built once (``encode`` builds it again on every call, half the cost of
#: encoding a small payload); the bytes every stored hash covers. It keeps no marker table
#: (the check for a container inside itself): what it encodes is JSON-shaped data that
#: pydantic has already serialised or ``json`` parsed, which cannot hold a cycle.
_c_encoder = json.encoder.c_make_encoder  # type: ignore[attr-defined]
_canonical_c = (
    _c_encoder(None, json.JSONEncoder().default, json.encoder.encode_basestring, None, ":", ",", True, False, True)
    if _c_encoder is not None
    else None
)
_canonical_py = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode


def _canonical(obj: Any) -> str:
    if type(obj) is str:
        return _json_string(obj)
    if _canonical_c is None:  # pragma: no cover - a Python without the C accelerator
        return _canonical_py(obj)
    return "".join(_canonical_c(obj, 0))


def canonical_bytes(obj: Any) -> bytes:
    """Canonical JSON encoding: sorted keys, no spaces, UTF-8."""
    return _canonical(obj).encode()


def canonical_text(obj: Any) -> str:
    """:func:`canonical_bytes` as text."""
    return _canonical(obj)


def chain_body_text(
    *,
    game_id: str,
    seq: int,
    event_id: str,
    type_: str,
    schema_version: int,
    payload_text: str,
    metadata_text: str,
    recorded_at: str,
) -> str:
    """The hashed body of one event, from the canonical JSON texts of its payload and
    metadata (exactly what :func:`canonical_bytes` writes for the whole object)."""
    s = _json_string
    return (
        f'{{"event_id":{s(event_id)},"game_id":{s(game_id)},"metadata":{metadata_text},'
        f'"payload":{payload_text},"recorded_at":{s(recorded_at)},'
        f'"schema_version":{int(schema_version)},"seq":{int(seq)},"type":{s(type_)}}}'
    )


def link_hash(prev_hash: str, body: str) -> str:
    """One link of the chain: SHA-256 (hex) of ``prev_hash``, a newline and ``body``."""
    return hashlib.sha256(prev_hash.encode() + b"\n" + body.encode()).hexdigest()


def stored_row_hash(
    prev_hash: str, game_id: str, seq: int, event_id: str, type_: str, schema_version: int,
    payload_text: str, metadata_text: str, recorded_at: str,
) -> str:
    """:func:`link_hash` of ``prev_hash`` and :func:`chain_body_text` of a row's stored
    columns (the same hex digest) in one encode: the read path's hash check, once per row.
    ``seq`` and ``schema_version`` must be ints."""
    s = _json_string
    return hashlib.sha256(
        f'{prev_hash}\n{{"event_id":{s(event_id)},"game_id":{s(game_id)},"metadata":{metadata_text},'
        f'"payload":{payload_text},"recorded_at":{s(recorded_at)},'
        f'"schema_version":{schema_version},"seq":{seq},"type":{s(type_)}}}'.encode()
    ).hexdigest()
def chain_rows(
    prev_hash: str,
    *,
    game_id: str,
    recorded_at: str,
    events: Iterable[tuple[str, str, int, str, str]],
    first_seq: int = 0,
) -> list[tuple[str, int, str, str, int, str, str, str, str, str]]:
    """Consecutive events of one game from seq ``first_seq``, each ``(event_id, type,
    schema_version, payload_text, metadata_text)``, chained from ``prev_hash``: each as
    ``(game_id, seq, event_id, type, schema_version, payload_text, metadata_text,
    recorded_at, prev_hash, hash)`` — ``hash`` the :func:`link_hash` of
    :func:`chain_body_text`, the same bytes (:func:`chain_links_logged`)."""
    events = list(events)
    hashes = chain_links_logged(prev_hash, game_id=game_id, recorded_at=recorded_at, events=events,
                                first_seq=first_seq)[0]
    return [(game_id, seq, *e, recorded_at, prev, h)
            for seq, e, prev, h in zip(range(first_seq, first_seq + len(events)), events, [prev_hash, *hashes[:-1]],
                                       hashes)]


def chain_links(
    prev_hash: str,
    *,
    game_id: str,
    recorded_at: str,
    events: Iterable[tuple[str, str, int, str, str]],
    first_seq: int = 0,
) -> list[str]:
    """The chain hashes of :func:`chain_rows` (the same arguments)."""
    return chain_links_logged(prev_hash, game_id=game_id, recorded_at=recorded_at, events=events,
                              first_seq=first_seq)[0]


def chain_links_logged(
    prev_hash: str,
    *,
    game_id: str,
    recorded_at: str,
    events: Iterable[tuple[str, str, int, str, str]],
    first_seq: int = 0,
    log: tuple[int, str] | None = None,
    canonical_ids: bool = False,
) -> tuple[list[str], str | None]:
    """``(hashes, after)``: the chain hash of each event (:func:`chain_rows`' ``hash``, from
    the same arguments: :func:`link_hash` of :func:`chain_body_text`, the parts every event
    of the game shares — game id, ``recorded_at`` — encoded once for the game; one pass,
    events read once: an iterator will do) and, when ``log`` is ``(position, running)``,
    the log's running hash once these events follow a log whose head is at ``position``
    with running hash ``running`` (:func:`log_hash_run` of their hashes from
    ``position + 1``), worked out in the same pass (else None): what a bulk import's lone
    parsing process hands the storing one (:meth:`eventlog.store.planning.SealedBatch.of`).

    ``canonical_ids``: the caller vouches that every event id is a canonical UUID
    (lower-case hex digits and hyphens, as :func:`eventlog.events.game_event_ids` makes
    them: its JSON string is the id between quotes) and every schema version an ``int`` —
    the same bytes, a fifth less work per event (a game's ids made by the importers)."""
    s = _json_string
    game = f',"game_id":{s(game_id)},"metadata":'
    recorded = f',"recorded_at":{s(recorded_at)},"schema_version":'
    tails: dict[str, str] = {}  # type -> ',"type":<its JSON string>}'
    sha256 = hashlib.sha256
    out: list[str] = []
    append = out.append
    seq = first_seq
    logged = log is not None
    position, running = log if log is not None else (0, "")
    if canonical_ids:
        game = '"' + game
        for event_id, type_, schema_version, payload_text, metadata_text in events:
            tail = tails.get(type_)
            if tail is None:
                tail = tails[type_] = f',"type":{s(type_)}}}'
            prev_hash = sha256(f'{prev_hash}\n{{"event_id":"{event_id}{game}{metadata_text},"payload":{payload_text}'
                               f'{recorded}{schema_version},"seq":{seq}{tail}'.encode()).hexdigest()
            append(prev_hash)
            seq += 1
            if logged:
                position += 1
                running = sha256(f"{running}\n{position}\n{prev_hash}".encode()).hexdigest()  # = log_hash
        return out, (running if logged else None)
    for event_id, type_, schema_version, payload_text, metadata_text in events:
        tail = tails.get(type_)
        if tail is None:
            tail = tails[type_] = f',"type":{s(type_)}}}'
        prev_hash = sha256(f'{prev_hash}\n{{"event_id":{s(event_id)}{game}{metadata_text},"payload":{payload_text}'
                           f'{recorded}{int(schema_version)},"seq":{seq}{tail}'.encode()).hexdigest()
        append(prev_hash)
        seq += 1
        if logged:
            position += 1
            running = sha256(f"{running}\n{position}\n{prev_hash}".encode()).hexdigest()  # = log_hash
    return out, (running if logged else None)


def chain_hash(
    prev_hash: str,
    *,
    game_id: str,
    seq: int,
    event_id: str,
    type_: str,
    schema_version: int,
    payload: dict[str, Any],
    metadata: dict[str, Any],
    recorded_at: str,
) -> str:
    """SHA-256 (hex) over ``prev_hash`` and the canonical encoding of the event.

    Covers everything stored about the event except its global ``position`` (which is
    the log's, not the game's), so any later edit of a stored event breaks the chain."""
    return link_hash(
        prev_hash,
        chain_body_text(
            game_id=game_id,
            seq=seq,
            event_id=event_id,
            type_=type_,
            schema_version=schema_version,
            payload_text=canonical_text(payload),
            metadata_text=canonical_text(metadata),
            recorded_at=recorded_at,
        ),
    )


def log_hash(prev_log_hash: str, position: int, event_hash: str) -> str:
    """The running hash of the whole log after the event at ``position`` (hash
    ``event_hash``); :data:`GENESIS_HASH` before position 1."""
    return hashlib.sha256(f"{prev_log_hash}\n{int(position)}\n{event_hash}".encode()).hexdigest()


def log_hash_run(prev_log_hash: str, first_position: int, event_hashes: Iterable[str]) -> str:
    """The running hash after consecutive events from ``first_position`` on with these
    chain hashes: :func:`log_hash` applied event by event (the store's bulk insert)."""
    sha256 = hashlib.sha256
    for position, event_hash in enumerate(event_hashes, first_position):
        prev_log_hash = sha256(f"{prev_log_hash}\n{position}\n{event_hash}".encode()).hexdigest()
    return prev_log_hash
