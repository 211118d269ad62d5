"""Helpers shared by the tests (imported as `from helpers import ...`)."""

from fractions import Fraction

from kernelbounds.certificate import canonical_json
from kernelbounds.checker import Limits, Verdict, check_bytes


def verdict(doc, **limits) -> Verdict:
    """The checker's verdict on a certificate dict (canonical bytes), with limit overrides."""
    return check_bytes(canonical_json(doc).encode(), limits=Limits().with_overrides(**limits))


def level_expansion_doc(m: int, n: int) -> dict:
    """A v1 `construction` certificate of kernel type level-expansion (THEORY §2, last
    paragraph): the subset-basis, affine-readout level family's least-rank head, whose kernel
    h(l) = sum_j g_j C(l, j) and readout <q, y> - 1/2 + eps are exactly that v1 kind."""
    from fractions import Fraction

    from kernelbounds.certificate import header, rational
    from kernelbounds.upperbounds.levelfamily import families as lf_families, supports as lf_supports

    found = lf_supports.least(lf_families.LevelFamily("subset", "affine", False), m, n)
    worst, _ = lf_families.exact_worst_error(found.family, found.g, lf_families.readout_table(found.family, found.eps, None, m), m, n)
    doc = header("construction")
    doc.update(
        construction="level-kernel", m=m, n=n, positions="all",
        head={"kernel": {"type": "level-expansion", "differences": [rational(found.g.get(j, 0)) for j in range(m + 1)]},
              "values": {"type": "identity"},
              "readout": {"type": "query-affine", "alpha": "1", "beta": "0", "gamma": rational(found.eps - Fraction(1, 2))}},
        claims={"worst_error": rational(worst), "feature_rank": found.rank, "kernel_rank": found.rank, "nonnegative_features": found.nonnegative_features},
    )
    return doc


EPS = Fraction(1, 4)  # the readout's eps in literal_worst_error


def literal_worst_error(h, m, n, eps=EPS):
    """max |y - t| over every class (p, l_2..l_n), straight from THEORY §2 (no shortcuts)."""
    from itertools import combinations_with_replacement

    worst = Fraction(0)
    for p in range(m + 1):
        for levels in combinations_with_replacement(range(p + 1), n - 1):
            cls = (p, *levels)
            y = sum(h[l] * (l - Fraction(1, 2) + eps) for l in cls) / sum(h[l] for l in cls)
            worst = max(worst, abs(y - min(cls)))
    return worst


def _processes():
    """(pid, the fields of /proc/PID/stat after the name: state, ppid, pgid, ...) of every process."""
    from pathlib import Path

    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                yield int(entry.name), (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue


def children(pid: int) -> list[int]:
    """The processes whose parent is pid (Linux /proc)."""
    return [p for p, fields in _processes() if int(fields[1]) == pid]


def group(pgid: int) -> list[int]:
    """The live processes of a process group (Linux /proc; zombies excluded)."""
    return [p for p, fields in _processes() if int(fields[2]) == pgid and fields[0] not in ("Z", "X")]


def alive(pid: int) -> bool:
    """The process exists and is neither a zombie nor dead (Linux /proc)."""
    from pathlib import Path

    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def survivors_of_signal(argv: list[str], sig: int, count: int = 1, start: float = 30, pause: float = 0.3, settle: float = 2, **popen) -> list[int]:
    """Start argv, wait (up to `start` s) until it has `count` children, let them work
    `pause` s, send sig to it; return its children still alive `settle` s after it is gone
    (then kill those, so that nothing is left behind)."""
    import os
    import subprocess
    import time

    front = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **popen)
    found: list[int] = []
    try:
        deadline = time.monotonic() + start
        while len(found) < count and time.monotonic() < deadline and front.poll() is None:
            time.sleep(0.05)
            found = children(front.pid)
        assert len(found) >= count, f"the front end never started {count} children"
        time.sleep(pause)
        front.send_signal(sig)
        front.wait(timeout=30)
        deadline = time.monotonic() + settle
        while any(alive(c) for c in found) and time.monotonic() < deadline:
            time.sleep(0.05)
        return [c for c in found if alive(c)]
    finally:
        if front.poll() is None:
            front.kill()
            front.wait()
        for c in found:
            if alive(c):
                try:
                    os.kill(c, 9)
                except OSError:
                    pass


def spy_checks(monkeypatch) -> list[str]:
    """Record the path of every check the hub asks of the checker (the check still runs)."""
    from kernelbounds import checker

    calls: list[str] = []
    real = checker.check_bytes

    def counted(data, path="<bytes>", *args, **kwargs):
        calls.append(path)
        return real(data, path, *args, **kwargs)

    monkeypatch.setattr(checker, "check_bytes", counted)
    return calls


def folder_claims(folder) -> tuple:
    """The hub's claims from a user folder (hub/folders.py), shipped copies skipped."""
    from kernelbounds.hub import folders, index

    return folders.claims(str(folder), {e["sha256"] for e in index.entries().values()}, index._known)


def committed_sample(names, count: int) -> list:
    """``count`` of names chosen by the commit (as `scripts/regenerate --sample` chooses the
    files it rebuilds: the same sampler, seeded by KERNELBOUNDS_SAMPLE_SEED or else
    `git rev-parse HEAD`), so that every commit re-judges another part of an expensive set;
    every name when KERNELBOUNDS_RELEASE_CHECK=1 (scripts/release-check)."""
    import os
    import subprocess
    from pathlib import Path

    from kernelbounds.release.regeneration import sample

    names = sorted(names)
    if os.environ.get("KERNELBOUNDS_RELEASE_CHECK") == "1":
        return names
    seed = os.environ.get("KERNELBOUNDS_SAMPLE_SEED")
    if not seed:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).resolve().parent, capture_output=True, text=True)
        seed = head.stdout.strip() if head.returncode == 0 else "no-commit"
    return [names[i] for i in sample(names, count, seed)]
