"""A first-time user's bulk import (notes/breaker9.md): `ingest --json`, error lines that
keep their remedy and say where two games differ, what ingest checks (and leaves to
`verify`), symbolic links in an import directory, plainer wording, a progress bar that says
what it counts. Expected values come from the finding or the README, not from the code."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from cli_run import run

import paipu.samples

SAMPLE = Path(paipu.samples.__file__).parent / "botzone-mcr-human-sample" / "sample_16_games.txt"


def _games() -> list[list[str]]:
    """The bundled sample's games, each as its lines (a game starts at a ``Match`` line)."""
    games: list[list[str]] = []
    for line in SAMPLE.read_text(encoding="utf-8").splitlines():
        if line.startswith("Match"):
            games.append([])
        games[-1].append(line)
    return games


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _discard_line(game: list[str]) -> int:
    """The 1-based number of the game's first ``Player N Play TILE`` line."""
    return next(i for i, ln in enumerate(game, 1) if re.match(r"Player \d Play \S+$", ln))


# ------------------------------------------------------------------------------ F2: --json

def test_ingest_json_is_one_object_with_the_runs_summary(tmp_path):
    games = _games()
    good = _write(tmp_path / "good.txt", games[0] + games[1])
    bad = games[2][:]
    n = _discard_line(bad)
    bad[n - 1] = re.sub(r"Play \S+$", "Play Z9", bad[n - 1])  # a tile code that does not exist
    (tmp_path / "walk").mkdir()
    broken = _write(tmp_path / "walk" / "broken.txt", bad)
    (tmp_path / "walk" / "README.txt").write_text("notes about the data\n", encoding="utf-8")
    data = tmp_path / "d"
    res = run("ingest", good, tmp_path / "walk", "--data", data, "--json")
    assert res.exit_code == 1  # a game refused: exit 1, as without --json (README, exit status)
    doc = json.loads(res.stdout)  # stdout is the one object
    assert doc["stored"] == 2 and doc["already_stored"] == 0 and doc["exit_status"] == 1
    assert doc["events"] > 0
    (refused,) = doc["refused"]
    assert refused["file"] == str(broken) and refused["line"] == n and "Z9" in refused["reason"]
    assert doc["skipped"] == [{"file": str(tmp_path / "walk" / "README.txt"),
                               "reason": "not a game log of a known format"}]
    again = run("ingest", good, "--data", data, "--json")
    assert again.exit_code == 0
    doc = json.loads(again.stdout)
    assert (doc["stored"], doc["already_stored"], doc["refused"], doc["exit_status"]) == (0, 2, [], 0)


def test_readme_lists_ingest_among_the_json_commands():
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    listed = re.search(r"takes\s+`--json` \(([^)]*)\)", readme)
    assert listed and "`ingest`" in listed.group(1), listed


# -------------------------------------------------- F3: the error keeps its remedy, says where

def test_a_conflict_names_the_line_where_the_games_differ_and_keeps_its_advice(tmp_path):
    game = _games()[8]
    n = _discard_line(game)
    changed = game[:]
    changed[n - 1] = re.sub(r"Play \S+$", "Play W9", changed[n - 1])
    long_dir = tmp_path / ("a-rather-long-directory-name-for-a-corpus-" * 3)
    long_dir.mkdir()
    first = _write(long_dir / "changed-copy-of-the-game.txt", changed)
    second = _write(long_dir / "the-original-game-as-downloaded.txt", game)
    data = tmp_path / "d"
    assert run("ingest", first, "--data", data).exit_code == 0
    res = run("ingest", second, "--data", data)
    assert res.exit_code == 1
    (err,) = [ln for ln in res.output.splitlines() if ln.startswith("error:")]
    assert err.startswith(f"error: {second}:{n}: "), err  # the line they differ at, not 1
    # the remedy at its end is never cut (the finding: it ended with "shows what …")
    gid = "botzone-" + game[0].split()[1]  # README (eventlog/ingest): botzone-<match id>
    assert err.endswith(f"nothing was changed (`paipu read {gid}` shows what is stored)"), err


# ------------------------------------------------ F4: what ingest checks; "1 game"

