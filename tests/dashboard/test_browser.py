"""End to end: the real dashboard server (``paipu dashboard`` on a free loopback port)
opened in headless Chromium; screenshots of the overview and replay pages are kept under
test-artifacts/dashboard/ (gitignored), and the rendered DOM must show charts and tiles,
not an error."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import dash_sources as src
import pytest
from cdp import Browser, find_chromium

from eventlog.store import open_store

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "dashboard"

#: ``paipu dashboard`` through the paipu CLI.
LAUNCH = "from paipu.cli import app\napp(prog_name='paipu')\n"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen, deadline: float = 45.0) -> None:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"paipu dashboard exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise TimeoutError("the dashboard did not answer its health check")


@pytest.fixture(scope="module")
def server(data_dir, tmp_path_factory):
    port = _free_port()
    env = dict(os.environ)
    env.pop("PAIPU_DATA", None)
    log = tmp_path_factory.mktemp("dashboard-log") / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", LAUNCH, "dashboard", "--data", str(data_dir), "--port", str(port)],
            stdout=out, stderr=subprocess.STDOUT, env=env,
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        _wait_healthy(url, proc)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "server.log").write_bytes(log.read_bytes())


#: The page has finished its run: no skeleton placeholders, no "running" status widget.
SETTLED = ("!document.querySelector('[data-testid=\"stSkeleton\"]')"
           " && !document.querySelector('[data-testid=\"stStatusWidget\"] [data-testid=\"stStatusWidgetRunningIcon\"]')")


def _no_error(text: str, dom: str) -> None:
    assert "Traceback" not in text and "Error" not in text, text[:2000]
    assert 'data-testid="stException"' not in dom


def test_overview_and_replay_in_chromium(server, data_dir, tmp_path):
    binary = find_chromium()
    if binary is None:
        pytest.skip("no chromium binary found (apt-get install -y chromium)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser = Browser(binary, tmp_path / "profile")
    try:
        browser.open(server, "document.querySelectorAll('.vega-embed canvas, .vega-embed svg').length >= 2"
                             " && document.body.innerText.includes('exhaustive draws') && " + SETTLED)
        browser.screenshot(ARTIFACTS / "overview.png")
        dom, text = browser.dom(), browser.text()
        (ARTIFACTS / "overview.html").write_text(dom, encoding="utf-8")
        _no_error(text, dom)
        want = src.totals()
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        for label in ("games", "wins", "exhaustive draws"):
            assert lines[lines.index(label) + 1] == str(want[label.split()[-1]]), label
        charts = browser.evaluate("document.querySelectorAll('.vega-embed canvas, .vega-embed svg').length")
        assert charts >= 2

        match, game_lines = src.first_text_game()
        game_id = f"botzone-{match}"
        hands, rivers, (claimant, _d, run, _c) = src.hands_until_first_chi(game_lines)
        store = open_store(data_dir)
        try:
            chow_seq = next(e.seq for e in store.read_game(game_id) if e.type == "chow")
        finally:
            store.close()
        browser.open(f"{server}replay?game={game_id}&seq={chow_seq}",
                     "document.querySelectorAll('.pp-tile').length > 40"
                     " && document.querySelectorAll('[data-testid=\"stButton\"]').length >= 7 && " + SETTLED)
        browser.screenshot(ARTIFACTS / "replay.png")
        dom, text = browser.dom(), browser.text()
        (ARTIFACTS / "replay.html").write_text(dom, encoding="utf-8")
        _no_error(text, dom)
        assert f"Event {chow_seq} of" in text
        for t in run:  # the chow's tiles are on the table, as Unicode tiles
            assert src.glyph(t) in text
        for t, n in hands[claimant].items():
            if n:
                assert src.glyph(t) in text
        assert f"chow ← seat {_d}" in text
        assert "wall " in text

        # the other pages: rendered without error (screenshots kept for review)
        for page, ready in (
            # the documented URL of the overview (docs/dashboard.md; issue 11 item 15), not
            # only the root: Streamlit says "Page not found" for a default page's url_path
            ("overview", "document.querySelectorAll('.vega-embed canvas, .vega-embed svg').length >= 2"
                         " && document.body.innerText.includes('exhaustive draws')"),
            ("fans", "document.querySelectorAll('.vega-embed canvas, .vega-embed svg').length >= 3"),
            ("players?player=Player3", "document.querySelectorAll('.vega-embed canvas, .vega-embed svg').length >= 2"),
            (f"dispute?game={src.PMN_GAME}", "document.querySelectorAll('.pp-tile').length > 20"),
        ):
            browser.open(server + page, ready + " && " + SETTLED)
            name = page.split("?")[0]
            browser.screenshot(ARTIFACTS / f"{name}.png")
            _no_error(browser.text(), browser.dom())
            assert "Page not found" not in browser.text(), page  # an unrouted URL shows the default page
    finally:
        browser.close()
