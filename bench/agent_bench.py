#!/usr/bin/env python3
"""Benchmark qa-check's mcp and browser checks against real peers and their bare clients.

Usage: python3 bench/agent_bench.py --bin-dir DIR [--work DIR] [--runs 5] [--browser-runs 3]
                                    [--mcp-server SCRIPT] [--json FILE]

Needs the peers `make peers` installs: tests/peers/venv (the official MCP Python SDK),
tests/peers/node_modules/playwright-core and Chromium's headless shell
(/usr/lib/chromium/chromium-headless-shell, Debian's chromium-headless-shell), plus node on PATH.

MCP: starts tests/peers/mcp_server.py --mode stateful with the venv's Python on 127.0.0.1
(an ephemeral port, read from its `PORT n` line) and writes a plan in --work (default
bench/work/agent, recreated) whose url target is the server's /mcp endpoint, with 20 mcp
checks: 10 discoveries of different tools (paging through the 22 tools, 4 a page) and 10
invocations, set_volume observed on GET /test/player-state with observeContains and
get_volume readOnly observed there too. The pipeline
`qa-intent --plan P | qa-fetch --allow-network | qa-route --allow-network --allow-tool-calls`
runs once, untimed, to a file; then the two sides alternate, one warm-up each, --runs rounds:
  - qa-check: `qa-check --allow-network --allow-tool-calls --in FILE`;
  - sdk-client: this script run by the venv's Python as `agent_bench.py sdk-client PLAN`,
    which does the same 20 checks with the SDK's own Streamable HTTP client, each in its own
    session as qa-check does (initialize, tools/list following nextCursor until the tool is
    listed, tools/call for an invocation, the observation GET with urllib before and after).
--mcp-server runs another server script in the peer's place (e.g. a patched copy, to see
what the peer's own latency costs); the script prints the peer's latency on a reused
connection either way.
Browser: serves bins/qa-check/tests/pages/ from a ThreadingHTTPServer on 127.0.0.1 and runs
one browser check (add_item, observeContains on #items) through the same pipeline, with
`--browser-module tests/peers/node_modules/playwright-core/index.mjs --browser
/usr/lib/chromium/chromium-headless-shell --no-screenshots` (the reference takes no picture); the reference is a plain node script that launches the same Chromium
with the same switches (qa-check's CHROMIUM_ARGS, read from bins/qa-check/src/browser.rs)
through playwright-core, opens the page, calls document.modelContext.executeTool once and
closes. One warm-up each, then --browser-runs alternating rounds. Then qa-check alone, with
and without its screenshots (a PNG before the call and one after the observation),
alternated the same way: what the evidence costs.

Wall time is time.perf_counter around spawn+reap (diff_bench.run_once), process start-up
included on both sides (the SDK side's Python start-up and imports too; its time for the
checks alone is printed beside it). Every observation of every qa-check run must be `pass`
and every reference check must succeed, or the bench fails loudly.

Target (from the issue): 20 MCP checks (discovery plus invocation) in under 3 s wall, one
browser check in under 4 s including the browser start; each printed with its ratio to the
reference. A missed target prints MISS but exits 0 (benches report, tests assert); a failing
command or a check that does not pass exits 2; bad arguments or a missing binary or peer
exit 1.
"""

import argparse
import functools
import http.server
import json
import os
import re
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # importing a sibling script must not leave bench/__pycache__
from acceptance_bench import check_durations
from diff_bench import CommandFailed, bench_env, run_once, summarize, write_json

MAX_MCP_MS = 3000.0
MAX_BROWSER_MS = 4000.0
BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
PEERS = os.path.join(ROOT, "tests", "peers")
PYTHON = os.path.join(PEERS, "venv", "bin", "python")
MCP_SERVER = os.path.join(PEERS, "mcp_server.py")
PLAYWRIGHT = os.path.join(PEERS, "node_modules", "playwright-core", "index.mjs")
# The browser `make peers` installs (the tests' too); runs before 2026-12-03 used the full
# /usr/bin/chromium, about twice the CPU a launch (bench/README.md, issue 28, eighth pass).
CHROMIUM = "/usr/lib/chromium/chromium-headless-shell"
PAGES = os.path.join(ROOT, "bins", "qa-check", "tests", "pages")
BROWSER_RS = os.path.join(ROOT, "bins", "qa-check", "src", "browser.rs")
STAGES = ["qa-intent", "qa-fetch", "qa-route", "qa-check"]
SERVER_START_S = 30.0

