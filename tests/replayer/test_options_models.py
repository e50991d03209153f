"""Options are validated models (issue 14 item 5): every registered ruleset's options refuse
unknown names and wrong types, naming the option; presets and stored values still load."""

from __future__ import annotations

import pytest

from replayer.findings import RulesetError
from replayer.rules.base import get_ruleset, get_spec, known_rulesets, presets


@pytest.mark.parametrize(("ruleset", "options", "name"), [
    ("mcr", {"knitted_straight_waits": "no"}, "knitted_straight_waits"),  # was accepted, acting as true
    ("mcr", {"false_win_penalty": "yes"}, "false_win_penalty"),
    ("mcr", {"multiple_winners": 3}, "multiple_winners"),
    ("mcr", {"no_such_option": True}, "no_such_option"),
    ("nanchang", {"qipeng": "no"}, "qipeng"),
    ("nanchang", {"dead_wall_tiles": "14"}, "dead_wall_tiles"),
    ("nanchang", {"no_such_option": 1}, "no_such_option"),
])
def test_wrong_types_and_unknown_names_are_refused(ruleset, options, name):
    with pytest.raises(RulesetError, match=name):
        get_ruleset(ruleset, options)


def test_every_ruleset_has_a_pydantic_options_model_that_forbids_extras():
    for rid in known_rulesets():
        model = get_spec(rid).options_model
        assert model.model_config.get("extra") == "forbid", rid
        with pytest.raises(RulesetError):
            get_ruleset(rid, {"surely_not_an_option": 1})


def test_every_preset_still_loads():
    for name in presets():
        assert get_ruleset(name) is not None
