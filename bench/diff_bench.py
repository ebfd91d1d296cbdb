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
Wall time is time.perf_counter around spawn+reap; CPU time is the process's user +
system time (ru_utime + ru_stime from the same os.wait4, all threads); peak RSS is
ru_maxrss from os.wait4 (KiB on Linux) of a separate run in which sh, not Python, forks
the command (see peak_rss), reported in MiB (labelled MB). Both sides run with
GIT_* variables removed and GIT_CONFIG_NOSYSTEM=1, GIT_CONFIG_GLOBAL=/dev/null.

Targets: median(qa-diff) / median(git) <= 1.5 (wall) and qa-diff peak RSS < 50 MB.
The CPU ratio (median CPU time) is printed too, without a target.
A missed target prints MISS but exits 0 (benches report, tests assert); a
failing command exits 2.
"""

import argparse
import contextlib
import ctypes
import functools
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


def run_once(cmd, env, stdin=None, stdout=None):
    """Run cmd with stdin from the file stdin and stdout to the file stdout (each
    /dev/null when None); return (wall seconds, peak RSS KiB)."""
    wall, _, rss = run_usage(cmd, env, stdin, stdout)
    return wall, rss


def run_usage(cmd, env, stdin=None, stdout=None):
    """run_once, also returning the CPU seconds (user + system) the command used:
    (wall seconds, CPU seconds, peak RSS KiB)."""
    with contextlib.ExitStack() as files:
        src = files.enter_context(open(stdin, "rb")) if stdin else subprocess.DEVNULL
        dst = files.enter_context(open(stdout, "wb")) if stdout else subprocess.DEVNULL
        err = files.enter_context(tempfile.TemporaryFile())
        start = time.perf_counter()
        try:
            proc = subprocess.Popen(cmd, stdin=src, env=env, stdout=dst, stderr=err)
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
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


# Forks cmd ("$@") from sh with the caller's stdin (a background job's stdin would be
# /dev/null) and exits at once, leaving cmd to this process as child subreaper.
LAUNCHER = 'exec 3<&0; "$@" <&3 3<&- & exit 0'
PR_SET_CHILD_SUBREAPER = 36


@functools.cache
def subreaper():
    """Make this process the reaper of its orphaned descendants (Linux); True if it is."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def launched(script, args, env, stdin=None, stdout=None):
    """Run the sh script with args, forking its commands in the background; reap sh and
    every orphan it leaves. Return (wall seconds to the last reap, [(exit code, RSS KiB)]
    of the orphans)."""
    with contextlib.ExitStack() as files:
        src = files.enter_context(open(stdin, "rb")) if stdin else subprocess.DEVNULL
        dst = files.enter_context(open(stdout, "wb")) if stdout else subprocess.DEVNULL
        err = files.enter_context(tempfile.TemporaryFile())
        start = time.perf_counter()
        sh = subprocess.Popen(["sh", "-c", script, "sh", *args], stdin=src, env=env,
                              stdout=dst, stderr=err)
        reaped = []
        while True:
            try:
                pid, status, usage = os.wait4(-1, 0)
            except ChildProcessError:
                break
            if pid == sh.pid:
                sh.returncode = os.waitstatus_to_exitcode(status)
            else:
                reaped.append((os.waitstatus_to_exitcode(status), usage.ru_maxrss))
        wall = time.perf_counter() - start
        failed = sh.returncode != 0 or any(code != 0 for code, _ in reaped)
        if failed:
            err.seek(0)
            tail = err.read()[-2000:].decode(errors="replace").rstrip()
            codes = [code for code, _ in reaped]
            raise CommandFailed(f"sh -c {script!r} {' '.join(args)}: exit codes {codes}\n{tail}")
    return wall, reaped


def peak_rss(cmd, env, stdin=None, stdout=None):
    """Return cmd's own peak RSS in KiB, stdin/stdout as in run_once.

    Linux carries the memory high-water mark from before exec into ru_maxrss, so a
    process Python forks reports at least Python's own RSS. So cmd is forked by sh
    (a few hundred KiB) and reaped here as an orphan. Without a subreaper (not
    Linux), cmd is run directly and the value includes this process's RSS."""
    if not subreaper():
        return run_once(cmd, env, stdin, stdout)[1]
    return launched(LAUNCHER, cmd, env, stdin, stdout)[1][0][1]


