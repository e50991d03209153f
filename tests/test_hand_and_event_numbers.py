"""Hands are counted from 1 wherever a person reads them (README: "hands counted from 1, as
every text shows them"; data and JSON keep the 0-based ``hand_number``), and events by their
``seq`` from 0 (docs/events.md: ``seq`` dense per game, 0, 1, 2 …): the dashboard's table,
the CLI's table, the dispute pages and the CLI's step-through say the same numbers."""

from __future__ import annotations

import re
from types import SimpleNamespace

from rich.console import Console

from replayer.replay import replay
from replayer.simulate.engine import SimulationConfig, simulate_game


def _steps():
    game = simulate_game(SimulationConfig(ruleset="nanchang", seed=3, hands_per_game=1), 0)
    return list(replay(game.events))


def test_the_dashboard_table_and_the_cli_table_say_the_same_hand():
    from dashboard.table import table_html
    from paipu.cli.render import table_view

    steps = _steps()
    s = steps[len(steps) // 2]
    assert s.state.hand_number == 0  # the first hand of the game (hand_started.hand_number 0)
    assert "<b>hand 1</b>" in table_html(s.state, s.event)
    con = Console(record=True, width=200)
    con.print(table_view(s.state, s.event))
    assert re.search(r"\bhand 1\b", con.export_text())


def test_the_step_through_counts_events_by_seq_from_0():
    from paipu.cli.stepper import status_line

    steps = [SimpleNamespace(event=SimpleNamespace(seq=i)) for i in range(230)]  # a game's stored events
    assert status_line(steps, 0).startswith("event 0 of 229 ")  # as the dashboard: "Event 0 of 229"
    assert status_line(steps, 68).startswith("event 68 of 229 ")


def test_the_dispute_page_counts_finding_hands_from_1():
    from dashboard.package import _findings_section

    f = SimpleNamespace(seq=40, hand_number=0, seat=2, rule_id="r", message="m", source="s")
    audit = SimpleNamespace(findings=[f], ruleset="nanchang")
    html = _findings_section(audit)
    assert "<td>1</td>" in html and "<td>0</td>" not in html
