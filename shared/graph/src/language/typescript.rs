//! TypeScript and JavaScript: ES imports, re-exports, `require` and dynamic `import()`,
//! resolved the way the compiler and bundlers do (relative paths, extension and `index`
//! probing, `.js` written for a `.ts` file, tsconfig `paths` and `baseUrl`, `@/` for
//! `src/` without one, and workspace packages by their package.json name, see
//! [`super::workspace`]); exported and top-level names as symbols.

use super::workspace::Workspace;
use super::{Language, Parsed, RawImport};
use crate::model::Symbols;
use crate::tree::{join, normalize, parent, Snapshot};
use qa_records::change::Confidence;
use qa_records::code_pattern;
use qa_records::graph::Support;
use regex::Regex;
use std::sync::{Arc, LazyLock};

pub const EXTENSIONS: &[&str] = &["ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts"];

/// Probed in this order after a specifier without an extension.
const PROBE: &[&str] = &["ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts"];

/// TypeScript and JavaScript, for the language layer.
pub struct TypeScript;

impl Language for TypeScript {
    const ID: &'static str = "typescript";
    const NAME: &'static str = "TypeScript or JavaScript";
    const EXTENSIONS: &'static [&'static str] = EXTENSIONS;
    /// Deep: imports resolve to files, and framework adapters name the entrypoints.
    const SUPPORT: Support = Support::Deep;
    type Tree = Workspace;

    fn read_tree(snapshot: &Snapshot) -> Workspace {
        Workspace::read(snapshot)
    }

    fn parse(_path: &str, text: &str) -> Parsed {
        parse(text)
    }

    fn resolve(
        workspace: &Workspace,
        snapshot: &Snapshot,
        from: &str,
        raw: &RawImport,
    ) -> Vec<(String, Confidence)> {
        resolve(snapshot, workspace, from, &raw.spec)
            .into_iter()
            .collect()
    }
}

/// An npm package of the tree: its directory, name and entry fields.
#[derive(Debug, Clone)]
pub struct Package {
    pub dir: String,
    pub manifest: String,
    pub json: serde_json::Value,
}

impl Package {
    pub fn name(&self) -> Option<&str> {
        self.json.get("name").and_then(|n| n.as_str())
    }

    /// True when the package declares `dependency` in any dependency table.
    pub fn depends_on(&self, dependency: &str) -> bool {
        [
            "dependencies",
            "devDependencies",
            "peerDependencies",
            "optionalDependencies",
        ]
        .iter()
        .any(|table| {
            self.json
                .get(table)
                .and_then(|t| t.get(dependency))
                .is_some()
        })
    }
}

/// The package.json files of a tree. Unreadable ones are left out here: the language
/// layer only needs names, and the repository layer reports broken manifests.
#[derive(Debug, Default)]
pub struct Packages {
    pub all: Vec<Package>,
}

impl Packages {
    pub fn read(snapshot: &Snapshot) -> Packages {
        let all = snapshot
            .named("package.json")
            .filter_map(|path| {
                let json = serde_json::from_str(&snapshot.text(path)?).ok()?;
                Some(Package {
                    dir: parent(path).to_string(),
                    manifest: path.to_string(),
                    json,
                })
            })
            .collect();
        Packages { all }
    }

    /// The nearest package holding `path`.
    pub fn holding(&self, path: &str) -> Option<&Package> {
        self.all
            .iter()
            .filter(|p| p.dir.is_empty() || path.starts_with(&format!("{}/", p.dir)))
            .max_by_key(|p| p.dir.len())
    }
}

/// The file `spec`, imported from `from`, names in this tree: a relative path; a
/// tsconfig alias; `@/` or `~/` for the package's source root; a workspace package.
pub fn resolve(
    snapshot: &Snapshot,
    workspace: &Workspace,
    from: &str,
    spec: &str,
) -> Option<(String, Confidence)> {
    if spec.starts_with("./") || spec.starts_with("../") || spec == "." || spec == ".." {
        let base = normalize(parent(from), spec)?;
        return probe(snapshot, &base).map(|p| (p, Confidence::High));
    }
    if let Some(found) = workspace.resolve_alias(snapshot, from, spec) {
        return Some((found, Confidence::High));
    }
    // `@/x` and `~/x`: the common no-config alias for the package's source root.
    if let Some(rest) = spec.strip_prefix("@/").or_else(|| spec.strip_prefix("~/")) {
        let root = workspace
            .packages
            .holding(from)
            .map_or("", |p| p.dir.as_str());
        return [join(root, "src"), root.to_string()]
            .iter()
            .find_map(|dir| probe(snapshot, &join(dir, rest)))
            .map(|p| (p, Confidence::Medium));
    }
    workspace
        .resolve_package(snapshot, spec)
        .map(|p| (p, Confidence::High))
}

