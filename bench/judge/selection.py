"""Which commits of a repository the flow is judged on: product code, tests, the fixed rule."""

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from diff_bench import bench_env  # noqa: E402  (bench/ is the judge's parent folder)

SOURCE_EXT = {
    ".rs", ".py", ".go", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts",
    ".vue", ".svelte", ".java", ".kt", ".kts", ".scala", ".rb", ".php", ".c", ".h", ".cc",
    ".cpp", ".hpp", ".cs", ".swift", ".m", ".ex", ".exs", ".sh",
}
TEST_DIRS = {"tests", "test", "__tests__", "spec", "specs", "testing", "e2e"}
# Kotlin multiplatform and Android source sets: src/jvmTest/, src/commonTest/, src/androidTest/.
TEST_SOURCE_SET = re.compile(r"^[a-z]+Test$")
NON_PRODUCT_DIRS = {"docs", "doc", "examples", "example", "benches", "bench", "benchmarks",
                    "scripts", ".github", "ci", "fixtures", "testdata", "__snapshots__"}
RUST_TEST_ATTR = re.compile(r"#\[\s*(?:[\w:]*::)?\w*test\s*(?:\(|\])")


def git(repo, *args, check=True, ok=False):
    """Return git's stdout (text, undecodable bytes replaced) for args run in repo; with
    ok=True, whether git succeeded."""
    res = subprocess.run(["git", "-C", repo, *args], capture_output=True, env=bench_env())
    if ok:
        return res.returncode == 0
    if check and res.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {res.stderr.decode(errors='replace').strip()}")
    return res.stdout.decode("utf-8", errors="replace")


def is_source(path):
    return os.path.splitext(path)[1].lower() in SOURCE_EXT


def is_test_path(path):
    """Whether path is a test file by its path alone (source files only): a test directory
    (`tests/`, Maven's `src/test/`, Kotlin's `src/jvmTest/`), `test_*.py`, `tests.py` (a
    Django app's), `*_test.*`, `*.spec.*`, `*.test.*`, `conftest.py`, `*Test.java`,
    `*Tests.kt`, `*IT.java`."""
    if not is_source(path):
        return False
    parts = path.split("/")
    name = parts[-1]
    stem = os.path.splitext(name)[0]
    if any(p.lower() in TEST_DIRS or TEST_SOURCE_SET.match(p) for p in parts[:-1]):
        return True
    low = name.lower()
    if low.endswith(".py") and (low.startswith("test_") or low in ("tests.py", "conftest.py")):
        return True
    if stem.lower().endswith(("_test", "_tests")) or re.search(r"\.(spec|test)$", stem.lower()):
        return True
    return os.path.splitext(name)[1] in (".java", ".kt", ".scala", ".groovy", ".ts", ".js") \
        and re.search(r"[a-z0-9](Test|Tests|IT|Spec)$", stem) is not None


def is_product(path):
    """Whether path is product source: a source file outside tests, docs, examples, CI."""
    if not is_source(path) or is_test_path(path):
        return False
    parts = path.lower().split("/")
    return not any(p in NON_PRODUCT_DIRS for p in parts[:-1])


def changed_paths(repo, commit):
    """Return [(status, path)] of commit against its first parent (renames as the new path)."""
    out = git(repo, "diff-tree", "-r", "-M", "--no-commit-id", "--name-status", "-z", commit)
    fields = out.split("\0")
    rows, i = [], 0
    while i < len(fields) - 1:
        status = fields[i]
        if not status:
            i += 1
            continue
        if status[0] in "RC":
            rows.append((status[0], fields[i + 2]))
            i += 3
        else:
            rows.append((status[0], fields[i + 1]))
            i += 2
    return rows


def rust_test_files(repo, commit, paths):
    """Return the .rs paths among paths whose added lines carry a test attribute."""
    rs = [p for p in paths if p.endswith(".rs")]
    if not rs:
        return set()
    found, current = set(), None
    for line in git(repo, "diff", "-U0", "--no-color", "--no-ext-diff", f"{commit}^", commit,
                    "--", *rs).splitlines():
        if line.startswith("+++ "):
            current = line[6:] if line.startswith("+++ b/") else None
        elif line.startswith("+") and current and RUST_TEST_ATTR.search(line):
            found.add(current)
    return found


