#!/bin/sh
# A writer given a FIFO with no reader as its output: docs/cli.md says a FIFO "receives the bytes";
# with nobody reading, opening it for writing blocks forever (the command never returns).
# Expected: a one-line refusal, exit 2, within a second.  Run: sh lab/attacks_v3/writer-fifo-no-reader.sh
d=$(mktemp -d) && mkfifo "$d/out.json" && timeout 10 kernelbounds transcript --q 2 --s 2 -o "$d/out.json"
echo "exit $? (124 = still blocked after 10 s)"; rm -rf "$d"
