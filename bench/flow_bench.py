#!/usr/bin/env python3
"""Benchmark the whole change flow, stage by stage, against the issue's targets.

Usage: python3 bench/flow_bench.py --bin-dir DIR --repo REPO
                                   [--base main] [--head feature] [--runs 7]
                                   [--out DIR] [--json FILE]

The flow is `qa-diff --repo R | qa-intent --repo R | qa-route --repo R | qa-trace |
qa-report --format json` (`qa-report --verify` when this qa-report has no --format).
Each stage runs alone with stdin from the saved output of the stage before (qa-diff from
/dev/null) and stdout to a file in --out, so its wall time and peak RSS are its own: one
warm-up round writes the saved outputs, then --runs measured rounds (stage order kept).
Then the five run together as one `sh -c 'a | b | c | d | e'` pipeline, one warm-up and
--runs measured runs. Wall time is time.perf_counter around spawn+reap; peak RSS is
ru_maxrss from os.wait4 (KiB on Linux) of a separate run in which sh, not Python, forks
the command (diff_bench.peak_rss), reported in MiB (labelled MB). Everything runs with
GIT_* variables removed and no system/global git config (see diff_bench.py).

Targets (from the issue): the whole flow under 150 ms wall (sum of stage medians, and the
piped run's median) and every stage under 30 MB peak RSS. The reference engine the flow
replaces is quoted there at 2.5-4.6 s and 125-160 MB; it is not installed, so its numbers
are not measured here and the ratios use the low end (2.5 s, 125 MB).
A missed target prints MISS but exits 0 (benches report, tests assert); a failing command
exits 2; bad arguments, a missing binary or repository exit 1.
"""

import argparse
import collections
import hashlib
import json
import os
import shlex
import subprocess
import sys

sys.dont_write_bytecode = True  # importing a sibling script must not leave bench/__pycache__
from diff_bench import (CommandFailed, bench_env, launched, parse_args, peak_rss, run_once,
                        subreaper, summarize, write_json)

MAX_TOTAL_MS = 150.0
MAX_STAGE_MB = 30.0
REFERENCE = {"seconds": 2.5, "mb": 125.0,
             "quote": "2.5-4.6 s and 125-160 MB for ranges of 4-47 commits (63-214 files)"}
STAGES = ["qa-diff", "qa-intent", "qa-route", "qa-trace", "qa-report"]
# Data fields whose values are counted per kind, to show what the flow decided.
BREAKDOWN = {"intent": "confidence", "scenario": "kind", "route": "decision",
             "trace": "state", "capability": "status", "diag": "severity"}


def report_args(binary, env):
    """Return qa-report's arguments: --format json when its --help offers it, else --verify."""
    res = subprocess.run([binary, "--help"], env=env, capture_output=True, text=True)
    return ["--format", "json"] if "--format" in res.stdout and "json" in res.stdout else ["--verify"]


def flow_commands(bins, repo, base, head, env):
    """Return [(stage, argv)] of the change flow in order."""
    def binary(name):
        return os.path.join(bins, name)
    return [
        ("qa-diff", [binary("qa-diff"), "--repo", repo, "--base", base, "--head", head]),
        ("qa-intent", [binary("qa-intent"), "--repo", repo]),
        ("qa-route", [binary("qa-route"), "--repo", repo]),
        ("qa-trace", [binary("qa-trace")]),
        ("qa-report", [binary("qa-report"), *report_args(binary("qa-report"), env)]),
    ]


def run_stages(cmds, env, out_dir):
    """Run every stage, each reading the previous stage's saved output, once timed and
    once for its peak RSS (see diff_bench.peak_rss); return {stage: (wall s, RSS KiB,
    sha256 of the timed run's output)}."""
    result, prev = {}, None
    for i, (stage, cmd) in enumerate(cmds):
        out = os.path.join(out_dir, f"{i + 1}-{stage}.out")
        wall = run_once(cmd, env, stdin=prev, stdout=out)[0]
        with open(out, "rb") as fh:
            digest = hashlib.sha256(fh.read()).hexdigest()
        result[stage] = (wall, peak_rss(cmd, env, stdin=prev, stdout=out), digest)
        prev = out
    return result


