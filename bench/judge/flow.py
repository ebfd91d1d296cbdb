"""Running the change flow on one commit: each stage on the saved output of the one before."""

import json
import os
import shutil
import subprocess
import time

from selection import bench_env, git

STAGES = ["qa-diff", "qa-intent", "qa-route", "qa-trace"]
SKIPPED = {"exit": None, "error": "skipped: an earlier stage failed", "skipped": True, "wall": 0.0}
# Every runner qa-route looks up on PATH (shared/commands: Runner::program; ./gradlew is a
# file of the repository). A runner it cannot find makes it drop the route's command.
RUNNERS = ["cargo", "npm", "pnpm", "yarn", "bun", "pytest", "go", "mvn", "gradle", "make"]
SHIM = '#!/bin/sh\necho "not run by the judge" >&2\nexit 127\n'


def shim_dir(folder, env_path=None):
    """Write into folder one script per runner this machine lacks, which prints "not run by
    the judge" and exits 127, and return the PATH with folder first: qa-route then keeps
    every route, and the judge never runs a routed command."""
    os.makedirs(folder, exist_ok=True)
    path = env_path if env_path is not None else os.environ.get("PATH", "")
    for runner in RUNNERS:
        target = os.path.join(folder, runner)
        if os.path.exists(target) or shutil.which(runner, path=path):
            continue
        with open(target, "w") as fh:
            fh.write(SHIM)
        os.chmod(target, 0o755)
    return folder + os.pathsep + path


def missing_blobs(repo, sha):
    """The paths of sha's tree whose blobs the clone lacks (a mirror may leave out its
    largest files)."""
    rows = [r.split("\t", 1) for r in git(repo, "ls-tree", "-r", "-z", sha).split("\0") if "\t" in r]
    blobs = [(meta.split()[2], path) for meta, path in rows if meta.split()[1] == "blob"]
    res = subprocess.run(["git", "-C", repo, "cat-file", "--batch-check"], capture_output=True,
                         text=True, env=bench_env(), input="".join(f"{oid}\n" for oid, _ in blobs))
    gone = {line.split()[0] for line in res.stdout.splitlines() if line.endswith(" missing")}
    return [path for oid, path in blobs if oid in gone]


def checkout(repo, sha):
    """Check out sha (detached) in the repository's own work tree: qa-route reads build
    files (Cargo.toml, package.json, pom.xml) from the work tree. Files whose blobs the
    clone lacks are left out through a sparse checkout; return their paths."""
    git(repo, "config", "core.sparseCheckout", "false")
    if not git(repo, "checkout", "--quiet", "--force", "--detach", sha, ok=True):
        missing = missing_blobs(repo, sha)
        info = os.path.join(git(repo, "rev-parse", "--absolute-git-dir").strip(), "info")
        os.makedirs(info, exist_ok=True)
        with open(os.path.join(info, "sparse-checkout"), "w", encoding="utf-8") as fh:
            fh.write("/*\n" + "".join(f"!/{p}\n" for p in missing))
        git(repo, "config", "core.sparseCheckout", "true")
        git(repo, "checkout", "--quiet", "--force", "--detach", sha)
    else:
        missing = []
    git(repo, "clean", "-q", "-f", "-d")
    return missing


def run_stage(cmd, stdin_path, out_path, err_path, timeout, env=None):
    """Run cmd with stdin from a file (or /dev/null) and stdout/stderr to files; return
    {"exit": code or None, "error": stderr tail or None, "wall": seconds}."""
    start = time.perf_counter()
    try:
        with open(stdin_path or os.devnull, "rb") as src, open(out_path, "wb") as dst, \
                open(err_path, "wb") as err:
            res = subprocess.run(cmd, stdin=src, stdout=dst, stderr=err,
                                 env=env or bench_env(), timeout=timeout)
        code = res.returncode
    except subprocess.TimeoutExpired:
        return {"exit": None, "error": f"timed out after {timeout} s",
                "wall": time.perf_counter() - start}
    except OSError as exc:
        return {"exit": None, "error": f"cannot start: {exc}", "wall": 0.0}
    wall = time.perf_counter() - start
    if code != 0:
        with open(err_path, "rb") as fh:
            tail = fh.read()[-600:].decode(errors="replace").strip()
        return {"exit": code, "error": tail or f"exit {code}", "wall": wall}
    return {"exit": 0, "error": None, "wall": wall}


def run_flow(bins, repo, sha, work, timeout, env=None, formats=("text", "json")):
    """Run the four stages and qa-report in each format; return ({step: status}, the trace
    stream path or the last good stage's output, {format: report text or None})."""
    parent = git(repo, "rev-parse", "--verify", "--quiet", f"{sha}^", check=False).strip() or f"{sha}^"
    cmds = [
        ("qa-diff", [os.path.join(bins, "qa-diff"), "--repo", repo, "--base", parent, "--head", sha]),
        ("qa-intent", [os.path.join(bins, "qa-intent"), "--repo", repo]),
        ("qa-route", [os.path.join(bins, "qa-route"), "--repo", repo]),
        ("qa-trace", [os.path.join(bins, "qa-trace")]),
    ]
    status, prev, last_good = {}, None, None
    for i, (stage, cmd) in enumerate(cmds):
        out = os.path.join(work, f"{i + 1}-{stage}.ndjson")
        if prev is None and i > 0:
            status[stage] = SKIPPED
            continue
        st = run_stage(cmd, prev, out, out + ".stderr", timeout, env)
        status[stage] = st
        if st["exit"] == 0:
            prev = last_good = out
        else:
            prev = None
    reports = {}
    for fmt in formats:
        step = f"qa-report --format {fmt}"
        out = os.path.join(work, f"report.{'txt' if fmt == 'text' else fmt}")
        if prev is None:
            status[step] = SKIPPED
            reports[fmt] = None
            continue
        status[step] = run_stage([os.path.join(bins, "qa-report"), "--format", fmt], prev, out,
                                 out + ".stderr", timeout, env)
        with open(out, encoding="utf-8", errors="replace") as fh:
            reports[fmt] = fh.read() if status[step]["exit"] == 0 else None
    return status, last_good, reports


def read_stream(path):
    """Return {kind: [record]} of an NDJSON file (lines that are not JSON are skipped)."""
    kinds = {}
    if not path:
        return kinds
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict):
                kinds.setdefault(rec.get("kind"), []).append(rec)
    return kinds