/// The source file of an entry a manifest names: the file itself, or for a built entry
/// (`pkg/dist/cli.js`) the source it was built from (`pkg/src/cli.ts`).
pub fn probe_source(snapshot: &Snapshot, entry: &str) -> Option<String> {
    probe(snapshot, entry).or_else(|| {
        let rooted = format!("/{entry}");
        ["/dist/", "/lib/", "/build/"].iter().find_map(|dir| {
            let i = rooted.find(dir)?;
            let src = format!("{}/src/{}", &rooted[..i], &rooted[i + dir.len()..]);
            probe(snapshot, src.trim_start_matches('/'))
        })
    })
}

/// The file a specifier without resolution rules names: as written, with a TypeScript
/// extension for a written `.js`, with a probed extension, or its directory's index.
pub fn probe(snapshot: &Snapshot, base: &str) -> Option<String> {
    if snapshot.has(base) && super::has_extension(base, EXTENSIONS) {
        return Some(base.to_string());
    }
    if let Some((stem, ext)) = base.rsplit_once('.') {
        let swaps: &[&str] = match ext {
            "js" => &["ts", "tsx"],
            "jsx" => &["tsx"],
            "mjs" => &["mts"],
            "cjs" => &["cts"],
            _ => &[],
        };
        if let Some(found) = first_file(snapshot, stem, ".", swaps) {
            return Some(found);
        }
    }
    first_file(snapshot, base, ".", PROBE).or_else(|| first_file(snapshot, base, "/index.", PROBE))
}

/// The first `{stem}{middle}{extension}` of the tree, in the order of `extensions`.
fn first_file(
    snapshot: &Snapshot,
    stem: &str,
    middle: &str,
    extensions: &[&str],
) -> Option<String> {
    let mut path = String::with_capacity(stem.len() + middle.len() + 4);
    for extension in extensions {
        path.clear();
        path.push_str(stem);
        path.push_str(middle);
        path.push_str(extension);
        if snapshot.has(&path) {
            return Some(path);
        }
    }
    None
}

static IMPORT_FROM: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(
        r#"\b(?:import|export)\s+(?:type\s+)?([\w$*{},\s]*?)\s*from\s*['"]([^'"\n]+)['"]"#,
    )
});
static IMPORT_BARE: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r#"\bimport\s*['"]([^'"\n]+)['"]"#));
/// `require('./x')` / `import('./x')`, with the names a declaration binds to it
/// (`const { list } = require('./handlers')`).
static IMPORT_CALL: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(
        r#"(?:\b(?:const|let|var)\s+(\{[^}]*\}|[\w$]+)\s*=\s*(?:await\s+)?)?\b(?:require|import)\s*\(\s*['"]([^'"\n]+)['"]\s*\)"#,
    )
});
/// The rest of an identifier from its first non-ASCII character on (`[\w$]` is Unicode).
static IDENTIFIER_REST: LazyLock<Regex> = LazyLock::new(|| code_pattern::regex(r"\A[\w$]*"));