def test_ingest_says_it_does_not_judge_play_and_verify_does(tmp_path):
    game = _games()[8]
    n = _discard_line(game)
    seat = re.match(r"Player (\d)", game[n - 1]).group(1)
    game[n - 1] = f"Player {seat} Play W9"  # a legal tile code, maybe not held: stored as played
    f = _write(tmp_path / "one.txt", game)
    res = run("ingest", f, "--data", tmp_path / "d")
    assert res.exit_code == 0
    assert res.stdout.startswith("1 game stored (")  # not "1 games"
    assert "`paipu verify`" in res.output and "legal" in res.output
    quiet = run("ingest", f, "--data", tmp_path / "d2", "-q")
    assert "`paipu verify`" not in quiet.output
    help_text = " ".join(run("ingest", "--help").output.split())
    assert "paipu verify" in help_text and "legal" in help_text
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    row = next(ln for ln in readme.splitlines() if ln.startswith("| `paipu ingest"))
    assert "`paipu verify`" in row and "legal" in row


# ---------------------------------------------------------------- F8: links in a directory

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs symbolic links and FIFOs")
def test_links_to_directories_are_followed_once_and_odd_entries_get_a_note(tmp_path):
    games = _games()
    real = tmp_path / "dataset"
    real.mkdir()
    _write(real / "a.txt", games[0])
    _write(real / "b.txt", games[1])
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "set1").symlink_to(real, target_is_directory=True)
    (corpus / "set2").symlink_to(real, target_is_directory=True)  # the same directory again
    (corpus / "loop").symlink_to(corpus, target_is_directory=True)  # a cycle
    (corpus / "dangling.txt").symlink_to(tmp_path / "nonexistent")
    os.mkfifo(corpus / "fifo.txt")
    res = run("ingest", corpus, "--data", tmp_path / "d")
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("2 games stored")
    assert f"note: skipped {corpus / 'dangling.txt'}: " in res.output
    assert f"note: skipped {corpus / 'fifo.txt'}: " in res.output
    # the walk ends (no cycle) and the run is the same each time
    again = run("ingest", corpus, "--data", tmp_path / "d")
    assert again.stdout.startswith("0 games stored (0 events), 2 already stored")
    assert [ln for ln in again.output.splitlines() if ln.startswith("note: skipped")] == \
           [ln for ln in res.output.splitlines() if ln.startswith("note: skipped")]


# ------------------------------------------------------------------------------ F11: words

def test_out_of_range_integers_and_a_negative_seat_are_named_so(tmp_path):
    game = _games()[0]
    score = next(i for i, ln in enumerate(game) if ln.startswith("Score"))
    big = game[:]
    big[score] = "Score 99999999999999999999999 -8 -8 -8"
    n = _discard_line(game)
    neg = game[:]
    neg[n - 1] = re.sub(r"^Player \d", "Player -1", neg[n - 1])
    res = run("ingest", _write(tmp_path / "big.txt", big), _write(tmp_path / "neg.txt", neg),
              "--data", tmp_path / "d", "--json")
    reasons = {Path(i["file"]).name: i["reason"] for i in json.loads(res.stdout)["refused"]}
    assert "out of range" in reasons["big.txt"] and "not integers" not in reasons["big.txt"]
    assert "not a seat: '-1' (expected 0..3)" in reasons["neg.txt"]


