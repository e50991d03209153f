"""``paipu dashboard``: the command (paipu/cli/dashboard.py) and the server
command line it runs (the real server is started in test_browser.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from typer.testing import CliRunner

from dashboard.launch import APP, streamlit_command
from paipu.cli import app as paipu_app


def test_paipu_has_the_dashboard_command():
    res = CliRunner().invoke(paipu_app, ["dashboard", "--help"])
    assert res.exit_code == 0, res.output
    for opt in ("--data", "--port", "--host"):
        assert opt in res.output


def test_server_command_is_headless_on_loopback(tmp_path: Path):
    argv = streamlit_command(tmp_path, port=8765)
    assert argv[:4] == [sys.executable, "-m", "streamlit", "run"]
    assert argv[4] == str(APP) and APP.name == "app.py" and APP.exists()
    opts = dict(zip(argv[5:-3:2], argv[6:-3:2]))
    assert opts["--server.headless"] == "true"
    assert opts["--server.address"] == "127.0.0.1"  # DESIGN.md §9: loopback unless told otherwise
    assert opts["--server.port"] == "8765"
    assert argv[-3:] == ["--", "--data", str(tmp_path)]


def test_docs_name_every_page_and_option():
    """docs/dashboard.md describes each page under its URL path and the command's options."""
    import re

    root = Path(__file__).resolve().parents[2]
    doc = (root / "docs" / "dashboard.md").read_text(encoding="utf-8")
    app = APP.read_text(encoding="utf-8")
    paths = re.findall(r'url_path="([a-z]+)"', app)
    documented = ["overview", "fans", "players", "replay", "dispute"]
    assert set(documented) <= set(paths)
    for p in documented:
        assert f"(`/{p}" in doc, p
    # Streamlit serves a default page only at the root (its url_path is not routed), so the
    # documented /overview must be a page of its own, not the default (issue 11 item 15)
    overview_lines = [line for line in app.splitlines() if 'url_path="overview"' in line]
    assert overview_lines and not any("default=True" in line for line in overview_lines)
    assert "paipu dashboard [--data DIR] [--port 8501] [--host 127.0.0.1]" in doc