/// Imports and declared names of one file; comments are blanked first so commented-out
/// imports bind nothing.
pub fn parse(text: &str) -> Parsed {
    let code = blank_comments(text);
    let mut lines = LineCounter::new(&code);
    let mut imports = Vec::new();
    // Each pattern runs only where its literal tail is (most files hold no `import(`,
    // `require(` or bare `import '...'`, and none after their last import): a search
    // that cannot match costs a scan to the end of the text, and a text with non-ASCII
    // characters is scanned by the slow engine (the fast one has no Unicode `\b`).
    // `import ... from '...'`: a match ends at one `from` tail and starts in the run of
    // clause characters before it, so each tail's window holds the match ending there.
    let mut done = 0;
    for (from, end) in tails(&code, "from", Tail::Quoted) {
        let mut at = clause_start(&code, from).max(done);
        while let Some(m) = IMPORT_FROM.find_at(&code[..end], at) {
            (done, at) = (m.end(), m.end());
            // The groups by hand: the backtracking engine a regex's groups need costs
            // 20 times the search on these patterns.
            let Some((clause, spec)) = import_from_groups(&code, m) else {
                continue;
            };
            imports.push(RawImport {
                spec: spec.to_string(),
                line: lines.of(m.start()),
                names: bindings(clause),
            });
        }
    }
    // `import '...'`: a match is a tail and its word.
    let mut done = 0;
    for (at, end) in tails(&code, "import", Tail::Quoted) {
        let mut from = at.max(done);
        while let Some(m) = IMPORT_BARE.find_at(&code[..end], from) {
            (done, from) = (m.end(), m.end());
            imports.push(RawImport {
                spec: quoted_spec(m.as_str()).to_string(),
                line: lines.of(m.start()),
                names: Vec::new(),
            });
        }
    }
    // A call's match may start far before its word (`const {\n a,\n} = require(...)`), even
    // before another call, so it is searched from the start to the last tail's end.
    let last = ["require", "import"]
        .iter()
        .filter_map(|word| tails(&code, word, Tail::Called).last())
        .map(|(_, end)| end)
        .max();
    if let Some(end) = last {
        for c in captures_in(&IMPORT_CALL, &code[..end], 0) {
            imports.push(RawImport {
                spec: c[2].to_string(),
                line: lines.at(&c, 2),
                names: c.get(1).map_or_else(Vec::new, |m| bindings(m.as_str())),
            });
        }
    }
    imports.sort_by_key(|i| i.line);
    let symbols = Arc::new(declarations(&code));
    Parsed { imports, symbols }
}

/// What follows the word of an import pattern, up to the end of its match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tail {
    /// `\s*['"]spec['"]`: `from '...'`, `import '...'`.
    Quoted,
    /// `\s*\(\s*['"]spec['"]\s*\)`: `require('...')`, `import('...')`.
    Called,
}

/// Each `word` whose tail follows it, with the offset past the tail, in order: where a
/// match of a pattern ending in `word` + `tail` can end. `\s` is Unicode white space, as
/// `trim_start` reads it.
fn tails<'c>(
    code: &'c str,
    word: &'c str,
    tail: Tail,
) -> impl Iterator<Item = (usize, usize)> + 'c {
    memchr::memmem::find_iter(code.as_bytes(), word.as_bytes())
        // `word` is ASCII, so `at + len` is a character boundary.
        .filter_map(move |at| Some((at, tail_end(code, at + word.len(), tail)?)))
}

/// The offset just past `tail` read from `at`, when it is there.
fn tail_end(code: &str, at: usize, tail: Tail) -> Option<usize> {
    let mut rest = code[at..].trim_start();
    if tail == Tail::Called {
        rest = rest.strip_prefix('(')?.trim_start();
    }
    rest = rest.strip_prefix(['\'', '"'])?;
    let spec = rest
        .bytes()
        .position(|b| matches!(b, b'\'' | b'"' | b'\n'))?;
    rest = rest[spec..]
        .strip_prefix(['\'', '"'])
        .filter(|_| spec > 0)?;
    if tail == Tail::Called {
        rest = rest.trim_start().strip_prefix(')')?;
    }
    Some(code.len() - rest.len())
}

/// Where an import clause ending at `from` (offset of the `from` of `... from '...'`) can
/// begin at the earliest: the start of the run of clause characters before it (`[\w$*{},\s]`,
/// which holds `import`/`export` and `type` too). A match of [`IMPORT_FROM`] holds such a
/// `from`, and none can start before the first one's run: a quote ends every run.
fn clause_start(code: &str, from: usize) -> usize {
    let run = code[..from]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| in_clause(c))
        .last();
    run.map_or(from, |(at, _)| at)
}

/// A character of an import clause: `[\w$*{},\s]` with `\w` as [`code_pattern::WORD`].
fn in_clause(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(c, '_' | '$' | '*' | '{' | '}' | ',')
        || !c.is_ascii()
        || c.is_whitespace()
}

