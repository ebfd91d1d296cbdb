#!/usr/bin/env python3
"""Benchmark the acceptance flow on 100 HTTP checks against a local server.

Usage: python3 bench/acceptance_bench.py --bin-dir DIR [--work DIR] [--checks 100]
                                         [--runs 7] [--server-nagle] [--json FILE]

The flow is pipelines/acceptance.sh: `qa-intent --plan P | qa-fetch | qa-route | qa-check |
qa-fetch --verify | qa-trace | qa-report --acceptance`, every stage with --allow-network.
This script serves a small site from http.server.ThreadingHTTPServer on 127.0.0.1 (an
ephemeral port, HTTP/1.1 keep-alive, one thread of this process), writes a plan in --work
(default bench/work/acceptance-http, recreated) whose target is the site's URL and whose
--checks http checks (10 per criterion, each `status` 200 and a `contains` only that page
has) all pass, then times:
  - each stage alone: stdin from the saved output of the stage before (qa-intent from
    /dev/null), stdout to a file in --work/stages; one warm-up round, then --runs rounds;
  - the whole pipeline, `sh pipelines/acceptance.sh P --allow-network` with the bin dir
    first on PATH (QA_REPO=--work, QA_FORMAT=json), one warm-up and --runs runs; wall time
    from starting sh to its exit, sh start-up included.
Wall time is time.perf_counter around spawn+reap; a stage's peak RSS is ru_maxrss of a
separate run forked by sh (diff_bench.peak_rss), in MiB labelled MB. The server counts the
requests and TCP connections of the last pipeline run (keep-alive shows as few connections).
The server sets TCP_NODELAY; --server-nagle leaves Nagle on, to show what a naive keep-alive
server costs (about 40 ms a request from delayed ACKs, see Site).

Target (from the issue): 100 HTTP checks finish in under 2 s wall for the whole pipeline
(the piped median; the sum of stage medians is printed against it too), with verdict pass.
A missed target prints MISS but exits 0 (benches report, tests assert); a failing command,
including a verdict other than pass (acceptance.sh exits 1 or 2), exits 2; bad arguments or
a missing binary exit 1.
"""

import argparse
import hashlib
import http.server
import json
import os
import shutil
import statistics
import sys
import threading

sys.dont_write_bytecode = True  # importing a sibling script must not leave bench/__pycache__
from diff_bench import CommandFailed, bench_env, peak_rss, run_once, summarize, write_json

MAX_PIPELINE_MS = 2000.0
BENCH = os.path.dirname(os.path.abspath(__file__))
PIPELINE = os.path.join(os.path.dirname(BENCH), "pipelines", "acceptance.sh")
STAGES = ["qa-intent", "qa-fetch", "qa-route", "qa-check", "qa-fetch --verify", "qa-trace",
          "qa-report --acceptance"]
CHECKS_PER_CRITERION = 10
BUILD_ID = "bench-1"


def page(path):
    """Return the site's body for path, or None (404). Deterministic: qa-fetch --verify
    recaptures "/" after the checks and a different body would make the run stale."""
    if path == "/":
        links = "".join(f'<li><a href="/items/{i}">item {i}</a></li>' for i in range(20))
        return f"<!doctype html><title>Bench shop</title><h1>Bench shop</h1><ul>{links}</ul>\n"
    if path.startswith("/items/") and path[len("/items/"):].isdigit():
        n = int(path[len("/items/"):])
        filler = " ".join(f"word{(n * 7 + k) % 97}" for k in range(200))  # ~1.5 KB pages
        return (f"<!doctype html><title>Item {n}</title><h1>Item {n}</h1>"
                f"<p>Item {n} is in stock.</p><p>{filler}</p>\n")
    return None


class Site(http.server.BaseHTTPRequestHandler):
    """GET-only handler for page(); counts requests and connections on its server."""
    protocol_version = "HTTP/1.1"  # keep-alive: one connection serves many checks
    # Headers and body go out in two writes. With Nagle on, the body waits for the ACK
    # of the headers, which the client delays ~40 ms on a reused connection: every
    # keep-alive request would then cost 40 ms of the server's making (curl sees the same).
    disable_nagle_algorithm = True

    def setup(self):
        super().setup()
        self.server.count("connections")

    def do_GET(self):
        self.server.count("requests")
        text = page(self.path)
        body = (text if text is not None else "not found\n").encode()
        self.send_response(200 if text is not None else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("ETag", '"%s"' % hashlib.sha256(body).hexdigest()[:16])
        self.send_header("X-Build-Id", BUILD_ID)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):  # keep the bench output to the table
        pass


class CountingServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Site)
        self.lock = threading.Lock()
        self.counts = {"requests": 0, "connections": 0}

    def count(self, what):
        with self.lock:
            self.counts[what] += 1

    def take_counts(self):
        """Return the counts since the last call and reset them."""
        with self.lock:
            counts, self.counts = self.counts, {"requests": 0, "connections": 0}
        return counts


def write_plan(path, url, checks):
    """Write the plan: a url target, one request criterion per CHECKS_PER_CRITERION checks,
    each check a GET of its own page expecting 200 and text only that page has."""
    groups = (checks + CHECKS_PER_CRITERION - 1) // CHECKS_PER_CRITERION
    plan = {
        "target": {"kind": "url", "value": url, "buildId": BUILD_ID},
        "criteria": [{"id": f"items-{g}", "expected": f"Items {g}0-{g}9 have their own page",
                      "source": {"kind": "request", "text": f"Every item page {g}0-{g}9 says it is in stock"}}
                     for g in range(groups)],
        "checks": [{"id": f"item-{i}", "criterion": f"items-{i // CHECKS_PER_CRITERION}", "kind": "http",
                    "path": f"/items/{i}", "status": 200, "contains": f"Item {i} is in stock."}
                   for i in range(checks)],
    }
    with open(path, "w") as fh:
        json.dump(plan, fh, indent=2)
        fh.write("\n")


def stage_commands(bins, plan, repo):
    """Return [(stage, argv)] of the acceptance flow, as pipelines/acceptance.sh runs it."""
    def binary(name, *args):
        return [os.path.join(bins, name), *args, "--allow-network"]
    return list(zip(STAGES, [
        binary("qa-intent", "--plan", plan, "--repo", repo),
        binary("qa-fetch", "--repo", repo),
        binary("qa-route", "--repo", repo),
        binary("qa-check", "--repo", repo),
        binary("qa-fetch", "--verify", "--repo", repo),
        binary("qa-trace"),
        binary("qa-report", "--acceptance", "--repo", repo, "--format", "json"),
    ]))


def stable_digest(path):
    """SHA-256 of an NDJSON file without its `event` records (the only ones that carry
    times), so equal digests mean byte-identical records."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for line in fh:
            if not line.startswith(b'{"kind":"event"'):
                h.update(line)
    return h.hexdigest()


def run_stages(cmds, env, out_dir):
    """Run every stage on the previous stage's saved output, once timed and once for its
    peak RSS; return {stage: (wall s, RSS KiB, digest of the timed run's records, output
    path)}. The last stage's output is the JSON report, not records: it gets no digest."""
    result, prev = {}, None
    for i, (stage, cmd) in enumerate(cmds):
        out = os.path.join(out_dir, f"{i + 1}-{stage.replace(' --', '-')}.out")
        wall = run_once(cmd, env, stdin=prev, stdout=out)[0]
        digest = stable_digest(out) if i < len(cmds) - 1 else None
        result[stage] = (wall, peak_rss(cmd, env, stdin=prev, stdout=out), digest, out)
        prev = out
    return result


def check_durations(path):
    """Return the duration_ms of every qa-check `check` event in the saved stream."""
    with open(path, encoding="utf-8") as fh:
        return [rec["data"]["duration_ms"] for rec in map(json.loads, fh)
                if rec["kind"] == "event" and rec["data"].get("phase") == "check"]


