"""Per-commit scores from the records and the repository: scenarios, cites, quotes,
false "removed" claims and bare steps (routes are scored in routes.py)."""

import re

from selection import git

# ---------------------------------------------------------------------------------------
# The changed test lines


def diff_rows(repo, sha, paths):
    """Yield (path, sign, line number, text, head start) for each line of the -U0 diff of
    paths in commit sha: a `-` row's number is its base line, a `+` row's its head line;
    head start is the head line its hunk starts at (git's new start, at least 1)."""
    if not paths:
        return
    path, old, new, start = None, 0, 0, 0
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
            start = max(new, 1)
        elif line.startswith("+") and path:
            yield path, "+", new, line[1:], start
            new += 1
        elif line.startswith("-") and path:
            yield path, "-", old, line[1:], start
            old += 1


def diff_lines(repo, sha, paths):
    """Return [(path, sign, line number, text)] of the -U0 diff of paths in commit sha."""
    return [row[:4] for row in diff_rows(repo, sha, paths)]


def deleted_lines(repo, sha, paths):
    """{path: {head line: {text}}} of the lines the commit deleted from paths, each at the
    head line its hunk starts at: where a deletion is cited, since a deleted line has no
    line of its own at head."""
    out = {}
    for path, sign, _, text, start in diff_rows(repo, sha, paths):
        if sign == "-" and text.strip():
            out.setdefault(path, {}).setdefault(start, set()).add(text.strip())
    return out


def tests_renamed_only(repo, sha, tests):
    """Whether every test file of the commit is a rename that changed no line (`git show
    -M`): the selection, which reads no renames, counts such a commit as shipping a test,
    while the flow reads its tests as moved. Reported beside the scores, never in them."""
    if not tests:
        return False
    out = git(repo, "show", "-M", "--numstat", "-z", "--format=", sha)
    fields = out.split("\0")
    pure, i = set(), 0
    while i < len(fields):
        head = fields[i]
        if not head.strip():
            i += 1
            continue
        added, deleted, path = (head.lstrip("\n").split("\t", 2) + ["", ""])[:3]
        if path == "" and i + 2 < len(fields):  # a rename: old and new follow as fields
            if (added, deleted) == ("0", "0"):
                pure.add(fields[i + 2])
            i += 3
            continue
        i += 1
    return all(t in pure for t in tests)


def added_lines(rows):
    """{path: {line number}} of the added (or changed) lines of diff rows."""
    out = {}
    for path, sign, num, _ in rows:
        if sign == "+":
            out.setdefault(path, set()).add(num)
    return out


# ---------------------------------------------------------------------------------------
# Expectations: the literal values the changed test expects

ASSERT_CONTEXT = re.compile(
    r"\b(assert\w*|expect\w*|eqnice|should|to(Be|Equal|StrictEqual|Match|Throw|Contain|Have)\w*"
    r"|require\.\w+|raises|check\w*|verify\w*|want\w*|wanted|expected\w*|snapshot|matches"
    r"|is(Equal|True|False|Null|Same|EqualTo)\w*)\b|==|!=|\bassert\w*!"
    # The expected output of a command-line test builder (assert_cmd, just's `Test`).
    r"|\.(stdout|stderr)(_\w+)?\(")
EXPECT_ASSIGN = re.compile(
    r"^\s*(?:let\s+(?:mut\s+)?|const\s+|var\s+|val\s+|final\s+\w+\s+|\w+\s+|)"
    r"(\w*(?:expect|want|exp)\w*)\s*(?::[^=]+)?:?=(?!=)", re.IGNORECASE)
# A keyed field of a table row or a case struct: `want: "x"`, `"expected": 3`, `out=4`.
EXPECT_KEY = re.compile(r"""["']?\b(want\w*|expect\w*|exp|output|out|result|err\w*)\b["']?\s*[:=](?!=)""",
                        re.IGNORECASE)
# The rows of a table-driven test: pytest.mark.parametrize, test.each / it.each,
# @CsvSource / @ValueSource, a Go table of cases (`tests := []struct{...}{`).
TABLE_OPEN = re.compile(r"parametrize\(|\.each\s*[(`]|@CsvSource|@ValueSource|@MethodSource"
                        r"|\[\]struct\s*\{|:=\s*(?:map\[[^\]]*\]|\[\])\w*\s*\{|cases\s*=|tests\s*=")
