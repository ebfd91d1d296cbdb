//! The test-support files a changed test file imports, read at head, and the expectations
//! its changed tests pass to the assertion helpers defined there or in the file itself.

use std::collections::{BTreeSet, HashMap};
use std::ops::Range;
use std::path::Path;
use std::sync::LazyLock;

use qa_records::change::Op;
use regex::Regex;

use crate::changeset::Changeset;
use crate::deltas::Deltas;
use crate::sources;
use crate::trees::{self, Grammar};
use qa_syntax::suite::helpers::{self, Helper};

/// Most support files parsed for one changed test file: the ones it imports, not the repo.
const MAX_SUPPORT: usize = 8;
/// Most candidate files looked into (a text search, no parse) for one changed test file:
/// a glob import of a test crate's root brings every module the root declares.
const MAX_CANDIDATES: usize = 256;

/// The files of the head revision, as support reading needs them.
pub trait Files {
    /// The names of the entries of directory `dir` (`""` is the root).
    fn list(&self, dir: &str) -> Vec<String>;
    fn read(&self, path: &str) -> Option<String>;
}

/// Adds to every changed test the expectations its calls pass to the repository's
/// assertion helpers: those its own file defines and those of the test-support files it
/// imports, at head. As with the test's own assertions, when the change wrote some of
/// them, only those are kept.
pub fn resolve(cs: &Changeset, repo: &Path, deltas: &mut Deltas) {
    let waiting: Vec<String> = deltas
        .iter()
        .filter(|(_, d)| d.changed_tests.iter().any(|t| !t.helper_calls.is_empty()))
        .map(|(p, _)| p.clone())
        .collect();
    if waiting.is_empty() {
        return;
    }
    let Ok(git) = git2::Repository::open(repo) else {
        return;
    };
    let head = cs.range.as_ref().map(|r| r.data.head.oid.clone());
    let tree = head
        .and_then(|h| git.revparse_single(&h).ok())
        .and_then(|o| o.peel_to_tree().ok());
    let files = HeadFiles {
        git: &git,
        tree: tree.as_ref(),
    };
    let mut read: HashMap<String, SupportRead> = HashMap::new();
    for path in waiting {
        let Some(grammar) = Grammar::of(&path) else {
            continue;
        };
        let Some(file) = cs.file(&path) else { continue };
        let Some(text) = sources::head(&git, repo, &file.data) else {
            continue;
        };
        let Some(delta) = deltas.get_mut(&path) else {
            continue;
        };
        let called = called(delta);
        // The file's own functions, read by the deltas while its tree stood (else now).
        let whole = || {
            let tree = (text.len() <= sources::MAX_BYTES)
                .then(|| trees::parse(grammar, &text))
                .flatten();
            tree.map_or_else(OwnHelpers::default, |tree| {
                read_own(grammar, tree.root_node(), &text, &called)
            })
        };
        let own = delta.own_helpers.take().unwrap_or_else(whole);
        let site = Site {
            grammar,
            path: &path,
            text: &text,
            called: &called,
            files: &files,
        };
        // Own functions read without the far blocks serve unless a support helper calls
        // a name one of those blocks may define: then the whole file is read, as the
        // supports were before.
        let before = (!own.far.is_empty()).then(|| read.clone());
        let defs = match site.definitions(own, &mut read) {
            Some(defs) => defs,
            None => {
                read = before.unwrap_or_default();
                site.definitions(whole(), &mut read).unwrap_or_default()
            }
        };
        let helpers = helpers::assertion_helpers(defs);
        if helpers.is_empty() {
            continue;
        }
        let added: BTreeSet<u32> = file
            .data
            .hunks
            .iter()
            .flat_map(|h| h.lines.iter())
            .filter(|l| l.op == Op::Add)
            .map(|l| l.line)
            .collect();
        let Some(delta) = deltas.get_mut(&path) else {
            continue;
        };
        let crate::deltas::FileDelta {
            changed_tests,
            statement_ends,
            written_expectations,
            ..
        } = delta;
        for t in changed_tests {
            let found = helpers::expectations(&t.helper_calls, &helpers);
            if found.is_empty() {
                continue;
            }
            t.expects.extend(found);
            t.expects.sort_by_key(|e| e.line);
            crate::deltas::keep_written(t, &added, statement_ends, written_expectations);
            // The act is the call the first expectation checks: a helper's call when
            // its expectation leads (its computed argument, when it is a call).
            if let Some(c) = t
                .expects
                .first()
                .and_then(|e| t.helper_calls.iter().find(|c| c.line == e.line))
            {
                let computed = c.args.iter().find(|a| !a.literal && a.text.contains('('));
                t.act = Some(match computed {
                    Some(a) => a.text.clone(),
                    None => {
                        let args: Vec<&str> = c.args.iter().map(|a| a.text.as_str()).collect();
                        format!("{}({})", c.name, args.join(", "))
                    }
                });
            }
        }
    }
}

/// A support file's functions as read so far: whole for the names some changed test file
/// needed (each one's body walked costs more than the file's parse), only named for the
/// rest.
#[derive(Debug, Clone)]
struct SupportRead {
    helpers: Vec<Helper>,
    /// The names read whole; `None` when every function was.
    whole: Option<BTreeSet<String>>,
}

