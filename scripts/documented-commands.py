"""Run every documented command from the current folder and check its exit code, one line
after the other (a line may use what an earlier one made):
  documented-commands.py README.md             the README's "Use" block and the `example:` lines
                                               of every `kernelbounds COMMAND --help`
  documented-commands.py --block FILE MARKER   the first fenced block after MARKER in FILE (the
                                               reviewer's install of docs/soundness.md)
Called by scripts/wheel-check with `kernelbounds` and `python` on PATH meaning the
installed wheel, from an empty folder (the reviewer's block: a folder holding only the wheel
file).  A line whose comment says `exit N` must exit N, every other line 0.  A line has
180 s (those in LONGER more); the few that cannot run from a wheel in an empty folder are
listed in SKIP with the reason, and printed as skipped."""

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

SKIP = {  # a substring of the command -> why it is not run here
    "docs-tables": "a command for a checkout of the repository: it compares the checkout's docs/ (here it exits 2 and names --root)",
}
if shutil.which("cadical") is None:
    SKIP["refute "] = "needs the SAT solver cadical on PATH (Debian's package cadical)"
TIMEOUT = 180
LONGER = {"certificates --check": 900}  # checks every shipped certificate and the index: minutes


def block_lines(path: Path, marker: str) -> list[str]:
    """The non-empty lines of the first fenced block after marker in the file at path."""
    text = path.read_text(encoding="utf-8")
    if marker not in text:
        raise SystemExit(f"{path}: no {marker!r}")
    block = text.split(marker, 1)[1].split("```\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip()]


def help_lines() -> list[str]:
    out = subprocess.run(["kernelbounds"], capture_output=True, text=True).stdout
    names = re.findall(r"^    ([a-z][a-z0-9-]+)\s", out, flags=re.M)
    lines = []
    for name in names:
        text = subprocess.run(["kernelbounds", name, "--help"], capture_output=True, text=True).stdout
        for example in re.findall(r"^example: (kernelbounds .*)$", text, flags=re.M):
            code = re.search(r"\bexit (\d)\b", example)  # a remark in parentheses may name the exit code
            lines.append(re.sub(r"\s+\(.*\)$", "", example) + (f"  # exit {code.group(1)}" if code else ""))
    return lines


def command(line: str) -> str:
    """The command without its comment (a # after two spaces)."""
    return re.split(r"\s{2,}#", line, maxsplit=1)[0].strip()


def expected(line: str) -> int:
    found = re.search(r"#\s*exit (\d)\b", line)
    return int(found.group(1)) if found else 0


def main() -> int:
    if sys.argv[1] == "--block":
        lines = block_lines(Path(sys.argv[2]), sys.argv[3])
    else:
        lines = block_lines(Path(sys.argv[1]), "\n## Use\n") + help_lines()
    failures, ran, start, seen = [], 0, time.time(), set()
    for line in lines:
        if command(line) in seen:  # the README and a --help show the same command: run it once
            continue
        seen.add(command(line))
        reason = next((why for key, why in SKIP.items() if key in command(line)), None)
        if reason:
            print(f"  skipped: {line[:90]}  ({reason})")
            continue
        t = time.time()
        limit = next((seconds for key, seconds in LONGER.items() if key in command(line)), TIMEOUT)
        try:
            r = subprocess.run(["bash", "-c", line], capture_output=True, text=True, timeout=limit)
        except subprocess.TimeoutExpired:
            ran += 1
            print(f"  FAILED (over {limit} s): {line[:100]}")
            failures.append((line, "timeout", [f"no exit within {limit} s"]))
            continue
        ran += 1
        ok = r.returncode == expected(line)
        print(f"  {'ok' if ok else 'FAILED'} ({time.time() - t:.1f} s, exit {r.returncode}): {line[:100]}")
        if not ok:
            failures.append((line, r.returncode, (r.stderr.strip() or r.stdout.strip()).splitlines()[-1:] or [""]))  # the last line that says why
    for line, code, err in failures:
        print(f"documented command failed (exit {code}): {line}\n    {err[0]}", file=sys.stderr)
    print(f"documented commands: {ran} run from an empty folder, {len(failures)} failed, {len(seen) - ran} skipped ({time.time() - start:.0f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
