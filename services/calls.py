"""What happens around every call of a paipu service (one server interceptor):

* a request id (``<process>-<n>``) names the call in every log line about it;
* request messages are checked against :mod:`services.limits` (INVALID_ARGUMENT);
* an exception a handler lets out becomes the status its class names
  (:func:`services.status.status_for`): handlers just raise;
* an unexpected exception (or an INTERNAL status) is logged on the ``paipu.serve`` logger
  with its traceback and the request id, and the client gets INTERNAL naming the request id;
* with access logs on, one JSON line per finished call on the ``paipu.access`` logger:
  ``{"request_id", "method", "peer", "code", "ms"}``.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import time
from collections.abc import Iterator
from typing import Any

import grpc
from grpc_status import rpc_status

from eventlog.errors import PaipuError
from services.limits import check_request
from services.status import status_for
from services.wrapping import Behaviour, wrap_handler

__all__ = ["CallInterceptor", "log", "access_log"]

log = logging.getLogger("paipu.serve")
access_log = logging.getLogger("paipu.access")


class CallInterceptor(grpc.ServerInterceptor):
    """Request ids, request limits, errors as statuses, error logging and (``access_log``)
    access logs for every call (see the module doc)."""

    def __init__(self, *, access_log: bool = False) -> None:
        self._access = access_log
        self._ids = itertools.count(1)
        self._pid = os.getpid()

    def intercept_service(self, continuation: Any, details: grpc.HandlerCallDetails) -> Any:
        handler = continuation(details)
        method = details.method

        def wrap(behaviour: Behaviour, request_streaming: bool, response_streaming: bool) -> Behaviour:
            def call(request: Any, context: grpc.ServicerContext) -> Any:
                rid = f"{self._pid:x}-{next(self._ids)}"
                start = time.monotonic()
                if request_streaming:
                    request = _checked_stream(request)
                if response_streaming:
                    return self._stream(behaviour, request, request_streaming, context, rid, method, start)
                try:
                    if not request_streaming:
                        check_request(request)
                    return behaviour(request, context)
                except Exception as e:  # noqa: BLE001 - every failure becomes a status here
                    self._fail(context, e, rid, method)
                finally:
                    self._log_access(context, rid, method, start)

            return call

        return wrap_handler(handler, wrap)

    def _stream(
        self,
        behaviour: Behaviour,
        request: Any,
        request_streaming: bool,
        context: grpc.ServicerContext,
        rid: str,
        method: str,
        start: float,
    ) -> Iterator[Any]:
        try:
            if not request_streaming:
                check_request(request)
            yield from behaviour(request, context)
        except Exception as e:  # noqa: BLE001 - every failure becomes a status here
            self._fail(context, e, rid, method)
        finally:
            self._log_access(context, rid, method, start)

    @staticmethod
    def _fail(context: grpc.ServicerContext, exc: Exception, rid: str, method: str) -> None:
        """End the call with the status for ``exc`` (raises). An abort already made passes
        through; an unexpected exception is logged with its traceback."""
        if context.code() is not None:  # the handler (or the auth check) aborted already
            raise exc
        status = status_for(exc)
        if status.code == grpc.StatusCode.INTERNAL.value[0]:
            log.error("request %s %s failed: %s", rid, method, _one_line(exc), exc_info=exc)
            if not isinstance(exc, PaipuError):
                status.message = f"internal error (request {rid}); the server log has the details"
        context.abort_with_status(rpc_status.to_status(status))

    def _log_access(self, context: grpc.ServicerContext, rid: str, method: str, start: float) -> None:
        if not self._access:
            return
        code = context.code()
        access_log.info(
            json.dumps(
                {
                    "request_id": rid,
                    "method": method,
                    "peer": context.peer(),
                    "code": (code or grpc.StatusCode.OK).name,
                    "ms": round(1000 * (time.monotonic() - start), 3),
                },
                sort_keys=True,
            )
        )


def _checked_stream(requests: Iterator[Any]) -> Iterator[Any]:
    for msg in requests:
        check_request(msg)
        yield msg


def _one_line(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) <= 300 else text[:300] + "…"
