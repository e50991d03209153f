"""Issue 21 item 7: the replay page driven from the keyboard in a real headless Chromium — the
real ``paipu dashboard`` server, a hand of each ruleset stepped through with the
keys a user presses (↓ to the hand, → ← event by event, c next claim, w next win, ↑ back to the
hand's start), each step checked against the events; a screenshot per ruleset at its win is
kept under test-artifacts/dashboard/ (git-ignored)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import desk_games as G
import pytest
from cdp import Browser, find_chromium

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "dashboard"
LAUNCH = "from paipu.cli import app\napp(prog_name='paipu')\n"
RULESETS = ("mcr", "nanchang", "sichuan", "changsha")
SETTLED = ("!document.querySelector('[data-testid=\"stSkeleton\"]') && !document.querySelector('[data-stale=\"true\"]')"
           " && !document.querySelector('[data-testid=\"stStatusWidget\"] [data-testid=\"stStatusWidgetRunningIcon\"]')")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    if find_chromium() is None:
        pytest.skip("no chromium binary found (apt-get install -y chromium)")
    d = tmp_path_factory.mktemp("desk-browser")
    games = G.make_data(d, {r: G.RULESETS[r] for r in RULESETS})
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "PAIPU_DATA"}
    log = d / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-c", LAUNCH, "dashboard", "--data", str(d), "--port", str(port)],
                                stdout=out, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/"
    try:
        end = time.monotonic() + 45
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"paipu dashboard exited with {proc.returncode}: {log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(url + "_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                pass
            if time.monotonic() > end:
                raise TimeoutError("the dashboard did not answer its health check")
            time.sleep(0.2)
        yield url, games
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _seq_is(b: Browser, seq: int, why: str) -> None:
    b.wait_for(f"new URLSearchParams(location.search).get('seq') === '{seq}'"
               f" && document.body.innerText.includes('Event {seq} of') && " + SETTLED,
               f"event {seq} after {why}")


def _next(events, after: int, *types: str) -> int | None:
    return next((e.seq for e in events if e.seq > after and e.type in types), None)


def test_keys_step_through_a_hand_of_each_ruleset(served, tmp_path):
    url, games = served
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    b = Browser(find_chromium(), tmp_path / "profile")
    try:
        for ruleset in RULESETS:
            events = games[ruleset]
            gid = G.game_id(ruleset)
            b.open(f"{url}replay?game={gid}&seq=0",
                   "window.__ppKeysReady > 0 && document.body.innerText.includes('Event 0 of') && " + SETTLED)
            start = _next(events, -1, "hand_started")
            b.press("ArrowDown")
            _seq_is(b, start, f"↓ in {ruleset}")
            steps = 2 if ruleset == RULESETS[0] else 1  # event by event: once is enough after the first
            for k in range(1, steps + 1):
                b.press("ArrowRight")
                _seq_is(b, start + k, f"→ in {ruleset}")
            b.press("ArrowLeft")
            _seq_is(b, start + steps - 1, f"← in {ruleset}")
            at = start + steps - 1
            claim = _next(events, at, "chow", "pung")
            if claim is not None:
                b.press("c")
                _seq_is(b, claim, f"c in {ruleset}")
                at = claim
            win = _next(events, at, "win_declared")
            assert win is not None, ruleset
            b.press("w")
            _seq_is(b, win, f"w in {ruleset}")
            p = next(e for e in events if e.seq == win).payload
            text = b.text()
            assert f"{G.WIND_EN[G.wind_of(events, p.seat, win)]} wins" in text
            assert G.WIND_ZH[G.wind_of(events, p.seat, win)] in text
            assert "Traceback" not in text
            b.evaluate("document.querySelector('.pp-win').scrollIntoView(false)")
            time.sleep(0.3)
            b.screenshot(ARTIFACTS / f"replay-{ruleset}-win.png")
            b.press("ArrowUp")
            _seq_is(b, start, f"↑ in {ruleset}")
            b.evaluate("window.scrollTo(0, 0)")
            b.screenshot(ARTIFACTS / f"replay-{ruleset}-start.png")
    finally:
        b.close()
