#!/usr/bin/env python3
"""Review the change flow on recent commits of real repositories: one sheet per commit.

Usage: python3 bench/review.py --bin-dir DIR --repos-dir DIR --out DIR
                               [--per-repo 5] [--repo NAME] [--max-files 40] [--scan 400]
                               [--timeout 300]

For every git working tree directly under --repos-dir (sorted by name; --repo keeps one,
repeatable), the script walks the first-parent history of HEAD, skips merges, root commits
and commits touching more than --max-files paths, and keeps the --per-repo most recent
commits that change product source code and change or add a test. A test is a source file
named by convention (a `tests/`, `test/`, `__tests__/` or `spec/` directory, `test_*.py`,
`*_test.py`, `*_test.go`, `*.spec.*`, `*.test.*`, `conftest.py`) or a Rust file whose added
lines carry a `#[...test]` attribute; product source is any other source file outside docs,
examples and benchmarks.

For each kept commit C it runs, each stage alone on the saved output of the one before:

  qa-diff --repo R --base C^ --head C | qa-intent --repo R | qa-route --repo R | qa-trace
  qa-report --format text          (on the saved qa-trace stream)
  qa-report --format json

and writes under --out/<repo>/<short-sha>/ every stage's output and stderr, and
--out/<repo>/<short-sha>.md, the review sheet: subject, changed files with roles, the
added/removed lines of the test files (about 60 lines), each intent and each scenario
(title, kind, priority, steps, assertions, evidence, proof gap, reaches, route decision and
command), the automatic metrics and an empty judgement table for the reviewer. A stage
that fails or times out is recorded on the sheet and in the metrics; the later stages are
skipped for that commit and the script goes on.

Automatic metrics per commit (and summed over all): intents, scenarios, steps,
bare-identifier steps (see bare_step), whether a scenario quotes the changed test's
expectation (see expectation_literals / quotes), intents from the vocabulary partition
(`source: vocabulary`, "without usable commit text"), review-only scenarios with no located
evidence (no evidence item with a line > 0), stage failures. They are printed as a table
and written to --out/metrics.json. qa-route reads build files from the working tree, which
stays at HEAD: the routed commands are those of the repository today.

Output is deterministic for the same repositories and binaries: no times or dates are
written. Exit status: 0 when every sheet was written (failed stages included), 1 on bad
arguments or a missing binary or repository directory.
"""

import argparse
import json
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # importing a sibling script must not leave bench/__pycache__
from diff_bench import bench_env

STAGES = ["qa-diff", "qa-intent", "qa-route", "qa-trace"]
SKIPPED = {"exit": None, "error": "skipped: an earlier stage failed", "skipped": True}
SOURCE_EXT = {
    ".rs", ".py", ".go", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts",
    ".vue", ".svelte", ".java", ".kt", ".scala", ".rb", ".php", ".c", ".h", ".cc", ".cpp",
    ".hpp", ".cs", ".swift", ".m", ".ex", ".exs", ".sh",
}
TEST_DIRS = {"tests", "test", "__tests__", "spec", "specs", "testing", "e2e"}
NON_PRODUCT_DIRS = {"docs", "doc", "examples", "example", "benches", "bench", "benchmarks",
                    "scripts", ".github", "ci", "fixtures", "testdata", "__snapshots__"}
RUST_TEST_ATTR = re.compile(r"#\[\s*(?:[\w:]*::)?\w*test\s*(?:\(|\])")
SHEET_TEST_LINES = 60


# ---------------------------------------------------------------------------------------
# Commit selection


def git(repo, *args, check=True):
    """Return git's stdout (text, undecodable bytes replaced) for args run in repo."""
    res = subprocess.run(["git", "-C", repo, *args], capture_output=True, env=bench_env())
    if check and res.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {res.stderr.decode(errors='replace').strip()}")
    return res.stdout.decode("utf-8", errors="replace")


def is_source(path):
    return os.path.splitext(path)[1].lower() in SOURCE_EXT