ROW = re.compile(r"^\s*[\[({].*[\])}]\s*,?\s*$|^\s*['\"].*['\"]\s*,?\s*$")
# An import names a module, never an expected value (`import { expect } from "vitest"`).
IMPORT = re.compile(r"^\s*(?:import\b|from\s+[\w.]+\s+import\b|use\s+[\w:]+|package\s|#include\b"
                    r"|(?:const|let|var)\s+[\w{}\s,]+=\s*require\()")
# A Go test's failure message (`t.Errorf("got %v, want %v", ...)`) is no expectation.
MESSAGE_CALL = re.compile(r"\bt\.(Error|Fatal|Log|Skip)f?\(|\bprint(ln|f)?\(|console\.log\(")
# Where the framework says which side is expected: the matcher's argument
# (`expect(x).toBe(3)`, `assertThat(x).isEqualTo(3)`, `assert_called_with(...)`).
MATCHER = re.compile(r"\)\s*\.(?:not\s*\.\s*)?(?:to|is|has|contains|matches|assert_called)\w*\s*\(")
LITERAL = re.compile(
    r'r(#*)"((?:[^"\\]|\\.)*?)"\1'
    r'|[fbuFBU]?"""([\s\S]*?)"""'
    r'|[fbuFBU]?"((?:[^"\\]|\\.)*)"'
    r"|[fbuFBU]?'((?:[^'\\]|\\.)*)'"
    r"|`((?:[^`\\]|\\.)*)`"
    r"|(?<![\w.$])(-?\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![\w.])"
    r"|\b(true|false|True|False|None|null|nil)\b")
KEYWORDS = {"true", "false", "True", "False", "None", "null", "nil"}
FORMAT_VERB = re.compile(r"%[-+# 0-9.]*[vsdqfxtTwgeb]|\{\}|\{:\?\}")


def literals_in(text):
    """The literal values written in text: strings (escapes \\n, \\" and \\\\ read), numbers,
    booleans and null/None/nil, in order."""
    out = []
    for m in LITERAL.finditer(text):
        groups = m.groups()
        kw = groups[7]
        if kw:
            out.append(kw)
            continue
        num = groups[6]
        if num is not None:
            out.append(num)
            continue
        raw = next((g for g in (groups[1], groups[2], groups[3], groups[4], groups[5]) if g is not None), "")
        if groups[1] is None:
            raw = raw.replace("\\n", "\n").replace('\\"', '"').replace("\\'", "'").replace("\\\\", "\\")
        out.append(raw)
    return out


def expected_part(code_line):
    """The part of a line that holds the expected value: what follows a matcher
    (`).toBe(`, `).isEqualTo(`) when there is one, else the whole line."""
    m = MATCHER.search(code_line)
    return code_line[m.end():] if m else code_line


def usable(lit):
    """A literal worth quoting: not empty, not a format string or a message template."""
    text = lit.strip()
    return bool(text) and not FORMAT_VERB.search(text)


HELPER_DEF = re.compile(r"^(\s*)(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:fn|def|func|function|fun)\s+(\w+)"
                        r"|^(\s*)(?:export\s+)?(?:const|let)\s+(\w+)\s*=\s*(?:async\s*)?\([^)]*\)\s*=>"
                        r"|^(\s*)(?:(?:public|private|protected|static|final)\s+)*void\s+(\w+)\s*\(")


def assertion_helpers(texts):
    """The names of the functions the test files texts define whose body holds an
    assertion (`fn case(s) { Test::new()...stdout(s)... }`, `def check(a, b): assert ...`):
    a call to one is an assertion call. A body runs to the next definition at the same or
    a smaller indent."""
    helpers = set()
    for text in texts:
        current = None  # (indent, name, asserts)
        for line in text.splitlines() + ["fn __end__"]:
            m = HELPER_DEF.match(line)
            if m:
                indent = len(next(g for g in (m.group(1), m.group(3), m.group(5)) if g is not None))
                if current and indent <= current[0]:
                    if current[2]:
                        helpers.add(current[1])
                    current = None
                if current is None:
                    current = [indent, next(g for g in (m.group(2), m.group(4), m.group(6)) if g), False]
                continue
            if current and not current[2] and ASSERT_CONTEXT.search(LITERAL.sub('""', line)):
                current[2] = True
    return {h for h in helpers if h != "__end__"}