def run_pipeline(cmds, env, out):
    """Run the stages as one sh pipeline, last stdout to out; return (wall s, [RSS KiB]).

    The pipeline runs in the background of an sh that exits at once, so its processes
    are reaped here with their own RSS and exit codes (sh alone has no pipefail); wall
    time runs from starting sh to the last reap, sh start-up included."""
    pipeline = " | ".join(shlex.join(cmd) for _, cmd in cmds)
    if not subreaper():  # the orphans would go to init: wait in sh, RSS unknown
        return launched(pipeline, [], env, stdout=out)[0], []
    wall, reaped = launched(pipeline + " & exit 0", [], env, stdout=out)
    return wall, [kib for _, kib in reaped]


def count_records(path):
    """Return {kind: count} and {kind: {field value: count}} of an NDJSON stream."""
    kinds = collections.Counter()
    values = collections.defaultdict(collections.Counter)
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            kinds[rec["kind"]] += 1
            field = BREAKDOWN.get(rec["kind"])
            if field and isinstance(rec.get("data"), dict):
                values[rec["kind"]][str(rec["data"].get(field))] += 1
    return dict(kinds), {k: dict(v) for k, v in values.items()}


def verify_summary(binary, stream, env):
    """Return qa-report --verify's one-line summary of the saved stream (untimed check)."""
    res = subprocess.run([binary, "--verify", "--in", stream], env=env, capture_output=True, text=True)
    if res.returncode != 0:
        raise CommandFailed(f"qa-report --verify rejected the stream ({res.returncode})\n{res.stderr[-2000:]}")
    return res.stderr.strip().splitlines()[-1] if res.stderr.strip() else "verified"


