"""Fixtures for the ingest tests (helpers live in ingest_helpers.py)."""

from __future__ import annotations

import pytest
from ingest_helpers import TEXT_SAMPLE, load


@pytest.fixture(scope="session")
def text_sample():
    return load(TEXT_SAMPLE)
