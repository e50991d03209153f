"""Issue 13 item 4: one error root. Every exception class we define (eventlog, the replayer
and its rulesets under rules/<id>/, analytics, services, the CLI) is a PaipuError, so the CLI
prints it as one line with exit 2 and the gRPC services map it by class and fields."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

from eventlog.errors import PaipuError
from eventlog.parallel import ClusterError, map_games
from eventlog.store.memory import MemoryStore

CORE = ("eventlog", "replayer", "analytics", "services", "paipu.cli")


def _core_modules():
    for name in CORE:
        pkg = importlib.import_module(name)
        yield pkg
        for m in pkgutil.walk_packages(pkg.__path__, name + "."):
            parts = m.name.split(".")
            if "v1" in parts:
                continue  # generated code
            yield importlib.import_module(m.name)


def test_every_core_exception_is_a_paipu_error():
    stray = sorted(
        f"{obj.__module__}.{obj.__name__}"
        for mod in _core_modules()
        for obj in vars(mod).values()
        if inspect.isclass(obj) and issubclass(obj, BaseException) and obj.__module__ == mod.__name__
        and not obj.__name__.startswith("_") and not issubclass(obj, PaipuError)
    )
    assert stray == []


def test_a_cluster_error_is_a_paipu_error_naming_the_cluster():
    with pytest.raises(PaipuError) as e:
        with map_games(MemoryStore(), ["g"], len, cluster="tcp://127.0.0.1:1"):
            pass
    assert isinstance(e.value, ClusterError) and not isinstance(e.value, ValueError)
    assert e.value.details() == {"cluster": "tcp://127.0.0.1:1"} and "in-memory" in str(e.value)