impl SupportRead {
    /// Reads `support` at head (`None`: every function whole), else whole the functions
    /// named in `names` (with what the ones named in `called` call) and those whose bodies
    /// name a receiver; in the file's order.
    fn of(
        files: &HeadFiles,
        support: &str,
        names: Option<(BTreeSet<String>, &BTreeSet<String>)>,
    ) -> Option<Self> {
        let text = files.read(support)?;
        let grammar = Grammar::of(support);
        let Some((mut names, called)) = names else {
            let helpers = grammar.map_or_else(Vec::new, |g| defined(g, &text));
            return Some(SupportRead {
                helpers,
                whole: None,
            });
        };
        let tree = grammar
            .filter(|_| text.len() <= sources::MAX_BYTES)
            .and_then(|g| Some((g, importable(g, &text)?)));
        let mut helpers = Vec::new();
        if let Some((g, tree)) = &tree {
            let defs = helpers::Definitions::of(*g, tree.root_node(), &text);
            helpers = defs.read_with_receivers(|n| names.contains(n));
            // What the called helpers defined here call: looked up next, read now.
            let inner: BTreeSet<String> = callees(&helpers, called)
                .into_iter()
                .filter(|n| !names.contains(n))
                .collect();
            if !inner.is_empty() {
                names.extend(inner);
                helpers = defs.read_with_receivers(|n| names.contains(n));
            }
        }
        Some(SupportRead {
            helpers,
            whole: Some(names),
        })
    }

    /// True when every function named in `names` was read whole.
    fn covers(&self, names: &BTreeSet<String>) -> bool {
        self.whole.as_ref().is_none_or(|whole| {
            self.helpers
                .iter()
                .all(|h| !names.contains(&h.name) || whole.contains(&h.name))
        })
    }
}

/// One changed test file whose tests call helpers, as its definitions are gathered.
struct Site<'a> {
    grammar: Grammar,
    path: &'a str,
    text: &'a str,
    called: &'a BTreeSet<String>,
    files: &'a HeadFiles<'a>,
}

impl Site<'_> {
    /// The functions the file's changed tests may reach: its own, then those of the
    /// support files it imports that define a function still unknown (`read` keeps each
    /// support file's, parsed once for every file). `None` when `own` was read without
    /// the far blocks and a name to look up may be defined in one of them.
    fn definitions(
        &self,
        own: OwnHelpers,
        read: &mut HashMap<String, SupportRead>,
    ) -> Option<Vec<Helper>> {
        let Site {
            grammar,
            path,
            text,
            called,
            files,
        } = *self;
        let OwnHelpers {
            helpers: mut defs,
            read: own_read,
            far,
        } = own;
        let own_count = defs.len();
        // Only the support files that name a function still unknown are parsed: first
        // the ones the tests call, then the ones those call (one more level, no further).
        let mut wanted = unknown(called.clone(), &defs);
        let mut parsed: BTreeSet<String> = BTreeSet::new();
        // Where each support file's functions stand in `defs`.
        let mut placed: Vec<(&String, Range<usize>)> = Vec::new();
        let supports = support_files(grammar, path, text, files);
        for _ in 0..2 {
            for support in &supports {
                if parsed.contains(support) {
                    continue;
                }
                if let Some(got) = read.get(support) {
                    if wanted
                        .iter()
                        .any(|w| got.helpers.iter().any(|h| &h.name == w))
                    {
                        // The helpers the tests call are read whole: what they call is
                        // looked up next.
                        if !got.covers(called) {
                            let Some(whole) = SupportRead::of(files, support, None) else {
                                continue;
                            };
                            read.insert(support.clone(), whole);
                        }
                        let got = &read[support].helpers;
                        placed.push((support, defs.len()..defs.len() + got.len()));
                        defs.extend(got.iter().cloned());
                        parsed.insert(support.clone());
                    }
                    continue;
                }
                if parsed.len() >= MAX_SUPPORT {
                    break;
                }
                let Some(t) = files.read(support) else {
                    continue;
                };
                if !wanted.iter().any(|w| defines(&t, w)) {
                    continue;
                }
                // The called helpers, the names looked up, and what the called helpers
                // read so far call are what the reading may need whole.
                let names: BTreeSet<String> = called
                    .iter()
                    .chain(&wanted)
                    .cloned()
                    .chain(callees(&defs, called))
                    .collect();
                let Some(got) = SupportRead::of(files, support, Some((names, called))) else {
                    continue;
                };
                placed.push((support, defs.len()..defs.len() + got.helpers.len()));
                defs.extend(got.helpers.iter().cloned());
                read.insert(support.clone(), got);
                parsed.insert(support.clone());
            }
            // What the helpers the tests call call in turn.
            let inner: BTreeSet<String> = defs
                .iter()
                .filter(|h| called.contains(&h.name))
                .flat_map(|h| h.calls.iter().map(|(c, _)| c.clone()))
                .collect();
            wanted = unknown(inner, &defs);
            if wanted.is_empty() {
                break;
            }
        }
        // What the called helpers call is read too: whether it asserts, and what it
        // compares, says what a call to them checks. A support file's helper may call
        // one of this file's functions not read yet: the file is parsed again for it.
        let callees = callees(&defs, called);
        if callees.iter().any(|n| far_defines(text, &far, n)) {
            return None;
        }
        // A support file read before what the called helpers call was known is read whole
        // when it defines one of those not read whole: as every support file once was.
        let needed: BTreeSet<String> = called.iter().chain(&callees).cloned().collect();
        for (support, at) in placed {
            if read.get(support).is_some_and(|got| !got.covers(&needed)) {
                if let Some(whole) = SupportRead::of(files, support, None) {
                    defs.splice(at, whole.helpers.iter().cloned());
                    read.insert(support.clone(), whole);
                }
            }
        }
        let unread = defs[..own_count]
            .iter()
            .any(|h| callees.contains(&h.name) && !own_read.contains(&h.name));
        if unread {
            if let Some(tree) = trees::parse(grammar, text) {
                let own = helpers::Definitions::of(grammar, tree.root_node(), text);
                let read = own.read(|n| called.contains(n) || callees.contains(n));
                defs.splice(..own_count, read);
            }
        }
        Some(defs)
    }
}

