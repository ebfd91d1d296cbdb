#!/usr/bin/env python3
"""Benchmark qa-fetch's directory manifest against `openssl dgst -sha256`, per core.

Usage: python3 bench/manifest_bench.py --bin-dir DIR --project DIR
                                       [--jobs 2] [--runs 15] [--json FILE]

--project is a folder written by bench/gen_manifest_tree.py: a plan `.qa-acceptance.json`
whose target is the directory `site` (10,000 files, 30 MiB by default). Sides, run
interleaved (the order flips every round) after one warm-up each, so every file is in the
page cache and both sides measure reading and hashing, not the disk:
  qa-fetch:     `qa-fetch --repo PROJECT` reading the one `target.spec` record that
                `qa-intent --plan` made from the plan (made once, untimed), stdout to a
                file: walk with its exclusion rules and limits, lstat, open, read and
                SHA-256 every file on its 2 hashing threads, the manifest hash, and the
                `target` record (1.3 MB of JSON) written out.
  openssl:      `xargs -0 -P JOBS -n ceil(N/JOBS) -s BIG openssl dgst -sha256` in site/,
                stdin the NUL-separated list of every file (relative, sorted; listed once,
                untimed), stdout to a file: JOBS openssl processes, each given its share of
                the files on one command line, each printing one digest per file.
  openssl x1:   the same with one process (all files on one command line), for reference.
                Its output is the one checked against qa-fetch's manifest: the JOBS
                processes of the side above share one stdout, and openssl writes it in
                4 KiB blocks, so their lines interleave mid-line (only the count is checked).
  find:         `find site -type f -print0`, for reference: the listing the openssl sides
                are spared (their file list is made once, untimed), while qa-fetch walks,
                lstats and sorts the tree itself in every run.
Wall time is time.perf_counter from spawn to reap (process start-up included: sh and
xargs for openssl). Throughput is the files' bytes / median wall, in MB/s (10^6 bytes).
Per core: qa-fetch's throughput / 2 (it always hashes on 2 threads, whatever the CPU
count) and openssl's / JOBS (its processes); JOBS defaults to 2 so both sides get the
same parallelism. qa-fetch's peak RSS comes from a separate run (diff_bench.peak_rss).

Target (from the issue): qa-fetch per core >= 80% of openssl per core.
Checked along the way: the capture is `captured` with exactly the tree's files, every
entry's SHA-256 equals openssl's digest of that file, xargs started JOBS openssl
processes (counted in an untimed `xargs -t` run), and the `target` record is
byte-identical across runs. A missed target prints MISS but exits 0; a failing command
or a disagreement between the two sides exits 2; bad arguments, a missing binary or
project exit 1.
"""

import argparse
import hashlib
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys

sys.dont_write_bytecode = True  # importing a sibling script must not leave bench/__pycache__
from diff_bench import CommandFailed, bench_env, peak_rss, run_once, summarize, write_json

MIN_RATIO = 0.80
QA_FETCH_THREADS = 2  # bins/qa-fetch/src/manifest.rs WORKERS: "hash with both cores"
TARGET = "site"
# GNU xargs uses 128 KiB command lines unless told otherwise; every share must fit in one
# (the count of openssl processes is checked), and Linux allows about 2 MiB.
MAX_COMMAND_BYTES = 2_000_000
# `SHA2-256(path)= hex` (OpenSSL 3) or `SHA256(path)= hex` (1.1).
DIGEST_LINE = re.compile(r"^SHA2?-?256\((.*)\)= ([0-9a-f]{64})$")


def list_files(site):
    """Return the sorted relative paths of every file under site and their total bytes."""
    paths, total = [], 0
    for root, dirs, names in os.walk(site):
        dirs.sort()
        for name in names:
            full = os.path.join(root, name)
            paths.append(os.path.relpath(full, site))
            total += os.lstat(full).st_size
    return sorted(paths), total


def openssl_command(site, jobs, paths, verbose=False):
    """Return the argv running openssl dgst over stdin's NUL-separated paths in jobs
    processes, each given an equal share on one command line."""
    per_process = math.ceil(len(paths) / jobs)
    command_bytes = sum(len(p.encode()) + 1 for p in paths[:per_process]) + 4096
    if command_bytes > MAX_COMMAND_BYTES:
        raise CommandFailed(f"a share of {per_process} paths needs a {command_bytes}-byte command line")
    script = 'cd "$1" && shift && exec xargs "$@" openssl dgst -sha256'
    flags = ["-0", "-P", str(jobs), "-n", str(per_process), "-s", str(MAX_COMMAND_BYTES)]
    return ["sh", "-c", script, "sh", site, *flags, *(["-t"] if verbose else [])]