def run_side(cmds, env):
    """Run cmds sequentially; return (summed wall seconds, summed CPU seconds, max RSS
    KiB). Wall and CPU time and RSS come from separate runs (see peak_rss)."""
    total, cpu, rss = 0.0, 0.0, 0
    for cmd in cmds:
        wall, used, _ = run_usage(cmd, env)
        total += wall
        cpu += used
        rss = max(rss, peak_rss(cmd, env))
    return total, cpu, rss


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


def write_json(path, args, results):
    """Write the run's arguments, the host and results as indented JSON to path."""
    report = {
        "repo": args.repo, "base": args.base, "head": args.head, "runs": args.runs,
        "host": {"machine": platform.machine(), "cpus": os.cpu_count(),
                 "python": platform.python_version()},
        **results,
    }
    with open(path, "w") as fh:
        json.dump(report, fh, indent=2)
        fh.write("\n")


def parse_args(ap, runs_help):
    """Add the options every bench shares (--base --head --runs --json) and parse."""
    ap.add_argument("--base", default="main")
    ap.add_argument("--head", default="feature")
    ap.add_argument("--runs", type=int, default=7, help=runs_help)
    ap.add_argument("--json", metavar="FILE", help="also write results as JSON")
    args = ap.parse_args()
    if args.runs < 1:
        ap.error("--runs must be >= 1")
    return args


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--qa-diff", required=True, help="path to the qa-diff binary")
    ap.add_argument("--repo", required=True, help="git repository to diff")
    args = parse_args(ap, "measured runs per side")
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

    stats = {}
    for name, runs in samples.items():
        stats[name] = summarize([(wall, rss) for wall, _, rss in runs])
        cpus = [cpu for _, cpu, _ in runs]
        stats[name]["cpu_median_ms"] = statistics.median(cpus) * 1000
        stats[name]["cpu_ms"] = [round(c * 1000, 3) for c in cpus]
    ratio = stats["qa-diff"]["median_ms"] / stats["git"]["median_ms"]
    cpu_ratio = stats["qa-diff"]["cpu_median_ms"] / stats["git"]["cpu_median_ms"]
    qa_rss = stats["qa-diff"]["peak_rss_mb"]
    targets = {
        "ratio": {"value": ratio, "limit": MAX_RATIO, "pass": ratio <= MAX_RATIO},
        "qa_diff_rss_mb": {"value": qa_rss, "limit": MAX_RSS_MB, "pass": qa_rss < MAX_RSS_MB},
    }

    print(f"repo {args.repo}  range {args.base}..{args.head}  runs {args.runs} (+1 warm-up)")
    print(f"{'side':<10}{'median ms':>12}{'min ms':>12}{'CPU ms':>10}{'peak RSS MB':>14}")
    for name, st in stats.items():
        print(f"{name:<10}{st['median_ms']:>12.1f}{st['min_ms']:>12.1f}"
              f"{st['cpu_median_ms']:>10.1f}{st['peak_rss_mb']:>14.1f}")
    print(f"ratio qa-diff/git: {ratio:.2f} median wall, {cpu_ratio:.2f} median CPU")
    print(f"{'PASS' if targets['ratio']['pass'] else 'MISS'}  wall ratio {ratio:.2f} <= {MAX_RATIO}")
    print(f"{'PASS' if targets['qa_diff_rss_mb']['pass'] else 'MISS'}  "
          f"qa-diff peak RSS {qa_rss:.1f} MB < {MAX_RSS_MB:.0f} MB")

    if args.json:
        write_json(args.json, args, {
            "commands": {name: [" ".join(c) for c in cmds] for name, cmds in sides.items()},
            "sides": stats, "ratio": ratio, "cpu_ratio": cpu_ratio, "targets": targets,
        })
    return 0


if __name__ == "__main__":
    sys.exit(main())
