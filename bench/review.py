#!/usr/bin/env python3
"""Review the change flow on recent commits of real repositories: one sheet per commit.

Usage: python3 bench/review.py --bin-dir DIR --repos-dir DIR --out DIR
                               [--per-repo 5] [--repo NAME] [--max-files 40] [--scan 400]
                               [--timeout 300]

For every git working tree directly under --repos-dir (sorted by name; --repo keeps one,
repeatable), the script walks the first-parent history of HEAD, skips merges, root commits
and commits touching more than --max-files paths, and keeps the --per-repo most recent
commits that change product source code and change or add a test. A test is a source file
named by convention (a `tests/`, `test/`, `__tests__/` or `spec/` directory, `test_*.py`,
`*_test.py`, `*_test.go`, `*.spec.*`, `*.test.*`, `conftest.py`) or a Rust file whose added
lines carry a `#[...test]` attribute; product source is any other source file outside docs,
examples and benchmarks.

For each kept commit C it runs, each stage alone on the saved output of the one before:

  qa-diff --repo R --base C^ --head C | qa-intent --repo R | qa-route --repo R | qa-trace
  qa-report --format text          (on the saved qa-trace stream)
  qa-report --format json

and writes under --out/<repo>/<short-sha>/ every stage's output and stderr, and
--out/<repo>/<short-sha>.md, the review sheet: subject, changed files with roles, the
added/removed lines of the test files (about 60 lines), each intent and each scenario
(title, kind, priority, steps, assertions, evidence, proof gap, reaches, route decision and
command), the automatic metrics and an empty judgement table for the reviewer. A stage
that fails or times out is recorded on the sheet and in the metrics; the later stages are
skipped for that commit and the script goes on.

Automatic metrics per commit (and summed over all): intents, scenarios, steps,
bare-identifier steps (see bare_step), whether a scenario quotes the changed test's
expectation (see expectation_literals / quotes), intents from the vocabulary partition
(`source: vocabulary`, "without usable commit text"), review-only scenarios with no located
evidence (no evidence item with a line > 0), stage failures. They are printed as a table
and written to --out/metrics.json. qa-route reads build files from the working tree, which
stays at HEAD: the routed commands are those of the repository today.

Output is deterministic for the same repositories and binaries: no times or dates are
written. Exit status: 0 when every sheet was written (failed stages included), 1 on bad
arguments or a missing binary or repository directory.
"""

import argparse
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # importing a sibling script must not leave bench/__pycache__
# The commit classification, the flow runner and the scoring live in the judge (bench/judge).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "judge"))
from flow import read_stream, run_flow  # noqa: E402
from scoring import bare_step, diff_lines, expectation_literals, quotes  # noqa: E402
from selection import select  # noqa: E402

STAGES = ["qa-diff", "qa-intent", "qa-route", "qa-trace"]
SHEET_TEST_LINES = 60


def select_commits(repo, per_repo, max_files, scan):
    """Return [(sha, subject, [(status, path)], tests set, product set)] newest first, and
    the count of commits kept (the judge's selection rule, commits with a test only)."""
    picked, _ = select(repo, "HEAD", max_files, per_repo, 0, scan)
    return [(c.sha, c.subject, c.rows, c.tests, c.product) for c in picked], len(picked)


# ---------------------------------------------------------------------------------------
# The sheet


def md_cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def fence(lines):
    """A fenced block that its content cannot close."""
    longest = max((len(m) for line in lines for m in re.findall(r"`+", line)), default=0)
    return "`" * max(3, longest + 1)


def route_command(route):
    cmd = route.get("command")
    if not cmd:
        return "none"
    if isinstance(cmd, dict):
        argv = cmd.get("argv") or cmd.get("command") or cmd.get("run")
        text = " ".join(argv) if isinstance(argv, list) else str(argv or json.dumps(cmd, sort_keys=True))
        cwd = cmd.get("cwd") or cmd.get("dir")
        return f"{text} (in {cwd})" if cwd and cwd != "." else text
    return str(cmd)