/// The functions a changed test file defines: read whole for the helpers its changed
/// tests call and for what those call in the file, named only for the rest.
#[derive(Debug, Clone, Default)]
pub struct OwnHelpers {
    helpers: Vec<Helper>,
    /// The names read whole.
    read: BTreeSet<String>,
    /// The byte ranges of the file left out of the tree they were read from (blocks far
    /// from the change), empty when it was read whole.
    far: Vec<Range<usize>>,
}

/// The functions of a changed file whose changed tests call helpers (`None` when none
/// does), from its head tree (`partial`: parsed without its far blocks, read whole again
/// when a name the reading needs may be defined in one of them).
pub fn own_helpers(
    grammar: Grammar,
    tree: &tree_sitter::Tree,
    partial: bool,
    text: &str,
    delta: &crate::deltas::FileDelta,
) -> Option<OwnHelpers> {
    let called = called(delta);
    if called.is_empty() {
        return None;
    }
    // The widest tree read without the far blocks: the whole tree is re-parsed from it.
    let mut wider: Option<tree_sitter::Tree> = None;
    if partial {
        // Parsing the far blocks costs more than the rest of the file: their functions
        // count only when one bears a name the tests call or the helpers read call. The
        // blocks that may define one are parsed too, and the reading done again.
        let mut far = trees::left_out(tree, text);
        loop {
            let root = wider.as_ref().unwrap_or(tree).root_node();
            let own = read_own(grammar, root, text, &called);
            let needed = called.iter().chain(
                own.helpers
                    .iter()
                    .flat_map(|h| h.calls.iter().map(|(c, _)| c)),
            );
            let (defining, rest): (Vec<_>, Vec<_>) = far.iter().cloned().partition(|r| {
                needed
                    .clone()
                    .any(|n| far_defines(text, std::slice::from_ref(r), n))
            });
            if defining.is_empty() {
                return Some(OwnHelpers { far, ..own });
            }
            if rest.is_empty() {
                break;
            }
            match trees::without(grammar, text, &rest, wider.as_ref().unwrap_or(tree)) {
                Some(t) => (wider, far) = (Some(t), rest),
                None => break,
            }
        }
    }
    let whole;
    let tree = if partial {
        whole = trees::whole_from(grammar, wider.as_ref().unwrap_or(tree), text)?;
        &whole
    } else {
        tree
    };
    // A tree with an error is left to a fresh parse: error recovery may differ.
    if tree.root_node().has_error() {
        return None;
    }
    Some(read_own(grammar, tree.root_node(), text, &called))
}

/// True when JavaScript or TypeScript code in the `far` byte ranges of `text` may define
/// a function named `name`: some whole-word occurrence of it stands where a defined name
/// does (not after a `.` nor inside an expression: `? h(x)`, `= ref(0)`), followed by what
/// follows one: a parameter list that is no call's arguments (`expect(x).toBe(1)` is a
/// call), type parameters (not a call's type arguments: `inject<string>('a'),`), or `=` /
/// `:` after `const`, `let` or `var`. What a text scan cannot tell (a regular expression
/// among the arguments, a string among the type arguments) counts as a definition.
pub fn far_defines(text: &str, far: &[Range<usize>], name: &str) -> bool {
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80;
    let bytes = text.as_bytes();
    let after_word = |before: &str, w: &str| {
        before
            .strip_suffix(w)
            .is_some_and(|b| !b.bytes().next_back().is_some_and(word))
    };
    far.iter().any(|r| {
        let code = &text.as_bytes()[r.clone()];
        memchr::memmem::find_iter(code, name.as_bytes()).any(|at| {
            let (start, end) = (r.start + at, r.start + at + name.len());
            if start > 0 && word(bytes[start - 1]) || end < bytes.len() && word(bytes[end]) {
                return false;
            }
            let before = text[..start].trim_end();
            let expression = before.ends_with([
                '.', '?', '(', '[', '=', ':', '!', '&', '|', '+', '-', '%', '<', '>', '~', '^',
            ]) || ["return", "await", "new", "typeof"]
                .iter()
                .any(|w| after_word(before, w));
            if expression {
                return false;
            }
            let declared = ["const", "let", "var"]
                .iter()
                .any(|w| after_word(before, w))
                || before.ends_with(',');
            let rest = text[end..r.end].trim_start();
            match rest.as_bytes().first() {
                Some(b'(') => !is_call(rest),
                // Type parameters, or a call's type arguments: what follows them tells.
                Some(b'<') => match type_arguments_end(rest.as_bytes()) {
                    Some(end) => {
                        let rest = rest[end..].trim_start();
                        !(rest.starts_with('(') && is_call(rest))
                    }
                    None => true,
                },
                Some(b'?') | None => true,
                Some(b'=' | b':' | b'!') => declared,
                Some(_) => false,
            }
        })
    })
}

/// The index after the `>` that closes the angle brackets `rest` starts with (an arrow's
/// `=>` closes none); `None` at a string, a comment or a `;` before it, or at the end: a
/// text scan does not tell those apart from a comparison.
fn type_arguments_end(rest: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &c) in rest.iter().enumerate() {
        match c {
            b'<' => depth += 1,
            b'>' if i > 0 && rest[i - 1] == b'=' => {}
            b'>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b';' | b'\'' | b'"' | b'`' | b'/' => return None,
            _ => {}
        }
    }
    None
}

