"""Human output in words, not Python internals (a fresh user trial): case-line errors of
``paipu score --vectors`` (ids one type, no exception names, the value said once), a
truncated JSON file (file, line and column; never "starting at at column")."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from paipu.cli import app


def _run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_vector_line_errors_are_in_words_with_string_ids(tmp_path):
    src = tmp_path / "v.jsonl"
    hand = ["Q9"] + ["W1"] * 3 + ["W2"] * 3 + ["W3"] * 3 + ["W4"] * 3
    src.write_text("\n".join([
        '{"id": "a", "hand": "x"',
        '{"id": "b", "win_tile": "W1"}',
        json.dumps({"id": "c", "hand": hand, "win_tile": "W5"}),
        "garbage",
    ]) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    res = _run("score", "--vectors", src, "--out", out)
    assert res.exit_code == 1, res.output
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == ["line 1", "b", "c", "line 4"]
    errors = [r["error"] for r in rows]
    assert errors[0] == f"{src}:1: bad situation: not JSON: expecting ',' delimiter at column 24"
    assert errors[1] == f"{src}:2: bad situation: hand: missing (a required field)"
    assert errors[2] == f"{src}:3: bad situation: hand[0]: not a tile code: 'Q9'"
    assert errors[3] == f"{src}:4: bad situation: not JSON: expecting value at column 1"
    for e in errors:
        assert "Error" not in e and "Field required" not in e


def test_a_truncated_json_file_names_file_line_and_column(tmp_path):
    src = tmp_path / "cut.json"
    src.write_text('{"log": [\n{"output": "abcdef', encoding="utf-8")
    res = _run("ingest", "--format", "botzone-json", src, "--data", tmp_path / "d")
    assert f"{src}:2: not JSON: unterminated string starting at column 12" in res.output, res.output
    assert "at at" not in res.output


def test_output_files_create_their_directories_alike(tmp_path):
    # simulate --out made a missing directory, dispute --out refused one: now both make it
    sim = tmp_path / "a" / "b" / "sim.jsonl"
    res = _run("simulate", "--games", "1", "--hands-per-game", "1", "--out", sim)
    assert res.exit_code == 0 and sim.is_file(), res.output
    d = ["--data", tmp_path / "data"]
    gid = json.loads(sim.read_text(encoding="utf-8").splitlines()[0])["game_id"]
    assert _run("append", gid, sim, *d).exit_code == 0
    page = tmp_path / "nodir" / "x.html"
    res = _run("dispute", gid, "--out", page, *d)
    assert res.exit_code == 0 and page.is_file(), res.output
    res = _run("dispute", gid, "--out", sim / "x.html", *d)
    assert res.exit_code == 2 and res.output.strip() == f"error: --out {sim / 'x.html'}: {sim} is a file, not a directory"


def test_dashboard_refuses_a_directory_with_no_store_like_serve(tmp_path):
    for cmd in ("dashboard", "serve"):
        res = _run(cmd, "--data", tmp_path)
        assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, (cmd, res.output)
        assert res.output.startswith(f"error: no event store in {tmp_path}"), res.output


def test_counts_are_singular_for_one(tmp_path):
    from eventlog.words import plural
    from paipu.cli.console import ordinal_mean

    assert [plural(n, "game") for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert plural(1, "penalty") == "1 penalty" and plural(3, "penalty") == "3 penalties"
    assert [ordinal_mean(x) for x in (17.0, 17.5, 17.04)] == ["17", "17.5", "17"]
    sim = tmp_path / "one.jsonl"
    res = _run("simulate", "--games", "1", "--hands-per-game", "1", "--out", sim)
    assert res.output.startswith("1 game, 1 hand, "), res.output
    res = _run("ingest", "--format", "jsonl", sim, "--data", tmp_path / "d")
    assert res.output.startswith("1 game stored ("), res.output
    assert " 0 errors" in res.output


def _exported(tmp_path):
    d = ["--data", tmp_path / "d"]
    assert _run("simulate", "--games", "1", "--hands-per-game", "2", *d).exit_code == 0
    assert _run("export", *d).exit_code == 0
    return d


def test_stats_by_refused_where_it_does_not_group_and_seat_winds_named(tmp_path):
    d = _exported(tmp_path)
    out = _run("stats", "--deal-in-by-turn", "--by", "seat", *d)
    assert out.exit_code == 2 and out.output.strip() == (
        "error: --by seat groups the seat statistics only; --deal-in-by-turn is not grouped by --by (leave --by out)")
    assert _run("stats", "--deal-in-by-turn", *d).exit_code == 0
    out = _run("stats", "--by", "seat_wind", *d)
    assert out.exit_code == 0, out.output
    for wind in ("East", "South", "West", "North"):
        assert wind in out.output
    assert "F1" not in out.output
    assert "seat_wind" in _run("stats", "--help").output