def expectation_literals(rows, helpers=()):
    """Return the sorted expected values of the added test lines: the literal arguments on
    an added line in an assertion context (an assertion or expectation call, a comparison,
    an `expected`/`want` assignment or key), the expected side only where the framework
    says which (after a matcher); the lines of a call such a line leaves open; the rows a
    table-driven test adds (parametrize, test.each, @CsvSource, Go case tables); and the
    lines of a multi-line string such a line opens. A call to one of helpers (the test
    code's own assertion helpers, see assertion_helpers) is an assertion call. Failure
    messages are left out."""
    found, in_block, depth, table, last = set(), False, 0, 0, None
    helper_call = re.compile(r"\b(?:%s)\s*\(" % "|".join(map(re.escape, sorted(helpers)))) if helpers else None

    def keep(values):
        for lit in values:
            for part in lit.split("\n") if "\n" in lit else [lit]:
                part = part.strip().rstrip("\\").strip()
                if usable(part):
                    found.add(part)

    for path, sign, num, text in rows:
        if sign != "+" or last != (path, num - 1):
            in_block, depth, table = False, 0, 0
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
            keep([body])
            continue
        code = LITERAL.sub('""', text)  # a test title saying "should" is no assertion
        opens = code.count("(") + code.count("[") + code.count("{")
        closes = code.count(")") + code.count("]") + code.count("}")
        if TABLE_OPEN.search(code):
            # A table written whole on its line (`equal := map[K]V{"a": {}}`) ends there:
            # the assertions after it are read as assertions, not as rows. A test.each
            # template (`test.each\``) has no bracket to count: open until it closes.
            template = re.search(r"\.each\s*`", text) and text.count("`") % 2 == 1
            table = max(1 if template else 0, opens - closes)
            keep(literals_in(text[TABLE_OPEN.search(text).end():]) if TABLE_OPEN.search(text) else [])
            continue
        if table > 0:
            table = max(0, table + opens - closes)
            if ROW.match(text) or EXPECT_KEY.search(code) or depth > 0:
                keep(literals_in(text))
            continue
        if IMPORT.match(text):
            continue
        # `if got != 3 { t.Error("wrong value") }`: 3, not the message. A call only named
        # inside a string (`toBe("console.log(1)")`) is no message call.
        message, in_code = MESSAGE_CALL.search(text), MESSAGE_CALL.search(code)
        if message and in_code:
            text, code = text[:message.start()], code[:in_code.start()]
        asserting = depth > 0 or ASSERT_CONTEXT.search(code) or EXPECT_ASSIGN.search(code) \
            or EXPECT_KEY.search(code) \
            or (helper_call and helper_call.search(code) and not HELPER_DEF.match(code))
        if not asserting:
            continue
        keep(literals_in(expected_part(text)))
        # A call left open continues on the next lines; a block (`{`) does not.
        depth = max(0, depth + code.count("(") + code.count("[") - code.count(")") - code.count("]"))
        # A multi-line string opened and not closed on this line.
        if re.search(r'(=|\(|,)\s*(r#*"|"""|`|")\\?\s*$', stripped) or stripped.endswith('"\\'):
            in_block = True
    return sorted(found)


def squeeze(text):
    return re.sub(r"\s+", " ", text).strip()


def quoted_in(lit, text):
    """Whether text quotes the literal: a literal of 3+ characters as a whole (word
    boundaries where it starts or ends with a word character, whitespace squeezed); a
    literal of 1-2 characters only as a whole backticked token (`0`, `"ok"`); a single word
    other than a boolean or null only inside backticks or quotes."""
    lit, text = squeeze(lit), squeeze(text)
    if len(lit) <= 2:
        return any(tok.strip("\"'") == lit or tok == lit for tok in re.findall(r"`([^`]*)`", text))
    start = r"(?<!\w)" if re.match(r"\w", lit) else ""
    end = r"(?!\w)" if re.search(r"\w$", lit) else ""
    if re.fullmatch(r"[A-Za-z]+", lit) and lit not in KEYWORDS:
        # A single word ("first", "get") can be prose by chance ("does first"): it quotes
        # only inside code or quotes.
        text = " ".join(re.findall(r"`[^`]*`|\"[^\"]*\"|'[^']*'", text))
    return re.search(start + re.escape(lit) + end, text) is not None


