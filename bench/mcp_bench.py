#!/usr/bin/env python3
"""Benchmark qa-mcp's change_report against the same pipeline run from the shell.

Usage: tests/peers/venv/bin/python bench/mcp_bench.py --bin-dir DIR --repo REPO
                                   [--base main] [--head feature] [--runs 11] [--json FILE]

Needs the official MCP Python SDK (tests/peers/venv, `make peers`), so it runs with the
venv's Python, not the system one.

Both sides run the change flow qa-diff | qa-intent | qa-route | qa-trace | qa-report
--format agent --out DIR on --repo's --base..--head range (the 200-file flow bench repo of
bench/gen_flow_repo.py by default in `make bench`), with the binaries of --bin-dir:
  - shell: `sh pipelines/changes.sh --repo R --base B --head H` with QA_FORMAT=agent and
    QA_OUT a fresh folder, PATH starting with --bin-dir; timed around spawn+reap;
  - mcp: one qa-mcp session (`qa-mcp --bin-dir DIR`, started and initialized once, before
    the timing), then `tools/call change_report {repo, base, head}` per run, timed around
    the call alone (its report folder is new each time, under REPO/.qa/mcp).
The sides alternate (which goes first alternates too), one warm-up round, then --runs
rounds; medians and the ratio mcp/shell are printed. Each side's agent line must agree
on the counts, or the bench fails.

Target (from the issue): change_report through MCP within 1.2x of the shell pipeline.
A missed target prints MISS but exits 0 (benches report, tests assert); a failing run
exits 2; bad arguments or a missing binary exit 1.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

MAX_RATIO = 1.2
HERE = os.path.dirname(os.path.abspath(__file__))
CHANGES = os.path.join(os.path.dirname(HERE), "pipelines", "changes.sh")


def parse():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin-dir", required=True)
    p.add_argument("--repo", required=True)
    p.add_argument("--base", default="main")
    p.add_argument("--head", default="feature")
    p.add_argument("--runs", type=int, default=11)
    p.add_argument("--json")
    a = p.parse_args()
    a.bin_dir = os.path.abspath(a.bin_dir)
    a.repo = os.path.abspath(a.repo)
    for name in ("qa-mcp", "qa-diff", "qa-report"):
        if not os.access(os.path.join(a.bin_dir, name), os.X_OK):
            sys.exit(f"mcp_bench: {name} not in {a.bin_dir}: build with `make release`")
    if not os.path.isdir(os.path.join(a.repo, ".git")):
        sys.exit(f"mcp_bench: {a.repo} is not a git repository: run bench/gen_flow_repo.py")
    return a


def env_for(bin_dir):
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    return env


def shell_once(a, env, out_root, n):
    out = os.path.join(out_root, f"shell-{n}")
    run_env = dict(env, QA_FORMAT="agent", QA_OUT=out)
    start = time.perf_counter()
    res = subprocess.run(
        ["sh", CHANGES, "--repo", a.repo, "--base", a.base, "--head", a.head],
        env=run_env, capture_output=True,
    )
    wall = time.perf_counter() - start
    if res.returncode not in (0, 2) or not os.path.isfile(os.path.join(out, "SHA256SUMS")):
        print(f"mcp_bench: changes.sh exited {res.returncode}: {res.stderr.decode()[-400:]}")
        sys.exit(2)
    return wall, json.loads(res.stdout)


async def mcp_once(client, a):
    start = time.perf_counter()
    result = await client.call_tool(
        "change_report", {"repo": a.repo, "base": a.base, "head": a.head}, read_timeout_seconds=120
    )
    wall = time.perf_counter() - start
    s = result.structured_content or {}
    if result.is_error or not s.get("sha256sums"):
        text = " ".join(getattr(c, "text", "") for c in result.content)
        print(f"mcp_bench: change_report failed: {text[:400]}")
        sys.exit(2)
    return wall, s["agent"]


async def main():
    a = parse()
    env = env_for(a.bin_dir)
    out_root = tempfile.mkdtemp(prefix="mcp-bench-")
    params = StdioServerParameters(
        command=os.path.join(a.bin_dir, "qa-mcp"), args=["--bin-dir", a.bin_dir], env=env
    )
    shell, mcp = [], []
    try:
        async with Client(params, mode="legacy", read_timeout_seconds=120) as client:
            await client.list_tools()
            for n in range(a.runs + 1):
                if n % 2 == 0:
                    sw, sa = shell_once(a, env, out_root, n)
                    mw, ma = await mcp_once(client, a)
                else:
                    mw, ma = await mcp_once(client, a)
                    sw, sa = shell_once(a, env, out_root, n)
                if sa["counts"] != ma["counts"]:
                    print(f"mcp_bench: the two sides disagree: {sa['counts']} vs {ma['counts']}")
                    sys.exit(2)
                if n > 0:  # round 0 is the warm-up
                    shell.append(sw)
                    mcp.append(mw)
    finally:
        shutil.rmtree(out_root, ignore_errors=True)
        shutil.rmtree(os.path.join(a.repo, ".qa", "mcp"), ignore_errors=True)
    s_med, m_med = statistics.median(shell), statistics.median(mcp)
    ratio = m_med / s_med
    verdict = "ok" if ratio <= MAX_RATIO else "MISS"
    print(f"mcp_bench: change flow on {os.path.basename(a.repo)} {a.base}..{a.head}, "
          f"{a.runs} interleaved runs after one warm-up")
    print(f"  shell (pipelines/changes.sh, QA_FORMAT=agent)  median {s_med * 1000:7.1f} ms  "
          f"(min {min(shell) * 1000:.1f}, max {max(shell) * 1000:.1f})")
    print(f"  mcp   (tools/call change_report)               median {m_med * 1000:7.1f} ms  "
          f"(min {min(mcp) * 1000:.1f}, max {max(mcp) * 1000:.1f})")
    print(f"  ratio mcp/shell {ratio:.2f}x  (target <= {MAX_RATIO}x)  {verdict}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"shell_ms": [x * 1000 for x in shell], "mcp_ms": [x * 1000 for x in mcp],
                       "shell_median_ms": s_med * 1000, "mcp_median_ms": m_med * 1000,
                       "ratio": ratio, "target": MAX_RATIO}, fh, indent=2)


anyio.run(main)