def is_test_path(path):
    """Whether path is a test file by naming convention (source files only)."""
    if not is_source(path):
        return False
    parts = path.lower().split("/")
    name = parts[-1]
    stem = os.path.splitext(name)[0]
    if any(p in TEST_DIRS for p in parts[:-1]):
        return True
    return (name.startswith("test_") and name.endswith(".py")) or stem.endswith("_test") \
        or stem.endswith("_tests") or name == "conftest.py" \
        or re.search(r"\.(spec|test)$", stem) is not None or stem.endswith("Test")


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


def select_commits(repo, per_repo, max_files, scan):
    """Return [(sha, subject, [(status, path)], tests set, product set)] newest first, and
    the count of commits scanned."""
    revs = git(repo, "rev-list", "--first-parent", "--no-merges", f"--max-count={scan}",
               "HEAD").split()
    picked, scanned = [], 0
    for sha in revs:
        if len(picked) >= per_repo:
            break
        scanned += 1
        if not git(repo, "rev-parse", "--verify", "--quiet", f"{sha}^", check=False).strip():
            continue  # root commit
        rows = changed_paths(repo, sha)
        if not rows or len(rows) > max_files:
            continue
        live = [p for s, p in rows if s != "D"]
        tests = {p for p in live if is_test_path(p)} | rust_test_files(repo, sha, live)
        product = {p for _, p in rows if is_product(p)}
        if not tests or not product:
            continue
        subject = git(repo, "log", "-1", "--format=%s", sha).strip()
        picked.append((sha, subject, rows, tests, product))
    return picked, scanned


# ---------------------------------------------------------------------------------------
# The flow


def run_stage(cmd, stdin_path, out_path, err_path, timeout):
    """Run cmd with stdin from a file (or /dev/null) and stdout/stderr to files; return
    {"exit": code or None, "error": text or None}."""
    try:
        with open(stdin_path or os.devnull, "rb") as src, open(out_path, "wb") as dst, \
                open(err_path, "wb") as err:
            res = subprocess.run(cmd, stdin=src, stdout=dst, stderr=err, env=bench_env(),
                                 timeout=timeout)
        code = res.returncode
    except subprocess.TimeoutExpired:
        return {"exit": None, "error": f"timed out after {timeout} s"}
    except OSError as exc:
        return {"exit": None, "error": f"cannot start: {exc}"}
    if code != 0:
        with open(err_path, "rb") as fh:
            tail = fh.read()[-600:].decode(errors="replace").strip()
        return {"exit": code, "error": tail or f"exit {code}"}
    return {"exit": 0, "error": None}


def run_flow(bins, repo, sha, work, timeout):
    """Run the four stages and the two reports; return ({step: status}, trace stream path or
    the last good stage's output, report text, report json)."""
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
        st = run_stage(cmd, prev, out, out + ".stderr", timeout)
        status[stage] = st
        if st["exit"] == 0:
            prev = last_good = out
        else:
            prev = None
    reports = {}
    for fmt in ("text", "json"):
        step = f"qa-report --format {fmt}"
        out = os.path.join(work, f"report.{'txt' if fmt == 'text' else 'json'}")
        if prev is None:
            status[step] = SKIPPED
            reports[fmt] = None
            continue
        status[step] = run_stage([os.path.join(bins, "qa-report"), "--format", fmt], prev, out,
                                 out + ".stderr", timeout)
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


# ---------------------------------------------------------------------------------------
# Test lines and their expectations

ASSERT_CONTEXT = re.compile(
    r"\b(assert\w*|expect\w*|eqnice|should|to(Be|Equal|StrictEqual|Match|Throw|Contain|HaveBeenCalledWith)\w*"
    r"|t\.(Error|Fatal)f?|Errorf|Fatalf|require\.\w+|raises|check_\w+|verify\w*|want|wanted"
    r"|expected|snapshot|matches)\b|==|!=")
EXPECT_ASSIGN = re.compile(
    r"^\s*(?:let\s+(?:mut\s+)?|const\s+|var\s+|)(\w*(?:expect|want|exp)\w*)\s*(?::[^=]+)?:?=(?!=)",
    re.IGNORECASE)
