"""Whether a route's command names the changed test and is valid for its build tool,
checked statically in the work tree checked out at the commit."""

import glob
import json
import os
import re
import shlex
import subprocess
from functools import lru_cache

from selection import bench_env

# Definitions of tests and their enclosing units, by language: the names a command can use.
DEFS = [
    re.compile(r"\b(?:fn|mod)\s+(\w+)"),  # Rust
    re.compile(r"^\s*(?:async\s+)?def\s+(\w+)|^\s*class\s+(\w+)"),  # Python
    re.compile(r"^func\s+(?:\([^)]*\)\s*)?(\w+)"),  # Go
    re.compile(r"\b(?:void|fun|class|object|interface)\s+(`[^`]+`|\w+)"),  # Java / Kotlin
    re.compile(r"\b(?:it|test|describe|suite|bench)(?:\.\w+)*\(\s*(['\"`])(.+?)\1"),  # JS titles
    re.compile(r"\bfunction\s+(\w+)"),
]
GENERIC_STEMS = {"mod", "lib", "main", "index", "__init__", "test", "tests", "spec", "conftest",
                 "utils", "helpers", "common"}


def defs_in(line):
    out = []
    for pat in DEFS:
        for m in pat.finditer(line):
            out += [g.strip("`") for g in m.groups() if g and g not in ("'", '"', "`")]
    return out


def test_names(work, tests, added):
    """The names of the changed tests, read from the files at the commit (work tree): each
    definition on an added line, and the nearest definitions above an added line (the test
    function and its class or module). tests: changed test paths; added: {path: {line}}."""
    names = set()
    for path in tests:
        try:
            with open(os.path.join(work, path), encoding="utf-8", errors="replace") as fh:
                lines = fh.read().splitlines()
        except OSError:
            continue
        recent = []  # (indent, name) of the definitions above the current line
        for num, line in enumerate(lines, 1):
            found = defs_in(line)
            if found:
                indent = len(line) - len(line.lstrip())
                recent = [(i, n) for i, n in recent if i < indent] + [(indent, n) for n in found]
            if num in added.get(path, ()):
                names.update(n for _, n in recent)
                names.update(found)
    return {n for n in names if len(n) > 2 and n.lower() not in GENERIC_STEMS}


def rust_module(path):
    """The module path of a Rust source file below a `src/` folder (src/exec/mod.rs:
    `exec`; src/exec/token.rs: `exec::token`; src/lib.rs: ``), or None."""
    parts = path.split("/")
    if not path.endswith(".rs") or "src" not in parts:
        return None
    rest = parts[len(parts) - 1 - parts[::-1].index("src") + 1:]
    rest[-1] = rest[-1][:-3]
    if rest[-1] == "mod" or (len(rest) == 1 and rest[0] in ("lib", "main")):
        rest = rest[:-1]
    if len(rest) > 1 and rest[0] == "bin":  # src/bin/x/...: modules of the binary x
        rest = rest[2:]
    return "::".join(rest)


def file_keys(path):
    """What names a test file in a command: its path, its path without extension, its
    Python module path, and its stem unless the stem is generic (mod, index, test)."""
    base, _ = os.path.splitext(path)
    keys = {path, base, base.replace("/", ".")}
    stem = os.path.basename(base)
    if stem.lower() not in GENERIC_STEMS:
        keys.add(stem)
    parts = path.split("/")
    if "tests" in parts and path.endswith(".rs"):  # a Cargo integration test target
        i = parts.index("tests")
        if i + 1 < len(parts):
            keys.add(os.path.splitext(parts[i + 1])[0])
    return keys


def words(run):
    try:
        return shlex.split(run)
    except ValueError:
        return run.split()


def tokens(run):
    """The pieces of a command line that can name a test: words, and their parts split at
    `::`, `#`, `|`, `/`, `.`, `^`, `$`, parentheses and quotes."""
    out = set()
    for w in words(run):
        out.add(w)
        out.update(t for t in re.split(r"::|[#|/.^$()\[\]'\"*=,]", w) if t)
        out.update(re.split(r"::", w))
    return out


