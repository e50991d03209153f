"""Two small things a newcomer met: the README lists the groups of ``paipu stats --by`` that
``--help`` lists (one source: paipu/cli/analysis.py BY_GROUPS, the names analytics.queries
groups by); and a reported score of a source whose scoring is another format (a PMN
``[Scoring "Duplicate"]`` record: duplicate MCR results do not sum to zero — the bundled
record's Result line is -32 36 -8 36) is still a ``reported_score_mismatch``, whose message
says the source's scoring format."""

from __future__ import annotations

import re
from pathlib import Path

from cli_run import run

from eventlog.ingest import ImportedGame, parse_file
from paipu.samples import sample_files
from replayer.audit import audit_game

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_help_and_queries_list_the_same_stats_groups():
    from analytics.queries import GROUPS
    from paipu.cli.analysis import BY_GROUPS

    assert set(BY_GROUPS) == set(GROUPS)
    words = " | ".join(BY_GROUPS)
    assert words in " ".join(run("stats", "--help").output.replace("│", " ").split())
    line = next(ln for ln in README.read_text(encoding="utf-8").splitlines() if ln.startswith("| `paipu stats ["))
    assert re.search(r"--by ([a-z_\\|]+)\]", line).group(1).replace("\\|", " | ") == words


def test_a_duplicate_scoring_result_says_its_format():
    path = next(f for f in sample_files() if f.suffix == ".pmn")
    (game,) = [g for g in parse_file(path) if isinstance(g, ImportedGame)]
    assert game.events[0].metadata["scoring"] == "Duplicate"  # the record's [Scoring "Duplicate"]
    audit = audit_game(game.events)
    (f,) = [f for f in audit.findings if f.rule_id == "reported_score_mismatch"]
    assert "[-32, 36, -8, 36]" in f.message  # the source's Result line
    assert "'Duplicate'" in f.message and "sum to +32" in f.message


def test_a_source_scoring_named_as_the_ruleset_adds_no_word():
    from replayer.handlers.scores import other_scoring
    from replayer.state import TableState

    def state(scoring, ruleset="mcr"):
        return TableState(ruleset_id=ruleset, source_scoring=scoring)

    assert other_scoring(state("MCR")) is None  # PMN's default: the ruleset's own
    assert other_scoring(state("MCR", "mcr1998")) is None  # a preset over it
    assert other_scoring(state("Duplicate MCR")) == "Duplicate MCR"
    assert other_scoring(state(None)) is None


def test_every_replay_path_says_the_same_words():
    from replayer.replay import replay, replay_game

    path = next(f for f in sample_files() if f.suffix == ".pmn")
    (game,) = [g for g in parse_file(path) if isinstance(g, ImportedGame)]
    one = [f for s in replay(game.events) for f in s.findings]
    batch = [f for s in replay_game(game.events) for f in s.findings]
    assert one == batch and any("'Duplicate'" in f.message for f in one)