/// True when `rest` starts with a call's arguments: balanced brackets (strings, template
/// strings and comments skipped), then something other than `{` or `:`.
fn is_call(rest: &str) -> bool {
    let bytes = rest.as_bytes();
    match skip_code(bytes, 1, b')') {
        Some(close) => {
            let after = rest[close + 1..].trim_start();
            !after.is_empty() && !after.starts_with(['{', ':'])
        }
        None => false,
    }
}

/// The index of the `close` byte that ends the code starting at `i` (brackets balanced,
/// strings, template strings and comments skipped); `None` at a mismatched bracket, a
/// regular expression or a division (which a text scan cannot tell apart), or the end.
fn skip_code(b: &[u8], mut i: usize, close: u8) -> Option<usize> {
    let mut open: Vec<u8> = Vec::new();
    while i < b.len() {
        match b[i] {
            c @ (b'(' | b'[' | b'{') => open.push(match c {
                b'(' => b')',
                b'[' => b']',
                _ => b'}',
            }),
            c @ (b')' | b']' | b'}') => match open.pop() {
                Some(want) if want == c => {}
                Some(_) => return None,
                None => return (c == close).then_some(i),
            },
            q @ (b'\'' | b'"') => {
                i += 1;
                while b.get(i)? != &q {
                    match b[i] {
                        b'\\' => i += 1,
                        b'\n' => return None,
                        _ => {}
                    }
                    i += 1;
                }
            }
            b'`' => {
                i += 1;
                while b.get(i)? != &b'`' {
                    match b[i] {
                        b'\\' => i += 1,
                        b'$' if b.get(i + 1) == Some(&b'{') => i = skip_code(b, i + 2, b'}')?,
                        _ => {}
                    }
                    i += 1;
                }
            }
            b'/' => match b.get(i + 1) {
                Some(b'/') => i += b[i..].iter().position(|&c| c == b'\n')?,
                Some(b'*') => i += 2 + b[i + 2..].windows(2).position(|w| w == b"*/")? + 1,
                _ => return None,
            },
            _ => {}
        }
        i += 1;
    }
    None
}

/// The helpers the changed tests of a file call, by name.
fn called(delta: &crate::deltas::FileDelta) -> BTreeSet<String> {
    delta
        .changed_tests
        .iter()
        .flat_map(|t| t.helper_calls.iter().map(|c| c.name.clone()))
        .collect()
}

/// What the helpers among `defs` named in `called` call, besides each other.
fn callees(defs: &[Helper], called: &BTreeSet<String>) -> BTreeSet<String> {
    defs.iter()
        .filter(|h| called.contains(&h.name))
        .flat_map(|h| h.calls.iter().map(|(c, _)| c.clone()))
        .filter(|c| !called.contains(c))
        .collect()
}

fn read_own(
    grammar: Grammar,
    root: tree_sitter::Node,
    text: &str,
    called: &BTreeSet<String>,
) -> OwnHelpers {
    let own = helpers::Definitions::of(grammar, root, text);
    let mut helpers = own.read(|n| called.contains(n));
    let mut read = called.clone();
    let inner = callees(&helpers, called);
    if !inner.is_empty() {
        helpers = own.read(|n| called.contains(n) || inner.contains(n));
        read.extend(inner);
    }
    OwnHelpers {
        helpers,
        read,
        far: Vec::new(),
    }
}

/// A cheap look before parsing: `text` has what reads as a definition of `name`
/// (`func name(`, `func (e *Env) name(`, `fn name(`, `def name(`, `function name(`,
/// `name = (`, a method `name(...) {` of a class).
fn defines(text: &str, name: &str) -> bool {
    let call = format!("{name}(");
    text.match_indices(&call).any(|(at, _)| {
        let before = text[..at].trim_end_matches([' ', '\t']);
        let boundary = text[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric() && c != '_');
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let line = &text[line_start..at];
        boundary
            && (["func", "fn", "def", "function"]
                .iter()
                .any(|k| before.ends_with(k))
                // A Go method: `func (e *Env) name(`.
                || before.ends_with(')') && line.trim_start().starts_with("func")
                // A Java method or a JS class method: only its type or modifiers before.
                || line.split_whitespace().all(|w| {
                    w.chars().all(|c| c.is_alphanumeric() || "<>[]_?,".contains(c))
                        && !matches!(w, "if" | "while" | "for" | "return" | "elif" | "not" | "await")
                }) && text[at..].split_once(')').is_some_and(|(_, rest)| {
                    let rest = rest.trim_start();
                    rest.starts_with('{') || rest.starts_with(':') || rest.starts_with("throws")
                }))
    }) || text.contains(&format!("{name} = ("))
        || text.contains(&format!("{name} = async"))
        || text.contains(&format!("{name} = function"))
}

/// The names among `names` that `defs` does not define.
fn unknown(names: BTreeSet<String>, defs: &[Helper]) -> BTreeSet<String> {
    names
        .into_iter()
        .filter(|n| !defs.iter().any(|h| &h.name == n))
        .collect()
}

fn defined(grammar: Grammar, text: &str) -> Vec<Helper> {
    if text.len() > sources::MAX_BYTES {
        return Vec::new();
    }
    importable(grammar, text)
        .map(|tree| helpers::defined(grammar, tree.root_node(), text))
        .unwrap_or_default()
}