def names_test(cmd, tests, names):
    """What of the changed tests the command names (a path, a module, a function or class
    name), or None."""
    run, cwd = cmd["run"], cmd.get("dir") or "."
    toks = tokens(run)
    for path in sorted(tests):
        rel = os.path.relpath(path, cwd) if cwd != "." else path
        for w in words(run):
            w = w.split("::")[0]
            bare = w[2:] if w.startswith("./") else w
            # The path itself, from the command's folder, or a path the changed file ends with.
            if bare and (bare in (path, rel) or ("/" in bare and path.endswith("/" + bare))):
                return f"file {path}"
        if cmd.get("runner") == "go":
            pkg = os.path.dirname(rel) or "."
            # `./pkg` or `./pkg/...` (not the root's `./...`: that is the whole suite).
            named = ("./" + pkg, pkg) + (("./" + pkg + "/...", pkg + "/...") if pkg != "." else ())
            if any(w.rstrip("/") in named or (pkg == "." and w in (".", "./")) for w in words(run)):
                return f"package of {path}"
        module = rust_module(path)
        if module and cmd.get("runner") == "cargo" and any(
                w == module or w.startswith(module + "::") for w in words(run)):
            return f"module {module} (of {path})"
        hit = sorted((file_keys(path) - {module}) & toks if module else file_keys(path) & toks)
        if hit:
            return f"{hit[0]} (of {path})"
    hit = sorted(n for n in names & toks if n.lower() not in GENERIC_STEMS)
    if hit:
        return f"test {hit[0]}"
    return None


# ---------------------------------------------------------------------------------------
# Validity, per build tool


class Invalid(Exception):
    pass


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError:
        return None


@lru_cache(maxsize=64)
def cargo_metadata(folder, _sha):
    res = subprocess.run(["cargo", "metadata", "--no-deps", "--offline", "--format-version", "1"],
                         cwd=folder, capture_output=True, text=True, env=bench_env())
    if res.returncode != 0:
        tail = (res.stderr.strip().splitlines() or ["?"])[-1]
        raise Invalid(f"cargo metadata fails in {folder}: {tail[:160]}")
    return json.loads(res.stdout)


def rust_module_exists(src_root, module_path, lib_file):
    """Whether a `::` module path (a cargo --lib filter) exists from the library's root:
    each part a file (a.rs, a/mod.rs) or, once inside a file, a `mod`/`fn` of that name."""
    folder, current = src_root, read(lib_file) or ""
    parts = [p for p in module_path.split("::") if p]
    for i, part in enumerate(parts):
        for cand in (os.path.join(folder, part + ".rs"), os.path.join(folder, part, "mod.rs")):
            if os.path.isfile(cand) and re.search(rf"\bmod\s+{re.escape(part)}\b", current):
                folder, current = os.path.join(folder, part), read(cand) or ""
                break
        else:
            # Inside a file: the rest are inline modules or functions (a filter may be a prefix).
            last = i == len(parts) - 1
            pat = rf"\b(?:mod|fn)\s+{re.escape(part)}\w*" if last else rf"\bmod\s+{re.escape(part)}\b"
            # A test a macro defines (`fn $name()` in a macro_rules, `empty: "" => ...` in
            # its invocation) has its name only as a key of the invocation.
            generated = last and re.search(r"\bfn\s+\$\w+", current) \
                and re.search(rf"(?m)^\s*{re.escape(part)}\w*\s*:", current)
            if not re.search(pat, current) and not generated:
                return False, part
    return True, None


