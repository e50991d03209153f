"""Variants are data (shared/DESIGN.md §6): a preset names a base ruleset and its options."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from replayer.findings import RulesetError
from replayer.rules.base import get_ruleset, presets

PRESET_FILE = Path(__file__).resolve().parents[2] / "replayer" / "rules" / "presets" / "nanchang.toml"


def test_every_preset_in_the_files_is_offered_with_its_base_and_options():
    raw = tomllib.loads(PRESET_FILE.read_text(encoding="utf-8"))
    for name, table in raw.items():
        assert presets()[name] == (table["base"], table.get("options", {}))


def test_a_preset_builds_its_base_with_its_options_and_given_options_win():
    # [nanchang_002] = nanchang + {indicator_removed = true, qihu_scope = "same_tile"}
    rs = get_ruleset("nanchang_002")
    assert rs.id == "nanchang_002"  # a preset's games keep its name (docs/analytics.md)
    assert type(rs) is type(get_ruleset("nanchang"))
    opts = rs.options_dict()
    assert opts["indicator_removed"] is True and opts["qihu_scope"] == "same_tile"
    rs = get_ruleset("nanchang_002", {"indicator_removed": False})
    assert rs.options_dict()["indicator_removed"] is False


def test_unknown_ids_are_refused():
    with pytest.raises(RulesetError):
        get_ruleset("no_such_variant")