def count_processes(cmd, env, file_list):
    """Run cmd (with xargs -t) untimed; return how many openssl commands xargs started."""
    with open(file_list, "rb") as src:
        res = subprocess.run(cmd, stdin=src, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    if res.returncode != 0:
        raise CommandFailed(f"{' '.join(cmd)} exited {res.returncode}")
    return sum(1 for line in res.stderr.splitlines() if line.startswith(b"openssl "))


def openssl_digests(path):
    """Return {relative path: hex digest} from openssl dgst's output."""
    digests = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            m = DIGEST_LINE.match(line.rstrip("\n"))
            if not m:
                raise CommandFailed(f"unexpected openssl output line: {line[:200]!r}")
            digests[m.group(1)] = m.group(2)
    return digests


def capture_of(path):
    """Return (target data, capture duration_ms from its event, digest of the records
    other than events) of qa-fetch's output."""
    target, duration, h = None, None, hashlib.sha256()
    with open(path, "rb") as fh:
        for line in fh:
            rec = json.loads(line)
            if rec["kind"] == "target":
                target = rec["data"]
            elif rec["kind"] == "event" and rec["data"].get("phase") == "fetch":
                duration = rec["data"].get("duration_ms")
            if rec["kind"] != "event":
                h.update(line)
    if target is None:
        raise CommandFailed(f"qa-fetch wrote no target record ({path})")
    return target, duration, h.hexdigest()


def make_spec(qa_intent, project, out_dir, env):
    """Run qa-intent --plan on the project's plan; save and return the path of a stream
    holding only its target.spec record."""
    plan = os.path.join(project, ".qa-acceptance.json")
    intent_out = os.path.join(out_dir, "intent.ndjson")
    run_once([qa_intent, "--plan", plan, "--repo", project], env, stdout=intent_out)
    with open(intent_out, "rb") as fh:
        specs = [line for line in fh if line.startswith(b'{"kind":"target.spec"')]
    if len(specs) != 1:
        raise CommandFailed(f"qa-intent --plan wrote {len(specs)} target.spec records, expected 1")
    spec = os.path.join(out_dir, "target.spec.ndjson")
    with open(spec, "wb") as fh:
        fh.write(specs[0])
    return spec


def mb_per_s(total_bytes, ms):
    return total_bytes / 1e6 / (ms / 1000)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin-dir", required=True, help="directory holding qa-intent and qa-fetch")
    ap.add_argument("--project", required=True, help="folder from bench/gen_manifest_tree.py")
    ap.add_argument("--jobs", type=int, default=QA_FETCH_THREADS,
                    help=f"openssl processes (default {QA_FETCH_THREADS}, qa-fetch's hashing threads)")
    ap.add_argument("--runs", type=int, default=15, help="measured runs per side (short runs: more of them)")
    ap.add_argument("--json", metavar="FILE", help="also write results as JSON")
    args = ap.parse_args()
    if args.runs < 1 or args.jobs < 1:
        ap.error("--runs and --jobs must be >= 1")
    bins = os.path.abspath(args.bin_dir)
    for name in ("qa-intent", "qa-fetch"):
        path = os.path.join(bins, name)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            sys.exit(f"manifest_bench: {path} is not an executable file (build it first)")
    for tool in ("openssl", "xargs"):
        if shutil.which(tool) is None:
            sys.exit(f"manifest_bench: {tool} is not on PATH")
    project = os.path.abspath(args.project)
    site = os.path.join(project, TARGET)
    if not (os.path.isdir(site) and os.path.isfile(os.path.join(project, ".qa-acceptance.json"))):
        sys.exit(f"manifest_bench: {args.project} has no plan and {TARGET}/ (run bench/gen_manifest_tree.py)")
    out_dir = os.path.join(project + "-bench")
    os.makedirs(out_dir, exist_ok=True)

    env = bench_env()
    paths, total_bytes = list_files(site)
    file_list = os.path.join(out_dir, "files.nul")
    with open(file_list, "wb") as fh:
        fh.write(b"".join(p.encode() + b"\0" for p in paths))
    fetch_out = os.path.join(out_dir, "qa-fetch.out")
    openssl_out = os.path.join(out_dir, "openssl.out")
    openssl_x1_out = os.path.join(out_dir, "openssl-x1.out")
    try:
        spec = make_spec(os.path.join(bins, "qa-intent"), project, out_dir, env)
        fetch = [os.path.join(bins, "qa-fetch"), "--repo", project]
        sides = {
            "qa-fetch": (fetch, spec, fetch_out),
            "openssl": (openssl_command(site, args.jobs, paths), file_list, openssl_out),
            "openssl x1": (openssl_command(site, 1, paths), file_list, openssl_x1_out),
            "find": (["find", site, "-type", "f", "-print0"], None, os.devnull),
        }
        processes = count_processes(openssl_command(site, args.jobs, paths, verbose=True), env, file_list)
        for cmd, stdin, stdout in sides.values():  # warm-up: page cache, binaries
            run_once(cmd, env, stdin=stdin, stdout=stdout)
        first_target, _, first_digest = capture_of(fetch_out)
        samples = {name: [] for name in sides}
        durations, changed = [], False
        order = list(sides)
        for i in range(args.runs):
            for name in (order if i % 2 == 0 else order[::-1]):
                cmd, stdin, stdout = sides[name]
                samples[name].append((run_once(cmd, env, stdin=stdin, stdout=stdout)[0], 0))
                if name == "qa-fetch":
                    _, duration, digest = capture_of(fetch_out)
                    durations.append(duration)
                    changed |= digest != first_digest
        fetch_rss_mb = peak_rss(fetch, env, stdin=spec, stdout=fetch_out) / 1024
        digests = openssl_digests(openssl_x1_out)
        with open(openssl_out, "rb") as fh:
            parallel_lines = fh.read().count(b"\n")
    except CommandFailed as exc:
        print(f"manifest_bench: command failed: {exc}", file=sys.stderr)
        return 2

    # Both sides must have hashed the same bytes, or the comparison means nothing.
    problems = []
    if first_target["status"] != "captured":
        problems.append(f"qa-fetch capture {first_target['status']}: {first_target.get('reason')}")
    entries = {e["path"]: e for e in first_target["entries"]}
    if sorted(entries) != paths:
        problems.append(f"qa-fetch listed {len(entries)} files, the tree has {len(paths)}")
    if sorted(digests) != paths:
        problems.append(f"openssl hashed {len(digests)} files, the tree has {len(paths)}")
    agree = sum(1 for p, e in entries.items() if digests.get(p) == e["sha256"])
    if agree != len(paths):
        problems.append(f"SHA-256 differs for {len(paths) - agree} files")
    if parallel_lines != len(paths):
        problems.append(f"openssl x{args.jobs} printed {parallel_lines} digests, the tree has {len(paths)} files")
    if processes != args.jobs:
        problems.append(f"xargs started {processes} openssl processes, expected {args.jobs}")
    if problems:
        for problem in problems:
            print(f"manifest_bench: {problem}", file=sys.stderr)
        return 2

    stats = {name: summarize(s) for name, s in samples.items()}
    workers = {"qa-fetch": QA_FETCH_THREADS, "openssl": args.jobs, "openssl x1": 1}
    speed = {name: mb_per_s(total_bytes, stats[name]["median_ms"]) for name in workers}
    per_core = {name: speed[name] / workers[name] for name in workers}
    ratio = per_core["qa-fetch"] / per_core["openssl"]
    ratio_x1 = per_core["qa-fetch"] / per_core["openssl x1"]
    labels = {"qa-fetch": f"qa-fetch ({QA_FETCH_THREADS} threads)",
              "openssl": f"openssl x{args.jobs} (xargs -P {args.jobs})",
              "openssl x1": "openssl x1 (reference)",
              "find": "find -type f (listing only)"}

    print(f"target {site}: {len(paths)} files, {total_bytes} bytes ({total_bytes / (1 << 20):.1f} MiB), "
          f"page cache warm; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}; runs {args.runs} (+1 warm-up)")
    print(f"{'side':<28}{'median ms':>10}{'min ms':>9}{'MB/s':>9}{'workers':>9}{'MB/s/core':>11}")
    for name, st in stats.items():
        rates = (f"{speed[name]:>9.1f}{workers[name]:>9}{per_core[name]:>11.1f}" if name in workers
                 else f"{'-':>9}{'-':>9}{'-':>11}")
        print(f"{labels[name]:<28}{st['median_ms']:>10.1f}{st['min_ms']:>9.1f}{rates}")
    print(f"per core: qa-fetch MB/s / {QA_FETCH_THREADS} (its hashing threads), openssl MB/s / processes; "
          f"MB = 10^6 bytes; wall includes process start-up")
    print(f"qa-fetch per core / openssl x{args.jobs} per core: {ratio:.2f}   "
          f"(/ openssl x1 per core: {ratio_x1:.2f})")
    print(f"qa-fetch: peak RSS {fetch_rss_mb:.1f} MB; its capture event (walk + hash, whole ms): median "
          f"{statistics.median(durations):.0f} ms; manifest {first_target['sha256'][:16]}; "
          f"{len(first_target['excluded'])} excluded")
    print(f"SHA-256 of every file: qa-fetch and openssl agree on {agree}/{len(paths)}; "
          f"openssl processes per run: {processes}; target record byte-identical across runs: "
          + ("no" if changed else "yes"))
    target = {"value": ratio, "limit": MIN_RATIO, "pass": ratio >= MIN_RATIO}
    print(f"{'PASS' if target['pass'] else 'MISS'}  qa-fetch per core {per_core['qa-fetch']:.1f} MB/s "
          f">= {MIN_RATIO:.0%} of openssl per core {per_core['openssl']:.1f} MB/s (ratio {ratio:.2f})")

    if args.json:
        args.repo, args.base, args.head = project, None, None  # write_json's common fields
        write_json(args.json, args, {
            "commands": {name: " ".join(cmd) for name, (cmd, _, _) in sides.items()},
            "files": len(paths), "bytes": total_bytes, "sides": stats, "mb_per_s": speed,
            "workers": workers, "mb_per_s_per_core": per_core, "ratio": ratio, "ratio_x1": ratio_x1,
            "qa_fetch": {"peak_rss_mb": fetch_rss_mb, "capture_ms": durations,
                         "manifest": first_target["sha256"], "stable_output": not changed},
            "openssl_processes": processes, "targets": {"per_core_ratio": target},
        })
    return 0


if __name__ == "__main__":
    sys.exit(main())