/// The tree of a support file as the files importing it see it: a JavaScript or
/// TypeScript file without its top-level test calls, whose callbacks' functions no import
/// reaches (a spec that exports a helper to others is mostly tests, and parsing them was
/// most of the support files' cost); whole when such a tree does not check out, or for
/// other grammars.
fn importable(grammar: Grammar, text: &str) -> Option<tree_sitter::Tree> {
    let tests = if grammar.is_javascript() {
        trees::regions::test_calls(text)
    } else {
        Vec::new()
    };
    if !tests.is_empty() {
        if let Some(tree) = trees::parse_without(grammar, text, &tests) {
            return Some(tree);
        }
    }
    trees::parse(grammar, text)
}

/// Test code: a path with a test or spec directory or name (`tests/`, `testutil/`,
/// `test/support/`, `__tests__/`, `*_test.go`, `conftest.py`).
pub fn is_test_code(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    p.split('/')
        .any(|seg| seg.contains("test") || seg.contains("spec"))
}

/// The test-support files `path` imports that exist at head, bounded.
pub fn support_files(grammar: Grammar, path: &str, text: &str, files: &dyn Files) -> Vec<String> {
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    let mut candidates: Vec<String> = Vec::new();
    match grammar {
        Grammar::Rust => rust_candidates(path, dir, text, files, &mut candidates),
        Grammar::Python => python_candidates(dir, text, &mut candidates),
        Grammar::TypeScript | Grammar::Tsx | Grammar::JavaScript => {
            js_candidates(dir, text, &mut candidates)
        }
        Grammar::Go => go_candidates(path, dir, text, files, &mut candidates),
        Grammar::Java => java_candidates(path, dir, text, &mut candidates),
        Grammar::Kotlin => kotlin_candidates(path, dir, files, &mut candidates),
    }
    let mut out: Vec<String> = Vec::new();
    let mut listed: HashMap<String, Vec<String>> = HashMap::new();
    for c in candidates {
        let c = normalized(&c);
        if c == path || out.contains(&c) || !is_test_code(&c) || Grammar::of(&c).is_none() {
            continue;
        }
        let (d, name) = c.rsplit_once('/').unwrap_or(("", c.as_str()));
        let entries = listed.entry(d.to_string()).or_insert_with(|| files.list(d));
        if entries.iter().any(|n| n == name) {
            out.push(c);
        }
        if out.len() >= MAX_CANDIDATES {
            break;
        }
    }
    out
}

/// `a/./b/../c` -> `a/c`.
fn normalized(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

fn join(dir: &str, rest: &str) -> String {
    if dir.is_empty() {
        rest.to_string()
    } else {
        format!("{dir}/{rest}")
    }
}

/// The directory and its ancestors, nearest first.
fn ancestors(dir: &str) -> Vec<&str> {
    let mut out = vec![dir];
    let mut d = dir;
    while let Some((parent, _)) = d.rsplit_once('/') {
        out.push(parent);
        d = parent;
    }
    if !d.is_empty() {
        out.push("");
    }
    out
}

/// `mod common;`, `use crate::testenv::TestEnv`, `use super::util`: the modules' files
/// beside the test file, in its own module directory, or in a directory above. A glob
/// import of the parent (`use super::*;`, as the modules of one test crate do) brings the
/// crate's root file beside it and every module that root declares.
fn rust_candidates(path: &str, dir: &str, text: &str, files: &dyn Files, out: &mut Vec<String>) {
    static MODS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;|^\s*use\s+(?:(?:crate|super|self)::)*(\w+)")
            .expect("rust import pattern")
    });
    static GLOB: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^\s*use\s+(?:super|crate)::\*\s*;").expect("rust glob import pattern")
    });
    static DECLARED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;").expect("rust mod pattern")
    });
    if GLOB.is_match(text) {
        for root in ["lib.rs", "main.rs", "mod.rs"] {
            let root = join(dir, root);
            if root == path {
                continue;
            }
            let Some(root_text) = files.read(&root) else {
                continue;
            };
            out.push(root);
            for m in DECLARED.captures_iter(&root_text) {
                out.push(join(dir, &format!("{}.rs", &m[1])));
                out.push(join(dir, &format!("{}/mod.rs", &m[1])));
            }
        }
    }
    let stem = path
        .rsplit('/')
        .next()
        .and_then(|f| f.strip_suffix(".rs"))
        .unwrap_or("");
    for c in MODS.captures_iter(text) {
        let Some(m) = c.get(1).or_else(|| c.get(2)).map(|m| m.as_str()) else {
            continue;
        };
        if matches!(m, "std" | "core" | "alloc") {
            continue;
        }
        out.push(join(&join(dir, stem), &format!("{m}.rs")));
        for d in ancestors(dir).into_iter().take(3) {
            out.push(join(d, &format!("{m}.rs")));
            out.push(join(d, &format!("{m}/mod.rs")));
        }
    }
}

