#!/usr/bin/env python3
"""Pick the PR-sized ranges of a hand review outside the corpus (issue 29), by a fixed rule.

Usage: python3 bench/review_ranges.py REPO KIND [KIND]   (KIND: fix, notest, mix)

Walks the first-parent history of REPO's HEAD (200 commits at most). A merge M is one unit,
the range M^1..M^2; any other commit C is its own unit, C^..C. Product source is a source
file (.rs .py .ts .tsx .js .mjs .go .java .kt) outside tests, docs, examples, benches,
scripts and CI; a test is a source file under a test directory or named as one
(`*_test.go`, `test_*.py`, `*.test.ts`, `*Test.java`), or a Rust file whose added lines
carry `#[test]` or `mod tests`. Prints, per kind, the first unit that is:
  fix     a single commit whose subject has the whole word fix(es|ed), bug, correct(s|ed),
          handle(s|d) or prevent(s|ed), changing product source and a test;
  notest  a single commit changing product source and no test;
  mix     a merge of 3-5 commits changing product source, or a run of 3 consecutive
          first-parent commits that each change product source (printed OLDEST^..NEWEST).
The 2026-12-03 review ran it on its five clones before running the flow on anything.
"""
import re
import subprocess
import sys

NONPRODUCT = re.compile(
    r"(^|/)(docs?|\.github|examples?|benches|bench|scripts?)/"
    r"|\.(md|rst|txt|toml|lock|json|ya?ml|cfg|ini|xml|gradle|kts|svg|png|html)$"
    r"|(^|/)(CHANGELOG|LICENSE|Makefile|README)",
    re.I,
)
TEST_PATH = re.compile(
    r"(^|/)(tests?|__tests__|testdata|src/test)/|_test\.go$|(^|/)test_[^/]*\.py$"
    r"|\.(test|spec)\.[jt]sx?$|Test\.java$"
)
SOURCE = re.compile(r"\.(rs|py|ts|tsx|js|mjs|go|java|kt)$")
FIX_WORD = re.compile(
    r"\b(fix(es|ed)?|bug|correct(s|ed)?|handle[sd]?|prevent(s|ed)?)\b", re.I
)


def git(repo, *args):
    return subprocess.run(
        ["git", "-C", repo, *args], capture_output=True, text=True, check=True
    ).stdout


def rust_inline_test(repo, base, head, path):
    if not path.endswith(".rs"):
        return False
    diff = git(repo, "diff", base, head, "--", path)
    return any(
        l.startswith("+") and ("#[test]" in l or "mod tests" in l)
        for l in diff.splitlines()
    )


def classify(repo, base, head):
    """The product source files and the test files the range changes."""
    paths = [p for p in git(repo, "diff", "--name-only", base, head).splitlines() if p]
    tests = [
        p
        for p in paths
        if SOURCE.search(p)
        and (TEST_PATH.search(p) or rust_inline_test(repo, base, head, p))
    ]
    product = [
        p
        for p in paths
        if SOURCE.search(p) and not TEST_PATH.search(p) and not NONPRODUCT.search(p)
    ]
    return product, tests


def pick(repo, wanted):
    found = {}
    run = []  # the current run of first-parent non-merge commits, newest first
    units = git(repo, "rev-list", "--first-parent", "--parents", "-n", "200", "HEAD")
    for line in units.splitlines():
        commit, *parents = line.split()
        if not parents:
            break
        subject = git(repo, "log", "-1", "--format=%s", commit).strip()
        if len(parents) > 1:
            run = []
            count = int(git(repo, "rev-list", "--count", f"{parents[0]}..{parents[1]}"))
            if "mix" in wanted and "mix" not in found and 3 <= count <= 5:
                product, _ = classify(repo, parents[0], parents[1])
                if product:
                    found["mix"] = f"{parents[0][:10]}..{parents[1][:10]}  merge: {subject}"
            continue
        product, tests = classify(repo, parents[0], commit)
        if "fix" not in found and FIX_WORD.search(subject) and product and tests:
            found["fix"] = f"{commit[:10]}  {subject}"
        if "notest" not in found and product and not tests:
            found["notest"] = f"{commit[:10]}  {subject}"
        run = run + [commit] if product else []
        if "mix" not in found and len(run) >= 3:
            found["mix"] = f"{run[2][:10]}^..{run[0][:10]}  3 consecutive commits"
        if all(k in found for k in wanted):
            break
    return {k: found.get(k) for k in wanted}


if __name__ == "__main__":
    if len(sys.argv) < 3 or not set(sys.argv[2:]) <= {"fix", "notest", "mix"}:
        sys.exit(__doc__)
    for kind, unit in pick(sys.argv[1], sys.argv[2:]).items():
        print(kind, unit)
