"""The lines of the trusted base a reviewer reads, per certificate kind, at a git revision
(read with `git show REV:path`, so any commit can be measured), in two readings.

**Soundness** (what a reviewer reads to trust a VALID verdict): the dispatcher
(checker/dispatch.py, or checker/__init__.py at revisions before it, and rules/__init__.py,
with the checker modules they import, the rule modules of the registries left out) and the
rule module of K with every checker module it imports, transitively (imports inside
functions count, imports under ``if TYPE_CHECKING:`` do not: they never run), never
following an import of the robustness layer (ROBUSTNESS: checker/budget.py, which bounds a
check's resources and cannot make a verdict VALID, and the entry points around the
dispatcher, checker/entry.py and the package's re-exporting __init__.py, where they exist).
**Robustness** adds that layer with what it imports (the runtime guard) and K's work
estimate (the module ``ESTIMATES`` names for K in budget.py), the other kinds' left out.
Revisions before the layer existed have one reading (both columns equal).  Two counts each:
``lines`` as `wc -l` (what docs/soundness.md states) and ``code``: lines that are not blank,
not a comment and not inside a docstring.

    python -m lab.reviewer_lines [REV ...]      (default HEAD; two revisions: a before/after table)
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from dataclasses import dataclass

from lab import REPO

CHECKER = "kernelbounds/checker"
ROBUSTNESS = "budget.py"  # the robustness layer: reading limits, the work estimates' registry, the runtime guard
ENTRY = ("entry.py", "__init__.py")  # reading a file, estimating, re-exporting (robustness, where dispatch.py exists)


def dispatcher(src: dict[str, str]) -> tuple[str, ...]:
    """The dispatcher's files at a revision: dispatch.py once it exists, __init__.py before."""
    return ("dispatch.py" if "dispatch.py" in src else "__init__.py", "rules/__init__.py")


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=REPO, check=True, capture_output=True, text=True).stdout


def sources(rev: str) -> dict[str, str]:
    """checker-relative path (e.g. 'rules/rank.py') -> text of every module at `rev`."""
    names = [p for p in _git("ls-tree", "-r", "--name-only", rev, CHECKER + "/").splitlines() if p.endswith(".py")]
    return {p.removeprefix(CHECKER + "/"): _git("show", f"{rev}:{p}") for p in names}


def _module(path: str) -> str:
    """'rules/rank.py' -> 'rules.rank'; 'rules/__init__.py' -> 'rules'; '__init__.py' -> ''."""
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imports(path: str, text: str, known: dict[str, str]) -> set[str]:
    """The checker modules (as paths) that `path` imports when it runs."""
    tree = ast.parse(text)
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If) and ast.unparse(block.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
                   for stmt in block.body for n in ast.walk(stmt)}
    me = _module(path)
    package = me.split(".") if path.endswith("__init__.py") else me.split(".")[:-1]
    package = [p for p in package if p]
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1] + (node.module.split(".") if node.module else [])
            elif node.module and node.module.startswith("kernelbounds.checker"):
                base = node.module.removeprefix("kernelbounds.checker").strip(".").split(".")
            else:
                continue
            base = [b for b in base if b]
            candidates = [".".join(base)] + [".".join(base + [a.name]) for a in node.names]
        elif isinstance(node, ast.Import):
            candidates = [a.name.removeprefix("kernelbounds.checker").strip(".") for a in node.names if a.name.startswith("kernelbounds.checker")]
        else:
            continue
        out |= {known[c] for c in candidates if c in known and known[c] != path}
    return out


def registry(text: str, names: tuple[str, ...] = ("REGISTRY", "NAMING")) -> dict[str, str]:
    """kind -> module name, from the dict literals called `names` (e.g. REGISTRY and NAMING
    of rules/__init__.py; ESTIMATES of budget.py)."""
    out: dict[str, str] = {}
    for node in ast.walk(ast.parse(text)):
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if isinstance(value, ast.Dict) and any(isinstance(t, ast.Name) and t.id in names for t in targets):
            out |= {k.value: v.id for k, v in zip(value.keys, value.values, strict=True) if isinstance(k, ast.Constant) and isinstance(v, ast.Name)}
    return out


