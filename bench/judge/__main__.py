"""The change-flow judge (issue 29): run the flow on the corpus's commits and score it."""

import argparse
import concurrent.futures
import json
import os
import sys
import threading
import time

USAGE = """\
Usage: python3 bench/judge [--half tune|report|holdout|fresh|fresh2|all] [--repo NAME ...] [--bin-dir DIR]
                           [--jobs N] [--out DIR] [--timeout S] [--clones DIR]
       python3 bench/judge fetch [--from DIR] [--repo NAME ...] [--clones DIR]

`fetch` clones each repository of bench/corpus.toml from a bare mirror (<DIR>/<owner>+<name>/repo,
default /work/.mirror) into bench/work/corpus/<owner>+<name> without a checkout, or fetches
into the clone when present. The run selects each repository's commits from its pinned head
(selection.py), checks out each commit in the clone, runs qa-diff | qa-intent | qa-route |
qa-trace and qa-report --format json on it (flow.py), scores it (scoring.py, routes.py) and
writes <out>/<half>/summary.md, sheet.tsv and one folder per commit with the stage outputs
(tables.py). A repository without a clone is skipped with one line. Exit 0 unless the judge
itself fails on a repository (1; the others are still judged and written; a failing stage is
a score, not a judge failure); 2 on bad arguments.
"""

sys.dont_write_bytecode = True  # running the folder must not leave __pycache__ in bench/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import corpus  # noqa: E402
import flow  # noqa: E402
import routes  # noqa: E402
import scoring  # noqa: E402
import selection  # noqa: E402
import tables  # noqa: E402

REPO_ROOT = os.path.dirname(corpus.BENCH)
BIG_FILE = 2 << 20
LOCK = threading.Lock()


def say(line):
    with LOCK:
        print(line, file=sys.stderr, flush=True)


def file_texts(repo, rev, paths):
    """The texts of paths at rev (absent or larger than 2 MiB: empty)."""
    out = []
    for p in paths:
        size = selection.git(repo, "cat-file", "-s", f"{rev}:{p}", check=False).strip()
        if not size.isdigit() or int(size) > BIG_FILE:
            continue
        out.append(selection.git(repo, "show", f"{rev}:{p}", check=False))
    return out


def score_commit(repo, entry, commit, stream, status):
    """One sheet row: every score of a commit and the reasons behind them."""
    scenarios = [s["data"] for s in stream.get("scenario", []) if isinstance(s.get("data"), dict)]
    route_recs = [r["data"] for r in stream.get("route", [])
                  if isinstance(r.get("data"), dict) and "decision" in r["data"]]
    test_rows = scoring.diff_lines(repo, commit.sha, commit.tests)
    added = scoring.added_lines(test_rows)
    helpers = scoring.assertion_helpers(file_texts(repo, commit.sha, sorted(commit.tests)))
    literals = scoring.expectation_literals(test_rows, helpers)
    tested = commit.group == "with-test"
    steps = [st for s in scenarios for st in s.get("steps") or []]
    bad = [st for st in steps if scoring.bad_step(st)]
    # Where removed code could still stand: the changed files that are not test files by
    # their path (a test writing the same literal does not keep the product's code).
    code = [(s, p) for s, p in commit.rows if not selection.is_test_path(p)]
    before = file_texts(repo, f"{commit.sha}^", [p for s, p in code if s != "A"])
    after = file_texts(repo, commit.sha, [p for s, p in code if s != "D"])
    false = scoring.false_removed(scenarios, before, after)
    quoted = scoring.quotes(scenarios, literals)
    cited = scoring.cites(scenarios, added, scoring.deleted_lines(repo, commit.sha, commit.tests))
    routed, reason, command = False, "no test in the commit", None
    if tested:
        names = routes.test_names(repo, commit.tests, added)
        routed, reason, command = routes.score(repo, commit.sha, commit.tests, names, route_recs)
    failures = sorted(k for k, v in status.items() if v["exit"] != 0 and not v.get("skipped"))
    done = all(v["exit"] == 0 for v in status.values())
    return {
        "repo": entry.name, "ecosystem": entry.ecosystem, "group": commit.group,
        "number": commit.number, "commit": commit.sha, "subject": commit.subject,
        "scenarios": len(scenarios),
        "zero": tested and not scenarios,
        "cites": bool(cited) if tested else False,
        "cited": [c for _, c in cited],
        "routed": routed, "routed_reason": reason, "routed_command": command,
        "quotable": tested and bool(literals),
        "quotes": tested and bool(quoted),
        "quoted_literal": quoted[0][1][:80] if quoted else "",
        "quotes_reason": scoring.quote_miss(scenarios, literals) if tested and literals and not quoted else "",
        "literals": [lit[:60] for lit in literals[:12]],
        "helpers": sorted(helpers)[:12],
        "false_removed": len(false), "false_removed_reasons": [r for _, _, r in false],
        "steps": len(steps), "bare_steps": len(bad), "bare_examples": [b[:100] for b in bad[:3]],
        "stage_failures": [f"{k}: {(status[k]['error'] or '')[:160]}" for k in failures],
        "wall_s": sum(v.get("wall", 0.0) for v in status.values()) if done else None,
        "tests": sorted(commit.tests),
        "tests_renamed": tested and scoring.tests_renamed_only(repo, commit.sha, commit.tests),
    }


