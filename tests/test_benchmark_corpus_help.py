"""A newcomer learns the corpus benchmark from `python benchmarks/corpus.py --help` and the
README alone (issue 19 item 1: "the README says how to run it at N = 100,000"): the help is
plain text (no reST markup), names the 100,000-game command the README gives, the disk it
keeps, the ingest target it prints (≥ 0.8× the floor) and the JSON keys of its summary.
Nothing is timed: --help runs no stage."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _help() -> str:
    res = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "corpus.py"), "--help"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert res.returncode == 0, res.stderr
    return res.stdout


def test_the_help_teaches_the_target_size_as_the_readme_does():
    text = _help()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = "python benchmarks/corpus.py --games 100000 --dir /var/tmp/paipu-corpus --keep"
    assert command in text
    assert f"`{command}`" in readme
    assert "``" not in text  # reST literals read as noise in a terminal
    assert "~10 GB" in text and "~10 GB" in readme
    assert "target >= 0.8x" in text


def test_the_help_explains_every_line_and_summary_key():
    text = _help()
    for line in ("ingest", "floor", "verify", "export", "replay", "read", "queries", "chain", "sum",
                 "chain vs sum"):
        assert f"\n  {line} " in text or f"\n    {line} " in text, line
    for key in ("ingest_vs_floor", "chain_s", "chain_verify_export_s", '"export old"', '"export new"',
                '"export first"', '"export again"', "per-event path", "unparsed", "parsed", "--rounds"):
        assert key in text, key
