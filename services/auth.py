"""Access control (docs/reference/DESIGN.md §9) as one server interceptor with a method → role table.

Off unless the server has tokens. A call carries ``authorization: Bearer TOKEN``; each token
has a role (:data:`ROLES`, each allowed what the ones before it are). :data:`METHOD_ROLES`
says which role each method of the paipu services needs; a method not in the table is
refused (a new RPC must be given a role). Health checking and reflection stay open.
The scheme is matched without regard to case (RFC 6750: ``bearer TOKEN`` too).
UNAUTHENTICATED: no token, a value not understood (said so), or an unknown token;
PERMISSION_DENIED: a role below the one needed.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import grpc

from eventlog.store.streams import LOG_STREAM_PREFIX
from services.wrapping import Behaviour, wrap_handler

__all__ = ["ROLES", "METHOD_ROLES", "PAIPU_PREFIX", "load_tokens", "AuthInterceptor"]

#: Roles, each allowed what the ones before it are: a viewer reads (ReadGame, ListGames,
#: Subscribe, every ReplayService call, tournament standings), a recorder also appends games
#: (Append, IngestService.IngestLog), a referee also appends ``referee_ruling`` and ``penalty``
#: events and player aliases (the log's own stream ``paipu:players``) and writes tournaments
#: (TournamentService).
ROLES: tuple[str, ...] = ("viewer", "recorder", "referee")

#: Methods under access control: every method of the ``paipu.v1`` services.
PAIPU_PREFIX = "/paipu.v1."


def _append_role(request: Any) -> tuple[str, str]:
    """A referee's rulings and penalties (competition.md §A9) need the referee role, and so does
    any append to the log's own streams (``paipu:players``: an alias merges two players in
    every statistic, docs/events.md; a recorder appends games)."""
    if request.game_id.startswith(LOG_STREAM_PREFIX):
        return "referee", f"append to the log's own stream {request.game_id!r}"
    for m in request.events:
        kind = m.WhichOneof("payload")
        if kind in ("referee_ruling", "penalty"):
            return "referee", f"append a {kind}"
    return "recorder", "append"


#: Full method name → (role, action) — or a function of the request giving them (for unary
#: requests: Append needs a referee only for ``referee_ruling`` events).
METHOD_ROLES: dict[str, tuple[str, str] | Callable[[Any], tuple[str, str]]] = {
    "/paipu.v1.EventLogService/Append": _append_role,
    # rulings and penalties are refused in a stream (they go through Append)
    "/paipu.v1.EventLogService/AppendStream": ("recorder", "append"),
    "/paipu.v1.EventLogService/ReadGame": ("viewer", "read"),
    "/paipu.v1.EventLogService/ListGames": ("viewer", "read"),
    "/paipu.v1.EventLogService/Subscribe": ("viewer", "read"),
    "/paipu.v1.IngestService/IngestLog": ("recorder", "ingest"),
    "/paipu.v1.ReplayService/GetState": ("viewer", "read"),
    "/paipu.v1.ReplayService/StepThrough": ("viewer", "read"),
    "/paipu.v1.ReplayService/Verify": ("viewer", "read"),
    "/paipu.v1.ReplayService/VerifyStream": ("viewer", "read"),
    "/paipu.v1.ReplayService/VerifyLog": ("viewer", "read"),
    # tournaments (analytics/tournament_service.py): the standings are the referee's to sign
    "/paipu.v1.TournamentService/CreateTournament": ("referee", "create a tournament"),
    "/paipu.v1.TournamentService/AddGame": ("referee", "add a game to a tournament"),
    "/paipu.v1.TournamentService/AddTeam": ("referee", "name a tournament team"),
    "/paipu.v1.TournamentService/AddPenalty": ("referee", "record a standings penalty"),
    "/paipu.v1.TournamentService/GetStandings": ("viewer", "read"),
    "/paipu.v1.ReplayService/Review": ("viewer", "read"),
}


def load_tokens(path: str | Path) -> dict[str, str]:
    """Read a token file: one ``ROLE TOKEN`` per line (ROLE in :data:`ROLES`), ``#``
    comments and blank lines ignored. Returns ``{token: role}``. Raises ValueError naming
    the file and line of a bad entry."""
    tokens: dict[str, str] = {}
    for lineno, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2 or parts[0] not in ROLES:
            raise ValueError(f"{path}:{lineno}: expected 'ROLE TOKEN' with ROLE one of {', '.join(ROLES)}")
        role, token = parts
        if token in tokens:
            raise ValueError(f"{path}:{lineno}: token given twice")
        tokens[token] = role
    return tokens


def _bearer_token(context: grpc.ServicerContext, auth: Any) -> str:
    """The token of an ``authorization`` value ``Bearer TOKEN``; the scheme is matched without
    regard to case (RFC 6750 §2.1, RFC 7235 §2.1: ``bearer``, ``BEARER`` are the same). Aborts
    UNAUTHENTICATED: no value at all ("needs a token"), or one sent but not understood — another
    scheme, no token, not text — saying so (never echoing what was sent)."""
    if isinstance(auth, str) and not auth.strip():
        context.abort(grpc.StatusCode.UNAUTHENTICATED, "this server needs a token (authorization: Bearer TOKEN)")
    scheme, _, token = auth.strip().partition(" ") if isinstance(auth, str) else ("", "", "")
    token = token.strip(" ")
    if scheme.lower() != "bearer" or not token:
        what = ("it is not text" if not isinstance(auth, str)
                else "it has no token after the scheme" if scheme.lower() == "bearer"
                else "its scheme is not Bearer")
        context.abort(grpc.StatusCode.UNAUTHENTICATED,
                      f"the authorization metadata was sent but not understood ({what}): send "
                      "'authorization: Bearer TOKEN'")
    return token


class AuthInterceptor(grpc.ServerInterceptor):
    """Checks every call of a paipu service against :data:`METHOD_ROLES` and the bearer
    token's role. ``tokens``: ``{token: role}``; None = open (the loopback default)."""

    def __init__(self, tokens: Mapping[str, str] | None) -> None:
        if tokens is not None:
            bad = sorted(r for r in tokens.values() if r not in ROLES)
            if bad:
                raise ValueError(f"unknown role(s) {bad}; roles are {', '.join(ROLES)}")
        self._tokens = None if tokens is None else sorted((t.encode(), r) for t, r in tokens.items())

    @property
    def open(self) -> bool:
        """True when no token is needed."""
        return self._tokens is None

    def intercept_service(self, continuation: Any, details: grpc.HandlerCallDetails) -> Any:
        handler = continuation(details)
        method = details.method
        if self._tokens is None or not method.startswith(PAIPU_PREFIX):
            return handler
        need = METHOD_ROLES.get(method)

        def wrap(behaviour: Behaviour, _request_streaming: bool, _response_streaming: bool) -> Behaviour:
            def checked(request: Any, context: grpc.ServicerContext) -> Any:
                if need is None:
                    context.abort(grpc.StatusCode.PERMISSION_DENIED, "this method has no access rule")
                    return None  # abort raised
                role, action = need(request) if callable(need) else need
                self._check(context, role, action)
                return behaviour(request, context)

            return checked

        return wrap_handler(handler, wrap)

    def _check(self, context: grpc.ServicerContext, role: str, action: str) -> None:
        """Abort with UNAUTHENTICATED (no or unknown token) or PERMISSION_DENIED (a role
        below ``role``) unless the call may do ``action``."""
        assert self._tokens is not None
        auth = dict(context.invocation_metadata()).get("authorization", "")
        given = _bearer_token(context, auth).encode()
        found = None
        for token, r in self._tokens:  # compare with every token, in constant time each
            if hmac.compare_digest(token, given):
                found = r
        if found is None:
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "unknown token")
        if ROLES.index(found) < ROLES.index(role):
            context.abort(grpc.StatusCode.PERMISSION_DENIED, f"a {found} may not {action} (needs {role})")
