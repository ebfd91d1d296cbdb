#!/usr/bin/env python3
"""Generate a deterministic synthetic git history for benchmarking qa-diff.

Usage: python3 bench/gen_history.py DIR [--commits 320] [--files 300] [--seed 1] [--force]

Creates a fresh repository at DIR with:
  * `main`: one base commit holding ~--files text sources (src/, src/components/,
    lib/, tests/, docs/, cli/) plus a few binary files (random bytes with NULs);
  * `feature`: --commits commits on top of main (counted as `main..feature`),
    including one side branch merged back with a two-parent merge commit.
    Commits modify/append/delete lines, add, delete and rename files (pure and
    with small edits), touch binaries and occasionally flip the executable bit.

The whole history is written with one `git fast-import` run; identities and
dates are fixed and all randomness comes from a seeded random.Random, so commit
ids are identical for identical arguments. HEAD is left checked out at `feature`.
Exits non-zero if the shape targets (>=300 commits, >=250 files, >=1 MB patch of
`git diff -M main...feature`) are not met.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import time

# Shape targets checked at the end (only meaningful with the default sizes).
MIN_COMMITS = 300
MIN_FILES = 250
MIN_PATCH_BYTES = 1_000_000

BASE_TIME = 1_700_000_000  # 2023-11-14T22:13:20Z; each commit is +1h
COMMITTER = ("Bench Bot", "bench@qapipe.invalid")
AUTHORS = [
    ("Ada Lovelace", "ada@example.com"),
    ("Grace Hopper", "grace@example.com"),
    ("Linus Torvalds", "linus@example.com"),
    ("Margaret Hamilton", "margaret@example.com"),
    ("Ken Thompson", "ken@example.com"),
]
TIMEZONES = ["+0000", "+0100", "+0200", "-0500", "+0530"]

WORDS = (
    "account adapter alert analytics anchor archive audit batch buffer build "
    "cache canvas cart channel checkout client cluster column config context "
    "cursor dashboard delta dialog digest dispatch draft editor engine entry "
    "event export feed filter flag form frame gateway graph handler header "
    "index input invoice item job key layout ledger limit loader locale log "
    "mapper matrix menu merge metric modal node order output packet page panel "
    "parser patch payload pipeline policy pool profile queue quota range reader "
    "record region render report request resolver route row rule schema scope "
    "search session shard signal slot snapshot source state stream style table "
    "task theme token trace tree upload user value vector view widget worker"
).split()
VERBS = (
    "add apply build check clear collect compute convert create decode emit "
    "encode fetch find flush format handle init load lookup merge normalize "
    "parse prepare read refresh register remove render reset resolve retry "
    "save scan select send serialize sort split store sync update validate "
    "write"
).split()
SCOPES = ["ui", "api", "core", "cli", "parser", "docs", "build", "auth", "db", "deps"]
TYPES = ["feat", "fix", "chore", "refactor", "perf", "test", "docs", "ci", "style"]
TICKET_PROJECTS = ["ABC", "QA", "PIPE", "OPS", "WEB"]

# Directory -> (extension, share of --files). cli/ scripts are executable.
LAYOUT = [
    ("src", ".rs", 0.24),
    ("src/components", ".tsx", 0.16),
    ("src/core/engine", ".rs", 0.06),
    ("lib", ".py", 0.16),
    ("tests", ".rs", 0.14),
    ("docs", ".md", 0.12),
    ("cli", ".sh", 0.12),
]
BINARY_EXTS = (".png", ".bin", ".woff2")


class Gen:
    """Seeded generator of code-like text, file names and commit messages."""

    def __init__(self, rng):
        self.rng = rng
        self.used_paths = set()
        self.serial = 0

    # ---- identifiers -------------------------------------------------
    def ident(self, camel=False):
        """Return a two- or three-word identifier."""
        n = self.rng.choice((2, 2, 3))
        parts = [self.rng.choice(VERBS)] + [self.rng.choice(WORDS) for _ in range(n - 1)]
        if camel:
            return parts[0] + "".join(p.title() for p in parts[1:])
        return "_".join(parts)

    def type_name(self):
        """Return a CamelCase type name."""
        return "".join(self.rng.choice(WORDS).title() for _ in range(2))

    def sentence(self, lo=5, hi=14):
        """Return a lowercase pseudo-English sentence."""
        words = [self.rng.choice(WORDS + VERBS) for _ in range(self.rng.randint(lo, hi))]
        return " ".join(words)

    def new_path(self, directory, ext):
        """Return an unused path in directory with extension ext."""
        while True:
            self.serial += 1
            stem = "_".join(self.rng.choice(WORDS) for _ in range(2))
            if ext == ".tsx":
                stem = "".join(w.title() for w in stem.split("_"))
            path = f"{directory}/{stem}_{self.serial}{ext}"
            if path not in self.used_paths:
                self.used_paths.add(path)
                return path

    # ---- code blocks -------------------------------------------------
    def block(self, ext):
        """Return one function/section (list of lines) in the style of ext."""
        r = self.rng
        body_n = r.randint(3, 18)
        if ext == ".rs":
            name, ty = self.ident(), self.type_name()
            lines = [f"/// {self.sentence().capitalize()}.",
                     f"pub fn {name}(input: &{ty}, limit: usize) -> Result<{ty}, Error> {{"]
            for _ in range(body_n):
                lines.append(r.choice([
                    f"    let {self.ident()} = input.{self.ident()}()?;",
                    f"    // {self.sentence()}",
                    f"    if limit > {r.randint(1, 999)} {{ return Err(Error::{self.type_name()}); }}",
                    f"    let mut {r.choice(WORDS)} = Vec::with_capacity({r.randint(2, 512)});",
                    f"    {r.choice(WORDS)}.push({self.ident()}(&input, limit - {r.randint(1, 9)}));",
                    f"    debug_assert!(limit >= {r.randint(0, 64)}, \"{self.sentence(3, 6)}\");",
                ]))
            lines += [f"    Ok({ty}::default())", "}", ""]
        elif ext == ".tsx":
            name = self.type_name()
            lines = [f"// {self.sentence().capitalize()}.",
                     f"export function {name}(props: {name}Props) {{"]
            for _ in range(body_n):
                lines.append(r.choice([
                    f"  const [{self.ident(True)}, set{self.type_name()}] = useState({r.randint(0, 99)});",
                    f"  // {self.sentence()}",
                    f"  const {self.ident(True)} = useMemo(() => props.{r.choice(WORDS)} ?? {r.randint(0, 9)}, [props]);",
                    f"  useEffect(() => {{ {self.ident(True)}(props.{r.choice(WORDS)}); }}, []);",
                    f"  if (!props.{r.choice(WORDS)}) return null;",
                ]))
            lines += [f"  return <div className=\"{r.choice(WORDS)}-{r.choice(WORDS)}\">{{props.children}}</div>;",
                      "}", ""]
        elif ext == ".py":
            name = self.ident()
            lines = [f"def {name}({r.choice(WORDS)}, {r.choice(WORDS)}=None):",
                     f"    \"\"\"{self.sentence().capitalize()}.\"\"\""]
            for _ in range(body_n):
                lines.append(r.choice([
                    f"    {self.ident()} = {self.ident()}({r.choice(WORDS)}, {r.randint(0, 999)})",
                    f"    # {self.sentence()}",
                    f"    if {r.choice(WORDS)} is None:",
                    f"        raise ValueError(\"{self.sentence(3, 7)}\")",
                    f"    for {r.choice(WORDS)} in range({r.randint(1, 64)}):",
                    f"        logger.debug(\"{self.sentence(2, 5)} %s\", {r.choice(WORDS)})",
                ]))
            lines += [f"    return {r.choice(WORDS)}", "", ""]
        elif ext == ".md":
            lines = [f"## {self.sentence(2, 5).title()}", ""]
            for _ in range(body_n // 2 + 1):
                lines.append(r.choice([
                    self.sentence(10, 20).capitalize() + ".",
                    f"- `{self.ident()}`: {self.sentence(4, 9)}.",
                    f"See [{r.choice(WORDS)}](../{r.choice(WORDS)}/{r.choice(WORDS)}.md) for {self.sentence(3, 6)}.",
                ]))
            lines.append("")
        elif ext == ".sh":
            name = self.ident()
            lines = [f"# {self.sentence().capitalize()}", f"{name}() {{"]
            for _ in range(body_n):
                lines.append(r.choice([
                    f"  local {r.choice(WORDS)}=\"${{{r.randint(1, 3)}:-{r.choice(WORDS)}}}\"",
                    f"  # {self.sentence()}",
                    f"  if [ -z \"${r.choice(WORDS)}\" ]; then echo \"{self.sentence(3, 6)}\" >&2; return {r.randint(1, 9)}; fi",
                    f"  {self.ident()} \"${r.choice(WORDS)}\" | grep -v '{r.choice(WORDS)}' || true",
                ]))
            lines += ["}", ""]
        else:  # tests written as Rust test functions
            lines = ["#[test]", f"fn test_{self.ident()}() {{"]
            for _ in range(body_n):
                lines.append(r.choice([
                    f"    let {r.choice(WORDS)} = {self.ident()}(&fixture(\"{r.choice(WORDS)}\"), {r.randint(1, 99)});",
                    f"    assert_eq!({r.choice(WORDS)}.len(), {r.randint(0, 32)});",
                    f"    // {self.sentence()}",
                    f"    assert!({r.choice(WORDS)}.is_ok(), \"{self.sentence(3, 6)}\");",
                ]))
            lines += ["}", ""]
        return lines

    def header(self, ext, path):
        """Return the opening lines of a file."""
        r = self.rng
        if ext in (".rs", ".tsx") or path.startswith("tests/"):
            if ext == ".tsx":
                return [f"import {{ useState, useMemo, useEffect }} from 'react';",
                        f"import {{ {self.type_name()} }} from '../{r.choice(WORDS)}';", ""]
            return [f"//! {self.sentence().capitalize()}.", "",
                    f"use crate::{r.choice(WORDS)}::{{{self.type_name()}, Error}};", ""]
        if ext == ".py":
            return [f"\"\"\"{self.sentence().capitalize()}.\"\"\"", "", "import logging", "",
                    "logger = logging.getLogger(__name__)", "", ""]
        if ext == ".sh":
            return ["#!/bin/sh", f"# {self.sentence().capitalize()}.", "set -eu", ""]
        return [f"# {self.sentence(2, 5).title()}", "", self.sentence(12, 24).capitalize() + ".", ""]

    def text_file(self, path, lo=60, hi=400):
        """Return the contents (bytes) of a new text file of lo..hi lines."""
        ext = os.path.splitext(path)[1]
        if path.startswith("tests/"):
            ext = "test"
        target = self.rng.randint(lo, hi)
        lines = self.header(ext, path)
        while len(lines) < target:
            lines += self.block(ext)
        return ("\n".join(lines[:target]) + "\n").encode()

    def new_lines(self, path, lo, hi):
        """Return lo..hi lines of fresh code in the style of path."""
        ext = "test" if path.startswith("tests/") else os.path.splitext(path)[1]
        want = self.rng.randint(lo, hi)
        out = []
        while len(out) < want:
            out += self.block(ext)
        return out[:want]

    def binary(self, lo=2048, hi=16384):
        """Return random bytes guaranteed to contain NULs."""
        data = bytearray(self.rng.randbytes(self.rng.randint(lo, hi)))
        for i in range(0, len(data), 97):
            data[i] = 0
        return bytes(data)

    # ---- messages ------------------------------------------------------
    def message(self):
        """Return a commit message: conventional, ticketed or plain."""
        r = self.rng
        subject_words = f"{r.choice(VERBS)} {r.choice(WORDS)} {r.choice(WORDS)} {r.choice(['handling', 'support', 'lookup', 'cache', 'parsing', 'limits'])}"
        ticket = f"{r.choice(TICKET_PROJECTS)}-{r.randint(1, 4999)}"
        kind = r.random()
        if kind < 0.55:
            typ = r.choice(TYPES)
            scope = f"({r.choice(SCOPES)})" if r.random() < 0.7 else ""
            bang = "!" if r.random() < 0.04 else ""
            subject = f"{typ}{scope}{bang}: {subject_words}"
            if r.random() < 0.4:
                subject += f" [{ticket}]" if r.random() < 0.5 else f" ({ticket})"
        elif kind < 0.75:
            subject = f"{ticket}: {subject_words.capitalize()}"
        else:
            subject = subject_words.capitalize()
        msg = subject + "\n"
        if r.random() < 0.45:
            msg += "\n" + self.sentence(8, 20).capitalize() + ".\n"
            if r.random() < 0.3:
                msg += f"\nRefs: {ticket}\n"
            if r.random() < 0.1:
                msg += "\nBREAKING CHANGE: " + self.sentence(5, 10) + ".\n"
        return msg


class Repo:
    """In-memory tree model that emits a git fast-import stream."""

    def __init__(self, gen):
        self.gen = gen
        self.rng = gen.rng
        self.out = []          # chunks of the fast-import stream (bytes)
        self.mark = 0
        self.tick = 0          # commit counter -> timestamps

    # ---- stream helpers ------------------------------------------------
    def _next_mark(self):
        self.mark += 1
        return self.mark

    @staticmethod
    def _quote(path):
        """Quote a path for fast-import when it contains a space or quote."""
        if any(c in path for c in ' "\\\t\n'):
            esc = path.replace("\\", "\\\\").replace('"', '\\"')
            return f'"{esc}"'
        return path

    def _data(self, payload):
        return b"data %d\n" % len(payload) + payload + b"\n"

    def commit(self, ref, changes, parents, message=None):
        """Write one commit on ref with file changes; return its mark."""
        mark = self._next_mark()
        ts = BASE_TIME + self.tick * 3600 + self.rng.randint(0, 3000)
        self.tick += 1
        name, email = self.rng.choice(AUTHORS)
        tz = self.rng.choice(TIMEZONES)
        msg = (message or self.gen.message()).encode()
        head = [f"commit {ref}", f"mark :{mark}",
                f"author {name} <{email}> {ts} {tz}",
                f"committer {COMMITTER[0]} <{COMMITTER[1]}> {ts + 60} +0000"]
        self.out.append(("\n".join(head) + "\n").encode() + self._data(msg))
        if parents:
            self.out.append(f"from :{parents[0]}\n".encode())
            for p in parents[1:]:
                self.out.append(f"merge :{p}\n".encode())
        for ch in changes:
            if ch[0] == "M":
                _, mode, path, data = ch
                self.out.append(f"M {mode} inline {self._quote(path)}\n".encode() + self._data(data))
            elif ch[0] == "D":
                self.out.append(f"D {self._quote(ch[1])}\n".encode())
            elif ch[0] == "R":
                self.out.append(f"R {self._quote(ch[1])} {self._quote(ch[2])}\n".encode())
        self.out.append(b"\n")
        return mark

    def stream(self):
        """Return the complete fast-import stream."""
        return b"".join(self.out) + b"done\n"


# ---- tree operations: each mutates `tree` and returns change commands ----

def is_binary(path):
    return path.endswith(BINARY_EXTS)


def apply_changes(tree, changes):
    """Apply fast-import style change commands to the tree model."""
    for ch in changes:
        if ch[0] == "M":
            tree[ch[2]] = (ch[1], ch[3])
        elif ch[0] == "D":
            del tree[ch[1]]
        elif ch[0] == "R":
            tree[ch[2]] = tree.pop(ch[1])


def edit_text(gen, path, data, max_hunks=3):
    """Return data with 1..max_hunks line edits (modify/insert/delete/append)."""
    r = gen.rng
    lines = data.decode().split("\n")[:-1]
    for _ in range(r.randint(1, max_hunks)):
        op = r.random()
        n = len(lines)
        if op < 0.40 and n > 10:  # modify a few lines in the middle
            at = r.randint(n // 5, max(n // 5, n - 6))
            k = r.randint(1, 6)
            lines[at:at + k] = gen.new_lines(path, 1, k + 4)
        elif op < 0.65:  # append a new block
            lines += gen.new_lines(path, 8, 45)
        elif op < 0.85 and n > 40:  # delete a block
            at = r.randint(5, n - 25)
            del lines[at:at + r.randint(3, 20)]
        else:  # insert a block in the middle
            at = r.randint(0, n)
            lines[at:at] = gen.new_lines(path, 4, 30)
    return ("\n".join(lines) + "\n").encode()


def small_edit(gen, path, data):
    """Return data with 1-3 lines replaced (keeps >=80% similarity)."""
    lines = data.decode().split("\n")[:-1]
    at = gen.rng.randint(len(lines) // 4, len(lines) // 2)
    lines[at:at + 2] = gen.new_lines(path, 1, 3)
    return ("\n".join(lines) + "\n").encode()


def rename_target(gen, path):
    """Return a new path for a renamed file (other dir or new name)."""
    ext = os.path.splitext(path)[1]
    dirs = [d for d, e, _ in LAYOUT if e == ext] or [os.path.dirname(path)]
    if gen.rng.random() < 0.5:
        dirs = dirs + [os.path.dirname(path) + "/legacy"]
    return gen.new_path(gen.rng.choice(dirs), ext)


def random_commit_changes(gen, tree, avoid=frozenset(), pool=None):
    """Pick a commit shape and return its change list (tree is updated).

    avoid: paths this commit must not touch; pool: if given, the only
    pre-existing paths it may touch (used to keep the side branch disjoint).
    """
    r = gen.rng
    source = sorted(pool) if pool is not None else tree  # sorted: set order varies per run
    candidates = [p for p in source if p in tree and p not in avoid]
    text = [p for p in candidates if not is_binary(p) and tree[p][1].count(b"\n") >= 30]
    binaries = [p for p in candidates if is_binary(p)]
    changes = []
    roll = r.random()
    if roll < 0.08 and text:  # rename (half pure, half with a small edit)
        old = r.choice(text)
        new = rename_target(gen, old)
        changes.append(("R", old, new))
        if r.random() < 0.5:
            mode, data = tree[old]
            changes.append(("M", mode, new, small_edit(gen, new, data)))
    elif roll < 0.13 and len(text) > 20:  # delete one or two files
        for p in r.sample(text, r.randint(1, 2)):
            changes.append(("D", p))
    elif roll < 0.16 and binaries:  # touch a binary file
        p = r.choice(binaries)
        data = bytearray(tree[p][1])
        for _ in range(r.randint(4, 64)):
            data[r.randrange(len(data))] = r.randrange(256)
        changes.append(("M", "100644", p, bytes(data)))
    elif roll < 0.17:  # add a binary file
        changes.append(("M", "100644", gen.new_path("assets", r.choice(BINARY_EXTS)), gen.binary()))
    elif roll < 0.18 and text:  # executable bit flip
        p = r.choice(text)
        mode, data = tree[p]
        changes.append(("M", "100644" if mode == "100755" else "100755", p, data))
    # Most commits (and every commit above, half the time) also edit/add text.
    if not changes or r.random() < 0.5:
        touched = {c[1] for c in changes} | {c[2] for c in changes if c[0] != "D"}
        editable = [p for p in text if p not in touched]
        for p in r.sample(editable, min(len(editable), r.randint(1, 6))):
            mode, data = tree[p]
            changes.append(("M", mode, p, edit_text(gen, p, data)))
        if r.random() < 0.12:  # add a new source file
            d, ext, _ = r.choice(LAYOUT)
            p = gen.new_path(d, ext)
            changes.append(("M", "100755" if ext == ".sh" else "100644", p, gen.text_file(p)))
    apply_changes(tree, changes)
    return changes


def build_history(args):
    """Return the fast-import stream for the requested history shape."""
    rng = random.Random(args.seed)
    gen = Gen(rng)
    repo = Repo(gen)
    tree = {}

    # Base tree on main.
    for directory, ext, share in LAYOUT:
        for _ in range(max(1, round(args.files * share))):
            path = gen.new_path(directory, ext)
            tree[path] = ("100755" if ext == ".sh" else "100644", gen.text_file(path))
    tree["docs/release notes.md"] = ("100644", gen.text_file("docs/release notes.md"))
    tree["README.md"] = ("100644", gen.text_file("README.md", 40, 80))
    for name in ("assets/logo.png", "assets/icons.woff2", "assets/model.bin"):
        tree[name] = ("100644", gen.binary())
    base = repo.commit("refs/heads/main",
                       [("M", m, p, d) for p, (m, d) in sorted(tree.items())], [],
                       "chore: initial import of the code base\n")

    # Feature branch: linear commits, with one side branch merged mid-way.
    side_n, during_n = 6, 3   # side-branch commits, feature commits while it lives
    linear_n = args.commits - side_n - during_n - 1 + 1  # fork turn is replaced
    fork_at = linear_n // 2
    tip = base
    for i in range(linear_n):
        if i == fork_at:
            # Side branch off the current tip, touching a reserved disjoint
            # pool of files while feature keeps moving, then merged back.
            text = sorted(p for p in tree if not is_binary(p) and tree[p][1].count(b"\n") >= 30)
            reserved = set(rng.sample(text, 12))
            side_tree = dict(tree)
            side_tip, side_changes = tip, []
            for _ in range(side_n):
                ch = random_commit_changes(gen, side_tree, pool=reserved)
                side_changes += ch
                reserved |= {c[2] for c in ch if c[0] in ("M", "R")}
                side_tip = repo.commit("refs/heads/topic/side", ch, [side_tip])
            for _ in range(during_n):
                tip = repo.commit("refs/heads/feature",
                                  random_commit_changes(gen, tree, avoid=reserved), [tip])
            apply_changes(tree, side_changes)
            tip = repo.commit("refs/heads/feature", side_changes, [tip, side_tip],
                              "Merge branch 'topic/side' into feature\n")
            continue
        tip = repo.commit("refs/heads/feature", random_commit_changes(gen, tree), [tip])
    return repo.stream()


def git_env():
    """Return an environment with no GIT_* overrides and no user/system config."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, LC_ALL="C", TZ="UTC")
    return env