def check_cargo(work, sha, cmd):
    ws = words(cmd["run"])
    folder = os.path.join(work, cmd.get("dir") or ".")
    meta = cargo_metadata(os.path.realpath(folder), sha)
    members = set(meta.get("workspace_members") or [])
    pkgs = {p["name"]: p for p in meta["packages"] if not members or p["id"] in members}
    if "--" in ws:
        cut = ws.index("--")
        args, after = ws[:cut], ws[cut + 1:]
    else:
        args, after = ws, []
    chosen, test_target, bin_target, lib, filters, i = None, None, None, False, [], 2
    while i < len(args):
        w = args[i]
        if w in ("-p", "--package") and i + 1 < len(args):
            chosen = args[i + 1].split("@")[0]
            i += 2
            continue
        if w in ("--test",) and i + 1 < len(args):
            test_target = args[i + 1]
            i += 2
            continue
        if w == "--bin" and i + 1 < len(args):
            bin_target = args[i + 1]
            i += 2
            continue
        if w in ("--features", "-F", "--manifest-path", "--target", "--profile", "-j"):
            i += 2
            continue
        if w == "--lib":
            lib = True
        elif not w.startswith("-") and i >= 2:
            filters.append(w)
        i += 1
    filters += [w for w in after if not w.startswith("-")]
    if chosen is not None:
        if chosen not in pkgs:
            raise Invalid(f"cargo: no package {chosen} in the workspace")
        cands = [pkgs[chosen]]
    else:
        here = os.path.realpath(folder)
        cands = [p for p in pkgs.values() if os.path.dirname(os.path.realpath(p["manifest_path"])) == here] \
            or list(pkgs.values())
    if test_target:
        if not any(t["name"] == test_target and "test" in t["kind"] for p in cands for t in p["targets"]):
            raise Invalid(f"cargo: no test target {test_target}")
    if lib or bin_target:
        kinds = {"lib", "rlib", "proc-macro", "cdylib"} if lib else {"bin"}
        roots = [t for p in cands for t in p["targets"] if set(t["kind"]) & kinds
                 and (lib or t["name"] == bin_target)]
        what = "--lib" if lib else f"--bin {bin_target}"
        if not roots:
            raise Invalid(f"cargo: {what} names no target of the package")
        for f in filters:
            if not any(rust_module_exists(os.path.dirname(t["src_path"]), f, t["src_path"])[0] for t in roots):
                raise Invalid(f"cargo: {what} filter {f} names no module of the target")
    return "cargo ok"


PKG_MANAGERS = {"npm", "pnpm", "yarn", "bun", "npx"}
RUNNER_BINS = {"vitest", "jest", "mocha", "ava", "tap", "playwright", "tsx", "node"}


@lru_cache(maxsize=32)
def package_index(work, _sha):
    """{package name: folder} of every package.json tracked at the commit."""
    res = subprocess.run(["git", "-C", work, "ls-files", "*package.json"], capture_output=True,
                         text=True, env=bench_env())
    out = {}
    for rel in res.stdout.split():
        if "node_modules/" in rel:
            continue
        try:
            data = json.loads(read(os.path.join(work, rel)) or "{}")
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            out.setdefault(data["name"], os.path.dirname(rel) or ".")
    return out


def package_json(folder):
    try:
        data = json.loads(read(os.path.join(folder, "package.json")) or "")
        return data if isinstance(data, dict) else None
    except ValueError:
        return None


# Programs whose package has another name.
BIN_PACKAGES = {"playwright": ["playwright", "@playwright/test", "playwright-core"],
                "tsc": ["typescript"], "vue-tsc": ["vue-tsc"]}


def depends_on(pkg, name):
    """Whether package.json data pkg depends on the package providing program name."""
    deps = [pkg.get(k) or {} for k in ("dependencies", "devDependencies", "peerDependencies")]
    return any(n in d for n in BIN_PACKAGES.get(name, [name]) for d in deps)


# Flags whose value is a test-name pattern, never a file (`-t 'uses Array/Set'`).
NAME_FILTERS = ("-t", "--testNamePattern", "--grep", "-g")


def file_args(work, folders, args, tool):
    """Each argument that looks like a file (a `/` or an extension) exists at the commit;
    a name filter's value is a title, not a file."""
    for i, a in enumerate(args):
        if i and args[i - 1] in NAME_FILTERS:
            continue
        if a.startswith("-") or not ("/" in a or re.search(r"\.\w{1,4}$", a)):
            continue
        path = a.split("::")[0]
        # Node resolves a module path without its extension (`--require test/support/env`).
        if not any(os.path.exists(os.path.join(work, base, path) + ext) for base in folders
                   for ext in ("", ".js", ".ts", ".mjs", ".cjs")):
            raise Invalid(f"{tool}: file argument {a} does not exist at the commit")