# Tools only listed, never called: spread over the server's six pages, so most need cursors.
DISCOVERED = ["filler_00", "filler_05", "filler_13", "draft7_tool", "modern_tool", "set_volume",
              "get_volume", "mute", "lying_set", "sneaky_read"]
# Volumes set_volume sets, in order: none is 50 (the start) or a prefix of another, so each
# observeContains `"volume":N` is a change the call made, run after run.
LEVELS = [11, 23, 37, 42, 68]
BROWSER_ITEM = "bench item"

# The reference browser client: launch, open, one executeTool, close. Chromium's
# executeTool takes the listed tool itself, not its name (as qa-check's driver does).
BARE_PLAYWRIGHT = """
import { pathToFileURL } from 'node:url';
const config = JSON.parse(process.argv[process.argv.length - 1]);
const playwright = await import(pathToFileURL(config.module).href);
const chromium = playwright.chromium ?? playwright.default.chromium;
const browser = await chromium.launch({ executablePath: config.executable, headless: true, args: config.args });
try {
  const page = await browser.newPage();
  await page.goto(config.url, { waitUntil: 'load' });
  const result = await page.evaluate(async ({ tool, input }) => {
    const listed = (await document.modelContext.getTools()).find((t) => t.name === tool);
    return document.modelContext.executeTool(listed, input);
  }, { tool: config.tool, input: config.input });
  process.stdout.write(JSON.stringify({ result }) + '\\n');
} finally {
  await browser.close();
}
"""


def mcp_checks():
    """The 20 mcp checks: 10 discoveries, then set_volume and read-only get_volume calls in turn."""
    checks = [{"id": f"find-{tool}", "criterion": "discovery", "kind": "mcp", "tool": tool}
              for tool in DISCOVERED]
    for level in LEVELS:
        checks.append({"id": f"set-{level}", "criterion": "volume", "kind": "mcp", "tool": "set_volume",
                       "input": {"level": level}, "observePath": "/test/player-state",
                       "observeContains": f'"volume":{level}'})
        checks.append({"id": f"get-after-{level}", "criterion": "volume", "kind": "mcp",
                       "tool": "get_volume", "input": {}, "observePath": "/test/player-state",
                       "readOnly": True})
    return checks


def browser_checks():
    return [{"id": "add-item", "criterion": "list", "kind": "browser", "tool": "add_item",
             "input": {"text": BROWSER_ITEM}, "observePath": "#items", "observeContains": BROWSER_ITEM}]


def write_plan(path, url, criteria, checks):
    plan = {
        "target": {"kind": "url", "value": url},
        "criteria": [{"id": cid, "expected": expected, "source": {"kind": "request", "text": expected}}
                     for cid, expected in criteria],
        "checks": checks,
    }
    with open(path, "w") as fh:
        json.dump(plan, fh, indent=2)
        fh.write("\n")


# --- the SDK reference client (run by the venv's Python) ---

def observe(base, path):
    """GET path on base's origin with urllib: the observation outside MCP."""
    import urllib.parse
    import urllib.request
    with urllib.request.urlopen(urllib.parse.urljoin(base, path), timeout=10) as response:
        return response.read().decode()


async def sdk_check(url, check):
    """One check in its own session; return why it failed, or None when it passed."""
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp_types import PaginatedRequestParams

    async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        cursor, tool = None, None
        while tool is None:
            params = PaginatedRequestParams(cursor=cursor) if cursor else None
            listing = await session.list_tools(params=params)
            tool = next((t for t in listing.tools if t.name == check["tool"]), None)
            cursor = listing.next_cursor
            if tool is None and cursor is None:
                return f"tool {check['tool']} is not listed"
        if not tool.description or not isinstance(tool.input_schema, dict):
            return f"tool {tool.name} has no description or object inputSchema"
        if "input" not in check:
            return None
        before = observe(url, check["observePath"])
        result = await session.call_tool(check["tool"], check["input"])
        after = observe(url, check["observePath"])
        if result.is_error:
            return f"tool error: {result.content}"
        if check.get("readOnly") and before != after:
            return f"the observation changed: {before} -> {after}"
        if "observeContains" in check and check["observeContains"] not in after:
            return f"the observation {after} does not contain {check['observeContains']}"
        return None