def prog():
    """Return the running generator's name for messages (gen_history, gen_flow_repo, ...)."""
    return os.path.splitext(os.path.basename(sys.argv[0]))[0] or "gen_history"


def git(repo_dir, *args, data=None, capture=True):
    """Run git in repo_dir with a neutral config; return stdout bytes."""
    env = git_env()
    res = subprocess.run(["git", "-C", repo_dir, *args], input=data, env=env,
                         stdout=subprocess.PIPE if capture else subprocess.DEVNULL)
    if res.returncode != 0:
        sys.exit(f"{prog()}: git {' '.join(args)} failed ({res.returncode})")
    return res.stdout


def empty_dir(d, force):
    """Make d an empty folder, removing d first with force; exit when it is not empty."""
    if os.path.exists(d) and (not os.path.isdir(d) or os.listdir(d)):
        if not force:
            sys.exit(f"{prog()}: {d} exists and is not empty (use --force)")
        if os.path.isdir(d) and not os.path.islink(d):
            shutil.rmtree(d)
        else:
            os.remove(d)
    os.makedirs(d, exist_ok=True)


def init_repo(d, force):
    """Create an empty repository at d (removing d first with force) with a fixed config."""
    empty_dir(d, force)
    git(d, "init", "-q", "-b", "main")
    for key, val in (("user.name", COMMITTER[0]), ("user.email", COMMITTER[1]),
                     ("gc.auto", "0"), ("core.autocrlf", "false")):
        git(d, "config", key, val)


