#!/usr/bin/env python3
"""screenshot_bench.py --bin-dir DIR [--work DIR] [--checks 800] [--distinct-big 16]
                       [--unique 80] [--before BIN] [--json FILE]

Size of report.html and peak RSS of qa-report --acceptance on a run whose every check
has a screenshot of about 1.9 MB (issue 27: 60 such checks made a 303 MB page, 800 aborted
on a 5 GB allocation).

The acceptance flow's stages before qa-report (qa-intent --plan | qa-fetch | qa-route |
qa-check | qa-fetch --verify | qa-trace, release binaries, --allow-network) run once on
--checks passing HTTP checks against acceptance_bench.py's local site. Every observation of
that stream then gets one screenshot entry, and every record its id recomputed from
canonical JSON with each id it names mapped (as report_bench.py does), so the stream
verifies as if qa-check had taken the screenshots. 800 distinct 1.9 MB PNGs would be 1.5 GB
on disk, so --distinct-big PNGs are shared round-robin by most checks and --unique checks
have one of their own: the page must embed each PNG once and stop at its budget, and
qa-report's memory must not grow with the distinct PNGs (--unique 800: every check its
own, 1.5 GB of PNGs). The PNGs are the signature and header of a real 480x270
screenshot followed by seeded random bytes (qa-report checks the signature and SHA-256,
not the pixels).

qa-report --acceptance --repo WORK --format json renders it (stdout to a file); the page
is the run folder's report.html; peak RSS is ru_maxrss of a run forked by sh
(diff_bench.peak_rss). Targets: report.html under 64 MiB and peak RSS under 500 MB; each
prints PASS or MISS. Benchmarks report, tests assert: exit 0 unless a command fails (2) or
an argument is wrong (1)."""

import argparse
import hashlib
import json
import os
import random
import shutil
import sys
import threading

sys.dont_write_bytecode = True  # importing a sibling script must not leave bench/__pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from acceptance_bench import CountingServer, stage_commands, write_plan  # noqa: E402
from diff_bench import CommandFailed, bench_env, peak_rss, run_once  # noqa: E402
from report_bench import ID, canonical, record_id  # noqa: E402

BENCH = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(os.path.dirname(BENCH), "bins", "qa-report", "tests", "fixtures", "cart.png")
PNG_BYTES = 1_900_000
MAX_HTML = 64 * 1024 * 1024
MAX_RSS_MB = 500


def png(seed, head):
    """A 1.9 MB PNG: a real screenshot's first bytes, then seeded random bytes."""
    return head + random.Random(seed).randbytes(PNG_BYTES - len(head))


def save_shot(repo, data):
    """Saves data as qa-check saves a screenshot; returns its observation entry."""
    sha = hashlib.sha256(data).hexdigest()
    folder = os.path.join(repo, ".qa", "screenshots")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{sha}.png")
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)
    return {"moment": "after", "path": f".qa/screenshots/{sha}.png", "sha256": sha,
            "bytes": len(data), "width": 480, "height": 270}


def with_screenshots(lines, shots):
    """The stream's records with observation i given shots(i), ids recomputed."""
    mapping, out, i = {}, [], 0
    for line in lines:
        rec = json.loads(line)
        rec["from"] = [mapping.get(x, x) for x in rec["from"]]
        rec["data"] = json.loads(ID.sub(lambda m: mapping.get(m.group(0), m.group(0)), canonical(rec["data"])))
        if rec["kind"] == "observation":
            rec["data"]["evidence"]["screenshots"] = [shots(i)]
            i += 1
        new = record_id(rec)
        mapping[rec["id"]] = new
        rec["id"] = new
        out.append((json.dumps(rec, separators=(",", ":"), ensure_ascii=False) + "\n").encode())
    return out, i


