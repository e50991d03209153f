"""The review desk in the dashboard and on the command line: the decision review page, the
what-if scoring on the dispute page, ``paipu review`` / ``paipu verify --as`` and the offline
dispute package (``paipu dispute``), opened in headless Chromium when there is one.

Expected values come from the PMN sample's own tags (paipu/samples/pmn-python-majiang): its
``Result`` (the reported score changes) and ``Play`` (seats 1 and 3 declare mahjong on seat 0's
discard, both on 🀛 B3) — and from the rules: under mcr1998 only the first winner in turn order
from the discarder wins (截和, docs/reference/rules/competition.md §B1); a seat that wins was
ready (shanten 0) after its last discard (听牌).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote

import dash_sources as src
import pytest
from cdp import Browser, find_chromium
from typer.testing import CliRunner

from paipu.cli import app

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "dashboard"
runner = CliRunner()


def _df(at, *columns: str):
    for d in at.dataframe:
        v = d.value
        if all(c in v.columns for c in columns):
            return v
    raise AssertionError(f"no table with columns {columns}")


def test_review_page(data_dir, open_page):
    assert src.pmn_winners() == [1, 3]
    at = open_page(data_dir, "review", game=src.PMN_GAME, seat="1")
    assert any("not an AI's opinion" in i.value for i in at.info)
    assert at.selectbox[0].value == src.PMN_GAME and at.selectbox[1].value == 1
    table = _df(at, "shanten", "kept the maximum")
    assert table["shanten"].iloc[-1].endswith("ready (听牌)")  # seat 1 won: ready after its last discard
    assert not any(re.search(r"ready → ready|(^|→ )(\d+|win|ready)( →|$)", s) for s in table["shanten"])  # in words
    assert set(table["kept the maximum"]) <= {"✓", "✗"}
    options = _df(at, "discard", "shanten after", "improving tiles (unseen)")
    assert (options["played"] == "◀").sum() == 1
    summary = _df(at, "seat", "kept the maximum", "share")
    assert list(summary["seat"]) == ["0", "1", "2", "3", "all"]
    assert int(summary["discards"].iloc[-1]) == int(summary["discards"].iloc[:4].sum())


def test_review_page_empty_data(tmp_path, open_page):
    at = open_page(tmp_path, "review")
    assert any("No games yet" in i.value for i in at.info)
    assert list(tmp_path.iterdir()) == []


def test_dispute_page_what_if(data_dir, open_page):
    at = open_page(data_dir, "dispute", game=src.PMN_GAME)
    assert any("DIFFERS" in w.value and "mcr1998" in w.value for w in at.warning)
    wins = _df(at, "legal (what-if)", "why (what-if)")
    assert list(wins["seat"]) == src.pmn_winners()
    assert list(wins["legal (what-if)"]) == ["yes", "no"]  # 截和: seat 1 is first from seat 0
    assert "one_winner_per_discard" in wins["why (what-if)"].iloc[1] and "§B1" in wins["why (what-if)"].iloc[1]
    fans = _df(at, "fan", "this game", "what-if", "rule source")
    assert "花龙" in set(fans["中文"]) and all("competition.md" in s for s in fans["rule source"])


def test_cli_review_json_and_text(data_dir):
    res = runner.invoke(app, ["review", src.PMN_GAME, "--seat", "1", "--seat", "3", "--json", "--data", str(data_dir)],
                        catch_exceptions=False)
    assert res.exit_code == 0, res.output
    r = json.loads(res.stdout)
    assert "not an AI" in r["label"] and [h["seat"] for h in r["hands"]] == [1, 3]
    for h in r["hands"]:
        last = h["discards"][-1]
        assert h["won"] and last["shanten_after"] == 0 and "B3" in [t for t, _n in last["improving"]]
    res = runner.invoke(app, ["review", src.PMN_GAME, "--seat", "1", "--data", str(data_dir)], catch_exceptions=False)
    assert res.exit_code == 0 and "Rules-based efficiency review" in res.stdout and "seat 1:" in res.stdout
    res = runner.invoke(app, ["review", "no-such-game", "--seat", "1", "--data", str(data_dir)])
    assert res.exit_code == 2


def test_cli_verify_as(data_dir):
    res = runner.invoke(app, ["verify", src.PMN_GAME, "--as", "mcr1998", "--json", "--data", str(data_dir)],
                        catch_exceptions=False)
    assert res.exit_code == 1  # the game's own finding (reported_score_mismatch); the what-if does not change it
    (game,) = json.loads(res.stdout)["games"]
    w = game["what_if"]
    assert w["after"]["ruleset"] == "mcr1998" and w["differs"]
    assert [x["legal"] for x in w["wins"]] == [[True, True], [True, False]]
    res = runner.invoke(app, ["verify", src.PMN_GAME, "--option", "multiple_winners=first_only", "--data", str(data_dir)],
                        catch_exceptions=False)
    assert "what-if: mcr" in res.stdout and "one_winner_per_discard" in res.stdout
    res = runner.invoke(app, ["verify", src.PMN_GAME, "--as", "no_such_ruleset", "--data", str(data_dir)])
    assert res.exit_code == 2


def test_dispute_package(data_dir, tmp_path):
    out = tmp_path / "dispute.html"
    res = runner.invoke(app, ["dispute", src.PMN_GAME, "--out", str(out), "--data", str(data_dir)],
                        catch_exceptions=False)
    assert res.exit_code == 0, res.output
    page = out.read_text(encoding="utf-8")
    result = " ".join(f"{int(x):+d}" for x in src.pmn_tags()["Result"].split())
    assert result in page  # the reported score changes, beside the computed ones
    assert f"paipu verify {src.PMN_GAME}" in page and "reported_score_mismatch" in page
    assert "What-if scoring" in page and "mcr1998" in page and "one_winner_per_discard" in page
    assert not re.search(r'(src|href)="(https?:)?//', page)  # nothing outside the file
    # the offline re-check: the embedded events and the stdlib script
    m = re.search(r'href="data:application/x-ndjson;charset=utf-8,([^"]*)"', page)
    jsonl = tmp_path / "game.jsonl"
    jsonl.write_text(unquote(m.group(1)), encoding="utf-8")
    n = len(jsonl.read_text(encoding="utf-8").splitlines())
    from dashboard.package import RECHECK_SCRIPT

    script = tmp_path / "recheck.py"
    script.write_text(RECHECK_SCRIPT, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script), str(jsonl)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith(f"intact: {n} events")
    # a tampered copy fails
    lines = jsonl.read_text(encoding="utf-8").splitlines()
    e = json.loads(lines[5])
    e["payload"]["seat"] = (e["payload"].get("seat", 0) + 1) % 4
    lines[5] = json.dumps(e, ensure_ascii=False)
    jsonl.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(script), str(jsonl)], capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "BROKEN at event 5" in done.stderr
    # the page loads in a browser and re-computes the chain there
    binary = find_chromium()
    if binary is None:
        pytest.skip("no chromium binary found (apt-get install -y chromium)")
    browser = Browser(binary, tmp_path / "profile")
    try:
        browser.open(out.as_uri(), "document.querySelectorAll('table').length > 5")
        browser.evaluate("ppRecheck()")
        probe = "document.getElementById('pp-recheck-result').textContent"
        end = time.monotonic() + 30
        while "intact" not in (text := browser.evaluate(probe) or "") and time.monotonic() < end:
            time.sleep(0.2)
        assert text.startswith(f"intact: {n} events")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.screenshot(ARTIFACTS / "dispute-package.png")
    finally:
        browser.close()


def test_review_and_dispute_pages_in_chromium(data_dir, tmp_path):
    """The real dashboard server with the Decision review and Dispute pages in headless Chromium;
    screenshots kept under test-artifacts/dashboard/."""
    import os

    from test_browser import LAUNCH, SETTLED, _free_port, _wait_healthy

    binary = find_chromium()
    if binary is None:
        pytest.skip("no chromium binary found (apt-get install -y chromium)")
    port = _free_port()
    env = dict(os.environ)
    env.pop("PAIPU_DATA", None)
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-c", LAUNCH, "dashboard", "--data", str(data_dir), "--port", str(port)],
                                stdout=out, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/"
    browser = None
    try:
        _wait_healthy(url, proc)
        browser = Browser(binary, tmp_path / "profile")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.open(f"{url}review?game={src.PMN_GAME}&seat=1",
                     "document.body.innerText.includes('kept the most improving tiles') && "
                     "document.querySelectorAll('.pp-tile').length >= 14 && " + SETTLED)
        browser.screenshot(ARTIFACTS / "review.png")
        text = browser.text()
        assert "not an AI's opinion" in text and "Traceback" not in text
        assert "Decision review" in text  # in the navigation and as the title
        browser.open(f"{url}dispute?game={src.PMN_GAME}",
                     "document.body.innerText.includes('What-if scoring') && " + SETTLED)
        browser.screenshot(ARTIFACTS / "dispute-what-if.png")
        text = browser.text()
        assert "DIFFERS" in text and "mcr1998" in text and "Traceback" not in text
    finally:
        if browser is not None:
            browser.close()
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_dispute_refuses_an_unknown_ruleset(data_dir, tmp_path):
    out = tmp_path / "d.html"
    res = runner.invoke(app, ["dispute", src.PMN_GAME, "--out", str(out), "--as", "no_such_ruleset", "--data", str(data_dir)])
    assert res.exit_code == 2 and not out.exists()


def test_dispute_what_if_options_box_reads_quoted_json_values(data_dir, open_page):
    # the options box reads NAME=VALUE words as a shell does (the same words as --option): a
    # JSON value holding spaces is quoted. The chip format's pattern values are an option
    # (cjm_fan_values, competition.md §A6.2: the seed lost them, so they are configuration)
    at = open_page(data_dir, "dispute", game=src.PMN_GAME)
    at.selectbox(key=f"wi_as_{src.PMN_GAME}").set_value("cjm_chips").run()
    at.text_input(key=f"wi_opt_{src.PMN_GAME}").set_value(
        """cjm_fan_values='{"mixed_straight": 9, "pure_straight": 17}' hold_off_table=false""").run()
    assert not at.exception and not [e.value for e in at.error]
    said = " ".join(w.value for w in (*at.warning, *at.success))
    assert "As cjm_chips" in said and "'mixed_straight': 9, 'pure_straight': 17" in said
    # an unclosed quote is said in one line, not raised
    at.text_input(key=f"wi_opt_{src.PMN_GAME}").set_value("""cjm_fan_values='{"mixed_straight": 9}""").run()
    assert not at.exception and any("Cannot re-score" in e.value and "quotation" in e.value for e in at.error)