def write_sheet(path, repo_name, sha, subject, rows, tests, product, status, stream, test_rows,
                literals, metrics, scen_quotes):
    files = {r["data"]["path"]: r["data"] for r in stream.get("file", []) if isinstance(r.get("data"), dict)}
    intents = stream.get("intent", [])
    scenarios = stream.get("scenario", [])
    routes = {r["data"].get("subject"): r["data"] for r in stream.get("route", [])
              if isinstance(r.get("data"), dict) and "decision" in r["data"]}
    out = [f"# {repo_name} {sha[:10]}: {subject}", "",
           f"commit `{sha}` against its first parent", ""]
    out.append("## Pipeline")
    out.append("")
    for step, st in status.items():
        out.append(f"- {step}: " + ("ok" if st["exit"] == 0 else "skipped" if st.get("skipped") else
                                    f"**failed** (exit {st['exit']}): {md_cell(st['error'])[:400]}"))
    counts = ", ".join(f"{k} {len(v)}" for k, v in sorted(stream.items(), key=lambda kv: str(kv[0])))
    out += ["", f"records: {counts or 'none'}", "", "## Changed files", "",
            "| path | status | role (qa-diff) | +/- | review class |", "|---|---|---|---|---|"]
    for st, p in rows:
        f = files.get(p, {})
        cls = "test" if p in tests else ("product" if p in product else "other")
        if p in tests and p in product:
            cls = "product + test"
        out.append(f"| {md_cell(p)} | {st} | {f.get('role', '?')} | +{f.get('added', '?')}/-{f.get('removed', '?')} | {cls} |")
    out += ["", "## Test changes", ""]
    if test_rows:
        shown = test_rows[:SHEET_TEST_LINES]
        lines, current = [], None
        for p, sign, n, text in shown:
            if p != current:
                lines.append(f"### {p}")
                current = p
            lines.append(f"{sign}{n:>5} {text}")
        ticks = fence(lines)
        out += [ticks + "diff", *lines, ticks]
        if len(test_rows) > len(shown):
            out.append(f"({len(test_rows) - len(shown)} more changed test lines not shown)")
    else:
        out.append("(no changed test lines)")
    out += ["", "expectation literals of the added test lines: " +
            (", ".join(f"`{md_cell(l)[:80]}`" for l in literals[:20]) or "none") +
            (f" (+{len(literals) - 20} more)" if len(literals) > 20 else ""), ""]
    out += ["## Intents and scenarios", ""]
    by_intent = {}
    for i, sc in enumerate(scenarios):
        by_intent.setdefault(sc["data"].get("intent"), []).append((i, sc))
    quoted = dict(scen_quotes)
    for n, it in enumerate(intents, 1):
        d = it.get("data", {})
        out += [f"### I{n}. {d.get('title')}", "",
                f"type {d.get('type')}, focus {d.get('focus')}, source {d.get('source')}, "
                f"confidence {d.get('confidence')}, review_required {d.get('review_required')}", "",
                f"reason: {d.get('reason')}", "",
                "files: " + ", ".join(f"`{f}`" for f in d.get("files") or []), ""]
        for i, sc in by_intent.get(it.get("id"), []):
            s = sc["data"]
            r = routes.get(sc.get("id"), {})
            out += [f"#### S{i + 1}. {s.get('title')}", "",
                    f"- kind **{s.get('kind')}**, priority {s.get('priority')}, authority "
                    f"{s.get('authority')}, test class {s.get('test_class')}, focus {s.get('focus')}",
                    "- steps:"]
            for st in s.get("steps") or []:
                out.append(f"  - {md_cell(st)}" + ("  *(bare)*" if bare_step(st) else ""))
            out.append("- assertions:")
            for a in s.get("assertions") or []:
                out.append(f"  - {md_cell(a)}")
            out.append("- evidence:")
            for e in s.get("evidence") or []:
                out.append(f"  - `{e.get('file')}:{e.get('line')}` {e.get('relation')}"
                           f" ({e.get('stage')}): {md_cell(e.get('text', ''))[:200]}")
            out.append(f"- proof gap: {s.get('proof_gap')}")
            reaches = s.get("reaches")
            out.append("- reaches: " + (", ".join(reaches) if reaches else "none"))
            out.append(f"- route: **{r.get('decision', 'none')}**; {r.get('reason', '')}; "
                       f"command: `{route_command(r)}`")
            if i in quoted:
                out.append(f"- quotes the test expectation: `{md_cell(quoted[i])[:80]}`")
            out.append("")
    orphans = [(i, sc) for key, lst in by_intent.items()
               if key not in {it.get('id') for it in intents} for i, sc in lst]
    for i, sc in orphans:
        out.append(f"- S{i + 1} (intent not in stream): {sc['data'].get('title')}")
    out += ["## Metrics", "", "| metric | value |", "|---|---|"]
    for k, v in metrics.items():
        out.append(f"| {k} | {v} |")
    out += ["", "## Judgement", "",
            "| scenario | grounded / vague / invented | note |", "|---|---|---|"]
    for i, sc in enumerate(scenarios):
        out.append(f"| S{i + 1} {md_cell(sc['data'].get('title'))[:60]} |  |  |")
    out += ["", "missed behaviours:", ""]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(out) + "\n")