/// The groups of a match of [`IMPORT_FROM`] (the clause and the specifier), as the
/// regex's leftmost-first order chooses them: blanks after the keyword all taken, `type`
/// and its blanks taken when the rest still matches, then the shortest clause after
/// which `\s*from\s*['"]spec['"]` follows. None only if this reading disagrees with the
/// match (then the regex's own groups are asked for).
fn import_from_groups<'c>(code: &'c str, m: regex::Match<'c>) -> Option<(&'c str, &'c str)> {
    let text = m.as_str();
    let after_keyword = skip_blanks(text, "import".len());
    let typed = text[after_keyword..]
        .strip_prefix("type")
        .filter(|rest| rest.starts_with(char::is_whitespace))
        .map(|_| skip_blanks(text, after_keyword + "type".len()));
    let read = typed
        .and_then(|start| shortest_clause(text, start).map(|end| (start, end)))
        .or_else(|| Some((after_keyword, shortest_clause(text, after_keyword)?)));
    match read {
        Some((start, end))
            if tail_end(text, skip_blanks(text, end) + 4, Tail::Quoted) == Some(text.len()) =>
        {
            Some((&text[start..end], quoted_spec(text)))
        }
        _ => {
            let c = IMPORT_FROM.captures_at(&code[..m.end()], m.start())?;
            Some((c.get(1)?.as_str(), c.get(2)?.as_str()))
        }
    }
}

/// The end of the shortest clause from `start` that `\s*from\s*['"]spec['"]` follows in
/// `text`, every character of it a clause character.
fn shortest_clause(text: &str, start: usize) -> Option<usize> {
    let mut at = start;
    loop {
        let from = skip_blanks(text, at);
        if text[from..].starts_with("from") && tail_end(text, from + 4, Tail::Quoted).is_some() {
            return Some(at);
        }
        let c = text[at..].chars().next().filter(|&c| in_clause(c))?;
        at += c.len_utf8();
    }
}

/// The offset past the blanks (Unicode white space) at `at`.
fn skip_blanks(text: &str, at: usize) -> usize {
    text.len() - text[at..].trim_start().len()
}

/// The specifier of a match ending in `['"]spec['"]`: none holds a quote.
fn quoted_spec(text: &str) -> &str {
    let inner = &text[..text.len() - 1];
    let open = inner.rfind(['\'', '"']).map_or(0, |at| at + 1);
    &inner[open..]
}

/// The matches of `pattern` in `code` from offset `start` on, as `captures_iter` finds
/// them past it (`\b` still sees the character before `start`); matches are never empty.
fn captures_in<'c>(
    pattern: &'c Regex,
    code: &'c str,
    start: usize,
) -> impl Iterator<Item = regex::Captures<'c>> + 'c {
    let mut at = start;
    std::iter::from_fn(move || {
        let captures = pattern.captures_at(code, at)?;
        at = captures.get(0).map_or(code.len(), |m| m.end());
        Some(captures)
    })
}

/// Declared names with their lines: on a line of its own, after blanks and any of
/// `export`, `default`, `declare` and `async` (in that order, each followed by a blank),
/// one of `function`/`function*`, `class`, `const`, `let`, `var`, `interface`, `type`,
/// `enum`, blanks, then the name. The regex
/// `(?m)^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:declare[ \t]+)?(?:async[ \t]+)?
/// (?:function\*?|class|const|let|var|interface|type|enum)[ \t]+([A-Za-z_$][\w$]*)`,
/// read by hand: no word is a prefix of another, so no choice is ever taken back.
fn declarations(code: &str) -> Symbols {
    const MODIFIERS: [&str; 4] = ["export", "default", "declare", "async"];
    const KEYWORDS: [&str; 8] = [
        "function",
        "class",
        "const",
        "let",
        "var",
        "interface",
        "type",
        "enum",
    ];
    let blanks = |s: &str| s.trim_start_matches([' ', '\t']).len() < s.len();
    let mut found = Vec::new();
    for (n, line) in lines_of(code).enumerate() {
        // Every modifier and keyword starts with one of these letters: most lines are
        // left at their first byte (read as a byte: a blank or a letter is ASCII).
        let head = line.bytes().position(|b| b != b' ' && b != b'\t');
        let Some(head) = head.filter(|&at| {
            matches!(
                line.as_bytes()[at],
                b'e' | b'd' | b'a' | b'f' | b'c' | b'l' | b'v' | b'i' | b't'
            )
        }) else {
            continue;
        };
        let mut rest = &line[head..];
        for modifier in MODIFIERS {
            if let Some(after) = rest.strip_prefix(modifier).filter(|a| blanks(a)) {
                rest = after.trim_start_matches([' ', '\t']);
            }
        }
        let Some(keyword) = KEYWORDS.iter().find(|k| rest.starts_with(**k)) else {
            continue;
        };
        let mut after = &rest[keyword.len()..];
        if *keyword == "function" {
            after = after.strip_prefix('*').unwrap_or(after);
        }
        if !blanks(after) {
            continue;
        }
        let name = after.trim_start_matches([' ', '\t']);
        if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$') {
            continue;
        }
        let ascii = name
            .bytes()
            .position(|b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'$'))
            .unwrap_or(name.len());
        let end = match name.as_bytes().get(ascii) {
            Some(b) if !b.is_ascii() => {
                ascii + IDENTIFIER_REST.find(&name[ascii..]).map_or(0, |m| m.end())
            }
            _ => ascii,
        };
        found.push((&name[..end], u32::try_from(n + 1).unwrap_or(u32::MAX)));
    }
    found.into_iter().collect()
}