def test_dispute_on_a_broken_chain_says_which_events_are_trusted(data_dir, tmp_path):
    # event 50 of the PMN game edited behind the store's back: its hash no longer matches, so
    # the chain is broken at 50 — events 0..49 still re-hash and link (trusted), the rest is
    # not and nothing is replayed (shared/DESIGN.md §5: corruption is never served as good
    # data). The page is still written, and the status says the log is damaged (README: 3).
    for name in ("events.sqlite", "events.sqlite-wal", "events.sqlite-checkpoint"):
        if (data_dir / name).exists():
            (tmp_path / name).write_bytes((data_dir / name).read_bytes())
    src.tamper_pmn_event_50(tmp_path / "events.sqlite")
    page = tmp_path / "d.html"
    res = runner.invoke(app, ["dispute", src.PMN_GAME, "--out", str(page), "--data", str(tmp_path)])
    assert res.exit_code == 3, res.output
    lines = [x for x in res.output.splitlines() if x.strip()]
    assert len(lines) == 1, lines
    line = lines[0]
    assert "broken at event 50" in line and "events 0–49" in line and "trusted" in line and str(page) in line
    html = page.read_text(encoding="utf-8")
    assert "BROKEN at event 50" in html and "seq 0–49" in html
    assert html.count('"seq": ') == 50  # the trusted events' hashes, for the in-page re-check