# ---------------------------------------------------------------------------------------


def commit_metrics(stream, status, literals):
    scenarios = [s["data"] for s in stream.get("scenario", []) if isinstance(s.get("data"), dict)]
    intents = [i["data"] for i in stream.get("intent", []) if isinstance(i.get("data"), dict)]
    routes = {r["data"].get("subject"): r["data"] for r in stream.get("route", [])
              if isinstance(r.get("data"), dict)}
    steps = [st for s in scenarios for st in s.get("steps") or []]
    scen_quotes = quotes(scenarios, literals)
    review_unlocated = 0
    for rec in stream.get("scenario", []):
        decision = routes.get(rec.get("id"), {}).get("decision")
        located = any((e.get("line") or 0) > 0 for e in rec["data"].get("evidence") or [])
        if decision == "review-only" and not located:
            review_unlocated += 1
    vocab = sum(1 for i in intents if i.get("source") == "vocabulary"
                or "without usable commit text" in f"{i.get('title', '')} {i.get('reason', '')}")
    metrics = {
        "intents": len(intents),
        "scenarios": len(scenarios),
        "steps": len(steps),
        "bare_steps": sum(1 for st in steps if bare_step(st)),
        "quotes_test_expectation": bool(scen_quotes),
        "expectation_literals": len(literals),
        "vocabulary_intents": vocab,
        "review_only_unlocated": review_unlocated,
        "stage_failures": sorted(k for k, v in status.items() if v["exit"] != 0 and not v.get("skipped")),
    }
    return metrics, scen_quotes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin-dir", required=True, help="directory holding the qa-* binaries")
    ap.add_argument("--repos-dir", required=True, help="directory of git working trees")
    ap.add_argument("--out", required=True, help="where sheets, streams and metrics.json go")
    ap.add_argument("--per-repo", type=int, default=5, help="commits per repository (5)")
    ap.add_argument("--repo", action="append", help="only this repository directory name")
    ap.add_argument("--max-files", type=int, default=40, help="skip commits touching more paths")
    ap.add_argument("--scan", type=int, default=400, help="first-parent commits scanned per repo")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per stage")
    args = ap.parse_args()
    bins = os.path.abspath(args.bin_dir)
    for name in STAGES + ["qa-report"]:
        p = os.path.join(bins, name)
        if not (os.path.isfile(p) and os.access(p, os.X_OK)):
            sys.exit(f"review: {p} is not an executable file (build it first)")
    if not os.path.isdir(args.repos_dir):
        sys.exit(f"review: {args.repos_dir} is not a directory")
    names = sorted(d for d in os.listdir(args.repos_dir)
                   if os.path.isdir(os.path.join(args.repos_dir, d, ".git")))
    if args.repo:
        missing = [r for r in args.repo if r not in names]
        if missing:
            sys.exit(f"review: no git working tree {', '.join(missing)} in {args.repos_dir}")
        names = [n for n in names if n in args.repo]
    os.makedirs(args.out, exist_ok=True)

    results = []
    for name in names:
        repo = os.path.abspath(os.path.join(args.repos_dir, name))
        try:
            picked, _ = select_commits(repo, args.per_repo, args.max_files, args.scan)
        except RuntimeError as exc:
            print(f"review: {name}: {exc}", file=sys.stderr)
            results.append({"repo": name, "error": str(exc)})
            continue
        print(f"{name}: {len(picked)} commits", file=sys.stderr)
        for sha, subject, rows, tests, product in picked:
            short = sha[:10]
            work = os.path.join(args.out, name, short)
            os.makedirs(work, exist_ok=True)
            status, stream_path, _ = run_flow(bins, repo, sha, work, args.timeout)
            stream = read_stream(stream_path)
            test_rows = diff_lines(repo, sha, tests)
            literals = expectation_literals(test_rows)
            metrics, scen_quotes = commit_metrics(stream, status, literals)
            write_sheet(os.path.join(args.out, name, f"{short}.md"), name, sha, subject, rows,
                        tests, product, status, stream, test_rows, literals, metrics, scen_quotes)
            results.append({"repo": name, "commit": sha, "short": short, "subject": subject,
                            "files": len(rows), "tests": sorted(tests), "metrics": metrics})

    done = [r for r in results if "metrics" in r]
    total = {k: sum(r["metrics"][k] for r in done)
             for k in ("intents", "scenarios", "steps", "bare_steps", "vocabulary_intents",
                       "review_only_unlocated")}
    total["commits"] = len(done)
    total["commits_quoting_test_expectation"] = sum(1 for r in done if r["metrics"]["quotes_test_expectation"])
    total["commits_with_stage_failures"] = sum(1 for r in done if r["metrics"]["stage_failures"])
    total["bare_step_share"] = round(total["bare_steps"] / total["steps"], 3) if total["steps"] else 0.0

    head = (f"{'repo':<26}{'commit':<12}{'int':>4}{'scen':>5}{'steps':>6}{'bare':>5}"
            f"{'quote':>6}{'vocab':>6}{'rev-unloc':>10}  failures / subject")
    print(head)
    for r in results:
        if "metrics" not in r:
            print(f"{r['repo']:<26}{'-':<12} error: {r['error']}")
            continue
        m = r["metrics"]
        tail = ",".join(m["stage_failures"]) or r["subject"][:50]
        print(f"{r['repo']:<26}{r['short']:<12}{m['intents']:>4}{m['scenarios']:>5}{m['steps']:>6}"
              f"{m['bare_steps']:>5}{'y' if m['quotes_test_expectation'] else 'n':>6}"
              f"{m['vocabulary_intents']:>6}{m['review_only_unlocated']:>10}  {tail}")
    print(f"{'total':<26}{str(total['commits']) + ' commits':<12}{total['intents']:>4}{total['scenarios']:>5}"
          f"{total['steps']:>6}{total['bare_steps']:>5}{total['commits_quoting_test_expectation']:>6}"
          f"{total['vocabulary_intents']:>6}{total['review_only_unlocated']:>10}")
    print(f"bare-identifier steps {total['bare_steps']}/{total['steps']} ({total['bare_step_share']:.0%}); "
          f"commits quoting the changed test's expectation {total['commits_quoting_test_expectation']}/{total['commits']}; "
          f"commits with a failed stage {total['commits_with_stage_failures']}")
    with open(os.path.join(args.out, "metrics.json"), "w", encoding="utf-8") as fh:
        json.dump({"commits": results, "total": total}, fh, indent=2, sort_keys=True)
        fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
