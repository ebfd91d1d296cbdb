#!/usr/bin/env python3
"""Benchmark qa-diff against the equivalent plain git commands.

Usage: python3 bench/diff_bench.py --qa-diff PATH --repo DIR
                                   [--base main] [--head feature] [--runs 7] [--json FILE]

Sides, run interleaved (the order flips every round so drift hits both) after
one warm-up each:
  qa-diff: `qa-diff --repo DIR --base BASE --head HEAD`            (stdout -> /dev/null)
  git:     `git -C DIR log --name-only BASE..HEAD` then
           `git -C DIR diff -M BASE...HEAD`                         (stdout -> /dev/null)
           time = sum of both, RSS = max of both.
Wall time is time.perf_counter around spawn+reap; peak RSS is ru_maxrss from
os.wait4 (KiB on Linux), reported in MiB (labelled MB). Both sides run with
GIT_* variables removed and GIT_CONFIG_NOSYSTEM=1, GIT_CONFIG_GLOBAL=/dev/null.

Targets: median(qa-diff) / median(git) <= 1.5 and qa-diff peak RSS < 50 MB.
A missed target prints MISS but exits 0 (benches report, tests assert); a
failing command exits 2.
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

MAX_RATIO = 1.5
MAX_RSS_MB = 50.0


class CommandFailed(Exception):
    """A benchmarked command exited non-zero or could not be started."""


def bench_env():
    """Return the environment for both sides: no GIT_* overrides (GIT_DIR etc.)
    and no system/global git config, so ~/.gitconfig cannot skew either side."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    return env


def run_once(cmd, env):
    """Run cmd with stdout to /dev/null; return (wall seconds, peak RSS KiB)."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, env=env,
                                    stdout=subprocess.DEVNULL, stderr=err)
        except OSError as exc:
            raise CommandFailed(f"cannot start {cmd[0]}: {exc}") from exc
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        proc.returncode = code  # already reaped; keep Popen from waiting again
        if code != 0:
            err.seek(0)
            tail = err.read()[-2000:].decode(errors="replace").rstrip()
            raise CommandFailed(f"{' '.join(cmd)} exited {code}\n{tail}")
    return wall, usage.ru_maxrss


def run_side(cmds, env):
    """Run cmds sequentially; return (summed wall seconds, max RSS KiB)."""
    total, rss = 0.0, 0
    for cmd in cmds:
        wall, kib = run_once(cmd, env)
        total += wall
        rss = max(rss, kib)
    return total, rss


def summarize(samples):
    """Return median/min wall ms and peak RSS MB for a list of (s, KiB)."""
    walls = [s for s, _ in samples]
    return {
        "median_ms": statistics.median(walls) * 1000,
        "min_ms": min(walls) * 1000,
        "peak_rss_mb": max(k for _, k in samples) / 1024,
        "wall_ms": [round(s * 1000, 3) for s in walls],
        "rss_kib": [k for _, k in samples],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--qa-diff", required=True, help="path to the qa-diff binary")
    ap.add_argument("--repo", required=True, help="git repository to diff")
    ap.add_argument("--base", default="main")
    ap.add_argument("--head", default="feature")
    ap.add_argument("--runs", type=int, default=7, help="measured runs per side")
    ap.add_argument("--json", metavar="FILE", help="also write results as JSON")
    args = ap.parse_args()
    if args.runs < 1:
        ap.error("--runs must be >= 1")
    if not (os.path.isfile(args.qa_diff) and os.access(args.qa_diff, os.X_OK)):
        sys.exit(f"diff_bench: {args.qa_diff} is not an executable file (build it first)")
    if not os.path.isdir(args.repo):
        sys.exit(f"diff_bench: {args.repo} is not a directory (run bench/gen_history.py)")

    qa = os.path.abspath(args.qa_diff)
    # Bench the repo given, never an enclosing one.
    if not (os.path.exists(os.path.join(args.repo, ".git"))
            or os.path.isfile(os.path.join(args.repo, "HEAD"))):
        sys.exit(f"diff_bench: {args.repo} is not a git repository (run bench/gen_history.py)")
    sides = {
        "qa-diff": [[qa, "--repo", args.repo, "--base", args.base, "--head", args.head]],
        "git": [["git", "-C", args.repo, "log", "--name-only", f"{args.base}..{args.head}"],
                ["git", "-C", args.repo, "diff", "-M", f"{args.base}...{args.head}"]],
    }
    env = bench_env()
    samples = {name: [] for name in sides}
    try:
        for name, cmds in sides.items():  # warm-up (page cache, binary load)
            run_side(cmds, env)
        order = list(sides)
        for i in range(args.runs):
            for name in (order if i % 2 == 0 else order[::-1]):
                samples[name].append(run_side(sides[name], env))
    except CommandFailed as exc:
        print(f"diff_bench: command failed: {exc}", file=sys.stderr)
        return 2

    stats = {name: summarize(s) for name, s in samples.items()}
    ratio = stats["qa-diff"]["median_ms"] / stats["git"]["median_ms"]
    qa_rss = stats["qa-diff"]["peak_rss_mb"]
    targets = {
        "ratio": {"value": ratio, "limit": MAX_RATIO, "pass": ratio <= MAX_RATIO},
        "qa_diff_rss_mb": {"value": qa_rss, "limit": MAX_RSS_MB, "pass": qa_rss < MAX_RSS_MB},
    }

    print(f"repo {args.repo}  range {args.base}..{args.head}  runs {args.runs} (+1 warm-up)")
    print(f"{'side':<10}{'median ms':>12}{'min ms':>12}{'peak RSS MB':>14}")
    for name, st in stats.items():
        print(f"{name:<10}{st['median_ms']:>12.1f}{st['min_ms']:>12.1f}{st['peak_rss_mb']:>14.1f}")
    print(f"ratio qa-diff/git (median wall): {ratio:.2f}")
    print(f"{'PASS' if targets['ratio']['pass'] else 'MISS'}  wall ratio {ratio:.2f} <= {MAX_RATIO}")
    print(f"{'PASS' if targets['qa_diff_rss_mb']['pass'] else 'MISS'}  "
          f"qa-diff peak RSS {qa_rss:.1f} MB < {MAX_RSS_MB:.0f} MB")

    if args.json:
        report = {
            "repo": args.repo, "base": args.base, "head": args.head, "runs": args.runs,
            "host": {"machine": platform.machine(), "cpus": os.cpu_count(),
                     "python": platform.python_version()},
            "commands": {name: [" ".join(c) for c in cmds] for name, cmds in sides.items()},
            "sides": stats, "ratio": ratio, "targets": targets,
        }
        with open(args.json, "w") as fh:
            json.dump(report, fh, indent=2)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
