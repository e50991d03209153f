"""The ``paipu`` command picks Arrow's system allocator before pyarrow loads (paipu/cli/__init__.py:
pyarrow's default pool kept what each Parquet flush of an export used), and keeps a pool the
user chose with ``ARROW_DEFAULT_MEMORY_POOL``."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

_PROBE = "import paipu.cli, pyarrow; print(pyarrow.default_memory_pool().backend_name)"


@pytest.mark.parametrize(("chosen", "expected"), [(None, "system"), ("mimalloc", "mimalloc")])
def test_the_command_uses_the_system_pool_unless_the_user_chose_one(chosen, expected):
    env = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    if chosen:
        env["ARROW_DEFAULT_MEMORY_POOL"] = chosen
    out = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == expected