def verdict_of(report_path):
    """Return (status, counts, observations by status) from qa-report's JSON report."""
    with open(report_path, encoding="utf-8") as fh:
        report = json.load(fh)
    observed = {}
    for criterion in report["criteria"]:
        for check in criterion.get("checks", []):
            status = (check.get("observation") or {}).get("status", "none")
            observed[status] = observed.get(status, 0) + 1
    return report["verdict"]["status"], report["verdict"]["counts"], observed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin-dir", required=True, help="directory holding the qa-* binaries")
    ap.add_argument("--work", default=os.path.join(BENCH, "work", "acceptance-http"),
                    help="project folder for the plan, stage outputs and run folders (recreated)")
    ap.add_argument("--checks", type=int, default=100, help="http checks in the plan")
    ap.add_argument("--runs", type=int, default=7, help="measured rounds")
    ap.add_argument("--server-nagle", action="store_true",
                    help="leave Nagle's algorithm on in the server (slow keep-alive replies)")
    ap.add_argument("--json", metavar="FILE", help="also write results as JSON")
    args = ap.parse_args()
    Site.disable_nagle_algorithm = not args.server_nagle
    if args.runs < 1 or args.checks < 1:
        ap.error("--runs and --checks must be >= 1")
    bins = os.path.abspath(args.bin_dir)
    for name in sorted({s.split()[0] for s in STAGES}):
        path = os.path.join(bins, name)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            sys.exit(f"acceptance_bench: {path} is not an executable file (build it first)")
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    stages_dir = os.path.join(work, "stages")
    os.makedirs(stages_dir)

    server = CountingServer()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    plan = os.path.join(work, ".qa-acceptance.json")
    write_plan(plan, url, args.checks)

    env = bench_env()
    env.update(PATH=bins + os.pathsep + env.get("PATH", ""), QA_REPO=work, QA_FORMAT="json")
    cmds = stage_commands(bins, plan, work)
    pipeline = ["sh", PIPELINE, plan, "--allow-network"]
    piped_report = os.path.join(work, "pipeline-report.json")
    samples = {stage: [] for stage, _ in cmds}
    piped = []
    try:
        warm = run_stages(cmds, env, stages_dir)  # warm-up: page cache, binaries, saved inputs
        changed = []
        for _ in range(args.runs):
            for stage, (wall, kib, digest, _) in run_stages(cmds, env, stages_dir).items():
                samples[stage].append((wall, kib))
                if digest != warm[stage][2]:
                    changed.append(stage)
        run_once(pipeline, env, stdout=piped_report)
        for _ in range(args.runs):
            server.take_counts()
            piped.append((run_once(pipeline, env, stdout=piped_report)[0], 0))
        traffic = server.take_counts()
        status, counts, observed = verdict_of(piped_report)
    except CommandFailed as exc:
        print(f"acceptance_bench: command failed: {exc}", file=sys.stderr)
        return 2
    finally:
        server.shutdown()
    if status != "pass":  # acceptance.sh exits 0 only on pass; this guards the parsing
        print(f"acceptance_bench: verdict {status}, expected pass", file=sys.stderr)
        return 2

    stats = {stage: summarize(s) for stage, s in samples.items()}
    total_ms = sum(st["median_ms"] for st in stats.values())
    pipe = summarize(piped)
    durations = check_durations(warm["qa-check"][3])

    print(f"plan {plan}  target {url}  {args.checks} http checks  runs {args.runs} (+1 warm-up)  "
          f"load {os.getloadavg()[0]:.2f}")
    print(f"{'stage':<26}{'median ms':>10}{'min ms':>9}{'peak MB':>9}")
    for stage, st in stats.items():
        print(f"{stage:<26}{st['median_ms']:>10.1f}{st['min_ms']:>9.1f}{st['peak_rss_mb']:>9.1f}")
    print(f"{'sum of stage medians':<26}{total_ms:>10.1f}")
    print(f"{'acceptance.sh (piped)':<26}{pipe['median_ms']:>10.1f}{pipe['min_ms']:>9.1f}")
    print(f"verdict {status}: criteria " + ", ".join(f"{k} {v}" for k, v in counts.items())
          + "; observations " + ", ".join(f"{k} {v}" for k, v in sorted(observed.items())))
    print(f"qa-check per check (its events in the last run, whole ms): sum {sum(durations)} ms, "
          f"median {statistics.median(durations):.0f} ms, max {max(durations)} ms")
    print(f"server, last pipeline run: {traffic['requests']} requests on "
          f"{traffic['connections']} TCP connections; Nagle {'on' if args.server_nagle else 'off (TCP_NODELAY)'}")
    print("records byte-identical across runs (events aside): "
          + ("yes" if not changed else f"NO ({', '.join(sorted(set(changed)))})"))
    targets = {
        "piped_ms": {"value": pipe["median_ms"], "limit": MAX_PIPELINE_MS,
                     "pass": pipe["median_ms"] < MAX_PIPELINE_MS},
        "total_ms": {"value": total_ms, "limit": MAX_PIPELINE_MS, "pass": total_ms < MAX_PIPELINE_MS},
    }
    for name, label in (("piped_ms", f"{args.checks} http checks, whole pipeline (piped, median) %.1f ms < %.0f ms"),
                        ("total_ms", f"{args.checks} http checks, sum of stage medians %.1f ms < %.0f ms")):
        t = targets[name]
        print(f"{'PASS' if t['pass'] else 'MISS'}  " + label % (t["value"], t["limit"]))

    if args.json:
        args.repo, args.base, args.head = work, None, None  # write_json's common fields
        write_json(args.json, args, {
            "commands": {stage: " ".join(cmd) for stage, cmd in cmds},
            "pipeline": " ".join(pipeline), "url": url, "checks": args.checks,
            "server_nagle": args.server_nagle,
            "stages": stats, "total_ms": total_ms, "piped": pipe,
            "verdict": {"status": status, "counts": counts, "observations": observed},
            "check_ms": durations, "traffic": traffic, "stable_output": not changed,
            "targets": targets,
        })
    return 0


if __name__ == "__main__":
    sys.exit(main())