def quotes(scenarios, literals):
    """Return [(scenario index, literal)]: the first literal of the changed tests each
    scenario's step or assertion quotes. An assertion that only names a changed test
    ("Changed test passes: <title>") quotes its title, not its expectation: not counted."""
    hits = []
    for i, sc in enumerate(scenarios):
        texts = list(sc.get("steps") or []) + [
            a for a in sc.get("assertions") or [] if not a.startswith("Changed test passes:")]
        for lit in literals:
            if any(quoted_in(lit, t) for t in texts):
                hits.append((i, lit))
                break
    return hits


def quote_miss(scenarios, literals):
    """Why no scenario quotes the test's expected values (for the sheet): no scenario; only
    short literals; a literal only in a looser form (a single word outside code); an
    expectation stated with another value; assertions that only name the changed test;
    or no expected value at all."""
    if not scenarios:
        return "no scenario"
    texts = [t for sc in scenarios for t in list(sc.get("steps") or []) + list(sc.get("assertions") or [])
             if not t.startswith("Changed test passes:")]
    low = " ".join(texts).lower()
    if all(len(squeeze(lit)) <= 2 for lit in literals):
        return "only literals of 1-2 characters, none as a backticked token"
    if any(len(lit) > 2 and re.search(r"(?<!\w)" + re.escape(lit.lower()) + r"(?!\w)", low) for lit in literals):
        return "a literal only in a looser form (a word outside code and quotes, another case)"
    if re.search(r"\bexpect(s|ing)\b", low):
        return "an expectation with another value (another test's, or the product's)"
    asserts = [a for sc in scenarios for a in sc.get("assertions") or []]
    if asserts and all(a.startswith("Changed test passes:") or re.fullmatch(r"Test `[^`]+` passes", a)
                       for a in asserts):
        return "assertions only name the changed test"
    return "no expected value in the steps or assertions"


def cites(scenarios, added, deleted=None):
    """Return [(scenario index, "file:line")]: evidence items citing a line the commit added
    or changed in a changed test file (added: {path: {line}}), or a line it deleted from one
    (deleted: {path: {head line: {text}}}): at the head line its hunk starts at, quoting the
    deleted text (a line of 4 characters or more, so a lone brace cites nothing)."""
    deleted = deleted or {}
    hits = []
    for i, sc in enumerate(scenarios):
        for ev in sc.get("evidence") or []:
            if ev.get("line") in added.get(ev.get("file"), ()):
                hits.append((i, f"{ev['file']}:{ev['line']}"))
                break
            # A deletion sits between two head lines: git's new start (the line before
            # the gap) and the line after it; either bounds what went.
            at = deleted.get(ev.get("file"), {})
            line = ev.get("line")
            gone = set(at.get(line, ())) | (set(at.get(line - 1, ())) if isinstance(line, int) else set())
            if any(len(t) >= 4 and t in (ev.get("text") or "") for t in gone):
                hits.append((i, f"{ev['file']}:{ev['line']} (deleted)"))
                break
    return hits


# ---------------------------------------------------------------------------------------
# Claims that code was removed

CLAIM = re.compile(r"\bremoved\b|\bno longer\b|\bdropped\b", re.IGNORECASE)
# The code a claim says is gone: the backticked span right before "removed"/"dropped"
# ("(`x` removed)", "`x` is dropped"), or right after "removed"/"dropped"/"no longer
# <verb>" ("removed `x`", "no longer calls `x`"). A subject before "no longer" ("`f` no
# longer panics") is what still exists, not what went.
GONE_BEFORE = re.compile(r"`([^`]+)`\s+(?:(?:is|are|was|were|has been|have been|gets|get)\s+)?(?:removed|dropped)\b",
                         re.IGNORECASE)