def sdk_client_main(argv):
    """`agent_bench.py sdk-client PLAN`: the plan's mcp checks with the SDK client; prints
    one JSON line {"checks_ms", "failed": {check id: why}}; when any failed, also names them
    on stderr (which the parent shows) and exits 1."""
    import anyio

    ap = argparse.ArgumentParser(prog="agent_bench.py sdk-client")
    ap.add_argument("plan")
    args = ap.parse_args(argv)
    with open(args.plan, encoding="utf-8") as fh:
        plan = json.load(fh)
    url = plan["target"]["value"]

    async def run_all():
        failed = {}
        for check in plan["checks"]:
            why = await sdk_check(url, check)
            if why is not None:
                failed[check["id"]] = why
        return failed

    start = time.perf_counter()
    failed = anyio.run(run_all)
    elapsed_ms = (time.perf_counter() - start) * 1000
    print(json.dumps({"checks_ms": round(elapsed_ms, 3), "failed": failed}))
    for check, why in failed.items():
        print(f"sdk-client: {check}: {why}", file=sys.stderr)
    return 1 if failed else 0


# --- the peers ---

class McpServer:
    """An MCP server script (tests/peers/mcp_server.py) --mode stateful as a child process;
    stop() ends it."""

    def __init__(self, script):
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([PYTHON, script, "--mode", "stateful"], stdout=subprocess.PIPE,
                                     stderr=self.log, stdin=subprocess.DEVNULL)
        try:
            self.port = self._read_port()
        except BaseException:
            self.stop()
            raise

    def _read_port(self):
        deadline = time.monotonic() + SERVER_START_S
        line = b""
        while not line.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.proc.stdout], [], [], left)[0]:
                raise CommandFailed(f"mcp_server.py printed no PORT line in {SERVER_START_S:.0f} s")
            chunk = os.read(self.proc.stdout.fileno(), 1)
            if not chunk:
                self.log.seek(0)
                tail = self.log.read()[-2000:].decode(errors="replace").rstrip()
                raise CommandFailed(f"mcp_server.py exited before it listened\n{tail}")
            line += chunk
        match = re.fullmatch(rb"PORT (\d+)\n", line)
        if not match:
            raise CommandFailed(f"mcp_server.py printed {line!r}, not `PORT n`")
        return int(match.group(1))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()  # uvicorn shuts down gracefully on SIGTERM
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
        self.log.close()


def keep_alive_ms(port, path="/test/player-state", requests=5):
    """Median ms of GET path on one reused connection (the first request aside): a server
    that writes headers and body apart with Nagle on answers in ~40 ms (the client's delayed
    ACK), where a fresh connection answers in ~1 ms."""
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    walls = []
    try:
        for _ in range(requests):
            start = time.perf_counter()
            conn.request("GET", path)
            conn.getresponse().read()
            walls.append((time.perf_counter() - start) * 1000)
    finally:
        conn.close()
    return statistics.median(walls[1:])


