"""`kernelbounds bound --m M --n N --kernel K --json` for every m in 2..64, n in 1..8 and
kernel class K (THEORY L8; lookups, cheap), in one
process (through the CLI's own main, so the bytes are the command's): scripts/wheel-check
runs it once from the wheel and once from the repository and compares the outputs."""

import sys

from kernelbounds.cli import main

for kernel in ("nonnegative", "signed", "signed-any-denominator"):
    for m in range(2, 65):
        for n in range(1, 9):
            code = main(["bound", "--m", str(m), "--n", str(n), "--kernel", kernel, "--json"])
            if code != 0:
                sys.exit(f"bound --m {m} --n {n} --kernel {kernel} --json: exit {code}")