GONE_AFTER = re.compile(r"\b(?:removed|dropped|no longer\s+\w+)\s+(?:the\s+|a\s+|an\s+|its\s+)?`([^`]+)`",
                        re.IGNORECASE)


# "`m` no longer has the entry "x"", "... the entry "x": f(y)", "... the entry k: V": the
# entry as the claim writes it (key, and value when named) is the code gone.
GONE_ENTRY = re.compile(r'\bno longer (?:has|holds|contains|includes|lists)\s+(?:the\s+|an?\s+)?'
                        r'(?:entry|key|value|item|option|field|case|arm)\s+([^`\s;][^;]*?)\s*(?:;|$)')


def claim_texts(sc):
    """The texts of a scenario that can claim a removal: title, steps, assertions, proof gap."""
    return [sc.get("title") or ""] + list(sc.get("steps") or []) + \
        list(sc.get("assertions") or []) + [sc.get("proof_gap") or ""]


def removed_code(text):
    """The code spans a text claims are removed ("removed", "no longer", "dropped")."""
    if not CLAIM.search(text):
        return []
    codes = [m.group(1) for pat in (GONE_BEFORE, GONE_AFTER, GONE_ENTRY) for m in pat.finditer(text)]
    # A number or a one- or two-character token ("no longer has the entry 3") locates no
    # code: counting it says nothing about the claim.
    return [c for c in codes if len(squeeze(c)) > 2 and not re.fullmatch(r"-?[\d_.]+", squeeze(c))]


def occurrences(code, sources):
    """How often code (whitespace squeezed; an elision `...` matches anything short of a
    line) occurs in the texts sources."""
    pieces = [re.escape(squeeze(p)) for p in squeeze(code).split("...")]
    pattern = re.compile(r".{0,200}?".join(pieces), re.DOTALL)
    return sum(len(pattern.findall(squeeze(s))) for s in sources)


def false_removed(scenarios, before, after):
    """Return [(scenario index, code, reason)]: claims of removed code that still stands.
    before/after: the texts of the changed files at the parent and at the commit. A claim
    is false when its code occurs at the commit at least as often as at the parent (moved,
    not removed); a claim whose code is not found at the parent cannot be checked and is
    not counted."""
    hits = []
    for i, sc in enumerate(scenarios):
        for text in claim_texts(sc):
            for code in removed_code(text):
                was, now = occurrences(code, before), occurrences(code, after)
                if now and now >= was:
                    hits.append((i, code, f"`{code}` stands at the commit ({now}x, {was}x before)"))
    return hits


# ---------------------------------------------------------------------------------------
# Steps a tester cannot follow

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
# Words that only frame a code condition ("Arrange that `a && b` holds").
FRAME_WORDS = set("""arrange arranges given when whenever if while where that so the a an
holds hold is are true false truthy falsy case condition ensure make sure start with state
until unless both either and or not then""".split())
OPERATOR = re.compile(r"&&|\|\||==|!=|<=|>=|=>|->|::|[<>!]|\.\w+\(|\w\(|\)\.|\?\.|\[.+\]")


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


def code_condition(step):
    """Whether a step is a code condition: its content is backticked code framed at most by
    words such as "Arrange that ... holds" or "when" (a trailing `(file:line)` aside), the
    code an expression with an operator or a call (`a && b`, `self.x.is_empty()`) or the
    frame one that asks for code to hold ("Arrange that `ok` holds"); a tester cannot do
    that."""
    text = STEP_PREFIX.sub("", step, count=1).strip().rstrip(".")
    text = re.sub(r"\s*\([^()`]*:\d+\)$", "", text)
    spans = re.findall(r"`([^`]+)`", text)
    rest = re.sub(r"`[^`]*`", " ", text)
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", rest)]
    if not spans or not all(w in FRAME_WORDS for w in words):
        return False
    return any(OPERATOR.search(s) for s in spans) or bool({"holds", "hold", "true", "false"} & set(words))


def bad_step(step):
    """A step a tester cannot follow: a bare identifier or a code condition."""
    return bare_step(step) or code_condition(step)
