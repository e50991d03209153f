from __future__ import annotations

import pytest

from mcr_oracle import oracle_score
from replayer.rules.mcr import McrRuleset, build


@pytest.fixture
def mcr() -> McrRuleset:
    """MCR with default options, scored by the reference calculator (mcr_oracle)."""
    return build({}, scorer=oracle_score)


@pytest.fixture
def mcr_with():
    """MCR with the given options, scored by the reference calculator."""
    return lambda **options: build(options, scorer=oracle_score)