LITERAL = re.compile(r'r#*"((?:[^"\\]|\\.)*)"#*|"((?:[^"\\]|\\.)*)"|\'((?:[^\'\\]|\\.)*)\''
                     r'|`((?:[^`\\]|\\.)*)`|(?<![\w.])(\d[\d_.]*)(?![\w.])')


def diff_lines(repo, sha, paths):
    """Return [(path, sign, line number, text)] of the -U0 diff of paths in commit sha."""
    if not paths:
        return []
    rows, path, old, new = [], None, 0, 0
    out = git(repo, "diff", "-U0", "--no-color", "--no-ext-diff", "-M", f"{sha}^", sha, "--",
              *sorted(paths), check=False)
    for line in out.splitlines():
        if line.startswith("+++ "):
            path = line[6:] if line.startswith("+++ b/") else path
        elif line.startswith("--- "):
            path = line[6:] if line.startswith("--- a/") else None
        elif line.startswith("@@"):
            m = re.match(r"@@ -(\d+)(?:,\d+)? \+(\d+)", line)
            old, new = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
        elif line.startswith("+") and path:
            rows.append((path, "+", new, line[1:]))
            new += 1
        elif line.startswith("-") and path:
            rows.append((path, "-", old, line[1:]))
            old += 1
    return rows


def expectation_literals(rows):
    """Return the sorted literals (>= 3 characters) of added test lines in an assert or
    expect context: string and number literals on a line with an assertion word, a
    comparison or an `expected`/`want` assignment, on the following lines of a call such a
    line leaves open (`eqnice!(` ... `);`), and the lines of a multi-line string such a line
    opens (ripgrep's `let expected = "\\` ... `";`)."""
    found, in_block, depth, last = set(), False, 0, None
    for path, sign, num, text in rows:
        if sign != "+" or last != (path, num - 1):
            in_block, depth = False, 0
        last = (path, num) if sign == "+" else None
        if sign != "+":
            continue
        stripped = text.strip()
        if in_block:
            if re.search(r'^(";|"""|`|\)|"\s*[,;)]|r?#?"\s*;)', stripped) or stripped.endswith(('";', '"""', '`;', '`)')):
                in_block = False
                body = re.sub(r'("|"""|`)\s*[;,)]*\s*$', "", stripped)
            else:
                body = stripped
            if len(body) >= 3:
                found.add(body)
            continue
        code = LITERAL.sub('""', text)  # a test title saying "should" is no assertion
        if not (depth > 0 or ASSERT_CONTEXT.search(code) or EXPECT_ASSIGN.search(code)):
            continue
        for m in LITERAL.finditer(text):
            lit = next(g for g in m.groups() if g is not None)
            lit = lit.replace("\\n", "\n").strip().rstrip("\\").strip()
            for part in lit.split("\n"):
                if len(part.strip()) >= 3:
                    found.add(part.strip())
        depth = max(0, depth + code.count("(") + code.count("[") - code.count(")") - code.count("]"))
        # A multi-line string opened and not closed on this line.
        if re.search(r'(=|\(|,)\s*(r#*"|"""|`|")\\?\s*$', stripped) or stripped.endswith('"\\'):
            in_block = True
    return sorted(found)


def quotes(scenarios, literals):
    """Return [(scenario index, literal)] where a scenario's step or assertion contains a
    literal of the changed tests. An assertion that only names a changed test ("Changed
    test passes: <title>") quotes its title, not its expectation, and is not counted."""
    hits = []
    for i, sc in enumerate(scenarios):
        texts = list(sc.get("steps") or []) + [
            a for a in sc.get("assertions") or [] if not a.startswith("Changed test passes:")]
        for lit in literals:
            if any(lit in t for t in texts):
                hits.append((i, lit))
                break
    return hits


# ---------------------------------------------------------------------------------------
# Bare-identifier steps

