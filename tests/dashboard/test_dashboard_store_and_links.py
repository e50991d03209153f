"""The dashboard reads the event log named by ``paipu --store`` / ``$PAIPU_STORE``; every
page's read of a game goes through one guard (a damaged game is one line, never a
traceback); a link's seat or hand the game does not have is said; games the export left out
as damaged are counted on the Overview and by ``paipu stats``. Data: the bundled games
(conftest.data_dir); expected words from docs/dashboard.md."""

from __future__ import annotations

import shutil
from pathlib import Path

import dash_sources as src
import pytest

from tests.cli_run import run


def _copy_log(data: Path, to: Path) -> Path:
    """The SQLite log of ``data`` (file and WAL) copied to the file ``to``."""
    to.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-checkpoint"):
        f = data / ("events.sqlite" + suffix)
        if f.exists():
            shutil.copyfile(f, to.with_name(to.name + suffix))
    return to


@pytest.fixture
def tampered(data_dir, tmp_path) -> Path:
    """A data directory whose log has event 50 of the PMN game edited behind the store's
    back (its hash no longer matches), exported afterwards: the export names it damaged."""
    d = tmp_path / "tampered"
    src.tamper_pmn_event_50(_copy_log(data_dir, d / "events.sqlite"))
    return d


def test_pages_read_the_store_given_by_url(data_dir, tmp_path, monkeypatch, open_page):
    """Item 1: a data directory with no log, the store given as $PAIPU_STORE (what
    `paipu --store URL dashboard` hands the Streamlit process): Replay, Dispute and Decision
    review show the store's game."""
    log = _copy_log(data_dir, tmp_path / "elsewhere" / "log.sqlite")
    empty = tmp_path / "data"
    empty.mkdir()
    monkeypatch.setenv("PAIPU_STORE", f"sqlite:{log}")
    at = open_page(empty, "replay", game=src.PMN_GAME, seq="40")
    assert not at.error and not at.info, [*at.error, *at.info]
    assert at.slider[0].value == 40
    at = open_page(empty, "dispute", game=src.PMN_GAME)
    assert any(s.value.startswith("Intact:") for s in at.success)
    at = open_page(empty, "review", game=src.PMN_GAME, seat="3")
    assert not at.error and at.selectbox[1].value == 3


def test_paipu_store_reaches_the_streamlit_process(tmp_path):
    """`paipu --store URL dashboard` hands the URL to the child as $PAIPU_STORE (never on
    its command line, where a password would show); without --store a stale one is dropped."""
    from dashboard.launch import child_env, streamlit_command

    url = "postgresql://reader:secret@replica:5432/paipu"
    env = child_env({"PAIPU_STORE": "stale", "HOME": "/h"}, tmp_path, url)
    assert env == {"PAIPU_STORE": url, "PAIPU_DATA": str(tmp_path), "HOME": "/h"}
    assert "PAIPU_STORE" not in child_env({"PAIPU_STORE": "stale"}, tmp_path, None)
    assert not any("secret" in a for a in streamlit_command(tmp_path))


def test_a_store_url_with_no_store_says_so(tmp_path, monkeypatch, open_page):
    monkeypatch.setenv("PAIPU_STORE", str(tmp_path / "nothing-here"))
    at = open_page(tmp_path, "replay")
    assert any(f"`{tmp_path / 'nothing-here'}` holds no event log" in i.value for i in at.info)


def test_decision_review_of_a_damaged_game_is_one_line(tampered, open_page):
    """Item 2: as Replay says it, never a traceback (open_page fails on an exception)."""
    for page in ("review", "replay"):
        at = open_page(tampered, page, game=src.PMN_GAME)
        errors = [e.value for e in at.error]
        verb = "reviewed" if page == "review" else "replayed"
        assert len(errors) == 1 and errors[0].startswith(
            f"Game `{src.PMN_GAME}` cannot be {verb}: its event 50 is corrupt ("), (page, errors)
        assert not at.dataframe


@pytest.mark.parametrize(("query", "said"), [
    ({"seat": "7", "hand": "0"}, ["has no seat 7 (its seats are 0..3); showing seat 0"]),
    ({"seat": "abc", "hand": "zz"}, ["has no seat abc", "has no hand zz"]),
    ({"seat": "2", "hand": "5"}, ["has no hand 5 (its hands are 0..0, shown as hands 1..1); showing all hands"]),
])
def test_decision_review_says_a_bad_seat_or_hand(data_dir, open_page, query, said):
    """Item 3: the bundled games have one hand each (hand_number 0)."""
    at = open_page(data_dir, "review", game=src.PMN_GAME, **query)
    errors = [e.value for e in at.error]
    assert len(errors) == len(said), errors
    for e, s in zip(errors, said):
        assert e.startswith(f"Game `{src.PMN_GAME}` ") and s in e, errors
    assert at.selectbox[1].value == (int(query["seat"]) if query["seat"] in "0123" else 0)


def test_replay_says_a_bad_seat(data_dir, open_page):
    at = open_page(data_dir, "replay", game=src.PMN_GAME, seq="10", seat="9")
    assert [e.value for e in at.error] == [
        f"Game `{src.PMN_GAME}` has no seat 9 (its seats are 0..3); showing every seat's hand."]
    assert at.slider[0].value == 10
    assert not open_page(data_dir, "replay", game=src.PMN_GAME, seq="10", seat="2").error


def test_damaged_games_are_counted_beside_the_statistics(tampered, open_page):
    """Item 4: the export leaves the damaged game out; Overview and `paipu stats` say so."""
    assert run("export", "--data", tampered, "-q").exit_code == 1
    at = open_page(tampered)
    assert {m.label: m.value for m in at.metric}["games"] == str(src.totals()["games"] - 1)
    assert [w.value for w in at.warning] == ["1 damaged game not included (paipu verify names it)."]
    res = run("stats", "--by", "ruleset", "--data", tampered)
    assert res.exit_code == 0
    assert "note: 1 damaged game not included (paipu verify names it)" in res.stderr


def test_pages_read_a_postgresql_store(postgres, tmp_path, monkeypatch, open_page):
    """Item 1 with the server the deploy guide names: `paipu --store postgresql://… dashboard`."""
    from eventlog.ingest.load import ingest_files
    from eventlog.store import open_store
    from paipu.samples import sample_files

    url = postgres.new_database("dash")
    store = open_store(url)
    try:
        assert not ingest_files(store, sample_files()).errors
    finally:
        store.close()
    monkeypatch.setenv("PAIPU_STORE", url)
    at = open_page(tmp_path, "replay", game=src.PMN_GAME, seq="40")
    assert not at.error and not at.info, [*at.error, *at.info]
    assert at.slider[0].value == 40