/// The lines of `text` as `split('\n')` gives them, found with `memchr` (a `char` split
/// costs a searcher set-up for every line).
fn lines_of(text: &str) -> impl Iterator<Item = &str> + '_ {
    let mut newlines = memchr::memchr_iter(b'\n', text.as_bytes());
    let mut start = Some(0);
    std::iter::from_fn(move || {
        let from = start?;
        match newlines.next() {
            Some(end) => {
                start = Some(end + 1);
                Some(&text[from..end])
            }
            None => {
                start = None;
                Some(&text[from..])
            }
        }
    })
}

/// 1-based lines of offsets asked for mostly in increasing order (each regex's matches
/// are), as [`super::Lines`] gives them: the newlines since the last offset asked for are
/// counted, not every line start of the text indexed.
struct LineCounter<'a> {
    text: &'a [u8],
    offset: usize,
    line: u32,
}

impl<'a> LineCounter<'a> {
    fn new(text: &'a str) -> LineCounter<'a> {
        LineCounter {
            text: text.as_bytes(),
            offset: 0,
            line: 1,
        }
    }

    /// The line where group `group` of a match starts (the whole match for 0).
    fn at(&mut self, captures: &regex::Captures, group: usize) -> u32 {
        self.of(captures.get(group).map_or(0, |m| m.start()))
    }

    /// The line holding byte `offset`.
    fn of(&mut self, offset: usize) -> u32 {
        if offset < self.offset {
            (self.offset, self.line) = (0, 1);
        }
        let newlines = self.text[self.offset..offset]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.line = self
            .line
            .saturating_add(u32::try_from(newlines).unwrap_or(u32::MAX));
        self.offset = offset;
        self.line
    }
}

/// Local names an import clause binds: `A, { B, C as D }` -> A, B, D; `* as NS` -> NS.
fn bindings(clause: &str) -> Vec<String> {
    let mut names = Vec::new();
    let (outside, inside) = match (clause.find('{'), clause.find('}')) {
        (Some(open), Some(close)) if open < close => (
            format!("{}{}", &clause[..open], &clause[close + 1..]),
            &clause[open + 1..close],
        ),
        _ => (clause.to_string(), ""),
    };
    for part in outside.split(',').chain(inside.split(',')) {
        let part = part.trim().trim_start_matches("type ").trim();
        // `B as C` in an import clause, `B: C` in a destructured require.
        let local = match part.rsplit_once(" as ").or_else(|| part.rsplit_once(':')) {
            Some((_, local)) => local.trim(),
            None => part,
        };
        if !local.is_empty()
            && local != "*"
            && local
                .chars()
                .all(|c| c == '$' || c == '_' || c.is_alphanumeric())
        {
            names.push(local.to_string());
        }
    }
    names
}

/// The text with `//` and `/* */` comments replaced by spaces, one a character (newlines
/// kept, so line numbers hold); string and template literals are left as they are.
pub fn blank_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    // `text[copied..i]` is code or literals still to copy as they are.
    let (mut copied, mut i) = (0, 0);
    // The first backtick at or after `i`: rare, so found once and again only when passed
    // (a fourth byte `memchr` does not search for together with the other three).
    let mut tick = memchr::memchr(b'`', bytes);
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                out.push_str(&text[copied..i]);
                let end = memchr_from(bytes, b'\n', i).unwrap_or(bytes.len());
                push_spaces(&mut out, text[i..end].chars().count());
                (copied, i) = (end, end);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                out.push_str(&text[copied..i]);
                // The `*` that opened the comment may close it too (`/*/`).
                let close = text[i + 1..].find("*/").map(|at| i + 1 + at);
                let end = close.map_or(bytes.len(), |at| at + 2);
                let body = &text[i..close.unwrap_or(bytes.len())];
                for (n, line) in body.split('\n').enumerate() {
                    if n > 0 {
                        out.push('\n');
                    }
                    push_spaces(&mut out, line.chars().count());
                }
                if close.is_some() {
                    out.push_str("  ");
                }
                (copied, i) = (end, end);
            }
            quote @ (b'"' | b'\'' | b'`') => {
                let ends_at_newline = quote != b'`';
                i += 1;
                loop {
                    let rest = &bytes[i..];
                    let end = match ends_at_newline {
                        true => memchr::memchr3(quote, b'\\', b'\n', rest),
                        false => memchr::memchr2(quote, b'\\', rest),
                    };
                    let Some(at) = end else {
                        i = bytes.len();
                        break;
                    };
                    i += at + 1;
                    if bytes[i - 1] != b'\\' {
                        break;
                    }
                    // Past the escaped character's first byte: the rest of a multi-byte
                    // character never looks like a quote, a backslash or a newline.
                    i = (i + 1).min(bytes.len());
                }
            }
            _ => {
                if tick.is_some_and(|at| at < i) {
                    tick = memchr_from(bytes, b'`', i);
                }
                let other = memchr::memchr3(b'/', b'"', b'\'', &bytes[i..]).map(|at| i + at);
                let next = match (other, tick) {
                    (Some(a), Some(b)) => a.min(b),
                    (found, None) | (None, found) => found.unwrap_or(bytes.len()),
                };
                i = next.max(i + 1);
            }
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// The position of the first `byte` at or after `from`.
fn memchr_from(bytes: &[u8], byte: u8, from: usize) -> Option<usize> {
    memchr::memchr(byte, &bytes[from..]).map(|at| from + at)
}