def count_patch_bytes(repo_dir, rev):
    """Return the byte size of `git diff -M rev` without buffering it all."""
    proc = subprocess.Popen(["git", "-C", repo_dir, "diff", "-M", rev],
                            stdout=subprocess.PIPE, env=git_env())
    total = 0
    while chunk := proc.stdout.read(1 << 16):
        total += len(chunk)
    if proc.wait() != 0:
        sys.exit(f"{prog()}: git diff failed")
    return total


def arg_parser(doc, commits, files, files_help):
    """Return the command line shared by the generators: DIR --commits --files --seed --force."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--commits", type=int, default=commits, help="commits in main..feature")
    ap.add_argument("--files", type=int, default=files, help=files_help)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--force", action="store_true", help="remove DIR first if it exists")
    return ap


def main():
    ap = arg_parser(__doc__, 320, 300, "approx. source files in the base tree")
    args = ap.parse_args()
    if args.commits < 12:
        ap.error("--commits must be >= 12")

    start = time.perf_counter()
    d = args.dir
    init_repo(d, args.force)
    stream = build_history(args)
    git(d, "fast-import", "--quiet", "--done", data=stream)
    git(d, "update-ref", "-d", "refs/heads/topic/side")
    git(d, "checkout", "-q", "feature")

    commits = int(git(d, "rev-list", "--count", "main..feature"))
    merges = int(git(d, "rev-list", "--count", "--merges", "main..feature"))
    files = len([x for x in git(d, "diff", "-M", "--name-only", "-z", "main...feature").split(b"\0") if x])
    patch = count_patch_bytes(d, "main...feature")
    elapsed = time.perf_counter() - start
    print(f"gen_history: {d}: {commits} commits in main..feature ({merges} merge), "
          f"{files} files changed, {patch} patch bytes, head {git(d, 'rev-parse', '--short', 'HEAD').decode().strip()}, "
          f"{elapsed:.1f}s")
    misses = [name for name, ok in (("commits", commits >= MIN_COMMITS), ("files", files >= MIN_FILES),
                                    ("patch bytes", patch >= MIN_PATCH_BYTES)) if not ok]
    if misses:
        print(f"gen_history: shape targets missed: {', '.join(misses)} "
              f"(need >={MIN_COMMITS} commits, >={MIN_FILES} files, >={MIN_PATCH_BYTES} bytes)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
