""""Already stored" means the same game (docs/events.md, "Same game"): every event's
content but the event ids — the ruleset, its options, the players, the initial scores, the
source naming the match or table, the game's date — not only its deal and actions (the
content fingerprint, a candidate only). A user lost games to the old rule: the same seed
simulated under two rulesets, and the tables of a duplicate MCR session (which play one
deal by design, python-majiang README "Duplicate MCR"), were dropped as "already stored".

Real SQLite stores, the real CLI and ingest API."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from cli_run import run
from ingest_helpers import SAMPLES_DIR

from eventlog.ingest.load import ingest_files, store_game
from eventlog.ingest import ImportedGame, parse_file
from eventlog.store import open_store

PMN = SAMPLES_DIR / "pmn-python-majiang" / "mahjongsoft_duplicate_mcr_session74621_game1_table3.pmn"


@pytest.fixture
def store(tmp_path):
    s = open_store(tmp_path / "data")
    yield s
    s.close()


def _simulated(tmp_path: Path, ruleset: str, seed: int = 1) -> Path:
    out = tmp_path / f"{ruleset}.jsonl"
    res = run("simulate", "--ruleset", ruleset, "--games", 1, "--seed", seed, "--hands-per-game", 1, "--out", out)
    assert res.exit_code == 0, res.output
    return out


@pytest.mark.parametrize("rulesets", [("mcr", "mcr1998"), ("nanchang", "nanchang_002")])
def test_the_same_seed_under_two_rulesets_is_two_games(tmp_path, rulesets):
    files = [_simulated(tmp_path, r) for r in rulesets]
    data = tmp_path / "data"
    first = run("ingest", "--data", data, *files)
    assert first.exit_code == 0 and "2 games stored" in first.output and "0 already stored" in first.output, first.output
    again = run("ingest", "--data", data, *files)
    assert again.exit_code == 0 and "0 games stored" in again.output and "2 already stored" in again.output, again.output
    # one at a time (a stored candidate, not one in the same transaction): the same
    other = tmp_path / "other"
    for f in files:
        res = run("ingest", "--data", other, f)
        assert "1 game stored" in res.output, res.output


def _edited(tmp_path: Path, name: str, *edits: tuple[str, str]) -> Path:
    text = PMN.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    out = tmp_path / name
    out.write_text(text, encoding="utf-8")
    return out


def test_the_tables_of_a_duplicate_mcr_session_are_games_of_their_own(tmp_path):
    table4 = _edited(tmp_path, "table4.pmn", ("table=3", "table=4"),
                     *[(f"Player{i}", "Other") for i in range(4)], ("2022.06.25", "2022.06.26"))
    data = tmp_path / "data"
    res = run("ingest", "--data", data, PMN, table4)
    assert res.exit_code == 0 and "2 games stored" in res.output, res.output
    again = run("ingest", "--data", data, PMN, table4)
    assert "0 games stored" in again.output and "2 already stored" in again.output, again.output


def test_another_table_alone_is_another_game(store, tmp_path):
    other = _edited(tmp_path, "other.pmn", ("table=3", "table=5"))
    assert ingest_files(store, [PMN], workers=0).stored == ["pmn-mahjongsoft.com-74621-1-3"]
    report = ingest_files(store, [other], workers=0)
    assert (report.stored, report.duplicates, report.errors) == (["pmn-mahjongsoft.com-74621-1-5"], [], [])


@pytest.mark.parametrize("edit", [("Player1", "Somebody"), ("2022.06.25", "2022.06.27")])
def test_other_players_or_date_under_the_same_table_are_refused_not_dropped(store, tmp_path, edit):
    # the same Site (so the same game id) with other players or another date: another
    # game, which cannot take the stored game's id — an error naming both files, not
    # "already stored"
    other = _edited(tmp_path, "edited.pmn", edit)
    ingest_files(store, [PMN], workers=0)
    report = ingest_files(store, [other], workers=0)
    assert report.stored == [] and report.duplicates == []
    (err,) = report.errors
    assert "edited.pmn" in err.reason and PMN.name in err.reason
    what = {"Somebody": 'players ["Player0", "Somebody", "Player2", "Player3"] here, '
                        '["Player0", "Player1", "Player2", "Player3"] stored',
            "2022.06.27": 'date "2022.06.27" here, "2022.06.25" stored'}[edit[1]]
    assert f"differs from the stored game pmn-mahjongsoft.com-74621-1-3 (from {PMN.name}): " \
           f"event 0 (game_started): {what}; nothing was changed" in err.reason, err.reason


def test_store_game_confirms_a_candidate_too(store, tmp_path):
    # the one-game path (paipu check --store): the same rule
    table4 = _edited(tmp_path, "table4.pmn", ("table=3", "table=4"))
    (a,) = [g for g in parse_file(PMN) if isinstance(g, ImportedGame)]
    (b,) = [g for g in parse_file(table4) if isinstance(g, ImportedGame)]
    assert store_game(store, a).written and store_game(store, b).written
    assert not store_game(store, a).written and not store_game(store, b).written
    assert [g.game_id for g in store.list_games()] == [a.game_id, b.game_id]


def test_other_ruleset_options_are_another_game(store, tmp_path):
    src = _simulated(tmp_path, "mcr")
    lines = [json.loads(ln) for ln in src.read_text(encoding="utf-8").splitlines()]
    lines[0]["payload"]["ruleset_options"] = {"multiple_winners": "all"}
    for i, ln in enumerate(lines):  # another game id and event ids (jsonl keeps the ids it reads)
        ln["game_id"] = "renamed"
        ln["event_id"] = str(uuid.uuid5(uuid.NAMESPACE_URL, f"renamed/{i}"))
    other = tmp_path / "options.jsonl"
    other.write_text("".join(json.dumps(ln) + "\n" for ln in lines), encoding="utf-8")
    assert len(ingest_files(store, [src], workers=0).stored) == 1
    report = ingest_files(store, [other], workers=0)
    assert report.stored == ["renamed"], report