def check_node(work, sha, cmd):
    ws = words(cmd["run"])
    while ws and re.match(r"^[A-Za-z_]\w*=", ws[0]):  # `TZ=UTC yarn jest`: the environment
        ws = ws[1:]
    folder = cmd.get("dir") or "."
    if ws[0] == "node":  # node's own test runner: `node --test files`
        file_args(work, [folder, "."], ws[1:], "node")
        return "node ok"
    if ws[0] == "npx":  # npx's own flags (--no, --yes) come before the program
        ws = ["npx"] + [w for w in ws[1:] if not (w.startswith("-") and w in ("--no", "--yes", "-y", "--no-install"))]
    rest, i = [], 1
    while i < len(ws):
        w = ws[i]
        if w in ("--filter", "-F", "--workspace", "-w", "--prefix", "-C", "--dir", "--cwd") and i + 1 < len(ws):
            val = ws[i + 1]
            if w in ("--prefix", "-C", "--dir", "--cwd"):
                folder = os.path.normpath(os.path.join(folder, val))
            else:
                index = package_index(work, sha)
                if val in index:
                    folder = index[val]
                elif os.path.isdir(os.path.join(work, val)):
                    folder = val.strip("./") or "."
                else:
                    raise Invalid(f"{ws[0]}: no package {val}")
            i += 2
            continue
        rest.append(w)
        i += 1
    if ws[0] == "yarn" and rest[:1] == ["workspace"] and len(rest) > 1:
        index = package_index(work, sha)
        if rest[1] not in index:
            raise Invalid(f"yarn: no workspace {rest[1]}")
        folder, rest = index[rest[1]], rest[2:]
    pkg = package_json(os.path.join(work, folder))
    if pkg is None:
        raise Invalid(f"{ws[0]}: no package.json in {folder}")
    root = package_json(work) or {}
    scripts = pkg.get("scripts") or {}
    plain = [w for w in rest if w != "--"]
    if not plain:
        raise Invalid(f"{ws[0]}: no script named")
    verb = plain[0]
    if verb in ("run", "run-script") and len(plain) > 1:
        script, args = plain[1], plain[2:]
    elif verb in ("exec", "x", "dlx") and len(plain) > 1:
        script, args = None, plain[2:]
        if not (depends_on(pkg, plain[1]) or depends_on(root, plain[1])):
            raise Invalid(f"{ws[0]} exec {plain[1]}: not a dependency of {folder}")
    elif ws[0] == "npx":
        script, args = None, plain[1:]
        if not (depends_on(pkg, verb) or depends_on(root, verb)):
            raise Invalid(f"npx {verb}: not a dependency of {folder}")
    else:
        script, args = ("test" if verb == "t" else verb), plain[1:]
    if script is not None and script not in scripts:
        if not (script in RUNNER_BINS and (depends_on(pkg, script) or depends_on(root, script))):
            raise Invalid(f"{ws[0]}: no script {script} in {folder}/package.json")
    bases = [folder, cmd.get("dir") or ".", "."]
    file_args(work, bases, args, ws[0])
    title_filter(work, bases, args, ws[0])
    return "node ok"


def title_filter(work, bases, args, tool):
    """A vitest/jest name filter (`-t`, `--testNamePattern`) matches a test title written
    in one of the file arguments (regex escapes read; a filter is a pattern over titles,
    so a part of a title is enough)."""
    pattern = None
    for i, a in enumerate(args):
        if a in NAME_FILTERS and i + 1 < len(args):
            pattern = args[i + 1]
        elif a.startswith(("--testNamePattern=", "-t=")):
            pattern = a.split("=", 1)[1]
    files = [a for a in args if not a.startswith("-") and re.search(r"\.\w{1,4}$", a)]
    if pattern is None or not files:
        return
    texts = [read(os.path.join(work, b, f)) or "" for f in files for b in bases]
    plain = re.sub(r"\\(.)", r"\1", pattern).strip("^$")
    parts = [p for p in re.split(r"\s+", plain) if p]
    # A filter joins the describe titles and the test title with spaces: every word of it
    # must be in the file, in a title.
    if not any(all(p in t for p in parts) for t in texts):
        raise Invalid(f"{tool}: name filter {pattern!r} matches no test title of {', '.join(files)}")