STEP_PREFIX = re.compile(r"^\s*[A-Za-z][A-Za-z -]{0,24}:\s*")
STATUS_TAG = re.compile(r"\s*\((?:changed|added|removed|new|moved|deleted|modified)\)\s*$", re.I)
VERB_WORDS = set("""
is are was were be been being am has have had do does did can cannot could should must may
might will would shall need needs no longer keep keeps kept get gets got make makes made
open opens opened close closes closed click clicks clicked type types typed enter enters
entered submit submits submitted run runs ran call calls called invoke invokes invoked send
sends sent receive receives received return returns returned see sees shown show shows
display displays displayed render renders rendered print prints printed write writes written
read reads save saves saved load loads loaded create creates created add adds added remove
removes removed delete deletes deleted update updates updated change changes changed set
sets select selects selected choose chooses chose navigate navigates visit visits go goes
start starts started stop stops stopped fail fails failed succeed succeeds succeeded raise
raises raised throw throws thrown threw panic panics panicked reject rejects rejected accept
accepts accepted allow allows allowed block blocks blocked skip skips skipped match matches
matched contain contains contained include includes included exclude excludes excluded
emit emits emitted trigger triggers triggered handle handles handled parse parses parsed
check checks checked verify verifies verified confirm confirms confirmed assert asserts
expect expects expected observe observes observed produce produces produced output outputs
use uses used pass passes passed apply applies applied reach reaches reached exceed exceeds
exceeded equal equals equaled compare compares compared sort sorts sorted find finds found
search searches searched ignore ignores ignored list lists listed move moves moved copy
copies copied resize resizes resized drag drags dragged drop drops dropped press presses
pressed hover hovers scroll scrolls log logs logged sign signs signed provide provides
provided give gives given take takes took taken request requests requested respond responds
responded fetch fetches fetched store stores stored persist persists persisted clear clears
cleared reset resets mount mounts mounted unmount unmounts patch patches patched compile
compiles compiled build builds built install installs installed exit exits exited complete
completes completed appear appears appeared become becomes became stay stays remain remains
leave leaves left follow follows followed report reports reported notify notifies notified
validate validates validated convert converts converted format formats formatted encode
encodes encoded decode decodes decoded escape escapes escaped serialize serializes
serialized insert inserts inserted replace replaces replaced count counts counted limit
limits limited wait waits waited retry retries retried time out times out timed try tries tried hit hits pick picks picked perform
performs performed cause causes caused ensure ensures ensured occur occurs occurred happen
happens happened assign assigns assigned configure configures configured enable enables
enabled disable disables disabled toggle toggles toggled generate generates generated resolve
resolves resolved restore restores restored hydrate hydrates hydrated warn warns warned
override overrides overridden query queries queried preserve preserves preserved normalize
normalizes normalized classify classifies classified fix fixes fixed
arrange arranges arranged hold holds held
""".split())


def bare_step(step):
    """Whether a step is a bare identifier: after an optional `Given:`/`When:`/`Action:`-style
    prefix, a trailing `(changed)`-style tag and a trailing `(#123)` reference, its text is a
    single token without spaces (an identifier or a call expression), or it has no verb: no
    plain word of VERB_WORDS outside quotes and backticks (`readlen == 0`, `memo`,
    `hydration`; a code token such as `matches!(self.mode,` or `set_value` is no word)."""
    text = STEP_PREFIX.sub("", step, count=1)
    text = STATUS_TAG.sub("", text)
    text = re.sub(r"\s*\(#\d+\)\s*$", "", text).strip()
    if not re.search(r"\s", text):
        return True
    plain = re.sub(r"`[^`]*`|\"[^\"]*\"|'[^']*'", " ", text)
    # Code tokens (`matches!(self.mode,`, `a.b`, `x==y`) are no words, whatever they spell.
    words = [t.rstrip(".,;:") for t in plain.split()]
    words = [p for w in words if re.fullmatch(r"[A-Za-z]+(-[A-Za-z]+)*", w) for p in w.split("-")]
    return not any((w.islower() or w[1:].islower()) and w.lower() in VERB_WORDS for w in words)


# ---------------------------------------------------------------------------------------
# The sheet


def md_cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def fence(lines):
    """A fenced block that its content cannot close."""
    longest = max((len(m) for line in lines for m in re.findall(r"`+", line)), default=0)
    return "`" * max(3, longest + 1)


