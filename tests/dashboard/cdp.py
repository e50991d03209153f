"""A minimal headless-Chromium driver over the DevTools protocol, for the end-to-end test.

Why not only ``chromium --headless --screenshot --dump-dom --virtual-time-budget``: the
virtual-time budget fast-forwards while the page waits on Streamlit's websocket, so the
shot is taken before the server has sent the page (a blank app). Here the page is loaded
with the same flags plus ``--remote-debugging-port=0``, the test waits until a JavaScript
condition holds (the page has rendered), then takes the screenshot and the DOM.
Uses ``websockets`` (a Streamlit dependency)."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--window-size=1400,1000", "--hide-scrollbars",
]


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """One headless Chromium with one page. ``deadline`` bounds every wait (seconds)."""

    def __init__(self, binary: str, profile: Path, deadline: float = 45.0) -> None:
        self.deadline = deadline
        profile.mkdir(parents=True, exist_ok=True)
        (profile / "DevToolsActivePort").unlink(missing_ok=True)  # a stale one names a dead port
        self.proc = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            port_file = profile / "DevToolsActivePort"
            port = self._until(lambda: port_file.exists() and port_file.read_text().split("\n")[0].strip(),
                               "DevTools port file")
            page = self._until(lambda: next((t for t in self._targets(port) if t["type"] == "page"), None),
                               "a page target")
            self._conn = connect(page["webSocketDebuggerUrl"], max_size=64 * 1024 * 1024, open_timeout=deadline)
            self.ws = self._conn.__enter__()
        except BaseException:
            self._stop()
            raise
        self._id = 0

    @staticmethod
    def _targets(port: str) -> list[dict[str, Any]]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as r:
                return json.loads(r.read())
        except OSError:
            return []

    def _until(self, probe, what: str):
        end = time.monotonic() + self.deadline
        while time.monotonic() < end:
            v = probe()
            if v:
                return v
            if self.proc.poll() is not None:
                raise RuntimeError(f"chromium exited ({self.proc.returncode}) while waiting for {what}")
            time.sleep(0.2)
        raise TimeoutError(f"no {what} within {self.deadline} s")

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self._id += 1
        self.ws.send(json.dumps({"id": self._id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv(timeout=self.deadline))
            if msg.get("id") == self._id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})

    def evaluate(self, expression: str) -> Any:
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return r.get("result", {}).get("value")

    def open(self, url: str, ready_js: str) -> None:
        """Load ``url`` and wait until ``ready_js`` evaluates true (TimeoutError if never)."""
        self.call("Page.enable")
        self.call("Page.navigate", url=url)
        self._until(lambda: self.evaluate(ready_js), f"rendered page at {url} ({ready_js})")

    def screenshot(self, path: Path) -> None:
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))

    #: Windows virtual key codes of the keys the tests press.
    KEY_CODES = {"ArrowLeft": 37, "ArrowUp": 38, "ArrowRight": 39, "ArrowDown": 40, "Home": 36}

    def press(self, key: str) -> None:
        """Press and release one key (``KeyboardEvent.key``: ``ArrowRight``, ``w`` …) as a
        user would: the page's focused document receives keydown and keyup."""
        code = self.KEY_CODES.get(key, ord(key.upper()) if len(key) == 1 else 0)
        name = key if len(key) > 1 else f"Key{key.upper()}"
        self.call("Input.dispatchKeyEvent", type="keyDown", key=key, code=name, windowsVirtualKeyCode=code)
        self.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=name, windowsVirtualKeyCode=code)

    def wait_for(self, js: str, what: str) -> Any:
        """Wait until ``js`` evaluates truthy (TimeoutError naming ``what`` if never)."""
        return self._until(lambda: self.evaluate(js), what)

    def dom(self) -> str:
        return self.evaluate("document.documentElement.outerHTML")

    def text(self) -> str:
        return self.evaluate("document.body.innerText")

    def _stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def close(self) -> None:
        try:
            self._conn.__exit__(None, None, None)
        finally:
            self._stop()