class QuietPages(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep the bench output to the table
        pass


def serve_pages():
    """A ThreadingHTTPServer for PAGES on 127.0.0.1 in a daemon thread; shutdown() stops it."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(QuietPages, directory=PAGES))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def chromium_args():
    """qa-check's Chromium switches (CHROMIUM_ARGS in browser.rs), so both sides launch the
    same browser the same way."""
    with open(BROWSER_RS, encoding="utf-8") as fh:
        source = fh.read()
    match = re.search(r"pub const CHROMIUM_ARGS: &\[&str\] = &\[(.*?)\];", source, re.S)
    if not match:
        sys.exit(f"agent_bench: no CHROMIUM_ARGS in {BROWSER_RS}")
    return re.findall(r'"([^"]*)"', match.group(1))


# --- the runs ---

def route(bins, plan, work, out, env):
    """Run qa-intent --plan | qa-fetch | qa-route once into out, as a real pipe."""
    stages = [
        [os.path.join(bins, "qa-intent"), "--plan", plan, "--repo", work],
        [os.path.join(bins, "qa-fetch"), "--repo", work, "--allow-network"],
        [os.path.join(bins, "qa-route"), "--repo", work, "--allow-network", "--allow-tool-calls"],
    ]
    with open(out, "wb") as dst, tempfile.TemporaryFile() as err:
        procs, upstream = [], subprocess.DEVNULL
        for i, cmd in enumerate(stages):
            last = i == len(stages) - 1
            proc = subprocess.Popen(cmd, stdin=upstream, stdout=dst if last else subprocess.PIPE,
                                    stderr=err, env=env)
            if upstream is not subprocess.DEVNULL:
                upstream.close()  # the next stage owns it now: a dead reader ends the writer
            upstream = proc.stdout
            procs.append(proc)
        codes = [proc.wait() for proc in procs]
        if any(codes):
            err.seek(0)
            tail = err.read()[-2000:].decode(errors="replace").rstrip()
            raise CommandFailed(f"qa-intent | qa-fetch | qa-route: exit codes {codes}\n{tail}")


def observations(path):
    with open(path, encoding="utf-8") as fh:
        return [rec["data"] for rec in map(json.loads, fh) if rec["kind"] == "observation"]


def not_passed(path, expected):
    """Lines naming every observation in path that is not `pass`, and a line when there are
    not `expected` observations; empty when all is well."""
    seen = observations(path)
    bad = [f"{o['check']}: {o['status']}: {o['observed']}" for o in seen if o["status"] != "pass"]
    if len(seen) != expected:
        bad.append(f"{len(seen)} observations, expected {expected}")
    return bad


def timed_check(cmd, env, routed, out, expected):
    """One timed qa-check run; its wall seconds. Raises CommandFailed naming every
    observation that did not pass (qa-check exits non-zero then, after writing them)."""
    try:
        wall = run_once(cmd, env, stdin=routed, stdout=out)[0]
    except CommandFailed as exc:
        bad = not_passed(out, expected) if os.path.exists(out) else []
        raise CommandFailed("\n".join([str(exc), *bad])) from exc
    bad = not_passed(out, expected)
    if bad:
        raise CommandFailed("qa-check exited 0 but not every check passed:\n" + "\n".join(bad))
    return wall


def timed_reference(cmd, env, out, check):
    """One timed reference run; its wall seconds. check(parsed stdout line) returns why the
    reference did not do its work, or None."""
    wall = run_once(cmd, env, stdout=out)[0]
    with open(out, encoding="utf-8") as fh:
        text = fh.read()
    try:
        why = check(json.loads(text))
    except ValueError:
        why = f"printed {text[:200]!r}, not one JSON line"
    if why:
        raise CommandFailed(f"{' '.join(cmd[:3])} ...: {why}")
    return wall


def alternate(runs, first, second):
    """One warm-up of each, then `runs` rounds flipping which side goes first; returns the
    two lists of (wall s, 0) samples for summarize()."""
    first(), second()
    a, b = [], []
    for i in range(runs):
        order = [(first, a), (second, b)] if i % 2 == 0 else [(second, b), (first, a)]
        for side, samples in order:
            samples.append((side(), 0))
    return a, b


def bench_mcp(bins, work, env, runs, script):
    server = McpServer(script)
    try:
        url = f"http://127.0.0.1:{server.port}/mcp"
        keep_alive = keep_alive_ms(server.port)
        plan = os.path.join(work, "mcp", ".qa-acceptance.json")
        os.makedirs(os.path.dirname(plan))
        checks = mcp_checks()
        write_plan(plan, url, [("discovery", "The player lists its tools"),
                               ("volume", "set_volume changes the volume; get_volume changes nothing")], checks)
        routed = os.path.join(work, "mcp", "routed.ndjson")
        route(bins, plan, os.path.dirname(plan), routed, env)
        out = os.path.join(work, "mcp", "checked.ndjson")
        qa = [os.path.join(bins, "qa-check"), "--allow-network", "--allow-tool-calls", "--in", routed]
        sdk = [PYTHON, os.path.abspath(__file__), "sdk-client", plan]
        sdk_out = os.path.join(work, "mcp", "sdk-client.json")
        sdk_ms = []

        def sdk_ok(reply):
            sdk_ms.append(reply["checks_ms"])
            return "; ".join(f"{k}: {v}" for k, v in reply["failed"].items()) or None

        qa_samples, sdk_samples = alternate(
            runs, lambda: timed_check(qa, env, routed, out, len(checks)),
            lambda: timed_reference(sdk, env, sdk_out, sdk_ok))
    finally:
        server.stop()
    return {"url": url, "plan": plan, "checks": len(checks), "server": script,
            "server_keep_alive_ms": keep_alive, "qa_check": summarize(qa_samples),
            "sdk_client": summarize(sdk_samples),
            "sdk_checks_ms": statistics.median(sdk_ms[1:]),  # [0] is the warm-up's
            "qa_check_ms": check_durations(out), "commands": {"qa-check": " ".join(qa),
                                                                "sdk-client": " ".join(sdk)}}


def bench_browser(bins, work, env, runs):
    server = serve_pages()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/webmcp.html"
        plan = os.path.join(work, "browser", ".qa-acceptance.json")
        os.makedirs(os.path.dirname(plan))
        checks = browser_checks()
        write_plan(plan, url, [("list", "add_item appends an item to the shopping list")], checks)
        routed = os.path.join(work, "browser", "routed.ndjson")
        route(bins, plan, os.path.dirname(plan), routed, env)
        out = os.path.join(work, "browser", "checked.ndjson")
        # No screenshots: the bare client takes none, so the two do the same work.
        qa = [os.path.join(bins, "qa-check"), "--allow-network", "--allow-tool-calls",
              "--browser-module", PLAYWRIGHT, "--browser", CHROMIUM, "--no-screenshots",
              "--repo", os.path.dirname(plan), "--in", routed]
        config = {"module": PLAYWRIGHT, "executable": CHROMIUM, "args": chromium_args(), "url": url,
                  "tool": "add_item", "input": {"text": BROWSER_ITEM}}
        bare = ["node", "--input-type=module", "-e", BARE_PLAYWRIGHT, json.dumps(config)]
        bare_out = os.path.join(work, "browser", "bare-playwright.json")

        def bare_ok(reply):
            return None if BROWSER_ITEM in json.dumps(reply["result"]) else f"executeTool gave {reply}"

        qa_samples, bare_samples = alternate(
            runs, lambda: timed_check(qa, env, routed, out, len(checks)),
            lambda: timed_reference(bare, env, bare_out, bare_ok))
        # What the evidence costs: the same check with its before and after screenshots.
        shots = [arg for arg in qa if arg != "--no-screenshots"]
        shots_out = os.path.join(work, "browser", "checked-with-screenshots.ndjson")
        plain_samples, shot_samples = alternate(
            runs, lambda: timed_check(qa, env, routed, out, len(checks)),
            lambda: timed_check(shots, env, routed, shots_out, len(checks)))
    finally:
        server.shutdown()
        server.server_close()
    pngs = [shot for o in observations(shots_out) for shot in o["evidence"].get("screenshots", [])]
    return {"url": url, "plan": plan, "qa_check": summarize(qa_samples),
            "bare_playwright": summarize(bare_samples), "observed": observations(out)[0]["observed"],
            "without_screenshots": summarize(plain_samples), "with_screenshots": summarize(shot_samples),
            "screenshots": [{"moment": p["moment"], "bytes": p["bytes"]} for p in pngs],
            "commands": {"qa-check": " ".join(qa), "bare-playwright": "node --input-type=module -e SCRIPT CONFIG"}}


def missing_parts(bins, mcp_server):
    """Every binary or peer this bench needs that is not there."""
    missing = [path for path in [os.path.join(bins, s) for s in STAGES] + [PYTHON, CHROMIUM]
               if not (os.path.isfile(path) and os.access(path, os.X_OK))]
    missing += [path for path in (mcp_server, PLAYWRIGHT, BROWSER_RS) if not os.path.isfile(path)]
    if shutil.which("node") is None:
        missing.append("node on PATH")
    return missing


def main():
    if sys.argv[1:2] == ["sdk-client"]:
        return sdk_client_main(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin-dir", required=True, help="directory holding the qa-* binaries")
    ap.add_argument("--work", default=os.path.join(BENCH, "work", "agent"),
                    help="folder for the plans, routed streams and outputs (recreated)")
    ap.add_argument("--runs", type=int, default=5, help="measured rounds of the 20 mcp checks")
    ap.add_argument("--browser-runs", type=int, default=3, help="measured rounds of the browser check")
    ap.add_argument("--mcp-server", metavar="SCRIPT", default=MCP_SERVER,
                    help="the MCP server script the venv's Python runs (a variant of the peer)")
    ap.add_argument("--json", metavar="FILE", help="also write results as JSON")
    args = ap.parse_args()
    if args.runs < 1 or args.browser_runs < 1:
        ap.error("--runs and --browser-runs must be >= 1")
    bins = os.path.abspath(args.bin_dir)
    missing = missing_parts(bins, args.mcp_server)
    if missing:
        sys.exit("agent_bench: missing (build the binaries, run `make peers`): " + ", ".join(missing))
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = bench_env()
    try:
        mcp = bench_mcp(bins, work, env, args.runs, os.path.abspath(args.mcp_server))
        browser = bench_browser(bins, work, env, args.browser_runs)
    except CommandFailed as exc:
        print(f"agent_bench: {exc}", file=sys.stderr)
        return 2

    print(f"mcp target {mcp['url']}  {mcp['checks']} mcp checks  runs {args.runs} (+1 warm-up)  "
          f"load {os.getloadavg()[0]:.2f}")
    server = mcp["server"]
    if server.startswith(ROOT + os.sep):
        server = os.path.relpath(server, ROOT)
    print(f"server {server}: a GET on a reused connection takes "
          f"{mcp['server_keep_alive_ms']:.1f} ms (median)")
    print(f"{'side':<40}{'median ms':>10}{'min ms':>9}")
    rows = [("qa-check (20 mcp checks)", mcp["qa_check"]), ("SDK client (python, per check session)", mcp["sdk_client"])]
    for label, st in rows:
        print(f"{label:<40}{st['median_ms']:>10.1f}{st['min_ms']:>9.1f}")
    mcp_ratio = mcp["qa_check"]["median_ms"] / mcp["sdk_client"]["median_ms"]
    print(f"ratio qa-check / SDK client: {mcp_ratio:.2f}; the SDK client's checks alone (in process, "
          f"start-up and imports aside): {mcp['sdk_checks_ms']:.1f} ms")
    durations = mcp["qa_check_ms"]
    print(f"qa-check per check (its events in the last run, whole ms): sum {sum(durations)} ms, "
          f"median {statistics.median(durations):.0f} ms, max {max(durations)} ms")
    print(f"browser target {browser['url']}  1 browser check  runs {args.browser_runs} (+1 warm-up)")
    print(f"{'side':<40}{'median ms':>10}{'min ms':>9}")
    for label, st in (("qa-check (1 browser check)", browser["qa_check"]),
                      ("bare playwright-core (node)", browser["bare_playwright"])):
        print(f"{label:<40}{st['median_ms']:>10.1f}{st['min_ms']:>9.1f}")
    browser_ratio = browser["qa_check"]["median_ms"] / browser["bare_playwright"]["median_ms"]
    print(f"ratio qa-check / bare Playwright: {browser_ratio:.2f}; observed: {browser['observed']}")
    shot_ms = browser["with_screenshots"]["median_ms"] - browser["without_screenshots"]["median_ms"]
    sizes = ", ".join(f"{p['moment']} {p['bytes']:,} bytes" for p in browser["screenshots"])
    print(f"screenshots: qa-check median {browser['with_screenshots']['median_ms']:.1f} ms with, "
          f"{browser['without_screenshots']['median_ms']:.1f} ms without (alternated): "
          f"{shot_ms:+.1f} ms for {sizes or 'no PNG'}")
    targets = {
        "mcp_ms": {"value": mcp["qa_check"]["median_ms"], "limit": MAX_MCP_MS, "ratio": mcp_ratio},
        "browser_ms": {"value": browser["qa_check"]["median_ms"], "limit": MAX_BROWSER_MS,
                       "ratio": browser_ratio},
    }
    for name, label in (("mcp_ms", "20 mcp checks, qa-check median %.1f ms < %.0f ms"),
                        ("browser_ms", "1 browser check, qa-check median %.1f ms < %.0f ms")):
        t = targets[name]
        t["pass"] = t["value"] < t["limit"]
        print(f"{'PASS' if t['pass'] else 'MISS'}  " + label % (t["value"], t["limit"]))

    if args.json:
        args.repo, args.base, args.head = work, None, None  # write_json's common fields
        write_json(args.json, args, {"mcp": mcp, "browser": browser, "targets": targets})
    return 0


if __name__ == "__main__":
    sys.exit(main())