def route_command(route):
    cmd = route.get("command")
    if not cmd:
        return "none"
    if isinstance(cmd, dict):
        argv = cmd.get("argv") or cmd.get("command") or cmd.get("run")
        text = " ".join(argv) if isinstance(argv, list) else str(argv or json.dumps(cmd, sort_keys=True))
        cwd = cmd.get("cwd") or cmd.get("dir")
        return f"{text} (in {cwd})" if cwd and cwd != "." else text
    return str(cmd)


def write_sheet(path, repo_name, sha, subject, rows, tests, product, status, stream, test_rows,
                literals, metrics, scen_quotes):
    files = {r["data"]["path"]: r["data"] for r in stream.get("file", []) if isinstance(r.get("data"), dict)}
    intents = stream.get("intent", [])
    scenarios = stream.get("scenario", [])
    routes = {r["data"].get("subject"): r["data"] for r in stream.get("route", [])
              if isinstance(r.get("data"), dict) and "decision" in r["data"]}
    out = [f"# {repo_name} {sha[:10]}: {subject}", "",
           f"commit `{sha}` against its first parent", ""]
    out.append("## Pipeline")
    out.append("")
    for step, st in status.items():
        out.append(f"- {step}: " + ("ok" if st["exit"] == 0 else "skipped" if st.get("skipped") else
                                    f"**failed** (exit {st['exit']}): {md_cell(st['error'])[:400]}"))
    counts = ", ".join(f"{k} {len(v)}" for k, v in sorted(stream.items(), key=lambda kv: str(kv[0])))
    out += ["", f"records: {counts or 'none'}", "", "## Changed files", "",
            "| path | status | role (qa-diff) | +/- | review class |", "|---|---|---|---|---|"]
    for st, p in rows:
        f = files.get(p, {})
        cls = "test" if p in tests else ("product" if p in product else "other")
        if p in tests and p in product:
            cls = "product + test"
        out.append(f"| {md_cell(p)} | {st} | {f.get('role', '?')} | +{f.get('added', '?')}/-{f.get('removed', '?')} | {cls} |")
    out += ["", "## Test changes", ""]
    if test_rows:
        shown = test_rows[:SHEET_TEST_LINES]
        lines, current = [], None
        for p, sign, n, text in shown:
            if p != current:
                lines.append(f"### {p}")
                current = p
            lines.append(f"{sign}{n:>5} {text}")
        ticks = fence(lines)
        out += [ticks + "diff", *lines, ticks]
        if len(test_rows) > len(shown):
            out.append(f"({len(test_rows) - len(shown)} more changed test lines not shown)")
    else:
        out.append("(no changed test lines)")
    out += ["", "expectation literals of the added test lines: " +
            (", ".join(f"`{md_cell(l)[:80]}`" for l in literals[:20]) or "none") +
            (f" (+{len(literals) - 20} more)" if len(literals) > 20 else ""), ""]
    out += ["## Intents and scenarios", ""]
    by_intent = {}
    for i, sc in enumerate(scenarios):
        by_intent.setdefault(sc["data"].get("intent"), []).append((i, sc))
    quoted = dict(scen_quotes)
    for n, it in enumerate(intents, 1):
        d = it.get("data", {})
        out += [f"### I{n}. {d.get('title')}", "",
                f"type {d.get('type')}, focus {d.get('focus')}, source {d.get('source')}, "
                f"confidence {d.get('confidence')}, review_required {d.get('review_required')}", "",
                f"reason: {d.get('reason')}", "",
                "files: " + ", ".join(f"`{f}`" for f in d.get("files") or []), ""]
        for i, sc in by_intent.get(it.get("id"), []):
            s = sc["data"]
            r = routes.get(sc.get("id"), {})
            out += [f"#### S{i + 1}. {s.get('title')}", "",
                    f"- kind **{s.get('kind')}**, priority {s.get('priority')}, authority "
                    f"{s.get('authority')}, test class {s.get('test_class')}, focus {s.get('focus')}",
                    "- steps:"]
            for st in s.get("steps") or []:
                out.append(f"  - {md_cell(st)}" + ("  *(bare)*" if bare_step(st) else ""))
            out.append("- assertions:")
            for a in s.get("assertions") or []:
                out.append(f"  - {md_cell(a)}")
            out.append("- evidence:")
            for e in s.get("evidence") or []:
                out.append(f"  - `{e.get('file')}:{e.get('line')}` {e.get('relation')}"
                           f" ({e.get('stage')}): {md_cell(e.get('text', ''))[:200]}")
            out.append(f"- proof gap: {s.get('proof_gap')}")
            reaches = s.get("reaches")
            out.append("- reaches: " + (", ".join(reaches) if reaches else "none"))
            out.append(f"- route: **{r.get('decision', 'none')}**; {r.get('reason', '')}; "
                       f"command: `{route_command(r)}`")
            if i in quoted:
                out.append(f"- quotes the test expectation: `{md_cell(quoted[i])[:80]}`")
            out.append("")
    orphans = [(i, sc) for key, lst in by_intent.items()
               if key not in {it.get('id') for it in intents} for i, sc in lst]
    for i, sc in orphans:
        out.append(f"- S{i + 1} (intent not in stream): {sc['data'].get('title')}")
    out += ["## Metrics", "", "| metric | value |", "|---|---|"]
    for k, v in metrics.items():
        out.append(f"| {k} | {v} |")
    out += ["", "## Judgement", "",
            "| scenario | grounded / vague / invented | note |", "|---|---|---|"]
    for i, sc in enumerate(scenarios):
        out.append(f"| S{i + 1} {md_cell(sc['data'].get('title'))[:60]} |  |  |")
    out += ["", "missed behaviours:", ""]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(out) + "\n")


