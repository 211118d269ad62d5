"""`kernelbounds certificates`: check the shipped set as it is (--check), name its files
(--list, --path), or regenerate the committed set, check it and compare bytes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ._common import UserError, emit_json, jobs_option, one_line, positive, scheduled, scheduler_option

HELP = """--check: check every certificate of DIR (default: the shipped set) as it is with the
independent checker, in parallel, then its INDEX against the verdicts: about 4 minutes on 2
idle cores for the shipped set.
--verify --sample N --seed TEXT: DIR/COMPUTED checked complete (every declared row, certificate
and committed code file; a few milliseconds), then N stored computed results chosen by the
seed rebuilt (the generators write each certificate again), re-checked by the checker and
compared with the stored sha256 and claim, without the --check (the example's 2 rows take
36 CPU-seconds).  --verify alone: --check, then the completeness, then every stored row
(about an hour).
--list prints the names of the shipped certificates, --path NAME the installed path of one.
Without these: regenerate the committed certificate set (kernelbounds/release/catalog.py), check every file
with the independent checker and compare it byte for byte with the file in DIR, then the
index DIR/INDEX (per accepted file its name, sha256, kind, m, n, variant and the checker's
claim: the hub's only source of committed claims) and the stored computed sources
DIR/COMPUTED (docs/index-format.md); with --write, (re)write all of them into DIR instead.
Takes 30 to 60 minutes on 2 cores (--jobs processes); a progress bar on a terminal."""

EPILOG = """exit codes: 0 every file valid and byte-identical (INDEX and COMPUTED too), 1 some file
differs, is invalid or stale (with --write: some file is invalid; it is written but not
indexed), 2 DIR missing (without --write) or unwritable, or --scheduler unusable, or NAME not
shipped (--path), 4 internal error.  --check: 0 every file valid and INDEX matches, 1 otherwise;
--verify: 0 besides every stored row re-checked and equal, 1 otherwise.
example: kernelbounds certificates --check
example: kernelbounds certificates --verify --sample 2 --seed example
example: kernelbounds certificates --path witness-m24-n3-r8.json"""


def register(sub) -> None:
    p = sub.add_parser("certificates", help="check the shipped set (--check), name its files (--list, --path), or regenerate and compare bytes", description=HELP, epilog=EPILOG)
    p.add_argument("dir", nargs="?", default=None, help="the folder of certificates (default: ./certificates if it is a folder, else the shipped set; --write and --reindex: certificates)")
    p.add_argument("--check", action="store_true", help="check every file of DIR as it is and its INDEX, without regenerating (minutes, not an hour)")
    p.add_argument("--verify", action="store_true", help="--check, then rebuild every stored computed result (COMPUTED), re-check it with the checker and compare "
                   "(about an hour; with --sample N, N rows chosen by --seed)")
    p.add_argument("--list", action="store_true", help="print the names of the shipped certificates, one a line")
    p.add_argument("--path", metavar="NAME", help="print the installed path of the shipped certificate NAME (with or without .json)")
    p.add_argument("--sample", type=positive("--sample", 1, 100000), metavar="N", help="regenerate and compare only N (1..100000) entries chosen by --seed (CI: a different sample per commit); INDEX and COMPUTED are not compared")
    p.add_argument("--seed", default="", metavar="TEXT", help="--sample: the seed that chooses the entries (scripts/regenerate passes the commit's hash)")
    p.add_argument("-v", "--verbose", action="store_true", help="one line per file (by default only the rejected or differing ones); when regenerating also the table of every file")
    p.add_argument("--json", action="store_true", help="one JSON object per certificate (JSON Lines), then a summary object")
    p.add_argument("--write", action="store_true", help="(re)write the set into DIR instead of verifying it")
    p.add_argument("--reindex", action="store_true", help="only check the files present in DIR and rewrite DIR/INDEX (and COMPUTED's code descriptions) from them, without regenerating anything")
    jobs_option(p)
    scheduler_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    if args.sample is not None and (args.write or args.reindex or args.scheduler or args.check or args.list or args.path is not None):
        raise UserError("--sample regenerates and compares (or, with --verify, re-checks stored rows): give no --write, --reindex, --scheduler, --check, --list or --path")
    if args.list or args.path is not None or args.check or args.verify:
        if sum((args.list, args.path is not None, args.check, args.verify)) > 1 or args.write or args.reindex or args.scheduler:
            raise UserError("give one of --check, --verify, --list, --path NAME (without --write, --reindex or --scheduler)")
        if args.list:
            return _list(args)
        if args.path is not None:
            return _path(args)
        return _check(args)
    from ..release import workflow  # the generators: imported only when the command runs

    if args.dir is None and not (args.write or args.reindex) and not Path("certificates").is_dir():
        args.dir = str(_shipped_folder())
        print(f"(no folder ./certificates: comparing with the shipped set {one_line(args.dir)})", file=sys.stderr)
    target = Path(args.dir or "certificates")
    args.dir = str(target)
    if args.reindex:
        if args.write or not target.is_dir():
            raise UserError("--reindex rewrites the index of an existing DIR: give no --write" if args.write else f"{target}: no such folder")
        if not (target / computed_name()).is_file():  # COMPUTED's cells would have to be regenerated: --reindex never does
            raise UserError(f"{target} has no {computed_name()}: --reindex regenerates nothing (it keeps COMPUTED's stored cells); "
                            f"build the whole set with `kernelbounds certificates --write {target}`")
        _complete_cells(target / computed_name())
        rejected, index_changed, computed_changed = workflow.reindex(target, args.jobs)
        for name in rejected:
            print(f"  {one_line(target / name)}: rejected by the checker (not indexed)", file=sys.stderr)
        print(f"{one_line(target / 'INDEX')}: {'rewritten' if index_changed else 'unchanged'}; {one_line(target / 'COMPUTED')}: {'rewritten' if computed_changed else 'unchanged'}")
        return 1 if rejected else 0
    if not args.write and not target.is_dir():
        raise UserError(f"{target}: no such folder (use --write to create the set there)")
    if args.write:
        result = scheduled(lambda: workflow.write(args.dir, args.jobs, scheduler=args.scheduler))
        bad = [r for r in result.rows if not r.verdict.ok]
        for r in bad:
            print(f"  {r.filename}: {r.verdict.render()} (written, not indexed)", file=sys.stderr)
        print(f"wrote {len(result.rows)} certificates, {certificates_index()} and {computed_name()} to {one_line(args.dir)}")
        return 1 if bad else 0
    if args.sample is not None:
        from ..release.regeneration import compare_sample

        result = compare_sample(args.dir, args.sample, args.seed, args.jobs)
    else:
        result = scheduled(lambda: workflow.compare(args.dir, args.jobs, scheduler=args.scheduler))
    if args.json:
        for r in result.rows:
            v = r.verdict
            emit_json({"certificate": r.filename, "kind": v.kind, "m": r.m, "n": r.n, "ok": v.ok, "code": int(v.code), "summary": v.summary, "pointer": v.pointer, "reason": v.reason, "byte_identical": r.same, "seconds": round(v.seconds, 3)})
        emit_json({"certificates": len(result.rows), "problems": result.problems, "stale": [str(target / name) for name in result.extra], "index_byte_identical": result.index_same, "computed_byte_identical": result.computed_same})
        return 0 if result.ok else 1
    for r in result.rows:
        if args.verbose or not (r.verdict.ok and r.same):
            print(f"  {r.filename}: {'valid' if r.verdict.ok else r.verdict.render()}{'' if r.same else '  (DIFFERS from committed)'}", file=sys.stderr)
    if args.verbose:
        _print_table(result.rows)
    for name in result.extra:
        print(f"not generated by this version (stale?): {one_line(target / name)}")
    for name, same in ((certificates_index(), result.index_same), (computed_name(), result.computed_same)):
        if not same:
            print(f"{one_line(target / name)} DIFFERS from the regenerated one (run `kernelbounds certificates --write {one_line(target)}`)")
    sampled = f" (a sample chosen by the seed {one_line(args.seed)!r}; INDEX and COMPUTED not compared)" if args.sample is not None else ""
    print(f"{len(result.rows)} certificates regenerated{sampled}: {len(result.rows) - (result.problems - len(result.extra))} valid and byte-identical, {result.problems} problems")
    return 0 if result.ok else 1


def _shipped_folder() -> Path:
    from ..release import shipped

    return shipped.folder()


def _list(args) -> int:
    from ..release import shipped

    if args.dir is not None and not Path(args.dir).is_dir():
        raise UserError(f"{one_line(args.dir)}: no such folder")
    found = shipped.names(args.dir)
    if args.json:
        emit_json({"folder": str(Path(args.dir) if args.dir else shipped.folder()), "certificates": found})
    else:
        print("\n".join(found))
    return 0


def _path(args) -> int:
    from ..release import shipped

    try:
        found = shipped.path(args.path)
    except shipped.UnknownCertificate as exc:
        raise UserError(one_line(str(exc))) from None
    if args.json:
        emit_json({"name": found.name, "path": str(found)})
    else:
        print(found)
    return 0


SHOWN_PROBLEMS = 20  # --verify: completeness problems printed one a line (--json: all)


def _check(args) -> int:
    from ..release import shipped

    if args.dir is None:
        target = Path("certificates") if Path("certificates").is_dir() else shipped.folder()
    else:
        target = Path(args.dir)
        if not target.is_dir():
            raise UserError(f"{one_line(target)}: no such folder")
    if args.verify and args.sample is not None:  # a sample of stored rows: not the whole --check first
        stored_rows, incomplete = _recheck_stored(target, args, None)
        return _report_stored(target, args, stored_rows, incomplete, checked_ok=True)
    result = shipped.check_set(target, args.jobs)
    stored_rows, incomplete = _recheck_stored(target, args, result) if args.verify else (None, [])
    if args.json:
        for r in result.rows:
            v = r.verdict
            emit_json({"certificate": r.name, "kind": v.kind, "ok": v.ok, "code": int(v.code), "summary": v.summary, "pointer": v.pointer, "reason": v.reason, "seconds": round(v.seconds, 3), "work": v.work})
        for pointer, why in incomplete:
            emit_json({"stored_pointer": pointer, "ok": False, "problem": why})
        for r in stored_rows or ():
            emit_json({"stored_row": r.label, "ok": r.problem is None, "problem": r.problem})
        stored_bad = sum(r.problem is not None for r in stored_rows or ()) + len(incomplete)
        emit_json({"certificates": len(result.rows), "problems": result.problems + stored_bad, "rejected": [r.name for r in result.rejected], "index_matches": result.index_same,
                   "unindexed": result.unindexed, "missing": result.missing, "code_files_stale": result.code_files_stale, "seconds": round(result.seconds, 1)}
                  | ({} if stored_rows is None else {"stored_rows_rechecked": len(stored_rows), "stored_rows_differing": stored_bad - len(incomplete), "stored_incomplete": len(incomplete)}))
        return 0 if result.ok and not stored_bad else 1
    for r in result.rows:
        if args.verbose or not r.verdict.ok:
            print(r.verdict.line())  # the checker's one line: VALID or the rejection, the file's path
    for name in result.unindexed:
        print(f"  {one_line(name)}: accepted by the checker but not listed in INDEX")
    for name in result.missing:
        print(f"  {one_line(name)}: listed in INDEX but not in the folder")
    for name in result.code_files_stale:
        print(f"  {one_line(name)}: COMPUTED does not record this code file's sha256")
    valid = len(result.rows) - len(result.rejected)
    index = "INDEX matches the checker's verdicts and COMPUTED's sha256" if result.index_same else \
        f"INDEX DIFFERS from the checker's verdicts (run `kernelbounds certificates --reindex {one_line(target)}`)"
    print(f"{one_line(target)}: {len(result.rows)} certificates checked in {result.seconds:.0f} s on {_jobs(args.jobs)} processes: "
          f"{valid} valid, {len(result.rejected)} rejected; {index}; {result.problems} problems")
    if stored_rows is None:
        return 0 if result.ok else 1
    return _report_stored(target, args, stored_rows, incomplete, checked_ok=result.ok, json_done=True)


def _report_stored(target: Path, args, stored_rows: list, incomplete: list, checked_ok: bool, json_done: bool = False) -> int:
    """COMPUTED's completeness problems (then nothing was rebuilt), or the re-checked stored
    rows, one line each that differs (every one with --verbose), then a summary line (--json:
    one object per problem and row and a summary object, unless the full check printed them
    with its own); the exit code."""
    bad = [r for r in stored_rows if r.problem is not None]
    if args.json:
        if not json_done:  # the sample alone (the full --verify prints its objects with the check's)
            for pointer, why in incomplete:
                emit_json({"stored_pointer": pointer, "ok": False, "problem": why})
            for r in stored_rows:
                emit_json({"stored_row": r.label, "ok": r.problem is None, "problem": r.problem})
            emit_json({"stored_rows_rechecked": len(stored_rows), "stored_rows_differing": len(bad), "stored_incomplete": len(incomplete), "seed": args.seed})
        return 0 if checked_ok and not bad and not incomplete else 1
    if incomplete:
        for pointer, why in incomplete[:SHOWN_PROBLEMS]:
            print(f"  {computed_name()} at {one_line(pointer)}: {one_line(why)}")
        more = f" ({len(incomplete) - SHOWN_PROBLEMS} more not shown; --json lists all)" if len(incomplete) > SHOWN_PROBLEMS else ""
        print(f"{one_line(target / computed_name())}: incomplete or not whole: {len(incomplete)} problems{more}; no stored row rebuilt")
        return 1
    for r in stored_rows:
        if args.verbose or r.problem is not None:
            print(f"  {computed_name()} {r.label}: {'rebuilt, re-checked and equal' if r.problem is None else one_line(r.problem)}")
    chosen = f"a sample chosen by the seed {one_line(args.seed)!r}" if args.sample is not None else "every stored row"
    print(f"{one_line(target / computed_name())}: {len(stored_rows)} stored rows ({chosen}) rebuilt and re-checked by the checker: "
          f"{len(stored_rows) - len(bad)} equal, {len(bad)} differ")
    return 0 if checked_ok and not bad else 1


def _recheck_stored(target: Path, args, result) -> tuple[list, list]:
    """(rows re-checked, completeness problems) of target/COMPUTED: first whether it is whole
    and complete (cheap, before any row is rebuilt; then nothing is rebuilt), then every
    stored row (or --sample N of them) rebuilt and re-checked."""
    from ..hub import stored
    from ..release import storedcheck

    doc = _read_computed(target / computed_name())
    code_files = _code_files(target, result)
    missing = storedcheck.problems(doc, code_files)
    if missing:
        return [], missing
    st = stored.Stored(doc)
    chosen = storedcheck.rows(st)
    if args.sample is not None:
        chosen = storedcheck.sample(chosen, args.sample, args.seed)
    return storedcheck.recheck_all(st, chosen, args.jobs, target), []


def _code_files(target: Path, result) -> dict[str, str]:
    """name -> sha256 of every committed code file of target the checker accepts: from the
    check just run, or (a sample without the check) from target/INDEX, whose lower-bound
    entries the full --check compares with the checker's verdicts, each file's bytes hashed now."""
    from ..hub import index

    if result is not None:
        return {r.name: index.sha256(r.data) for r in result.rows if r.verdict.ok and r.verdict.kind == "lower-bound"}
    from ..checker import Limits, read_input

    path = target / index.INDEX
    try:
        entries = json.loads(read_input(str(path), Limits()))["certificates"]
        names = [e["name"] for e in entries if e["kind"] == "lower-bound"]
    except Exception as exc:  # noqa: BLE001 - any fault of the file is the user's input
        raise UserError(f"{one_line(path)}: cannot read the index ({one_line(type(exc).__name__)}); run --check first") from None
    out = {}
    for name in names:
        file = target / Path(str(name)).name
        try:
            out[file.name] = index.sha256(read_input(str(file), Limits()))
        except Exception as exc:  # noqa: BLE001
            raise UserError(f"{one_line(file)}: cannot read a file INDEX lists ({one_line(type(exc).__name__)}); run --check first") from None
    return out


def _read_computed(path: Path) -> dict:
    """DIR/COMPUTED parsed, a document of its format with every row inside the stored grid
    (UserError in one line otherwise: DIR is the command's input)."""
    from ..checker import Limits, read_input
    from ..checker.errors import Rejection
    from ..hub import storedshape
    from ..release import storedcheck

    try:
        doc = json.loads(read_input(str(path), Limits()))  # non-blocking, regular files only, at most max_file_bytes
    except Rejection as rej:
        raise UserError(f"{one_line(path)}: cannot read the stored computed results ({one_line(rej.reason)})") from None
    except (ValueError, RecursionError) as exc:
        raise UserError(f"{one_line(path)}: cannot read the stored computed results: {one_line(storedshape.unreadable(exc))}") from None
    problem = storedshape.document_problem(doc) or storedcheck.row_problem(doc)
    if problem:
        raise UserError(f"{one_line(path)}: {one_line(problem)}")
    return doc


def _complete_cells(path: Path) -> None:
    """--reindex keeps COMPUTED's rows: UserError in one line unless they are whole and
    complete (its code descriptions are rewritten, so they are not asked for)."""
    from ..hub import storedshape

    found = storedshape.completeness(dict(_read_computed(path), code_files={}))
    if found:
        more = f" (and {len(found) - 1} more problems)" if len(found) > 1 else ""
        raise UserError(f"{one_line(path)} at {one_line(found[0][0])}: {one_line(found[0][1])}{more}: --reindex keeps these rows; "
                        f"rebuild them with `kernelbounds certificates --write`")


def _jobs(jobs: int | None) -> int:
    from ..parallel import default_jobs

    return jobs or default_jobs()


def _print_table(rows) -> None:
    print("| certificate | kind | m | n | proves | check (s) | byte-identical |")
    print("|---|---|---:|---:|---|---:|---|")
    for r in rows:
        v = r.verdict
        proves = v.summary if v.ok else f"REJECTED at {v.pointer or '/'}: {v.reason}"
        print(f"| {r.filename} | {v.kind} | {r.m} | {r.n} | {proves} | {v.seconds:.2f} | {'yes' if r.same else 'NO'} |")


def certificates_index() -> str:
    from ..hub.index import INDEX

    return INDEX


def computed_name() -> str:
    from ..hub.stored import NAME

    return NAME