def check_pytest(work, _sha, cmd):
    ws = words(cmd["run"])
    if ws[:3] == ["python", "-m", "pytest"] or ws[:3] == ["python3", "-m", "pytest"]:
        ws = ws[2:]
    folder = os.path.join(work, cmd.get("dir") or ".")
    skip = {"-k", "-m", "-p", "-c", "--rootdir", "-o"}
    i, ids = 1, []
    while i < len(ws):
        if ws[i] in skip:
            i += 2
            continue
        if not ws[i].startswith("-"):
            ids.append(ws[i])
        i += 1
    for node in ids:
        path, *names = node.split("::")
        full = os.path.join(folder, path)
        if not os.path.exists(full):
            raise Invalid(f"pytest: {path} does not exist at the commit")
        text = read(full) if os.path.isfile(full) else ""
        for name in names:
            bare = name.split("[")[0]
            if not re.search(rf"^\s*(?:async\s+)?(?:def|class)\s+{re.escape(bare)}\b", text or "", re.M):
                raise Invalid(f"pytest: {bare} is not defined in {path}")
    return "pytest ok"


GO_TEST_FUNC = r"^func\s+{}\s*\(\s*\w+\s+\*testing\.[TBFM]\b"


def run_names(pattern):
    """The test names of a `go test -run` pattern: `^(A|B)$`, `^A$`, `A` (subtests after /
    dropped)."""
    top = pattern.split("/")[0]
    top = top.strip("^$").strip("()").strip("^$")
    return [n for n in top.split("|") if n]


def check_go(work, _sha, cmd):
    ws = words(cmd["run"])
    while ws and re.match(r"^[A-Za-z_]\w*=", ws[0]):  # `GO111MODULE=off go test`: the environment
        ws = ws[1:]
    folder = cmd.get("dir") or "."
    pkgs, run, i = [], None, 2
    while i < len(ws):
        w = ws[i]
        if w in ("-run", "--run") and i + 1 < len(ws):
            run = ws[i + 1]
            i += 2
            continue
        if w.startswith("-run="):
            run = w[5:]
        elif w in ("-tags", "-count", "-timeout", "-p"):
            i += 2
            continue
        elif not w.startswith("-"):
            pkgs.append(w)
        i += 1
    sources = []
    for p in pkgs or ["."]:
        if p.endswith("..."):
            if not os.path.isdir(os.path.join(work, folder, p[:-3].rstrip("/") or ".")):
                raise Invalid(f"go: no directory {p}")
            continue
        d = os.path.join(work, folder, p)
        if not os.path.isdir(d):
            raise Invalid(f"go: package directory {p} does not exist at the commit")
        files = glob.glob(os.path.join(d, "*_test.go"))
        if not files:
            raise Invalid(f"go: package {p} has no _test.go file")
        sources += [read(f) or "" for f in files]
    if run:
        for name in run_names(run):
            if not any(re.search(GO_TEST_FUNC.format(re.escape(name)), s, re.M) for s in sources):
                raise Invalid(f"go: -run names {name}, no such test function in {', '.join(pkgs)}")
    return "go ok"


def class_file(module_dir, name):
    """Test source files under a module's src/ (any test source set) for a class name or
    pattern (a qualified name's last class-looking segment, `*` wildcards)."""
    segs = [s for s in re.split(r"[.#]", name) if s]
    cands = [s for s in segs if s[:1].isupper() or "*" in s] or segs[-1:]
    for seg in cands:
        for ext in ("java", "kt", "scala", "groovy"):
            hits = [f for f in glob.glob(os.path.join(module_dir, "**", f"{seg}.{ext}"), recursive=True)
                    if re.search(r"/src/(test|\w+Test)/", f)]
            if hits:
                return hits[0]
    return None


