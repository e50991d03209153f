"""Player aliases (issue 21 item 5): "Player 0" and "Player0" are one person.

Aliases are events of the core type ``player_aliased`` in the log's own stream
:data:`PLAYERS_STREAM` (``paipu:players``; streams whose id starts with ``paipu:`` are the
log's, never games — :func:`is_log_stream`). Append-only: the latest event for an alias
wins; aliasing a name to itself withdraws its alias. :func:`alias_map` resolves chains
(``a → b``, ``b → c`` gives ``a → c``), so every reader maps a name with one lookup.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from eventlog.errors import InvalidArgument, validation_problem
from eventlog.store.streams import LOG_STREAM_PREFIX, PLAYERS_STREAM, is_log_stream

__all__ = ["PLAYERS_STREAM", "LOG_STREAM_PREFIX", "is_log_stream", "alias_map", "read_aliases", "add_alias",
           "check_alias", "check_alias_batch", "canonical"]


def alias_map(events: Iterable[Any]) -> dict[str, str]:
    """``{alias: player}`` from ``player_aliased`` payloads in log order, chains resolved,
    sorted by alias. A withdrawn alias (aliased to itself) is left out."""
    direct: dict[str, str] = {}
    for e in events:
        p = e.payload if hasattr(e, "payload") else e
        if p.alias == p.player:
            direct.pop(p.alias, None)
        else:
            direct[p.alias] = p.player
    out = {}
    for a in sorted(direct):
        seen, name = {a}, direct[a]
        while name in direct and name not in seen:  # follow a chain; a cycle cannot be appended
            seen.add(name)
            name = direct[name]
        out[a] = name
    return out


def read_aliases(store: Any) -> dict[str, str]:
    """The store's current aliases (``{}`` when no alias was ever made)."""
    if store.stream_head(PLAYERS_STREAM) is None:
        return {}
    return alias_map(e for e in store.read_game(PLAYERS_STREAM) if e.type == "player_aliased")


def canonical(name: str, aliases: dict[str, str]) -> str:
    return aliases.get(name, name)


def add_alias(store: Any, alias: str, player: str) -> dict[str, str]:
    """Append ``alias → player`` to the players stream (expected version: the stream's
    current one, so two writers cannot interleave) and return the new alias map. Withdraw an
    alias with ``player == alias``. Raises InvalidArgument (field ``alias``) for an empty
    name, one over 200 characters or holding a control character (field ``alias`` or
    ``player``), an alias that names itself a player others alias to, or a cycle."""
    from eventlog.events import NewEvent, PlayerAliased

    from pydantic import ValidationError

    alias, player = alias.strip(), player.strip()
    if not alias or not player:
        raise InvalidArgument("a player name cannot be empty", "alias")
    try:
        payload = PlayerAliased(alias=alias, player=player)
    except ValidationError as e:
        where, why = validation_problem(e)
        raise InvalidArgument(f"{where}: {why}" if where else why, where) from None
    head = store.stream_head(PLAYERS_STREAM)
    check_alias(read_aliases(store), alias, player)
    from eventlog.store.types import NO_STREAM

    n = head.version + 1 if head is not None else 0
    store.append(PLAYERS_STREAM, [NewEvent.of(payload,
                                              id_seed=f"{PLAYERS_STREAM}/{n}/{alias}/{player}")],
                 head.version if head is not None else NO_STREAM)
    return read_aliases(store)


def check_alias(current: dict[str, str], alias: str, player: str, field: str = "alias") -> None:
    """Raise InvalidArgument (naming ``field``) unless ``alias → player`` may follow the aliases
    ``current`` (:func:`alias_map`): no cycle, no alias of a name others alias to, and a
    withdrawal (``player == alias``) only of an alias that exists."""
    if alias != player:
        if canonical(player, current) == alias:
            raise InvalidArgument(f"{player!r} is already an alias of {alias!r}: that would be a cycle", field)
        if alias in current.values():
            others = sorted(a for a, p in current.items() if p == alias)
            raise InvalidArgument(f"{alias!r} is the player of the aliases {', '.join(map(repr, others))}; alias "
                                  f"those to {player!r} first, or pick the other name as the player", field)
    elif alias not in current:
        raise InvalidArgument(f"{alias!r} is not an alias", field)


def check_alias_batch(store: Any, payloads: list[Any], where: str = "events") -> None:
    """Check ``payloads`` (``player_aliased`` payloads, in order) as ``paipu players alias``
    would one after the other (:func:`check_alias`; the error names ``{where}[i]``) against the store's
    aliases — what an Append to :data:`PLAYERS_STREAM` over gRPC must pass."""
    stored = list(store.read_game(PLAYERS_STREAM)) if store.stream_head(PLAYERS_STREAM) is not None else []
    done = [e.payload for e in stored if e.type == "player_aliased"]
    for i, p in enumerate(payloads):
        try:
            check_alias(alias_map(done), p.alias, p.player)
        except InvalidArgument as e:
            raise InvalidArgument(f"{where}[{i}]: {e}", f"{where}[{i}]") from None
        done.append(p)
