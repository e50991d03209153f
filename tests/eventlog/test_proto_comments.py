"""The contract's comments point at files that exist: every ``*.py``, ``*.md`` or ``*.proto``
path a comment of proto/paipu/v1/*.proto names is a path from the repository root, or a
sibling .proto (the
services live in services/, the design notes in docs/reference/DESIGN.md) — they named
eventlog/server.py, eventlog/client.py and shared/DESIGN.md, which a reader cannot open."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_PATH = re.compile(r"(?<![\w/.<>-])([\w.-]+(?:/[\w.-]+)*\.(?:py|md|proto))\b")


def test_every_file_a_proto_comment_names_exists():
    missing = []
    for proto in sorted((ROOT / "proto/paipu/v1").glob("*.proto")):
        for n, line in enumerate(proto.read_text(encoding="utf-8").splitlines(), 1):
            _, slashes, comment = line.partition("//")
            if not slashes or line.lstrip().startswith("import"):
                continue
            for name in _PATH.findall(comment):
                if not (ROOT / name).is_file() and not (proto.parent / name).is_file():  # or a sibling .proto
                    missing.append(f"{proto.name}:{n}: {name}")
    assert missing == [], missing