def judge_repo(entry, args, sel, env, out):
    """Select, run and score one repository's commits of the half; return (rows, note)."""
    repo = corpus.clone_dir(entry, args.clones)
    if not os.path.isdir(os.path.join(repo, ".git")):
        return [], f"{entry.name}: skipped, no clone at {repo} (run `python3 bench/judge fetch`)"
    want_with, want_without = selection.halves(sel, args.half)
    with_test, without = selection.select(repo, entry.head, sel["max_files"],
                                          max(want_with, default=0), max(want_without, default=0))
    picked = [c for c in with_test if c.number in want_with] + \
        [c for c in without if c.number in want_without]
    note = (f"{entry.name}: {len(picked)} commits ({sum(c.group == 'with-test' for c in picked)} "
            f"with a test)")
    if len(with_test) < max(want_with, default=0) or len(without) < max(want_without, default=0):
        note += f"; the history held only {len(with_test)} with a test and {len(without)} without"
    rows = []
    for commit in picked:
        work = os.path.join(out, entry.folder,
                            f"{'t' if commit.group == 'with-test' else 'n'}{commit.number:02d}-{commit.sha[:10]}")
        os.makedirs(work, exist_ok=True)
        flow.checkout(repo, commit.sha)
        status, stream_path, _ = flow.run_flow(args.bin_dir, repo, commit.sha, work, args.timeout,
                                              env, formats=("json",))
        row = score_commit(repo, entry, commit, flow.read_stream(stream_path), status)
        row["stages"] = status
        with open(os.path.join(work, "score.json"), "w", encoding="utf-8") as fh:
            json.dump(row, fh, indent=2, sort_keys=True)
            fh.write("\n")
        rows.append(row)
        say(f"  {entry.name} {commit.group} {commit.number} {commit.sha[:10]}: "
            f"scenarios {row['scenarios']}, routed {int(row['routed'])}, quotes {int(row['quotes'])}")
    flow.checkout(repo, entry.head)
    return rows, note


def bad_usage(message):
    print(f"judge: {message}", file=sys.stderr)
    return 2


