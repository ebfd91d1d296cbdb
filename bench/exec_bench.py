#!/usr/bin/env python3
"""qa-check --exec's counting overhead: a 200-test cargo run and a 200-test vitest run.

Target (issue 30): counting the tests (reading libtest's lines as they stream; vitest's
JSON reporter into a private file) adds under 5% to the command's wall time. Each
fixture is a git repository whose last commit changes its 200-test file; the change
flow (qa-diff | qa-intent | qa-route) routes it, and the routed command is timed run
plainly through /bin/sh and under qa-check --exec (the record's duration_ms: the same
command, with the reporter options and the counting). Medians of --runs each, after one
warm-up run of each (cargo builds once).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.path.join(HERE, "..", "tests", "peers")
TESTS = 200


def git(repo, *args):
    subprocess.run(
        ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


def write(repo, path, text):
    full = os.path.join(repo, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


def cargo_fixture(repo):
    write(repo, "Cargo.toml", '[package]\nname = "many"\nversion = "0.1.0"\nedition = "2021"\n')
    write(repo, "src/lib.rs", "pub fn add(a: u64, b: u64) -> u64 {\n    a + b\n}\n")
    write(repo, ".gitignore", "target/\nCargo.lock\n")
    tests = "use many::add;\n" + "".join(
        f"#[test]\nfn adds_{i}() {{\n    assert_eq!(add({i}, 1), {i + 1});\n}}\n" for i in range(TESTS)
    )
    return "tests/many.rs", tests


def vitest_fixture(repo):
    write(repo, "package.json", json.dumps({"name": "many", "private": True, "scripts": {"test": "vitest run"}}))
    write(repo, ".gitignore", "node_modules\n")
    os.symlink(os.path.abspath(os.path.join(PEERS, "node_modules")), os.path.join(repo, "node_modules"))
    tests = "import { it, expect } from 'vitest';\n" + "".join(
        f"it('adds {i}', () => {{ expect({i} + 1).toBe({i + 1}); }});\n" for i in range(TESTS)
    )
    return "src/many.spec.ts", tests


def routed(bins, repo, env):
    """The change flow's stream for the last commit, and the route's command."""
    flow = (
        f"{bins}/qa-diff --repo . --base HEAD^ --head HEAD | {bins}/qa-intent --repo . "
        f"| {bins}/qa-route --repo ."
    )
    stream = subprocess.run(["sh", "-c", flow], cwd=repo, env=env, check=True, capture_output=True).stdout
    for line in stream.splitlines():
        record = json.loads(line)
        command = record.get("data", {}).get("command") if record["kind"] == "route" else None
        if command and record["data"]["action"]["kind"] == "run-repository-command":
            return stream, command
    sys.exit(f"no command route in {repo}")


def plain(repo, command, env):
    started = time.perf_counter()
    subprocess.run(["sh", "-c", command["run"]], cwd=os.path.join(repo, command["dir"]), env=env,
                   check=True, capture_output=True)
    return (time.perf_counter() - started) * 1000


def exec_ms(bins, repo, stream, env):
    out = subprocess.run([f"{bins}/qa-check", "--exec", "--allow-exec", "--repo", "."], cwd=repo,
                         env=env, input=stream, capture_output=True)
    for line in out.stdout.splitlines():
        record = json.loads(line)
        if record["kind"] == "execution":
            data = record["data"]
            if data["status"] != "passed" or (data["tests"] or {}).get("ran") != TESTS:
                sys.exit(f"qa-check --exec did not count {TESTS} passing tests: {json.dumps(data)}")
            return data["duration_ms"]
    sys.exit(f"no execution record: {out.stderr.decode()}")


def bench(name, fixture, bins, runs):
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARGO") and k != "RUSTFLAGS"}
    env.update({"CI": "1", "GIT_CONFIG_NOSYSTEM": "1", "npm_config_update_notifier": "false"})
    with tempfile.TemporaryDirectory(prefix=f"exec-bench-{name}-") as repo:
        git(repo, "init", "-q", "-b", "main")
        path, tests = fixture(repo)
        write(repo, path, tests.split("\n", 1)[0] + "\n")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "base")
        write(repo, path, tests)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", f"test: {TESTS} tests")
        stream, command = routed(bins, repo, env)
        plain(repo, command, env)
        exec_ms(bins, repo, stream, env)
        raw, counted = [], []
        for _ in range(runs):
            raw.append(plain(repo, command, env))
            counted.append(exec_ms(bins, repo, stream, env))
        base, under = statistics.median(raw), statistics.median(counted)
        overhead = (under - base) / base * 100
        # The fastest run of each is the one a busy machine disturbed least: on a loaded
        # host the medians move by more than the overhead measured.
        fastest = (min(counted) - min(raw)) / min(raw) * 100
        print(f"{name}: `{command['run']}` plain {base:.0f} ms, under qa-check --exec {under:.0f} ms "
              f"(median of {runs}, interleaved): {under - base:+.0f} ms, {overhead:+.1f}%; "
              f"fastest runs {min(raw):.0f} ms and {min(counted):.0f} ms: {fastest:+.1f}%")
        return overhead


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    bins = os.path.abspath(args.bin_dir)
    worst = max(bench("cargo", cargo_fixture, bins, args.runs), bench("vitest", vitest_fixture, bins, args.runs))
    print(f"exec_bench: worst overhead {worst:+.1f}% (target under 5%; qa-check's own start and wait included)")


if __name__ == "__main__":
    main()
