"""The static checks of pyproject.toml as tests: the import-linter layer contracts, no import
cycles between modules, ruff. A wrong import or a new cycle fails the suite (and .ci/static)."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("eventlog", "replayer", "analytics", "services", "dashboard", "paipu")


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_import_linter_contracts_are_kept():
    from importlinter.cli import lint_imports

    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def test_every_ruleset_is_forbidden_to_the_core():
    """The core-names-no-ruleset contract lists every ruleset package there is."""
    from replayer.rules.base import known_rulesets

    contract = next(c for c in _config()["tool"]["importlinter"]["contracts"] if c["id"] == "replayer-core")
    assert {f"replayer.rules.{r}" for r in known_rulesets()} <= set(contract["forbidden_modules"])


def _cycles(graph: grimp.ImportGraph) -> list[frozenset[str]]:
    """Strongly connected components of more than one module (iterative Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[frozenset[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = set()
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    comp.add(m)
                    if m == node:
                        break
                if len(comp) > 1:
                    out.append(frozenset(comp))
    return out


def _from_package_imports(graph: grimp.ImportGraph) -> None:
    """Add what grimp leaves out: ``from pkg import submodule`` runs ``pkg/__init__.py``
    first, so it imports the package too (``from replayer.rules.changsha import table`` in
    a module the package's ``__init__`` imports is a cycle). Imports under
    ``if TYPE_CHECKING:`` are skipped, as for grimp."""
    for module in sorted(graph.modules):
        if module.startswith("paipu.v1"):
            continue
        path = ROOT.joinpath(*module.split("."))
        is_pkg = (path / "__init__.py").exists()
        src = path / "__init__.py" if is_pkg else path.with_suffix(".py")
        if not src.exists():
            continue
        tree = ast.parse(src.read_text(encoding="utf-8"))
        skip = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
        package = module if is_pkg else module.rpartition(".")[0]
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or id(node) in skip:
                continue
            target = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([target] if target else []))
            if target in graph.modules and target != module and not target.startswith("paipu.v1"):
                if any(f"{target}.{a.name}" in graph.modules for a in node.names):
                    graph.add_import(importer=module, imported=target)


def test_no_import_cycles():
    graph = grimp.build_graph(*PACKAGES, cache_dir=None, exclude_type_checking_imports=True)
    for m in list(graph.modules):
        if m.startswith("paipu.v1"):
            graph.remove_module(m)
    _from_package_imports(graph)
    cycles = _cycles(graph)
    assert cycles == [], "import cycles: " + "; ".join(" <-> ".join(sorted(c)) for c in cycles)


def test_the_type_checker_covers_every_package_and_disables_no_module():
    """.ci/static runs mypy when pyproject.toml has [tool.mypy]: it must check every package,
    and no module of ours is exempt from any check (an override only says a third-party
    library ships no types: never ignore_errors, never disable_error_code)."""
    mypy = _config()["tool"]["mypy"]
    assert set(PACKAGES) <= set(mypy["files"])
    for o in mypy.get("overrides", []):
        assert not o.get("ignore_errors"), o
        assert not o.get("disable_error_code"), o
        assert o.get("ignore_missing_imports"), o
        modules = o["module"] if isinstance(o["module"], list) else [o["module"]]
        assert not any(m.split(".")[0] in PACKAGES for m in modules), o
    assert "mypy" in (ROOT / ".ci" / "static").read_text(encoding="utf-8")


@pytest.mark.skipif(shutil.which("ruff") is None and not (Path(sys.executable).parent / "ruff").exists(),
                    reason="ruff is not installed (pip install -e '.[dev]')")
def test_ruff_is_clean():
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    res = subprocess.run([ruff, "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
