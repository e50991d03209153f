"""Wrapping a gRPC method handler's behaviour: what the server interceptors
(services/auth.py, services/calls.py) are made of."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc

__all__ = ["Behaviour", "wrap_handler"]

#: ``behaviour(request_or_iterator, context)`` → response or response iterator.
Behaviour = Callable[[Any, grpc.ServicerContext], Any]


def wrap_handler(
    handler: grpc.RpcMethodHandler | None,
    wrap: Callable[[Behaviour, bool, bool], Behaviour],
) -> grpc.RpcMethodHandler | None:
    """``handler`` with its behaviour replaced by ``wrap(behaviour, request_streaming,
    response_streaming)``; serializers kept. None stays None (unknown method)."""
    if handler is None:
        return None
    kinds = {
        (False, False): ("unary_unary", grpc.unary_unary_rpc_method_handler),
        (False, True): ("unary_stream", grpc.unary_stream_rpc_method_handler),
        (True, False): ("stream_unary", grpc.stream_unary_rpc_method_handler),
        (True, True): ("stream_stream", grpc.stream_stream_rpc_method_handler),
    }
    rq, rs = bool(handler.request_streaming), bool(handler.response_streaming)
    attr, make = kinds[(rq, rs)]
    behaviour = getattr(handler, attr)
    return make(
        wrap(behaviour, rq, rs),
        request_deserializer=handler.request_deserializer,
        response_serializer=handler.response_serializer,
    )