/// `from tests.helpers import check`, `from .util import x`, `import testutil`, and the
/// `conftest.py` files pytest loads for the test's directory.
fn python_candidates(dir: &str, text: &str, out: &mut Vec<String>) {
    static IMPORTS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^\s*(?:from\s+(\.*)([\w.]*)\s+import\s+([\w, ()]+)|import\s+([\w.]+))")
            .expect("python import pattern")
    });
    for d in ancestors(dir) {
        out.push(join(d, "conftest.py"));
    }
    for c in IMPORTS.captures_iter(text) {
        let dots = c.get(1).map_or(0, |m| m.as_str().len());
        let module = c
            .get(2)
            .or_else(|| c.get(4))
            .map_or("", |m| m.as_str())
            .replace('.', "/");
        let names: Vec<&str> = c
            .get(3)
            .map(|m| {
                m.as_str()
                    .split([',', '(', ')'])
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        let bases: Vec<String> = if dots > 0 {
            let mut d = dir.to_string();
            for _ in 1..dots {
                d = d
                    .rsplit_once('/')
                    .map_or(String::new(), |(p, _)| p.to_string());
            }
            vec![d]
        } else {
            // An absolute module: from the root, a `src/` layout, or the test's directory.
            vec![String::new(), "src".to_string(), dir.to_string()]
        };
        for b in bases {
            let m = join(&b, &module);
            if !module.is_empty() {
                out.push(format!("{m}.py"));
                out.push(join(&m, "__init__.py"));
            }
            for n in names.iter().take(4) {
                out.push(join(&m, &format!("{n}.py")));
            }
        }
    }
}

/// `import { check } from "./helpers"`, `require("../test-utils")`: relative imports, with
/// the extensions a bundler would try.
fn js_candidates(dir: &str, text: &str, out: &mut Vec<String>) {
    static IMPORTS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?:from\s+|require\(\s*|import\s*\(\s*|import\s+)['"](\.{1,2}/[^'"]+)['"]"#)
            .expect("js import pattern")
    });
    for c in IMPORTS.captures_iter(text) {
        let spec = &c[1];
        let base = join(dir, spec);
        // `./helpers.js` in TypeScript names `./helpers.ts`.
        let bare = base
            .strip_suffix(".js")
            .or_else(|| base.strip_suffix(".mjs"))
            .unwrap_or(&base);
        out.push(base.clone());
        for ext in ["ts", "tsx", "js", "jsx", "mjs", "cjs", "mts"] {
            out.push(format!("{bare}.{ext}"));
            out.push(format!("{base}/index.{ext}"));
        }
    }
}

/// The package's other `_test.go` files (helpers need no import there), and the files of
/// imported packages of the module that are test code (`internal/testutil`).
fn go_candidates(path: &str, dir: &str, text: &str, files: &dyn Files, out: &mut Vec<String>) {
    static IMPORTS: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#""([\w./-]+)""#).expect("go import pattern"));
    let module = files.read("go.mod").and_then(|m| {
        m.lines().find_map(|l| {
            l.trim()
                .strip_prefix("module ")
                .map(|m| m.trim().to_string())
        })
    });
    if let Some(module) = module {
        let imports = text
            .split_once("\nimport")
            .map(|(_, rest)| rest.split_once("\nfunc").map_or(rest, |(i, _)| i))
            .unwrap_or("");
        for c in IMPORTS.captures_iter(imports) {
            let Some(rel) = c[1].strip_prefix(&format!("{module}/")) else {
                continue;
            };
            if !is_test_code(rel) {
                continue;
            }
            let mut names = files.list(rel);
            names.sort();
            for n in names.iter().filter(|n| n.ends_with(".go")).take(4) {
                out.push(join(rel, n));
            }
        }
    }
    let mut names = files.list(dir);
    names.sort();
    for n in names.iter().filter(|n| n.ends_with("_test.go")) {
        let p = join(dir, n);
        if p != path {
            out.push(p);
        }
    }
}

/// A base class in the same directory (`extends AbstractRouterTest`) and imported classes
/// of the test source tree.
fn java_candidates(path: &str, dir: &str, text: &str, out: &mut Vec<String>) {
    static EXTENDS: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\bextends\s+(\w+)").expect("java extends pattern"));
    static IMPORTS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^\s*import\s+(?:static\s+)?([\w.]+)\.(\w+)\s*;").expect("java import")
    });
    for c in EXTENDS.captures_iter(text) {
        out.push(join(dir, &format!("{}.java", &c[1])));
    }
    // `src/test/java/` + the package path.
    let Some(root) = path
        .find("/java/")
        .map(|i| &path[..i + "/java".len()])
        .filter(|r| is_test_code(r))
    else {
        return;
    };
    for c in IMPORTS.captures_iter(text) {
        let (package, class) = (&c[1], &c[2]);
        // `import static a.b.Helpers.check`: the class is the package's last part.
        let (package, class) = if class.chars().next().is_some_and(char::is_lowercase) {
            match package.rsplit_once('.') {
                Some((p, c)) => (p, c),
                None => continue,
            }
        } else {
            (package, class)
        };
        out.push(format!("{root}/{}/{class}.java", package.replace('.', "/")));
    }
}

/// The other Kotlin files of the test's directory that are no test classes themselves
/// (`DnsCallStateMachineTester.kt` beside `DnsCallStateMachineTest.kt`): a package's
/// helpers need no import.
fn kotlin_candidates(path: &str, dir: &str, files: &dyn Files, out: &mut Vec<String>) {
    let own = path.rsplit('/').next().unwrap_or(path);
    for name in files.list(dir) {
        let stem = name.strip_suffix(".kt").unwrap_or("");
        let test_class = ["Test", "Tests", "IT"].iter().any(|s| stem.ends_with(s));
        if !stem.is_empty() && name != own && !test_class {
            out.push(join(dir, &name));
        }
    }
}

struct HeadFiles<'a> {
    git: &'a git2::Repository,
    tree: Option<&'a git2::Tree<'a>>,
}