def check_jvm(work, _sha, cmd):
    ws = words(cmd["run"])
    folder = os.path.join(work, cmd.get("dir") or ".")
    modules, classes = [], []
    for i, w in enumerate(ws):
        if w in ("-pl", "--projects") and i + 1 < len(ws):
            modules += [m.lstrip(":") for m in ws[i + 1].split(",")]
        elif w.startswith("-Dtest="):
            classes += w[7:].split(",")
        elif w == "--tests" and i + 1 < len(ws):
            classes.append(ws[i + 1])
        elif w.startswith(":") and w.count(":") >= 2:
            modules.append("/".join(w.strip(":").split(":")[:-1]))
    for m in modules:
        d = os.path.join(folder, m)
        if not os.path.isdir(d) or not any(os.path.isfile(os.path.join(d, b)) for b in
                                           ("pom.xml", "build.gradle", "build.gradle.kts")):
            raise Invalid(f"{ws[0]}: no module {m}")
    # A Kotlin multiplatform module has per-target test tasks (jvmTest, allTests), no `test`.
    for w in ws:
        if w.startswith(":") and w.endswith(":test"):
            module = "/".join(w.strip(":").split(":")[:-1])
            build = read(os.path.join(folder, module, "build.gradle.kts")) or \
                read(os.path.join(folder, module, "build.gradle")) or ""
            if re.search(r'kotlin\("multiplatform"\)|org\.jetbrains\.kotlin\.multiplatform', build):
                raise Invalid(f"{ws[0]}: {module} is a Kotlin multiplatform module: its JVM tests run with :{module.replace('/', ':')}:jvmTest, it has no test task")
    roots = [os.path.join(folder, m) for m in modules] or [folder]
    for c in classes:
        found = next((f for f in (class_file(r, c) for r in roots) if f), None)
        if not found:
            raise Invalid(f"{ws[0]}: no test class {c} under {', '.join(modules) or '.'}/src/test")
        # Maven's `Class#a+b` and Gradle's `pkg.Class.method` name methods of the class.
        methods = c.split("#", 1)[1].split("+") if "#" in c else \
            [s for s in c.split(".")[-1:] if s[:1].islower() and c.count(".") and not c.endswith("*")]
        text = read(found) or ""
        for m in [m for m in methods if m and "*" not in m]:
            if not re.search(rf"\b(?:fun\s+|void\s+){re.escape(m)}\s*\(", text):
                raise Invalid(f"{ws[0]}: {m} is not a test method of {os.path.basename(found)}")
    return "jvm ok"


def check_make(work, _sha, cmd):
    ws = words(cmd["run"])
    text = read(os.path.join(work, cmd.get("dir") or ".", "Makefile")) or ""
    for t in [w for w in ws[1:] if not w.startswith("-") and "=" not in w]:
        if not re.search(rf"^{re.escape(t)}\s*:", text, re.M):
            raise Invalid(f"make: no target {t}")
    return "make ok"


CHECKS = {"cargo": check_cargo, "npm": check_node, "pnpm": check_node, "yarn": check_node,
          "bun": check_node, "pytest": check_pytest, "go": check_go, "mvn": check_jvm,
          "gradle": check_jvm, "./gradlew": check_jvm, "make": check_make}


def validate(work, sha, cmd):
    """None when the command is valid for its build tool at the commit, else why not."""
    check = CHECKS.get(cmd.get("runner"))
    if check is None:
        return f"no static check for runner {cmd.get('runner')}"
    try:
        check(work, sha, cmd)
    except Invalid as exc:
        return str(exc)
    return None


def score(work, sha, tests, names, routes):
    """(routed, reason, command): whether some scenario's route command names a changed test
    and is valid; the reason says why not (the most telling failure) or what it named."""
    commands = [r.get("command") for r in routes if isinstance(r.get("command"), dict)]
    if not routes:
        return False, "no route", None
    if not commands:
        return False, "no route has a command", None
    failures = []
    for cmd in commands:
        named = names_test(cmd, tests, names)
        if not named:
            continue
        why = validate(work, sha, cmd)
        if why is None:
            return True, f"names {named}", cmd["run"]
        failures.append(f"invalid: {why}")
    if failures:
        return False, failures[0], None
    return False, f"no command names the changed test ({commands[0]['run'][:80]})", None