fn push_spaces(out: &mut String, n: usize) {
    const SPACES: &str = "                                                                ";
    let mut left = n;
    while left > 0 {
        let take = left.min(SPACES.len());
        out.push_str(&SPACES[..take]);
        left -= take;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs(text: &str) -> Vec<String> {
        parse(text).imports.into_iter().map(|i| i.spec).collect()
    }

    #[test]
    fn every_import_form_is_read() {
        let text = "import A, { B as C } from './a';\nimport './side';\nexport * from \"../b\";\nconst d = require('./d');\nconst e = await import('./e');\nimport {\n  F,\n} from './f';\n";
        assert_eq!(specs(text), ["./a", "./side", "../b", "./d", "./e", "./f"]);
        let parsed = parse(text);
        assert_eq!(parsed.imports[0].names, ["A", "C"]);
        assert_eq!(parsed.imports[5].line, 6);
    }

    #[test]
    fn commented_out_imports_are_not_imports() {
        let text = "// import A from './a';\n/* import B from './b' */\nconst url = 'http://x//y';\nimport C from './c';\n";
        assert_eq!(specs(text), ["./c"]);
    }

    #[test]
    fn declared_names_are_symbols_with_lines() {
        let parsed = parse("export default function Checkout() {}\nconst Local = 1;\n");
        assert_eq!(
            parsed.symbols.iter().collect::<Vec<_>>(),
            [("Checkout", 1), ("Local", 2)]
        );
    }

    #[test]
    fn a_required_module_binds_the_names_it_is_assigned_to() {
        let parsed = parse("const items = require('./items');\nconst { list, show: view } = require(\"./handlers\");\nrequire('./side');\n");
        let names: Vec<&[String]> = parsed.imports.iter().map(|i| i.names.as_slice()).collect();
        assert_eq!(names[0], ["items"]);
        assert_eq!(names[1], ["list", "view"]);
        assert!(names[2].is_empty());
        assert_eq!(parsed.imports[1].line, 2);
    }

    #[test]
    fn namespace_imports_bind_their_alias() {
        assert_eq!(bindings("* as api"), ["api"]);
        assert_eq!(bindings("{ type T, U }"), ["T", "U"]);
    }

    #[test]
    fn comments_blank_one_space_a_character_and_literals_stay() {
        assert_eq!(
            blank_comments("a /* é\nb */ c // ü\nd"),
            "a     \n     c     \nd"
        );
        assert_eq!(blank_comments("x /*/ y"), "x     y");
        assert_eq!(blank_comments("s = 'a\\'//b' // c"), "s = 'a\\'//b'     ");
        assert_eq!(blank_comments("t = `//\n/*` /* z"), "t = `//\n/*`     ");
        assert_eq!(blank_comments("u = \"é\\\n//\" v"), "u = \"é\\\n//\" v");
    }

    #[test]
    fn lines_split_as_a_newline_split_does() {
        for text in ["", "a", "a\n", "\n\nb\nc", "é\nü\n\n"] {
            assert_eq!(
                lines_of(text).collect::<Vec<_>>(),
                text.split('\n').collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn an_import_pattern_runs_only_where_its_literal_tail_is() {
        let code = "x = from\n 'a'; fromage; from('b') import ( \"c\" ) from '';";
        let all = |word, tail| tails(code, word, tail).collect::<Vec<_>>();
        assert_eq!(all("from", Tail::Quoted), [(4, 13)]);
        assert_eq!(all("import", Tail::Called), [(34, 48)]);
        assert_eq!(all("require", Tail::Called), []);
        let called = tails("require('a'\n)", "require", Tail::Called);
        assert_eq!(called.collect::<Vec<_>>(), [(0, 13)]);
        assert_eq!(tails("import 'a\n'", "import", Tail::Quoted).count(), 0);
    }

    #[test]
    fn a_call_inside_a_destructuring_default_is_read_as_the_whole_text_search_does() {
        let parsed = parse("const {a = require('b')} = require('c');\n");
        assert_eq!(
            parsed
                .imports
                .iter()
                .map(|i| i.spec.as_str())
                .collect::<Vec<_>>(),
            ["c"]
        );
    }

    #[test]
    fn an_import_clause_is_read_as_the_regex_groups_read_it() {
        let cases = [
            "import   A , {B}  from  './a'",
            "import type { T } from './t'",
            "import type from './t'",
            "import typeX from './t'",
            "export * from \"./x\"",
            "import from from './f'",
            "import a,\n  b\n  from './ab'",
            "import { from } from './f'",
            "import café from './c'",
            "export {a as b}from'./q'",
        ];
        for code in cases {
            let m = IMPORT_FROM.find(code).unwrap();
            let c = IMPORT_FROM.captures(code).unwrap();
            assert_eq!(
                import_from_groups(code, m),
                Some((&c[1], &c[2])),
                "{code:?}"
            );
        }
    }

    #[test]
    fn two_imports_on_one_line_are_both_read() {
        assert_eq!(
            specs("import a from './a'; import b from './b'; import './c'; import './d'"),
            ["./a", "./b", "./c", "./d"]
        );
    }

    #[test]
    fn a_call_binding_before_its_word_is_read() {
        let parsed = parse("x;\nconst {\n a,\n b\n} = require('./r');\n");
        assert_eq!(parsed.imports[0].names, ["a", "b"]);
        assert_eq!(parsed.imports[0].line, 5);
    }

    #[test]
    fn an_import_clause_starts_after_the_last_quote_or_operator_before_its_from() {
        let code = "a = 'q'; import {\n X } from './x'";
        assert_eq!(clause_start(code, code.find("from").unwrap()), 8);
        assert_eq!(parse(code).imports[0].spec, "./x");
    }

    #[test]
    fn an_import_after_a_word_character_is_not_read_when_search_starts_late() {
        // `\b` must see the `x` before the search's start, as a whole-text search does.
        assert_eq!(specs("ximport './a';\nimport './b';\n"), ["./b"]);
        assert_eq!(specs("=ximport a from './a';\n"), Vec::<String>::new());
    }

    #[test]
    fn declarations_read_as_the_declaration_pattern_does() {
        let code = "function* gen() {}\nfunction *star() {}\n  export default class A {}\nexports.x = 1;\nconstructor(a) {}\nconst café = 1;\nexport async function $run() {}\nexport default Foo;\nlet\tx2 = 3;\n";
        let parsed = parse(code);
        let names: Vec<(&str, u32)> = parsed.symbols.iter().collect();
        assert_eq!(
            names,
            [("gen", 1), ("A", 3), ("café", 6), ("$run", 7), ("x2", 9)]
        );
    }
}
