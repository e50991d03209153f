"""Issue 11 item 8: ``paipu verify`` keeps integrity and rules apart. After
``paipu quickstart`` every chain is intact and one bundled game has a true finding (the
PMN game's Result line -32 36 -8 36 is not zero-sum, paipu/samples/pmn-python-majiang):
exit 1, not the integrity status 3; ``--json`` and ``-q`` for scripts."""

from __future__ import annotations

import json
import sqlite3

import pytest
from typer.testing import CliRunner

from paipu.cli import app
from paipu.samples import sample_files

runner = CliRunner()
PMN_GAME = "pmn-mahjongsoft.com-74621-1-3"


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    d = tmp_path_factory.mktemp("verify") / "paipu-data"
    assert run("quickstart", "--data", str(d)).exit_code == 0
    return d


def _bundled_games() -> int:
    import re

    n = 0
    for f in sample_files():
        text = f.read_text(encoding="utf-8", errors="replace")
        n += len(re.findall(r"^Match ", text, re.M)) if f.suffix == ".txt" else 1
    return n


def test_help_documents_the_exit_statuses():
    out = run("verify", "--help").output
    assert "0 =" in out and "1 =" in out and "3 =" in out


def test_after_quickstart_verify_reports_the_true_finding_as_rules_not_integrity(data):
    res = run("verify", "--data", str(data))
    assert res.exit_code == 1, res.output
    n = _bundled_games()
    assert f"{n} of {n} chains intact, {n - 1} of them without findings; 0 with a broken chain" in res.output
    assert "1 with rule findings or disagreements" in res.output


def test_quiet_prints_only_the_games_with_problems(data):
    res = run("verify", "-q", "--data", str(data))
    assert res.exit_code == 1
    games = [l for l in res.output.splitlines() if l.startswith(("ok ", "FAIL "))]
    assert games == [l for l in games if PMN_GAME in l] and len(games) == 1


def test_json_output(data):
    res = run("verify", "--json", "--data", str(data))
    assert res.exit_code == 1
    doc = json.loads(res.output)
    assert doc["summary"]["games"] == _bundled_games()
    assert doc["summary"]["broken_chains"] == 0 and doc["summary"]["with_findings"] == 1
    assert doc["summary"]["exit_status"] == 1
    (bad,) = [g for g in doc["games"] if not g["ok"]]
    assert bad["game_id"] == PMN_GAME and bad["chain"]["ok"]
    assert [f["rule_id"] for f in bad["findings"]] == ["reported_score_mismatch"]


def test_json_output_is_the_one_object_written_game_by_game(data):
    """Issue 19: the report is written as the games are checked (never held whole), and its
    bytes are still those of the whole object dumped at once with sorted keys."""
    from paipu.cli.console import JsonListStream

    res = run("verify", "--json", "--data", str(data))
    doc = json.loads(res.output)
    assert res.output == json.dumps(doc, ensure_ascii=False, sort_keys=True) + "\n"

    written: list[str] = []
    stream = JsonListStream(written.append, "games")
    assert written == []  # nothing before the first game: an error before it leaves no output
    for i, game in enumerate(doc["games"][:3]):
        stream.add(game)
        assert len(written) == i + 1 and json.loads(written[-1].removeprefix("{\"games\": [" if i == 0 else ", ")) == game
    stream.close({k: v for k, v in doc.items() if k != "games"})
    assert "".join(written) == json.dumps({**doc, "games": doc["games"][:3]}, ensure_ascii=False,
                                          sort_keys=True) + "\n"
    for rest in ({}, {"log": None}):
        written.clear()
        empty = JsonListStream(written.append, "games")
        empty.close(rest)
        assert "".join(written) == json.dumps({"games": [], **rest}, sort_keys=True) + "\n"
    with pytest.raises(ValueError):
        JsonListStream(written.append, "games").close({"end": 1, "aaa": 2})


def _copy_with_rewritten_payload(tmp_path, data):
    """A copy of the store whose botzone game has event 2's payload rewritten (T8 -> T7)."""
    copy = tmp_path / "copy"
    copy.mkdir()
    con = sqlite3.connect(data / "events.sqlite")
    con.execute(f"VACUUM INTO '{copy / 'events.sqlite'}'")
    con.close()
    con = sqlite3.connect(copy / "events.sqlite")
    for (t,) in con.execute("select name from sqlite_master where type='trigger'").fetchall():
        con.execute(f"drop trigger {t}")
    con.execute("update events set payload = replace(payload, 'T8', 'T7') "
                "where game_id = 'botzone-61602cb45ddc087351c04358' and seq = 2")
    con.commit()
    con.close()
    return copy


def test_a_broken_chain_is_exit_3(tmp_path, data):
    copy = _copy_with_rewritten_payload(tmp_path, data)
    res = run("verify", "--json", "--data", str(copy))
    assert res.exit_code == 3
    doc = json.loads(next(l for l in res.output.splitlines() if l.startswith("{")))  # stderr may add lines
    assert doc["summary"]["broken_chains"] == 1


def test_quiet_summary_does_not_call_a_log_with_a_broken_chain_intact(tmp_path, data):
    copy = _copy_with_rewritten_payload(tmp_path, data)
    res = run("verify", "-q", "--data", str(copy))
    assert res.exit_code == 3
    assert "chain BROKEN" in res.output
    assert "log intact" not in res.output
    assert "log NOT intact" in res.output.splitlines()[-1]


def test_a_store_warning_is_one_line_once(tmp_path):
    """The store's warning on opening a log without its checkpoint file reaches the user as one
    `warning: …` line (not Python's two lines naming our source file), once; verify says it in
    its own words only."""
    from cli_run import run as cli

    data = tmp_path / "d"
    assert cli("quickstart", "--data", data).exit_code == 0
    (data / "events.sqlite-checkpoint").unlink()
    res = cli("games", "--data", data)
    assert res.exit_code == 0
    lines = [ln for ln in res.stderr.splitlines() if "no checkpoint file" in ln]
    assert len(lines) == 1 and lines[0].startswith("warning: ") and "UserWarning" not in res.stderr, res.stderr
    (data / "events.sqlite-checkpoint").unlink()
    res = cli("verify", "--data", data, "-q")
    lines = [ln for ln in res.stderr.splitlines() if "no checkpoint file" in ln]
    assert len(lines) == 1 and lines[0].startswith("WARNING: ") and lines[0].endswith("cannot be detected."), res.stderr


def test_verify_names_a_log_stream_it_checked(tmp_path):
    """`paipu verify paipu:players` checks the alias stream's hash chain and says so — it
    printed "0 of 0 chains intact" (the stream is the log's own, not a game: nothing to replay)."""
    import json as _json

    from cli_run import run as cli

    data = tmp_path / "d"
    assert cli("quickstart", "--data", data).exit_code == 0
    assert cli("players", "alias", "--data", data, "Player0", "Player 0").exit_code == 0
    assert cli("players", "alias", "--data", data, "Player1", "Player 1").exit_code == 0
    res = cli("verify", "--data", data, "paipu:players")
    assert res.exit_code == 0
    assert res.stdout.strip() == ("log stream paipu:players: chain intact, 2 events (the log's own stream, "
                                  "not a game: nothing to replay)")
    got = _json.loads(cli("verify", "--data", data, "paipu:players", "--json").stdout)
    assert got["games"] == [] and [(s["stream"], s["ok"], s["events"]) for s in got["log_streams"]] == [
        ("paipu:players", True, 2)]
