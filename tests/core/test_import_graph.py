"""The package's import graph (every ``import`` statement of kernelbounds/, read with ast:
module level, inside functions and under TYPE_CHECKING alike) has no cycle, imports no
private name across modules, and the answering room (kernelbounds/hub) reaches the
generators only through the registry of sources (kernelbounds/sources)."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "kernelbounds"
GENERATORS = ("kernelbounds.lowerbounds", "kernelbounds.upperbounds", "kernelbounds.heads", "kernelbounds.kernelrank", "kernelbounds.levelmin")


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module(p): p for p in ROOT.rglob("*.py") if "certificates" not in p.parts}


def _imports(name: str, path: Path, known: dict[str, Path]) -> list[tuple[str, str | None]]:
    """(imported module, imported name or None) for every import statement of the module."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(a.name, None) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = (f"{base}.{node.module}" if node.module else base) if node.level else node.module
            for a in node.names:
                sub = f"{target}.{a.name}"
                out.append((sub, None) if sub in known else (target, a.name))
    return [(m, n) for m, n in out if m.startswith("kernelbounds")]


def _graph() -> dict[str, set[str]]:
    """module -> the package modules it imports."""
    known = _modules()
    return {name: {t for t, _ in _imports(name, path, known) if t in known and t != name} for name, path in known.items()}


def test_the_graph_is_read_whole():
    g = _graph()
    assert {"kernelbounds.hub.answer", "kernelbounds.sources", "kernelbounds.lowerbounds.assemble"} <= set(g)
    assert "kernelbounds.sources" in g["kernelbounds.hub.answer"]
    assert "kernelbounds.lowerbounds.assemble" in g["kernelbounds.sources.codes"]  # a function-level import counts


def test_no_import_cycle():
    """Anywhere, the checker included: its dispatcher (checker/dispatch.py) uses the
    robustness layer (budget.py), and the entry points that need both (entry.py) sit above
    them, re-exported by the package."""
    g = _graph()
    try:
        TopologicalSorter(g).prepare()
    except CycleError as exc:
        raise AssertionError(f"an import cycle: {' -> '.join(exc.args[1])}") from None


def test_no_private_name_is_imported_across_modules():
    known = _modules()
    found = [f"{name} imports {target}.{imported}" for name, path in known.items()
             for target, imported in _imports(name, path, known) if imported and imported.startswith("_") and not imported.startswith("__")]
    assert not found, found


def test_the_hub_reaches_generators_only_through_the_registry():
    g = _graph()
    hub = [m for m in g if m.startswith("kernelbounds.hub")]
    direct = [(a, b) for a in hub for b in g[a] if b.startswith(GENERATORS)]
    assert not direct, direct
    assert any(b.startswith("kernelbounds.sources") for a in hub for b in g[a])


def test_every_imported_name_exists():
    """Every ``from kernelbounds.X import name`` in the package names something X defines or
    re-exports (a function-level import fails only when its function runs: this finds it first)."""
    import importlib

    known = _modules()
    missing = []
    for name, path in known.items():
        for target, imported in _imports(name, path, known):
            if imported and imported != "*" and target in known and not hasattr(importlib.import_module(target), imported):
                missing.append(f"{name}: from {target} import {imported}")
    assert not missing, missing
