#!/usr/bin/env python3
"""report_bench.py --bin-dir DIR --repo R [--base main] [--head feature]
                   [--sizes 10,50,200] [--report BIN] [--before BIN] [--json FILE]

Peak RSS of qa-report against stream size. The change flow (qa-diff | qa-intent |
qa-route | qa-trace) runs once on R (bench/gen_flow_repo.py's repository) to give a real
stream; the stream is then replicated into streams of about each --sizes MB: copy k of
every record gets `src["bench.copy"] = k`, its id recomputed from canonical JSON and every
id it names (in `from` and in `data`) mapped to copy k's ids, so each copy is a whole,
verifying flow of its own. qa-report renders each stream as text with --out (the saved
stream written too), stdout to a file; peak RSS is ru_maxrss of a run forked by sh
(diff_bench.peak_rss). With --before BIN the same runs measure another qa-report build.

Benchmarks report, tests assert: the script prints a table and exits 0 unless a command
fails (2) or an argument is wrong (1)."""

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from diff_bench import CommandFailed, bench_env, peak_rss, run_once  # noqa: E402

ID = re.compile(r"sha256:[0-9a-f]{64}")


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def record_id(rec):
    body = {k: rec[k] for k in ("kind", "v", "from", "src", "data")}
    return "sha256:" + hashlib.sha256(canonical(body).encode()).hexdigest()


def real_stream(bin_dir, repo, base, head, env):
    """The change flow's stream on repo, as bytes."""
    b = lambda n: os.path.join(bin_dir, n)  # noqa: E731
    script = (f'"{b("qa-diff")}" --repo "$1" --base "$2" --head "$3" | "{b("qa-intent")}" --repo "$1"'
              f' | "{b("qa-route")}" --repo "$1" | "{b("qa-trace")}"')
    out = subprocess.run(["sh", "-c", "set -e; " + script, "sh", repo, base, head],
                         env=env, check=True, stdout=subprocess.PIPE)
    return out.stdout


def copy_of(records, k):
    """Copy k of the flow: new ids, every named id mapped to the copy's."""
    if k == 0:
        return [canonical_line(r) for r in records]
    mapping, lines = {}, []
    for rec in records:
        rec = json.loads(json.dumps(rec))
        rec["src"] = dict(rec["src"], **{"bench.copy": str(k)})
        rec["from"] = [mapping.get(i, i) for i in rec["from"]]
        data = ID.sub(lambda m: mapping.get(m.group(0), m.group(0)), canonical(rec["data"]))
        rec["data"] = json.loads(data)
        new = record_id(rec)
        mapping[rec["id"]] = new
        rec["id"] = new
        lines.append(canonical_line(rec))
    return lines


def canonical_line(rec):
    return (json.dumps(rec, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


def build(records, mb, path):
    """Writes copies of the flow to path until it holds about mb MB; returns its size."""
    size, k = 0, 0
    with open(path, "wb") as f:
        while size < mb * 1_000_000:
            for line in copy_of(records, k):
                f.write(line)
                size += len(line)
            k += 1
    return size


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin-dir", required=True, help="the built qa-* binaries")
    ap.add_argument("--repo", required=True, help="bench/gen_flow_repo.py's repository")
    ap.add_argument("--base", default="main")
    ap.add_argument("--head", default="feature")
    ap.add_argument("--sizes", default="10,50,200", help="stream sizes in MB (default 10,50,200)")
    ap.add_argument("--report", help="the qa-report binary to measure (default: the one in --bin-dir)")
    ap.add_argument("--before", help="another qa-report binary to measure the same way")
    ap.add_argument("--json", help="write the results here")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    bin_dir = os.path.abspath(args.bin_dir)
    report = os.path.abspath(args.report) if args.report else os.path.join(bin_dir, "qa-report")
    for binary in [report] + ([args.before] if args.before else []):
        if not os.access(binary, os.X_OK):
            print(f"report_bench: {binary} is not an executable", file=sys.stderr)
            return 1
    env = bench_env()
    try:
        stream = real_stream(bin_dir, os.path.abspath(args.repo), args.base, args.head, env)
    except subprocess.CalledProcessError as e:
        print(f"report_bench: the change flow failed: {e}", file=sys.stderr)
        return 2
    records = [json.loads(line) for line in stream.splitlines() if line.strip()]
    kinds = {}
    for r in records:
        kinds[r["kind"]] = kinds.get(r["kind"], 0) + len(canonical_line(r))
    top = ", ".join(f"{k} {v * 100 // len(stream)}%" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])[:4])
    print(f"report_bench: one flow is {len(records)} records, {len(stream)} bytes ({top})")
    sides = [("qa-report", report)] + ([("before", args.before)] if args.before else [])
    results = []
    work = tempfile.mkdtemp(prefix="report-bench-")
    try:
        print(f"{'stream MB':>10}{'records':>10}" + "".join(f"{name + ' RSS MB':>20}{'s':>7}" for name, _ in sides))
        for mb in sizes:
            path = os.path.join(work, f"stream-{mb}.ndjson")
            size = build(records, mb, path)
            with open(path, "rb") as f:
                count = sum(1 for _ in f)
            row = {"stream_bytes": size, "records": count}
            line = f"{size / 1e6:>10.1f}{count:>10}"
            for name, binary in sides:
                out_dir = os.path.join(work, f"out-{name}-{mb}")
                cmd = [binary, "--in", path, "--out", out_dir]
                text = os.path.join(work, "report.txt")
                wall, _ = run_once(cmd, env, stdout=text)
                shutil.rmtree(out_dir, ignore_errors=True)
                kib = peak_rss(cmd, env, stdout=text)
                shutil.rmtree(out_dir, ignore_errors=True)
                row[name] = {"peak_rss_mb": round(kib / 1024, 1), "wall_s": round(wall, 2)}
                line += f"{kib / 1024:>20.1f}{wall:>7.1f}"
            os.remove(path)
            results.append(row)
            print(line, flush=True)
    except (CommandFailed, subprocess.CalledProcessError) as e:
        print(f"report_bench: {e}", file=sys.stderr)
        return 2
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"sizes_mb": sizes, "results": results}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
