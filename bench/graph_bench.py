#!/usr/bin/env python3
"""Benchmark building the behavior graph of a base and a head tree against the I/O floor.

Usage: python3 bench/graph_bench.py --bin-dir DIR --repo REPO
                                    [--base main] [--head feature] [--runs 7] [--json FILE]

qa-graph's side is `graph-bench REPO BASE HEAD` (shared/graph/examples, built by
`cargo build --release -p qa-graph --example graph-bench` into DIR/examples): both trees
read from git objects, every adapter run on each, the graphs compared. The reference is
the I/O floor of the same reads: `git ls-tree -r` of both trees, then one
`git cat-file --batch` over the blobs the graph reads (TypeScript/JavaScript, Python,
Rust, Go sources and package manifests, both trees' blobs, shared ones once). Wall time
is time.perf_counter around spawn+reap, peak RSS comes from a separate run forked by sh
(diff_bench.peak_rss); one warm-up round, then --runs measured rounds per side.

Targets (from the issue): under 1 s wall and 100 MB peak RSS on the 2,000-file
repository of bench/gen_graph_repo.py. A missed target prints MISS but exits 0; a failing
command exits 2; bad arguments or a missing binary or repository exit 1.
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # importing a sibling script must not leave bench/__pycache__
from diff_bench import CommandFailed, bench_env, parse_args, peak_rss, run_once, summarize, write_json

MAX_MS = 1000.0
MAX_MB = 100.0
READ = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".py", ".rs", ".go",
        "package.json", "Cargo.toml", "pyproject.toml", "go.mod")


def blob_list(repo, revs, env):
    """Return the blob ids of the files the graph reads in revs, each once, as bytes."""
    oids = []
    for rev in revs:
        out = subprocess.run(["git", "-C", repo, "ls-tree", "-r", rev], env=env,
                             capture_output=True, check=True).stdout.decode()
        for line in out.splitlines():
            meta, path = line.split("\t", 1)
            _, kind, oid = meta.split()
            if kind == "blob" and path.endswith(READ) and oid not in oids:
                oids.append(oid)
    return ("\n".join(oids) + "\n").encode()


def measure(cmds, env, runs, stdin=None):
    """Run the commands in sequence --runs times after one warm-up; return summarize()."""
    def once():
        wall, rss = 0.0, 0
        for cmd, cmd_stdin in cmds:
            wall += run_once(cmd, env, stdin=cmd_stdin)[0]
        for cmd, cmd_stdin in cmds:
            rss = max(rss, peak_rss(cmd, env, stdin=cmd_stdin))
        return wall, rss
    once()
    return summarize([once() for _ in range(runs)])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin-dir", required=True, help="the release directory (target/release)")
    ap.add_argument("--repo", required=True, help="repository from bench/gen_graph_repo.py")
    args = parse_args(ap, "measured runs per side")
    binary = os.path.join(os.path.abspath(args.bin_dir), "examples", "graph-bench")
    if not os.access(binary, os.X_OK):
        sys.exit(f"graph_bench: {binary} is missing: cargo build --release -p qa-graph --example graph-bench")
    if not os.path.isdir(os.path.join(args.repo, ".git")):
        sys.exit(f"graph_bench: {args.repo} is not a git repository (run bench/gen_graph_repo.py)")
    env = bench_env()
    repo = os.path.abspath(args.repo)
    with tempfile.TemporaryDirectory() as tmp:
        blobs = os.path.join(tmp, "blobs")
        with open(blobs, "wb") as fh:
            fh.write(blob_list(repo, [args.base, args.head], env))
        try:
            graph = measure([([binary, repo, args.base, args.head], None)], env, args.runs)
            floor = measure([(["git", "-C", repo, "ls-tree", "-r", args.base], None),
                             (["git", "-C", repo, "ls-tree", "-r", args.head], None),
                             (["git", "-C", repo, "cat-file", "--batch"], blobs)], env, args.runs)
        except CommandFailed as exc:
            print(f"graph_bench: {exc}", file=sys.stderr)
            sys.exit(2)
    ratio = graph["median_ms"] / floor["median_ms"]
    print(f"graph (base + head + compare): {graph['median_ms']:8.1f} ms median, "
          f"{graph['peak_rss_mb']:6.1f} MB peak RSS")
    print(f"I/O floor (ls-tree + cat-file): {floor['median_ms']:8.1f} ms median, "
          f"{floor['peak_rss_mb']:6.1f} MB peak RSS")
    print(f"ratio: {ratio:.2f}x the floor")
    for what, value, limit, unit in (("wall", graph["median_ms"], MAX_MS, "ms"),
                                     ("peak RSS", graph["peak_rss_mb"], MAX_MB, "MB")):
        verdict = "ok" if value < limit else "MISS"
        print(f"target {what} < {limit:.0f} {unit}: {value:.1f} {unit} {verdict}")
    if args.json:
        write_json(args.json, args, {"graph": graph, "floor": floor, "ratio": ratio})


if __name__ == "__main__":
    main()