def code_lines(text: str) -> int:
    """Lines that are not blank, not a comment and not inside a docstring."""
    tree = ast.parse(text)
    doc: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                doc |= set(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return sum(1 for i, line in enumerate(text.splitlines(), 1) if line.strip() and not line.strip().startswith("#") and i not in doc)


def closure(start: set[str], edges: dict[str, set[str]]) -> set[str]:
    seen, todo = set(start), list(start)
    while todo:
        for d in edges[todo.pop()]:
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


@dataclass(frozen=True)
class Reading:
    """One kind's two readings: (lines, code) of the soundness reading and of soundness plus
    robustness; the files each adds beyond the dispatcher's (for the dispatcher's own row:
    its soundness files, then what the robustness layer adds)."""

    sound: tuple[int, int]
    full: tuple[int, int]
    sound_files: list[str]
    robust_files: list[str]


def table(rev: str) -> tuple[dict[str, Reading], Reading]:
    """({kind: its readings}, the dispatcher's readings) at `rev`."""
    src = sources(rev)
    known = {_module(p): p for p in src}
    kinds = registry(src["rules/__init__.py"])
    if not kinds:
        raise SystemExit("no REGISTRY literal in rules/__init__.py")
    rule_files = {f"rules/{name}.py" for name in kinds.values()}
    layer = ROBUSTNESS in src
    estimates = {k: f"rules/{v}.py" for k, v in registry(src[ROBUSTNESS], ("ESTIMATES", "NAMING_ESTIMATES")).items()} if layer else {}
    edges = {p: imports(p, t, known) for p, t in src.items()}
    core_files = dispatcher(src)
    robust = ({ROBUSTNESS} | ({f for f in ENTRY if f in src} if "dispatch.py" in src else set())) if layer else set()
    registries = set(core_files) | {ROBUSTNESS}
    cut = {p: (deps - rule_files - set(estimates.values()) if p in registries else deps) for p, deps in edges.items()}
    sound = {p: deps - robust for p, deps in cut.items()}
    core = closure(set(core_files), sound)
    core_all = closure(set(core_files) | robust, cut)

    def size(files: set[str]) -> tuple[int, int]:
        return sum(len(src[f].splitlines()) for f in files), sum(code_lines(src[f]) for f in files)

    out = {}
    for kind, name in sorted(kinds.items()):
        files = closure({f"rules/{name}.py"}, sound) | core  # the dispatcher is counted once, without the other rules
        extra = {estimates[kind]} if kind in estimates else set()
        everything = closure({f"rules/{name}.py"} | extra, cut) | core_all
        out[kind] = Reading(size(files), size(everything), sorted(files - core), sorted(everything - files - core_all))
    return out, Reading(size(core), size(core_all), sorted(core), sorted(core_all - core))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("revs", nargs="*", default=["HEAD"], help="git revisions (one: its table; two: before and after)")
    args = ap.parse_args(argv)
    results = [table(r) for r in args.revs]
    head = " | ".join(f"{r} soundness lines | code | + robustness lines | code" for r in args.revs)
    print(f"| kind | {head} | soundness files beyond the dispatcher ({args.revs[-1]}) | robustness adds |")
    print("|---" * (3 + 4 * len(args.revs)) + "|")

    def cells(r: Reading | None) -> str:
        return "- | - | - | -" if r is None else f"{r.sound[0]} | {r.sound[1]} | {r.full[0]} | {r.full[1]}"

    last = results[-1][1]
    print(f"| (dispatcher, every kind) | {' | '.join(cells(c) for _, c in results)} | {', '.join(last.sound_files)} | {', '.join(last.robust_files)} |")
    for kind in sorted(set().union(*(t.keys() for t, _ in results))):
        own = results[-1][0].get(kind)
        files = (", ".join(own.sound_files), ", ".join(own.robust_files)) if own else ("", "")
        print(f"| {kind} | {' | '.join(cells(t.get(kind)) for t, _ in results)} | {files[0]} | {files[1]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