impl Files for HeadFiles<'_> {
    fn list(&self, dir: &str) -> Vec<String> {
        let Some(tree) = self.tree else {
            return Vec::new();
        };
        let listing = if dir.is_empty() {
            Some(tree.clone())
        } else {
            tree.get_path(Path::new(dir))
                .ok()
                .and_then(|e| e.to_object(self.git).ok())
                .and_then(|o| o.into_tree().ok())
        };
        listing
            .map(|t| {
                t.iter()
                    .take(2000)
                    .filter_map(|e| e.name().ok().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn read(&self, path: &str) -> Option<String> {
        let entry = self.tree?.get_path(Path::new(path)).ok()?;
        let blob = entry.to_object(self.git).ok()?.into_blob().ok()?;
        if blob.size() > sources::MAX_BYTES {
            return None;
        }
        String::from_utf8(blob.content().to_vec()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::{defines, far_defines, own_helpers, read_own};
    use crate::deltas::FileDelta;
    use crate::trees::{self, Grammar, LineEdit};
    use qa_syntax::suite::{Call, Framework, Test};

    #[test]
    fn a_definition_is_told_from_a_call() {
        for text in [
            "func checkContains(t *testing.T, got, want string) {",
            "func (e *Env) checkContains(got string) {",
            "    pub fn checkContains(&self) {",
            "def checkContains(got, want):",
            "export function checkContains(got: string) {",
            "const checkContains = (got) => {",
            "    void checkContains(String got) {",
            "  checkContains(got: string): void {",
        ] {
            assert!(defines(text, "checkContains"), "{text}");
        }
        for text in [
            "\tcheckContains(t, out, \"x\")\n",
            "assert mycheckContains(x)",
            "if checkContains(got) && ok {",
        ] {
            assert!(!defines(text, "checkContains"), "{text}");
        }
    }

    #[test]
    fn a_far_block_defines_a_name_only_where_it_is_neither_a_member_nor_a_call() {
        let far = |code: &str, name: &str| {
            far_defines(code, std::slice::from_ref(&(0..code.len())), name)
        };
        for code in [
            "function check(a) {\n}",
            "  check(a) {\n  }",
            "  check(a): void {\n  }",
            "const check = (a) => a",
            "function check<T>(a: T) {}",
            "  check<T extends Map<string, () => T>>(a: T): void {}",
            "  check<T>(a: T) {}",
            "check<T>",
            "  check<T = 'a'>(a: T).x",
            "check<T>(a = /\\)/) {}",
            "check < a; b > (c)",
            "let check: Check = build()",
            // What a text scan cannot tell counts as a definition: the file is read whole.
            "check(a = /\\)/) {}",
        ] {
            assert!(far(code, "check"), "{code}");
        }
        for code in [
            "expect(x).check(1)",
            "expect(x)\n  .check(1)",
            "check(f(')'), \"(\").toBe(1)",
            "check(`<p>${a(')')}</p>`, [{ a: 1 }]).toBe(1)",
            "check(a, /* why ( */ b, // and (\n c).toBe(1)",
            "it('check works', () => {})",
            "describe('check/inject', () => {})",
            "x ? check(a) : b",
            "const el = check<T>(0)",
            "  a,\n  check<string>('outer'),\n",
            "check<Map<string, () => T>>(a).toBe(1)",
            "check < a > (b) && c",
            "return check(a) {",
            "checked(a) {}",
            "recheck(a) {}",
        ] {
            assert!(!far(code, "check"), "{code}");
        }
        // Only the far ranges are looked at.
        let code = "function check(a) {}\ncheck(1);";
        assert!(!far_defines(
            code,
            std::slice::from_ref(&(21..code.len())),
            "check"
        ));
    }

    /// A spec whose changed last test calls `expectCompiled`, and two tests far from it,
    /// the second holding `far` among its 14 lines.
    fn spec(far: &str, value: &str) -> String {
        let mut s = String::from("import { expect, it } from 'vitest'\n\n");
        for (title, far) in [("zero", ""), ("one", far)] {
            s.push_str(&format!("it('{title}', () => {{\n"));
            s.push_str(far);
            for i in 0..14 {
                s.push_str(&format!("  expect(f({i})).toBe({i})\n"));
            }
            // A constant stays in every tree: it parts the two tests.
            s.push_str("})\n\nconst table = [1]\n\n");
        }
        s.push_str(
            "function expectCompiled(src, want) {\n  expect(compile(src)).toBe(want)\n}\n\n",
        );
        s.push_str(&format!(
            "it('two', () => {{\n  expectCompiled('a', {value})\n}})\n"
        ));
        s
    }

    /// The own helpers of the changed spec, from its partial head tree.
    fn own_of(far: &str) -> (super::OwnHelpers, String) {
        let (base, head) = (spec(far, "'A'"), spec(far, "'B'"));
        let line = head
            .lines()
            .position(|l| l.contains("expectCompiled('a'"))
            .unwrap();
        let edits = [LineEdit {
            base: (line, line + 1),
            head: (line, line + 1),
        }];
        let pair = trees::pair(Grammar::TypeScript, Some(&base), Some(&head), Some(&edits));
        assert!(pair.left_out > 0, "the first test is left out");
        let mut delta = FileDelta::default();
        delta.changed_tests.push(Test {
            name: "two".into(),
            title: "two".into(),
            framework: Framework::Jest,
            line: line as u32,
            end: line as u32 + 2,
            expects: Vec::new(),
            skipped: None,
            calls: Vec::new(),
            setup: None,
            helper_calls: vec![Call {
                name: "expectCompiled".into(),
                line: line as u32 + 1,
                args: Vec::new(),
            }],
            act: None,
            cases: false,
            setup_calls: Vec::new(),
        });
        let tree = pair.head.as_ref().unwrap();
        let own = own_helpers(Grammar::TypeScript, tree, true, &head, &delta).unwrap();
        (own, head)
    }

    /// The own helpers read from the whole tree, as before the shortcut.
    fn whole(head: &str) -> Vec<super::Helper> {
        let tree = trees::parse(Grammar::TypeScript, head).unwrap();
        let called = ["expectCompiled".to_string()].into_iter().collect();
        read_own(Grammar::TypeScript, tree.root_node(), head, &called).helpers
    }

    #[test]
    fn own_helpers_are_read_without_far_blocks_that_define_none_of_the_names_read() {
        let (own, head) = own_of("");
        assert!(!own.far.is_empty(), "read from the partial tree");
        assert!(own
            .helpers
            .iter()
            .any(|h| h.name == "expectCompiled" && h.direct));
        assert_eq!(own.helpers, whole(&head));
    }

    #[test]
    fn own_helpers_are_read_with_the_far_blocks_that_may_define_a_name_read() {
        // The far test defines a function the helper calls: it is no library assertion
        // then, and only the whole tree knows it.
        let (own, head) = own_of("  const compile = (src) => src\n");
        let far: String = own.far.iter().map(|r| &head[r.clone()]).collect();
        assert!(
            far.contains("it('zero'"),
            "the test defining nothing stays out"
        );
        assert!(
            !far.contains("it('one'"),
            "the test defining `compile` is read"
        );
        assert_eq!(own.helpers, whole(&head));
        assert!(own.helpers.iter().any(|h| h.name == "compile"));
    }

    /// A spec that exports a helper to other specs, with a describe block of `tests` tests
    /// that defines a function of its own.
    fn exporting_spec(tests: usize) -> String {
        let mut s = String::from(
            "import { compile } from '../src'\n\nexport function expectCompiled(src: string, want: string) {\n  expect(compile(src)).toBe(want)\n}\n\ndescribe('compile', () => {\n  function local(src: string) {\n    expect(compile(src)).toBe('')\n  }\n",
        );
        for i in 0..tests {
            s.push_str(&format!(
                "  it('case {i}', () => {{\n    expectCompiled('a{i}', 'b{i}')\n    local('c')\n  }})\n"
            ));
        }
        s.push_str("})\n");
        s
    }

    #[test]
    fn a_support_spec_is_read_as_importers_see_it_without_its_test_calls() {
        let text = exporting_spec(4);
        let names = |helpers: &[super::Helper]| -> Vec<String> {
            helpers.iter().map(|h| h.name.clone()).collect()
        };
        let read = super::defined(Grammar::TypeScript, &text);
        // The function local to the describe callback is no import's to reach.
        assert_eq!(names(&read), ["expectCompiled"]);
        // The exported helper reads as it does from the whole tree.
        let tree = trees::parse(Grammar::TypeScript, &text).unwrap();
        let whole = super::helpers::defined(Grammar::TypeScript, tree.root_node(), &text);
        assert_eq!(names(&whole), ["expectCompiled", "local"]);
        assert_eq!(read[0], whole[0]);
    }

    #[test]
    fn a_support_file_without_test_calls_is_read_whole() {
        let text = "export function expectCompiled(src: string, want: string) {\n  expect(compile(src)).toBe(want)\n}\n\nfunction local(src: string) {\n  expect(compile(src)).toBe('')\n}\n";
        let names: Vec<String> = super::defined(Grammar::TypeScript, text)
            .into_iter()
            .map(|h| h.name)
            .collect();
        assert_eq!(names, ["expectCompiled", "local"]);
    }

    /// A head revision held in memory, for support-file lookups.
    struct MemFiles(Vec<(&'static str, &'static str)>);

    impl super::Files for MemFiles {
        fn list(&self, dir: &str) -> Vec<String> {
            self.0
                .iter()
                .filter_map(|(p, _)| {
                    let (d, name) = p.rsplit_once('/').unwrap_or(("", p));
                    (d == dir).then(|| name.to_string())
                })
                .collect()
        }
        fn read(&self, path: &str) -> Option<String> {
            self.0
                .iter()
                .find(|(p, _)| *p == path)
                .map(|(_, t)| t.to_string())
        }
    }

    #[test]
    fn a_glob_import_of_the_test_crate_root_reaches_the_modules_it_declares() {
        let files = MemFiles(vec![
            (
                "tests/lib.rs",
                "use crate::test::Test;\nmod lists;\nmod test;\n",
            ),
            ("tests/test.rs", "pub struct Test;\n"),
            ("tests/lists.rs", "use super::*;\n#[test]\nfn len() {}\n"),
        ]);
        let text = files.0[2].1;
        let found = super::support_files(Grammar::Rust, "tests/lists.rs", text, &files);
        assert!(found.contains(&"tests/lib.rs".to_string()), "{found:?}");
        assert!(found.contains(&"tests/test.rs".to_string()), "{found:?}");
        // Control: a module that imports nothing from its parent reaches neither.
        let alone = "#[test]\nfn len() {}\n";
        assert!(super::support_files(Grammar::Rust, "tests/lists.rs", alone, &files).is_empty());
    }

    #[test]
    fn a_kotlin_test_reaches_the_non_test_files_of_its_package_directory() {
        let dir = "src/test/kotlin/dns";
        let files = MemFiles(vec![
            ("src/test/kotlin/dns/CallTest.kt", "class CallTest\n"),
            ("src/test/kotlin/dns/CallTester.kt", "fun testCall() {}\n"),
            ("src/test/kotlin/dns/OtherTest.kt", "class OtherTest\n"),
            ("src/test/kotlin/dns/notes.md", "x\n"),
        ]);
        let found =
            super::support_files(Grammar::Kotlin, &format!("{dir}/CallTest.kt"), "", &files);
        // Control: other test classes and non-Kotlin files are no support.
        assert_eq!(found, [format!("{dir}/CallTester.kt")]);
    }
}
