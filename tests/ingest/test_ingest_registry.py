"""Format registry, sniffing, JSON Lines round trip and the shipped samples."""

from __future__ import annotations

import hashlib
import json

import pytest
from ingest_helpers import FIXTURES, JSON_DIR, PMN_SAMPLE, TEXT_SAMPLE, load

from eventlog.events import NewEvent
from eventlog.ingest import UnknownFormatError, known_formats, parse_file, sniff
from paipu.samples import SAMPLES_DIR, sample_files


def test_known_formats():
    assert known_formats() == ["botzone-text", "botzone-json", "pmn", "jsonl"]


@pytest.mark.parametrize(
    ("path", "fmt"),
    [
        (TEXT_SAMPLE, "botzone-text"),
        (JSON_DIR / "6a20231658ebe27b197daaa8_lite.json", "botzone-json"),
        (JSON_DIR / "botzone_download_2026-6-2_131856_seat1.log", "botzone-json"),
        (PMN_SAMPLE, "pmn"),
        (FIXTURES / "crlf.txt", "botzone-text"),
    ],
    ids=lambda v: getattr(v, "name", v),
)
def test_sniff(path, fmt):
    assert sniff(path) == fmt


def test_unknown_file_lists_known_formats():
    with pytest.raises(UnknownFormatError) as e:
        parse_file(FIXTURES / "unknown_format.txt")
    for name in known_formats():
        assert name in str(e.value)
    assert "unknown_format.txt" in str(e.value)


def test_unknown_format_name_lists_known_formats():
    with pytest.raises(UnknownFormatError, match="unknown format 'tenhou'.*botzone-text"):
        parse_file(TEXT_SAMPLE, "tenhou")


def test_explicit_format_that_does_not_fit_gives_issues_not_a_crash():
    games, issues = load(PMN_SAMPLE, "botzone-text")
    assert games == [] and issues and issues[0].line == 1


def _export(games, path):
    with open(path, "w", encoding="utf-8") as f:
        for g in games:
            for e in g.events:
                f.write(json.dumps({**e.model_dump_json_dict(), "game_id": g.game_id},
                                   ensure_ascii=False) + "\n")


def test_jsonl_round_trip(tmp_path, text_sample):
    games = text_sample[0][:3]
    p = tmp_path / "export.jsonl"
    _export(games, p)
    assert sniff(p) == "jsonl"
    back, issues = load(p)
    assert issues == []
    assert [g.game_id for g in back] == [g.game_id for g in games]
    for a, b in zip(back, games):
        assert [e.event_id for e in a.events] == [e.event_id for e in b.events]
        assert [e.payload for e in a.events] == [e.payload for e in b.events]
    first = back[0].events[0].metadata
    assert first["format"] == "jsonl" and first["line"] == 1
    assert first["origin"] == {"source": "sample_16_games.txt", "line": 1, "format": "botzone-text"}


def test_jsonl_bad_line_spoils_only_its_game(tmp_path, text_sample):
    games = text_sample[0][:2]
    p = tmp_path / "export.jsonl"
    _export(games, p)
    lines = p.read_text(encoding="utf-8").splitlines()
    bad = json.loads(lines[5])
    bad["payload"]["tile"] = "Q7"
    lines[5] = json.dumps(bad)
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    back, (issue,) = load(p)
    assert issue.line == 6 and "payload" in issue.reason
    assert [g.game_id for g in back] == [games[1].game_id]


def test_jsonl_without_game_ids(tmp_path):
    # two games (two event ids); the same line twice is one game started twice (refused:
    # tests/ingest/test_ingest_refusals.py)
    evs = [NewEvent.of(
        __import__("eventlog.events", fromlist=["GameStarted"]).GameStarted(
            ruleset="mcr", players=["a", "b", "c", "d"]),
        id_seed=f"{name}/0",
    ) for name in ("x", "y")]
    p = tmp_path / "plain.jsonl"
    p.write_text("".join(json.dumps(ev.model_dump_json_dict()) + "\n" for ev in evs), encoding="utf-8")
    back, _ = load(p)
    assert [g.game_id for g in back] == ["jsonl-plain-1", "jsonl-plain-2"]


def test_sample_files_stable_order_and_readme_checksum():
    files = sample_files()
    rel = [p.relative_to(SAMPLES_DIR).as_posix() for p in files]
    assert rel == sorted(rel) and len(rel) == 9
    assert rel[0] == "botzone-mcr-human-sample/sample_16_games.txt"
    assert rel[-1].startswith("pmn-python-majiang/")
    for d in ("botzone-mcr-human-sample", "botzone-mcr-matchlog-json", "pmn-python-majiang"):
        assert (SAMPLES_DIR / d / "README.txt").is_file()
    # sha256 stated in the sample's README (byte-for-byte copy)
    assert hashlib.sha256(TEXT_SAMPLE.read_bytes()).hexdigest() == (
        "dbee460ee05ee5bace647c12a680e8a5545014e68121c4b6de20927413358640")


def test_every_sample_file_imports_cleanly():
    for p in sample_files():
        games, issues = load(p)
        assert issues == [] and games, p


def test_package_doc_snippet_runs():
    import doctest

    import eventlog.ingest

    assert doctest.testmod(eventlog.ingest).failed == 0
