"""Issue 12 item 5: no input makes an importer raise. Every malformed input becomes a
ParseIssue naming the file (and line when there is one) and a reason; the other games
and files still import. The reproductions of the fuzzing report first, then a bounded
hypothesis fuzz over mutations of the real sample files (the long run is
scripts/fuzz_importers.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ingest_helpers import JSON_DIR, PMN_SAMPLE, TEXT_SAMPLE

from eventlog.events import NewEvent
from eventlog.ingest import ImportedGame, ParseIssue, known_formats, parse_file
from eventlog.ingest.load import ingest_files
from eventlog.store.memory import MemoryStore

LITE = JSON_DIR / "6a20231658ebe27b197daaa8_lite.json"
DEEP = "[" * 100_000 + "]" * 100_000


def _all(path: Path, fmt: str | None = None) -> list[ImportedGame | ParseIssue]:
    items = list(parse_file(path, fmt))
    for it in items:
        assert isinstance(it, (ImportedGame, ParseIssue))
        if isinstance(it, ParseIssue):
            assert it.path == str(path) and it.reason and "\n" not in it.reason
    return items


def _issues(items):
    return [i for i in items if isinstance(i, ParseIssue)]


# --------------------------------------------------------------- the reported crash sites


def test_deeply_nested_json_lite(tmp_path):
    p = tmp_path / "deep.json"
    p.write_text('{"logs": ' + DEEP + "}", encoding="utf-8")
    (issue,) = _issues(_all(p, "botzone-json"))
    assert "nested" in issue.reason


def test_deeply_nested_initdata(tmp_path):
    d = json.loads(LITE.read_text(encoding="utf-8"))
    d["initdata"] = DEEP
    p = tmp_path / "deep_init.json"
    p.write_text(json.dumps(d), encoding="utf-8")
    (issue,) = _issues(_all(p, "botzone-json"))
    assert "nested" in issue.reason


def test_deeply_nested_jsonl_line_is_one_issue_and_the_next_game_imports(tmp_path):
    good = [e.model_dump_json() for e in next(iter(parse_file(LITE))).events]  # type: ignore[union-attr]
    p = tmp_path / "deep.jsonl"
    p.write_text(DEEP + "\n" + "\n".join(good) + "\n", encoding="utf-8")
    items = _all(p, "jsonl")
    (issue,) = _issues(items)
    assert issue.line == 1 and "nested" in issue.reason
    assert sum(isinstance(i, ImportedGame) for i in items) == 1


@pytest.mark.parametrize("edit", [
    ("Player 0 Deal", "Player ² Deal"),
    ("Wind 0", "Wind ²"),
    ("Score ", "Score ² "),
    ("*1", "*²"),
])
def test_superscript_digits_in_text_logs(tmp_path, edit):
    text = TEXT_SAMPLE.read_text(encoding="utf-8")
    old, new = edit
    p = tmp_path / "sup.txt"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    items = _all(p)
    assert len(items) == 16  # the damaged game is an issue (or imports), the others import


@pytest.mark.parametrize("edit", [
    ('[Board "1"]', '[Board "²"]'),
    ("39/1", "3²/1"),
    ("Site \"https://", "Site \"http://[::1"),
    ("D0c", "D0c²"),
])
def test_hostile_pmn_values(tmp_path, edit):
    text = PMN_SAMPLE.read_text(encoding="utf-8")
    old, new = edit
    assert old in text
    p = tmp_path / "x.pmn"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    (item,) = _all(p, "pmn")
    if old.startswith("Site"):
        assert isinstance(item, ImportedGame)  # a site we cannot parse only loses the id
        assert item.game_id.startswith("pmn-x-")


@pytest.mark.parametrize("edit", [
    lambda d: d.__setitem__("players", 5),
    lambda d: d.__setitem__("players", [1, 2]),
    lambda d: d.__setitem__("initdata", 7),
    lambda d: d["logs"][-1]["output"]["display"]["fan"][0].__setitem__("value", "twelve"),
    lambda d: d["logs"][-1]["output"]["display"]["fan"][0].__setitem__("cnt", [1]),
    lambda d: d["logs"][-1]["output"]["display"].__setitem__("fanCnt", {"a": 1}),
    lambda d: d["logs"][2]["output"]["display"]["hand"][0].__setitem__(0, 5),
    lambda d: d["logs"][4]["output"]["display"].__setitem__("player", True),
])
def test_wrong_types_in_judge_logs(tmp_path, edit):
    d = json.loads(LITE.read_text(encoding="utf-8"))
    edit(d)
    p = tmp_path / "t.json"
    p.write_text(json.dumps(d), encoding="utf-8")
    (item,) = _all(p, "botzone-json")
    assert isinstance(item, ParseIssue)


def test_one_hostile_file_does_not_stop_the_run(tmp_path):
    bad = tmp_path / "a_bad.json"
    bad.write_text('{"logs": ' + DEEP + "}", encoding="utf-8")
    report = ingest_files(MemoryStore(), [bad, TEXT_SAMPLE, LITE])
    assert len(report.stored) == 16 + 1
    (err,) = report.errors
    assert err.path == str(bad)


# --------------------------------------------------------------- bounded fuzzing

SOURCES = [TEXT_SAMPLE, LITE, JSON_DIR / "botzone_download_2026-6-2_131856_seat1.log", PMN_SAMPLE]
HOSTILE = ["²", "٣", "[", "]", "{", "}", '"', "\\", "\x00", "\ufffd", "-", "99999999999999999999",
           "null", "true", "[[[[[[[[", "\r", "\n", "Match ", "Player 9 ", "http://[", "H", "M0",
           "%", "*", "+", "\t", "é", "中"]


@st.composite
def mutated(draw):
    src = draw(st.sampled_from(SOURCES))
    text = src.read_text(encoding="utf-8")
    # keep the run fast: a window of the file around the mutations
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["insert", "delete", "replace", "truncate", "duplicate"]))
        i = draw(st.integers(0, max(len(text) - 1, 0)))
        if kind == "insert":
            text = text[:i] + draw(st.sampled_from(HOSTILE)) + text[i:]
        elif kind == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 40)):]
        elif kind == "replace":
            text = text[:i] + draw(st.sampled_from(HOSTILE)) + text[i + 1:]
        elif kind == "truncate":
            text = text[:i]
        else:
            j = draw(st.integers(i, min(len(text), i + 400)))
            text = text[:j] + text[i:j] + text[j:]
    return src.suffix, text, draw(st.sampled_from([None, *known_formats()]))


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(mutated())
def test_fuzzed_real_files_never_raise(tmp_path, case):
    suffix, text, fmt = case
    p = tmp_path / f"fuzz{suffix}"
    p.write_bytes(text.encode("utf-8", errors="surrogatepass"))
    try:
        items = list(parse_file(p, fmt))
    except Exception as e:  # only "not recognised" may raise, before any game is read
        from eventlog.ingest import UnknownFormatError

        assert isinstance(e, UnknownFormatError), repr(e)
        return
    for it in items:
        assert isinstance(it, (ImportedGame, ParseIssue))
        if isinstance(it, ParseIssue):
            assert it.path == str(p) and it.reason
        else:
            assert all(isinstance(e, NewEvent) for e in it.events)
