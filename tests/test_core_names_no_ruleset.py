"""A core that names no ruleset (issue 14 item 4): outside ``replayer/rules/<id>/`` no module of
the replayer, the event log, the services, analytics, the dashboard or the CLI imports a
specific ruleset; they reach rulesets through the registry (replayer/rules/base.py)."""

from __future__ import annotations

import ast
from pathlib import Path

from replayer.rules.base import known_rulesets

ROOT = Path(__file__).resolve().parents[1]
CORE = ["replayer", "eventlog", "services", "analytics", "dashboard", "paipu"]


def _core_files() -> list[Path]:
    out = []
    for top in CORE:
        for p in sorted((ROOT / top).rglob("*.py")):
            rel = p.relative_to(ROOT).parts
            if rel[:2] == ("replayer", "rules") and len(rel) > 3:
                continue  # a ruleset's own package
            if rel[:2] == ("paipu", "v1"):
                continue  # generated protobuf code
            out.append(p)
    return out


def test_no_core_module_imports_a_ruleset():
    rulesets = set(known_rulesets())
    assert {"mcr", "nanchang"} <= rulesets
    bad = []
    for p in _core_files():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for n in names:
                parts = n.split(".")
                if parts[:2] == ["replayer", "rules"] and len(parts) > 2 and parts[2] in rulesets:
                    bad.append(f"{p.relative_to(ROOT)}:{node.lineno} imports {n}")
    assert not bad, "\n".join(bad)