# ---------------------------------------------------------------------------------------


def commit_metrics(stream, status, literals):
    scenarios = [s["data"] for s in stream.get("scenario", []) if isinstance(s.get("data"), dict)]
    intents = [i["data"] for i in stream.get("intent", []) if isinstance(i.get("data"), dict)]
    routes = {r["data"].get("subject"): r["data"] for r in stream.get("route", [])
              if isinstance(r.get("data"), dict)}
    steps = [st for s in scenarios for st in s.get("steps") or []]
    scen_quotes = quotes(scenarios, literals)
    review_unlocated = 0
    for rec in stream.get("scenario", []):
        decision = routes.get(rec.get("id"), {}).get("decision")
        located = any((e.get("line") or 0) > 0 for e in rec["data"].get("evidence") or [])
        if decision == "review-only" and not located:
            review_unlocated += 1
    vocab = sum(1 for i in intents if i.get("source") == "vocabulary"
                or "without usable commit text" in f"{i.get('title', '')} {i.get('reason', '')}")
    metrics = {
        "intents": len(intents),
        "scenarios": len(scenarios),
        "steps": len(steps),
        "bare_steps": sum(1 for st in steps if bare_step(st)),
        "quotes_test_expectation": bool(scen_quotes),
        "expectation_literals": len(literals),
        "vocabulary_intents": vocab,
        "review_only_unlocated": review_unlocated,
        "stage_failures": sorted(k for k, v in status.items() if v["exit"] != 0 and not v.get("skipped")),
    }
    return metrics, scen_quotes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin-dir", required=True, help="directory holding the qa-* binaries")
    ap.add_argument("--repos-dir", required=True, help="directory of git working trees")
    ap.add_argument("--out", required=True, help="where sheets, streams and metrics.json go")
    ap.add_argument("--per-repo", type=int, default=5, help="commits per repository (5)")
    ap.add_argument("--repo", action="append", help="only this repository directory name")
    ap.add_argument("--max-files", type=int, default=40, help="skip commits touching more paths")
    ap.add_argument("--scan", type=int, default=400, help="first-parent commits scanned per repo")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per stage")
    args = ap.parse_args()
    bins = os.path.abspath(args.bin_dir)
    for name in STAGES + ["qa-report"]:
        p = os.path.join(bins, name)
        if not (os.path.isfile(p) and os.access(p, os.X_OK)):
            sys.exit(f"review: {p} is not an executable file (build it first)")
    if not os.path.isdir(args.repos_dir):
        sys.exit(f"review: {args.repos_dir} is not a directory")
    names = sorted(d for d in os.listdir(args.repos_dir)
                   if os.path.isdir(os.path.join(args.repos_dir, d, ".git")))
    if args.repo:
        missing = [r for r in args.repo if r not in names]
        if missing:
            sys.exit(f"review: no git working tree {', '.join(missing)} in {args.repos_dir}")
        names = [n for n in names if n in args.repo]
    os.makedirs(args.out, exist_ok=True)

    results = []
    for name in names:
        repo = os.path.abspath(os.path.join(args.repos_dir, name))
        try:
            picked, scanned = select_commits(repo, args.per_repo, args.max_files, args.scan)
        except RuntimeError as exc:
            print(f"review: {name}: {exc}", file=sys.stderr)
            results.append({"repo": name, "error": str(exc)})
            continue
        print(f"{name}: {len(picked)} commits from {scanned} scanned", file=sys.stderr)
        for sha, subject, rows, tests, product in picked:
            short = sha[:10]
            work = os.path.join(args.out, name, short)
            os.makedirs(work, exist_ok=True)
            status, stream_path, _ = run_flow(bins, repo, sha, work, args.timeout)
            stream = read_stream(stream_path)
            test_rows = diff_lines(repo, sha, tests)
            literals = expectation_literals(test_rows)
            metrics, scen_quotes = commit_metrics(stream, status, literals)
            write_sheet(os.path.join(args.out, name, f"{short}.md"), name, sha, subject, rows,
                        tests, product, status, stream, test_rows, literals, metrics, scen_quotes)
            results.append({"repo": name, "commit": sha, "short": short, "subject": subject,
                            "files": len(rows), "tests": sorted(tests), "metrics": metrics})

    done = [r for r in results if "metrics" in r]
    total = {k: sum(r["metrics"][k] for r in done)
             for k in ("intents", "scenarios", "steps", "bare_steps", "vocabulary_intents",
                       "review_only_unlocated")}
    total["commits"] = len(done)
    total["commits_quoting_test_expectation"] = sum(1 for r in done if r["metrics"]["quotes_test_expectation"])
    total["commits_with_stage_failures"] = sum(1 for r in done if r["metrics"]["stage_failures"])
    total["bare_step_share"] = round(total["bare_steps"] / total["steps"], 3) if total["steps"] else 0.0

    head = (f"{'repo':<26}{'commit':<12}{'int':>4}{'scen':>5}{'steps':>6}{'bare':>5}"
            f"{'quote':>6}{'vocab':>6}{'rev-unloc':>10}  failures / subject")
    print(head)
    for r in results:
        if "metrics" not in r:
            print(f"{r['repo']:<26}{'-':<12} error: {r['error']}")
            continue
        m = r["metrics"]
        tail = ",".join(m["stage_failures"]) or r["subject"][:50]
        print(f"{r['repo']:<26}{r['short']:<12}{m['intents']:>4}{m['scenarios']:>5}{m['steps']:>6}"
              f"{m['bare_steps']:>5}{'y' if m['quotes_test_expectation'] else 'n':>6}"
              f"{m['vocabulary_intents']:>6}{m['review_only_unlocated']:>10}  {tail}")
    print(f"{'total':<26}{str(total['commits']) + ' commits':<12}{total['intents']:>4}{total['scenarios']:>5}"
          f"{total['steps']:>6}{total['bare_steps']:>5}{total['commits_quoting_test_expectation']:>6}"
          f"{total['vocabulary_intents']:>6}{total['review_only_unlocated']:>10}")
    print(f"bare-identifier steps {total['bare_steps']}/{total['steps']} ({total['bare_step_share']:.0%}); "
          f"commits quoting the changed test's expectation {total['commits_quoting_test_expectation']}/{total['commits']}; "
          f"commits with a failed stage {total['commits_with_stage_failures']}")
    with open(os.path.join(args.out, "metrics.json"), "w", encoding="utf-8") as fh:
        json.dump({"commits": results, "total": total}, fh, indent=2, sort_keys=True)
        fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