def verdict(ok):
    return "OK" if ok else "MISS"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin-dir", required=True, help="directory holding the five qa-* binaries")
    ap.add_argument("--repo", required=True, help="git repository (run bench/gen_flow_repo.py)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "work", "flow-stages"),
                    help="where each stage's output is saved (default bench/work/flow-stages)")
    args = parse_args(ap, "measured rounds")
    for stage in STAGES:
        path = os.path.join(args.bin_dir, stage)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            sys.exit(f"flow_bench: {path} is not an executable file (build it first)")
    repo = os.path.abspath(args.repo)
    if not os.path.exists(os.path.join(repo, ".git")):
        sys.exit(f"flow_bench: {args.repo} is not a git working tree (run bench/gen_flow_repo.py)")
    os.makedirs(args.out, exist_ok=True)

    env = bench_env()
    cmds = flow_commands(os.path.abspath(args.bin_dir), repo, args.base, args.head, env)
    samples = {stage: [] for stage, _ in cmds}
    piped, piped_rss = [], []
    try:
        warm = run_stages(cmds, env, args.out)  # warm-up: page cache, binaries, saved inputs
        changed = []
        for _ in range(args.runs):
            for stage, (wall, kib, digest) in run_stages(cmds, env, args.out).items():
                samples[stage].append((wall, kib))
                if digest != warm[stage][2]:
                    changed.append(stage)
        piped_out = os.path.join(args.out, "pipeline.out")
        run_pipeline(cmds, env, piped_out)
        for _ in range(args.runs):
            wall, rss = run_pipeline(cmds, env, piped_out)
            piped.append((wall, max(rss, default=0)))
            piped_rss.append(rss)
        trace_out = os.path.join(args.out, "4-qa-trace.out")
        verified = verify_summary(cmds[-1][1][0], trace_out, env)
    except CommandFailed as exc:
        print(f"flow_bench: command failed: {exc}", file=sys.stderr)
        return 2

    stats = {stage: summarize(s) for stage, s in samples.items()}
    total_ms = sum(st["median_ms"] for st in stats.values())
    pipe = summarize(piped)
    ref_ms, ref_mb = REFERENCE["seconds"] * 1000, REFERENCE["mb"]
    kinds, values = count_records(trace_out)
    report_flag = " ".join(cmds[-1][1][1:])

    print(f"repo {args.repo}  range {args.base}..{args.head}  runs {args.runs} (+1 warm-up)  "
          f"stage outputs in {args.out}")
    print(f"{'stage':<22}{'median ms':>10}{'min ms':>9}{'peak MB':>9}  {'target':<10}{'result':<8}"
          f"vs reference ({REFERENCE['seconds']} s / {REFERENCE['mb']:.0f} MB)")
    for stage, st in stats.items():
        name = f"{stage} {report_flag}" if stage == "qa-report" else stage
        mb = st["peak_rss_mb"]
        print(f"{name:<22}{st['median_ms']:>10.1f}{st['min_ms']:>9.1f}{mb:>9.1f}  "
              f"{'< %.0f MB' % MAX_STAGE_MB:<10}{verdict(mb < MAX_STAGE_MB):<8}RSS {ref_mb / mb:.1f}x smaller")
    print(f"{'sum of stage medians':<22}{total_ms:>10.1f}{'':>9}{'':>9}  "
          f"{'< %.0f ms' % MAX_TOTAL_MS:<10}{verdict(total_ms < MAX_TOTAL_MS):<8}wall {ref_ms / total_ms:.1f}x faster")
    print(f"{'piped (5 processes)':<22}{pipe['median_ms']:>10.1f}{pipe['min_ms']:>9.1f}{pipe['peak_rss_mb']:>9.1f}  "
          f"{'< %.0f ms' % MAX_TOTAL_MS:<10}{verdict(pipe['median_ms'] < MAX_TOTAL_MS):<8}"
          f"wall {ref_ms / pipe['median_ms']:.1f}x faster")
    print(f"reference engine: {REFERENCE['quote']}; quoted from the issue, not measured here "
          f"(the reference engine is not installed); ratios use the low end.")
    print("records: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    for kind in ("intent", "scenario", "route", "trace", "capability", "diag"):
        if kind in values:
            field = BREAKDOWN[kind]
            print(f"  {kind} by {field}: " + ", ".join(f"{v} {n}" for v, n in sorted(values[kind].items())))
    report_bytes = os.path.getsize(os.path.join(args.out, "5-qa-report.out"))
    print(f"qa-report {report_flag}: {report_bytes} bytes on stdout; --verify: {verified}")
    print("outputs byte-identical across runs: " + ("yes" if not changed else f"NO ({', '.join(sorted(set(changed)))})"))
    targets = {
        "total_ms": {"value": total_ms, "limit": MAX_TOTAL_MS, "pass": total_ms < MAX_TOTAL_MS},
        "piped_ms": {"value": pipe["median_ms"], "limit": MAX_TOTAL_MS, "pass": pipe["median_ms"] < MAX_TOTAL_MS},
        "stage_rss_mb": {"value": max(st["peak_rss_mb"] for st in stats.values()), "limit": MAX_STAGE_MB,
                         "pass": all(st["peak_rss_mb"] < MAX_STAGE_MB for st in stats.values())},
    }
    for name, label in (("total_ms", "flow wall (sum of stage medians) %.1f ms < %.0f ms"),
                        ("piped_ms", "flow wall (piped, median) %.1f ms < %.0f ms"),
                        ("stage_rss_mb", "largest stage peak RSS %.1f MB < %.0f MB")):
        t = targets[name]
        print(f"{'PASS' if t['pass'] else 'MISS'}  " + label % (t["value"], t["limit"]))

    if args.json:
        write_json(args.json, args, {
            "commands": {stage: " ".join(cmd) for stage, cmd in cmds},
            "stages": stats, "total_ms": total_ms,
            "piped": dict(pipe, rss_kib_per_stage=piped_rss),
            "reference": dict(REFERENCE, measured=False),
            "records": kinds, "breakdown": values, "stable_output": not changed,
            "targets": targets,
        })
    return 0


if __name__ == "__main__":
    sys.exit(main())