def classify(repo, commit, rows):
    """The one place that decides what a commit changes: (test files, product files).
    Tests are the live (not deleted) files named as tests, and Rust files whose added lines
    carry a test attribute (an inline `mod tests`); product files are source files outside
    tests, docs, examples and CI. A Rust file can be both."""
    live = [p for s, p in rows if s != "D"]
    tests = {p for p in live if is_test_path(p)} | rust_test_files(repo, commit, live)
    product = {p for _, p in rows if is_product(p)}
    return tests, product


@dataclass
class Commit:
    sha: str
    subject: str
    rows: list  # [(status, path)]
    tests: set
    product: set
    number: int = 0  # 1.. newest first, within its group (with or without a test)
    group: str = ""  # "with-test" or "without-test"
    extra: dict = field(default_factory=dict)


def select(repo, head, max_files, with_test, without_test, scan=2000):
    """Walk the first-parent history of head (merges, root commits and commits touching
    more than max_files paths skipped) and return (commits with a test, commits without),
    each the most recent first, numbered from 1, at most with_test and without_test of them.
    The walk stops as soon as both lists are full, so no older commit is read."""
    revs = git(repo, "rev-list", "--first-parent", "--no-merges", f"--max-count={scan}",
               head).split()
    picked = {"with-test": [], "without-test": []}
    want = {"with-test": with_test, "without-test": without_test}
    for sha in revs:
        if all(len(picked[g]) >= want[g] for g in picked):
            break
        if not git(repo, "rev-parse", "--verify", "--quiet", f"{sha}^", ok=True):
            continue  # root commit
        rows = changed_paths(repo, sha)
        if not rows or len(rows) > max_files:
            continue
        tests, product = classify(repo, sha, rows)
        if not product:
            continue
        group = "with-test" if tests else "without-test"
        if len(picked[group]) >= want[group]:
            continue
        subject = git(repo, "log", "-1", "--format=%s", sha).strip()
        picked[group].append(Commit(sha, subject, rows, tests, product,
                                    len(picked[group]) + 1, group))
    return picked["with-test"], picked["without-test"]


def halves(selection, half):
    """The numbers (with test, without test) a half takes, from the corpus [selection]:
    tune 1-10 and 1-2, report 11-20 and 3-5, holdout 21-30 and 6-7, fresh 31-40 and 8-10,
    fresh2 41-50 and 11-12, all 1-20 and 1-5."""
    tw, tn = selection["tune_with_test"], selection["tune_without_test"]
    if half == "tune":
        return range(1, tw + 1), range(1, tn + 1)
    if half == "report":
        return range(tw + 1, selection["with_test"] + 1), range(tn + 1, selection["without_test"] + 1)
    if half == "holdout":
        # As many again as the tuning half, older than the reporting half: a check that what
        # was tuned holds on commits it was not tuned on, without spending the reporting half
        # (whose commits the walk passes but never runs).
        w, n = selection["with_test"], selection["without_test"]
        return range(w + 1, w + tw + 1), range(n + 1, n + tn + 1)
    if half == "fresh":
        # As large as the reporting half, older than the holdout: a blind measure for when
        # the reporting half has been read (it was, on 2026-12-04, after its one run).
        w, n = selection["with_test"], selection["without_test"]
        return (range(w + tw + 1, 2 * w + 1), range(n + tn + 1, 2 * n + 1))
    if half == "fresh2":
        # As large as the tuning half, older than the fresh half: the blind measure left for
        # after the fresh half was read (it was, on 2026-12-04, after its one run).
        w, n = selection["with_test"], selection["without_test"]
        return (range(2 * w + 1, 2 * w + tw + 1), range(2 * n + 1, 2 * n + tn + 1))
    return range(1, selection["with_test"] + 1), range(1, selection["without_test"] + 1)