def test_a_data_directory_that_cannot_be_made_says_so(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    res = run("ingest", SAMPLE, "--data", blocker / "data")
    assert res.exit_code == 2
    assert f"error: cannot create the data directory {blocker / 'data'}: " in res.output


def test_already_stored_gives_the_count_and_a_few_ids(tmp_path):
    data = tmp_path / "d"
    assert run("ingest", SAMPLE, "--data", data).exit_code == 0
    res = run("ingest", SAMPLE, "--data", data)
    line = res.stdout.splitlines()[0]
    assert "16 already stored" in line and "more)" not in line
    shown = re.search(r"already stored \(as ([^)]*)\)", line).group(1)
    assert 1 <= shown.count("botzone-") <= 5


# ------------------------------------------------------------------ F13: the bar's words

def test_the_ingest_bar_says_it_counts_lines_and_counts_games_beside():
    from paipu.cli.console import progress

    bar = progress(unit="lines", counted="lines")  # ingest's bar (paipu/cli/log.py)
    task = bar.add_task("importing", total=327124, games=0)
    bar.update(task, completed=196128, games=3000)
    text = "".join(str(col.render(bar.tasks[task])) for col in bar.columns[2:5])
    assert "196,128/327,124 lines" in text and "3,000 games" in text and "games/s" not in text


# --------------------------------------------------------- F10: a game in another encoding

def _renamed(game: list[str], match_id: str) -> list[str]:
    return [f"Match {match_id}", *game[1:]]


def _fan_line(game: list[str]) -> str:
    return next(ln for ln in game if ln.startswith("Fan "))


def test_a_gbk_game_in_a_utf8_file_is_read_as_gbk_and_the_others_stay_clean(tmp_path):
    games = _games()
    a, b, c = _renamed(games[3], "a4"), _renamed(games[4], "a5"), _renamed(games[5], "a6")
    assert any(ord(ch) > 127 for ch in _fan_line(b))  # Chinese fan names to lose
    f = tmp_path / "mixed_enc.txt"  # the finding's file: game 2 of 3 saved as GBK
    f.write_bytes("\n".join(a).encode() + b"\n" + "\n".join(b).encode("gbk") + b"\n" + "\n".join(c).encode() + b"\n")
    data = tmp_path / "d"
    res = run("ingest", f, "--data", data)
    assert res.exit_code == 0 and res.stdout.startswith("3 games stored")
    assert "warning" not in res.output  # read whole: nothing replaced
    from eventlog.store import open_store

    store = open_store(data, create=False)
    try:
        meta = {g: next(iter(store.read_game(f"botzone-{g}"))).metadata["encoding"] for g in ("a4", "a5", "a6")}
        fans = next(e for e in store.read_game("botzone-a5") if e.type == "score_reported").payload.fans
    finally:
        store.close()
    # the clean games carry no "utf-8 (damaged)"; the GBK game is read as GBK (GB18030)
    assert meta == {"a4": "utf-8", "a5": "gb18030", "a6": "utf-8"}
    # "Fan 10 三色三步高*1+…": the names as the source writes them (no U+FFFD)
    names = [part.split("*")[0] for part in _fan_line(b).split(maxsplit=2)[2].split("+")]
    assert [x.name for x in fans] == names


def test_bytes_that_had_to_be_replaced_are_warned_of_with_file_and_line(tmp_path):
    games = _games()
    a, b = _renamed(games[3], "w4"), _renamed(games[4], "w5")
    fan = b.index(_fan_line(b))
    raw_b = [ln.encode() for ln in b]
    raw_b[fan] = raw_b[fan] + b"\xff\xfe"  # bytes of no encoding
    f = tmp_path / "damaged.txt"
    f.write_bytes(b"\n".join([ln.encode() for ln in a] + raw_b) + b"\n")
    res = run("ingest", f, "--data", tmp_path / "d")
    assert res.exit_code == 0
    line = len(a) + fan + 1
    (warning,) = [ln for ln in res.output.splitlines() if ln.startswith("warning:")]
    assert warning.startswith(f"warning: {f}:{line}: ") and "replaced" in warning
    assert "1 warning" in res.stdout


# ---------------------------------------------- F12: an interrupted upload says what was kept

def test_an_interrupted_server_ingest_says_how_many_games_the_server_kept(tmp_path):
    import _thread
    import threading
    import time

    from eventlog.store import open_store
    from services.client import EventLogClient
    from services.server import build_server

    games = _games()
    files = []
    for k in range(40):  # 640 games, a file of 16 at a time: interrupted after the first files
        lines = [ln for i, g in enumerate(games) for ln in _renamed(g, f"i{k:02d}{i:02d}")]
        files.append(_write(tmp_path / f"f{k:02d}.txt", lines))
    store = open_store(tmp_path / "srv")
    srv, port = build_server(store, port=0)
    srv.start()
    target = f"127.0.0.1:{port}"
    try:
        def interrupt() -> None:  # Ctrl-C once the server holds a few files' games
            with EventLogClient(target) as c:
                while len(c.list_games()) < 32:
                    time.sleep(0.02)
            _thread.interrupt_main()

        threading.Thread(target=interrupt, daemon=True).start()
        res = run("ingest", *files, "--server", target)
        assert res.exit_code == 130, res.output
        time.sleep(0.5)  # a transaction the server was in has ended (kept or not)
        kept = len(store.list_games())
        m = re.search(r"interrupted: (\d+) games? kept \(stored and committed\) so far; run it again", res.output)
        assert m, res.output
        assert 32 <= int(m.group(1)) <= kept < 640
    finally:
        srv.stop(None)
        store.close()


# ------------------------------------------- F16: a file name that is not UTF-8 (a Windows zip)

@pytest.mark.skipif(os.name != "posix", reason="a file name of raw bytes: POSIX")
def test_a_gbk_named_file_imports_and_the_others_of_the_run_too(tmp_path):
    games = _games()
    d = tmp_path / "fn"
    d.mkdir()
    _write(d / "good.txt", games[0] + games[1])
    name = "对局.txt".encode("gbk")  # as a Windows zip unpacks it on Linux
    with open(os.path.join(os.fsencode(d), name), "wb") as f:
        f.write(("\n".join(games[2]) + "\n").encode())
    data = tmp_path / "d"
    res = run("ingest", d, "--data", data)
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("3 games stored")
    from eventlog.store import open_store

    store = open_store(data, create=False)
    try:
        sources = {next(iter(store.read_game(g.game_id))).metadata["source"] for g in store.list_games()}
    finally:
        store.close()
    assert sources == {"good.txt", "对局.txt"}  # the name readable, as the user's Windows shows it


# ------------------------------- F17: a damaged first line does not hide a file of games

@pytest.mark.parametrize("first, stored", [("match {id}", 2),  # its first game has no Match line: refused
                                           ("# exported from botzone 2021\nMatch {id}", 3)])
def test_a_game_file_with_a_damaged_first_line_is_read_and_the_line_reported(tmp_path, first, stored):
    games = _games()
    d = tmp_path / "walk"
    d.mkdir()
    lines = [ln for g in games[:3] for ln in g]
    lines[0:1] = first.format(id=games[0][0].split()[1]).split("\n")
    f = _write(d / "b2.txt", lines)
    res = run("ingest", d, "--data", tmp_path / "d")
    assert res.exit_code == 1, res.output  # a bad game: reported, exit 1 (README), not "0 errors"
    assert f"error: {f}:1: " in res.output
    assert "not a game log of a known format" not in res.output
    assert res.stdout.startswith(f"{stored} games stored"), res.stdout


# ------------------------------- F21: the server goes away during `ingest --server`

def test_a_server_gone_mid_upload_is_not_called_nothing_imported(tmp_path):
    import threading
    import time

    from eventlog.store import open_store
    from services.client import EventLogClient
    from services.server import build_server

    games = _games()
    files = [_write(tmp_path / f"f{k:02d}.txt",
                    [ln for i, g in enumerate(games) for ln in _renamed(g, f"s{k:02d}{i:02d}")]) for k in range(40)]
    store = open_store(tmp_path / "srv")
    srv, port = build_server(store, port=0)
    srv.start()
    target = f"127.0.0.1:{port}"
    try:
        def stop() -> None:  # the server stops once it holds two files' games
            with EventLogClient(target) as c:
                while len(c.list_games()) < 32:
                    time.sleep(0.02)
            srv.stop(None)

        threading.Thread(target=stop, daemon=True).start()
        res = run("ingest", *files, "--server", target)
        assert res.exit_code == 2, res.output
        m = re.search(r"the server went away during (\S+): the (\d+) files? before it stored (\d+) games?", res.output)
        assert m, res.output
        assert int(m.group(2)) >= 1 and int(m.group(3)) == 16 * int(m.group(2))  # whole files reported
        assert "run it again" in res.output
    finally:
        srv.stop(None)
        store.close()


# ------------------------------------------------------- F22: a compressed log says so

def test_a_compressed_log_is_named_and_told_to_be_decompressed(tmp_path):
    import gzip

    d = tmp_path / "ext"
    d.mkdir()
    (d / "d.txt.gz").write_bytes(gzip.compress(SAMPLE.read_bytes()))
    res = run("ingest", d, "--data", tmp_path / "d")
    assert f"note: skipped {d / 'd.txt.gz'}: a compressed file: decompress it first" in res.output, res.output
    res = run("ingest", d / "d.txt.gz", "--data", tmp_path / "d")
    assert res.exit_code == 1 and "a compressed file (gzip): decompress it first" in res.output, res.output