def run(args):
    cor = corpus.load()
    repos = [r for r in cor.repositories if not args.repo or r.name in args.repo or r.folder in args.repo]
    unknown = sorted(set(args.repo or []) - {r.name for r in repos} - {r.folder for r in repos})
    if unknown:
        return bad_usage(f"not in the corpus: {', '.join(unknown)}")
    args.bin_dir = os.path.abspath(args.bin_dir)
    for name in flow.STAGES + ["qa-report"]:
        p = os.path.join(args.bin_dir, name)
        if not (os.path.isfile(p) and os.access(p, os.X_OK)):
            return bad_usage(f"{p} is not an executable file (build it first: cargo build --release)")
    # Absolute: the stages run in each clone, and a relative shim folder on PATH would
    # name nothing there (every route then loses its command).
    out = os.path.join(os.path.abspath(args.out), args.half)
    os.makedirs(out, exist_ok=True)
    env = selection.bench_env()
    env["PATH"] = flow.shim_dir(os.path.join(out, "shims"), env.get("PATH", ""))
    start = time.time()
    results, failed = {}, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(judge_repo, r, args, cor.selection, env, out): r for r in repos}
        for fut in concurrent.futures.as_completed(futures):
            entry = futures[fut]
            try:
                results[entry.name] = fut.result()
            except Exception as exc:  # noqa: BLE001  the others still run; the exit says so
                results[entry.name] = ([], f"{entry.name}: judge failed: {exc!r}")
                failed.append(entry.name)
            say(results[entry.name][1])
    rows = [row for r in repos for row in results[r.name][0]]
    notes = [results[r.name][1] for r in repos]
    head = selection.git(REPO_ROOT, "rev-parse", "--short=10", "HEAD", check=False).strip()
    notes.append(f"qapipe binaries from {args.bin_dir} (work tree at {head or '?'}); "
                 f"{len(rows)} commits in {time.time() - start:.0f} s")
    with open(os.path.join(out, "summary.md"), "w", encoding="utf-8") as fh:
        fh.write(tables.summary(args.half, cor.ecosystems, repos, rows, notes))
    with open(os.path.join(out, "sheet.tsv"), "w", encoding="utf-8") as fh:
        fh.write(tables.sheet(rows))
    print(tables.summary(args.half, cor.ecosystems, repos, rows, notes))
    print(f"judge: wrote {out}/summary.md, sheet.tsv and one folder per commit", file=sys.stderr)
    if failed:
        print(f"judge: failed on {', '.join(failed)} (see the notes)", file=sys.stderr)
        return 1
    return 0


def fetch(args):
    cor = corpus.load()
    for r in cor.repositories:
        if args.repo and r.name not in args.repo and r.folder not in args.repo:
            continue
        print(corpus.fetch(r, args.mirrors, args.clones), flush=True)
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(prog="python3 bench/judge", description=__doc__, epilog=USAGE,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", action="append", help="only this repository (owner/name), repeatable")
    ap.add_argument("--clones", default=corpus.CLONES,
                    help="folder of the clones <owner>+<name> (bench/work/corpus); the run checks"
                         " out commits in them, so two runs at once need two folders")
    if argv[:1] == ["fetch"]:
        ap.add_argument("--from", dest="mirrors", default="/work/.mirror",
                        help="folder of bare mirrors <owner>+<name>/repo (/work/.mirror)")
        return fetch(ap.parse_args(argv[1:]))
    ap.add_argument("--half", choices=["tune", "report", "holdout", "fresh", "fresh2", "all"], default="tune",
                    help="tune: commits 1-10 with a test, 1-2 without; report: 11-20 and 3-5;"
                         " holdout: 21-30 and 6-7 (checked before the one report run); fresh:"
                         " 31-40 and 8-10 (a blind measure once the report half has been read); fresh2: 41-50"
                         " and 11-12 (the blind measure left once the fresh half has been read)")
    ap.add_argument("--bin-dir", default=os.path.join(REPO_ROOT, "target", "release"),
                    help="folder of the qa-* binaries (target/release)")
    ap.add_argument("--jobs", type=int, default=1, help="repositories judged at once (1)")
    ap.add_argument("--out", default=os.path.join(corpus.BENCH, "work", "judge"),
                    help="results go to <out>/<half>/ (bench/work/judge)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per stage (300)")
    return run(ap.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
