"""`kernelbounds bound --m M --n N --json` for every m in 2..64 and n in 1..8, in one
process (through the CLI's own main, so the bytes are the command's): scripts/wheel-check
runs it once from the wheel and once from the repository and compares the outputs."""

import sys

from kernelbounds.cli import main

for m in range(2, 65):
    for n in range(1, 9):
        code = main(["bound", "--m", str(m), "--n", str(n), "--json"])
        if code != 0:
            sys.exit(f"bound --m {m} --n {n} --json: exit {code}")