def measure(binary, stream, repo, env, work, name):
    """Runs binary on the stream; returns (report.html bytes, peak RSS KiB, wall s)."""
    runs = os.path.join(repo, ".qa", "acceptance")
    shutil.rmtree(runs, ignore_errors=True)
    cmd = [binary, "--acceptance", "--repo", repo, "--format", "json"]
    out = os.path.join(work, f"report-{name}.json")
    wall, _ = run_once(cmd, env, stdin=stream, stdout=out)
    folders = [os.path.join(runs, d) for d in os.listdir(runs)]
    html = os.path.getsize(os.path.join(folders[0], "report.html"))
    shutil.rmtree(runs, ignore_errors=True)
    kib = peak_rss(cmd, env, stdin=stream, stdout=out)
    shutil.rmtree(runs, ignore_errors=True)
    return html, kib, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin-dir", required=True, help="the built (release) qa-* binaries")
    ap.add_argument("--work", default=os.path.join(BENCH, "work", "screenshots"),
                    help="project folder for the plan, stream, screenshots and run folders (recreated)")
    ap.add_argument("--checks", type=int, default=800)
    ap.add_argument("--distinct-big", type=int, default=16, help="PNGs shared round-robin")
    ap.add_argument("--unique", type=int, default=80, help="checks with a PNG of their own")
    ap.add_argument("--before", help="another qa-report binary to measure the same way")
    ap.add_argument("--json", help="write the results here")
    args = ap.parse_args()
    bins = os.path.abspath(args.bin_dir)
    report = os.path.join(bins, "qa-report")
    for binary in [report] + ([args.before] if args.before else []):
        if not os.access(binary, os.X_OK):
            print(f"screenshot_bench: {binary} is not an executable", file=sys.stderr)
            return 1
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = bench_env()
    server = CountingServer()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        plan = os.path.join(work, "plan.json")
        write_plan(plan, f"http://127.0.0.1:{server.server_address[1]}/", args.checks)
        prev = None
        for i, (stage, cmd) in enumerate(stage_commands(bins, plan, work)[:-1]):
            out = os.path.join(work, f"{i + 1}.ndjson")
            run_once(cmd, env, stdin=prev, stdout=out)
            prev = out
        with open(FIXTURE, "rb") as f:
            head = f.read()[:64]
        shared = [save_shot(work, png(k, head)) for k in range(args.distinct_big)]
        unique_from = args.checks - args.unique

        def shots(i):
            if i >= unique_from:
                return save_shot(work, png(10_000 + i, head))
            return shared[i % len(shared)]

        with open(prev, "rb") as f:
            lines, observed = with_screenshots(f.read().splitlines(), shots)
        stream = os.path.join(work, "with-screenshots.ndjson")
        with open(stream, "wb") as f:
            f.writelines(lines)
        distinct = len(os.listdir(os.path.join(work, ".qa", "screenshots")))
        print(f"screenshot_bench: {observed} observations, each with a {PNG_BYTES / 1e6:.1f} MB "
              f"screenshot ({distinct} distinct PNGs, {distinct * PNG_BYTES / 1e6:.0f} MB)")
        sides = [("qa-report", report)] + ([("before", args.before)] if args.before else [])
        results = {}
        print(f"{'':>12}{'report.html MiB':>17}{'peak RSS MB':>13}{'wall s':>8}")
        for name, binary in sides:
            html, kib, wall = measure(binary, stream, work, env, work, name)
            results[name] = {"report_html_bytes": html, "peak_rss_mb": round(kib / 1024, 1),
                             "wall_s": round(wall, 2)}
            print(f"{name:>12}{html / 2**20:>17.1f}{kib / 1024:>13.1f}{wall:>8.1f}", flush=True)
    except (CommandFailed, OSError) as e:
        print(f"screenshot_bench: {e}", file=sys.stderr)
        return 2
    finally:
        server.shutdown()
    ours = results["qa-report"]
    size_ok = ours["report_html_bytes"] < MAX_HTML
    rss_ok = ours["peak_rss_mb"] < MAX_RSS_MB
    print(f"report.html < 64 MiB: {'PASS' if size_ok else 'MISS'}")
    print(f"peak RSS < {MAX_RSS_MB} MB: {'PASS' if rss_ok else 'MISS'}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"checks": args.checks, "distinct_pngs": distinct, "results": results,
                       "pass": {"size": size_ok, "rss": rss_ok}}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
