"""Regenerate docs/rulesets.md from the ruleset registry (replayer/rules/catalog.py).

Run after changing any ruleset's options or any preset: python scripts/gen_rulesets_doc.py
(--check: exit 1 when the file is out of step, without writing).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replayer.rules.catalog import render_markdown

DOC = ROOT / "docs" / "rulesets.md"


def main() -> int:
    text = render_markdown()
    if "--check" in sys.argv[1:]:
        same = DOC.exists() and DOC.read_text(encoding="utf-8") == text
        print("docs/rulesets.md is " + ("up to date" if same else "out of step: run python scripts/gen_rulesets_doc.py"))
        return 0 if same else 1
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
