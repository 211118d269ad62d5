"""The package's import rules (docs/soundness.md, the layout of README.md): no import
circle, the lower and upper sides never import each other, and the trusted checker imports
nothing outside itself."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports anywhere (top level or inside functions),
    parent packages of the importer excluded (they are always imported first); imports under
    ``if TYPE_CHECKING:`` are for annotations only and never run, so they do not count."""
    pkg = ROOT / "kernelbounds"
    mods = {}
    for p in pkg.rglob("*.py"):
        parts = list(p.relative_to(ROOT).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        mods[".".join(parts[:-1] if is_pkg else parts)] = (p, is_pkg)
    graph = {}
    for name, (p, is_pkg) in mods.items():
        deps = set()
        tree = ast.parse(p.read_text(encoding="utf-8"))
        typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If) and ast.unparse(block.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
                       for stmt in block.body for n in ast.walk(stmt)}
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.ImportFrom):
                base = name.split(".") if is_pkg else name.split(".")[:-1]
                target = ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else [])) if node.level else node.module
                cands = [target] + [f"{target}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                cands = [a.name for a in node.names]
            else:
                continue
            deps |= {c for c in cands if c in mods and c != name and not name.startswith(c + ".")}
        graph[name] = deps
    return graph


def test_the_package_has_no_import_circle_and_the_sides_stay_apart():
    graph = _graph()
    order = list(graphlib.TopologicalSorter(graph).static_order())  # raises CycleError on a circle
    assert len(order) == len(graph)
    for a, b in (("kernelbounds.lowerbounds", "kernelbounds.upperbounds"), ("kernelbounds.upperbounds", "kernelbounds.lowerbounds")):
        for mod, deps in graph.items():
            if mod == a or mod.startswith(a + "."):
                assert not any(d == b or d.startswith(b + ".") for d in deps), (mod, sorted(deps))
    for mod, deps in graph.items():  # the trusted base imports nothing above it
        if mod.startswith("kernelbounds.checker"):
            assert all(d.startswith("kernelbounds.checker") for d in deps), (mod, deps)
    for mod, deps in graph.items():  # the CLI decides nothing: no module outside cli/ imports it
        if not (mod == "kernelbounds.cli" or mod.startswith("kernelbounds.cli.") or mod == "kernelbounds.__main__"):
            assert not any(d == "kernelbounds.cli" or d.startswith("kernelbounds.cli.") for d in deps), (mod, sorted(deps))
    generators = ("kernelbounds.lowerbounds", "kernelbounds.upperbounds", "kernelbounds.heads")
    for mod, deps in graph.items():  # generators use only the checker's public API (kernelbounds.checker)
        if mod.startswith(generators):
            inside = [d for d in deps if d.startswith("kernelbounds.checker.")]
            assert inside == [], (mod, inside)
