"""The dashboard on a log that holds a game stored before the door checked it (issue s6;
tests/test_event_door.py): a game whose ruleset is unknown shows one line saying so on the
replay and dispute pages, and a game with a number beyond its range does not stop the
dispute page or the overview (the other games were exported)."""

from __future__ import annotations

import pytest

from tests.cli_run import run
from tests.test_event_door import make_huge_log, make_nosuch_log, simulated_lines


@pytest.fixture
def nosuch_log(tmp_path):
    return make_nosuch_log(tmp_path, simulated_lines(tmp_path))


@pytest.fixture
def huge_log(tmp_path):
    return make_huge_log(tmp_path / "d")


def test_dashboard_shows_one_line_on_a_game_it_cannot_replay(nosuch_log, open_page) -> None:
    assert run("export", "--data", nosuch_log, "-q").exit_code == 1
    for page in ("replay", "dispute"):
        at = open_page(nosuch_log, page, game="legacy-nosuch")  # fails on an uncaught exception
        errors = [e.value for e in at.error]
        assert any("legacy-nosuch" in e and "unknown ruleset 'nosuch'" in e for e in errors), (page, errors)


def test_dashboard_dispute_page_of_a_game_with_a_huge_number(huge_log, open_page) -> None:
    data, _good, _seq = huge_log
    assert run("export", "--data", data, "-q").exit_code == 1
    at = open_page(data, "dispute", game="legacy-huge")  # fails on an uncaught exception
    assert not at.exception
    at = open_page(data, None)
    assert not any("not exported" in e.value for e in [*at.warning, *at.info, *at.error])
