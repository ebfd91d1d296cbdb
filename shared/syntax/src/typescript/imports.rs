//! TypeScript and JavaScript imports from a tree of the statements around the import
//! keywords that stand in code: a lexer (strings, template literals with `${}` nesting,
//! comments, regular expression literals) finds `import`, `export` and `require` outside
//! literals and comments, and the lines of the bracket-balanced statement around each
//! are parsed together as one text; the tree decides what they mean.

use super::{imports_of, Source};
use crate::reading::Import;
use crate::walk::descend;
use crate::{parse_parts, parse_whole, Grammar};
use memchr::memmem;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;
use tree_sitter::{Node, Tree};

/// The imports of a TypeScript or JavaScript file, in the order they stand, at any depth
/// (a dynamic `import()` or a `require` in a function too). The text only chooses which
/// lines are parsed; every import is a node of the tree. When the lexer is unsure where
/// a statement ends, or the chosen lines' tree has an error, the whole file is parsed.
pub fn read(grammar: Grammar, text: &str) -> Vec<Import> {
    let read = |tree: &tree_sitter::Tree, lists: &[(usize, Vec<String>)]| {
        let mut out = Vec::new();
        descend(tree.root_node(), |node| {
            !imports_of(node, text, lists, &mut out)
        });
        out
    };
    let bytes = text.as_bytes();
    if let Some(chosen) = statements(text) {
        if chosen.ranges.is_empty() {
            return Vec::new();
        }
        // Each statement apart, its tree shared by every statement of the same text.
        if let Some(found) = by_statement(grammar, text, &chosen) {
            return found;
        }
        let try_read = |ranges: &[Range<usize>]| {
            let (parts, lists) = left_out(text, ranges, &chosen.openers);
            let tree = parse_parts(grammar, text, &parts)?;
            (!tree.root_node().has_error()).then(|| read(&tree, &lists))
        };
        // The statements as one text (a statement whose lines alone do not parse may
        // with the others); else, when a keyword's lines were no statement (a type's
        // `import('x')` on a member's line of an interface), the top-level statements
        // around the nested keywords.
        if let Some(found) = try_read(&chosen.ranges) {
            return found;
        }
        if let Some(found) = chosen.top_level(bytes).and_then(|wider| try_read(&wider)) {
            return found;
        }
    }
    parse_whole(grammar, text).map_or_else(Vec::new, |tree| read(&tree, &[]))
}

/// The names each brace list left out of the parse binds, by the offset of its `{`.
type Lists = Vec<(usize, Vec<String>)>;

/// The imports of the chosen statements, each statement's parts (what [`left_out`]
/// leaves) parsed as a text of its own, a skeleton such as `import {} from ''`, whose
/// tree is kept for the next statement of the same skeleton: most import statements of
/// a repository share a few. A tree's nodes are read back in the file through
/// [`Skeleton`]. None when a statement's skeleton parses with an error.
fn by_statement(grammar: Grammar, text: &str, chosen: &Statements) -> Option<Vec<Import>> {
    let bytes = text.as_bytes();
    let (parts, lists) = left_out(text, &chosen.ranges, &chosen.openers);
    let mut out = Vec::new();
    let mut parts = parts.iter().peekable();
    // The 0-based row of `counted`, counted on from one statement to the next.
    let (mut counted, mut row) = (0, 0);
    let mut skeleton = Skeleton {
        text,
        compact: String::new(),
        map: Vec::new(),
        start: 0,
        row: 0,
    };
    for range in &chosen.ranges {
        skeleton.compact.clear();
        skeleton.map.clear();
        while let Some(part) = parts.next_if(|part| part.start < range.end) {
            skeleton.map.push((skeleton.compact.len(), part.start));
            skeleton.compact.push_str(&text[part.clone()]);
        }
        row += memchr::memchr_iter(b'\n', &bytes[counted..range.start]).count();
        counted = range.start;
        (skeleton.start, skeleton.row) = (range.start, row);
        let tree = skeleton_tree(grammar, &skeleton.compact)?;
        descend(tree.root_node(), |node| {
            !imports_of(node, &skeleton, &lists, &mut out)
        });
    }
    Some(out)
}

/// One statement's skeleton and where its bytes stand in the file.
struct Skeleton<'a> {
    text: &'a str,
    /// The statement's parts, one after the other.
    compact: String,
    /// Each part's offset in `compact` and in the file, in order.
    map: Vec<(usize, usize)>,
    /// The file's offset and 0-based row where the statement's lines start.
    start: usize,
    row: usize,
}

impl Skeleton<'_> {
    /// The file's offset of `compact`'s byte at `at`.
    fn file_offset(&self, at: usize) -> usize {
        let k = self
            .map
            .partition_point(|&(c, _)| c <= at)
            .saturating_sub(1);
        self.map.get(k).map_or(at, |&(c, f)| f + (at - c))
    }
}

impl Source for Skeleton<'_> {
    fn text_of(&self, node: Node) -> &str {
        let range = node.byte_range();
        let start = self.file_offset(range.start);
        // The end is past the node's last byte, which may open the next part.
        let end = match range.end.checked_sub(1) {
            Some(last) if range.end > range.start => self.file_offset(last) + 1,
            _ => start,
        };
        self.text.get(start..end).unwrap_or("")
    }

    fn line_of(&self, node: Node) -> u32 {
        let at = self.file_offset(node.start_byte());
        let rows = memchr::memchr_iter(b'\n', &self.text.as_bytes()[self.start..at]).count();
        u32::try_from(self.row + rows + 1).unwrap_or(u32::MAX)
    }

    fn start_of(&self, node: Node) -> usize {
        self.file_offset(node.start_byte())
    }
}

/// Skeletons kept at most: past it the kept trees are dropped (vuejs/core's 3,000 import
/// statements have 99 skeletons; a tree of one costs some kilobytes, and qa-intent's peak
/// memory is within half a megabyte of its 30 MB bound: 1,024 kept cost 0.2 MB more).
const SKELETONS_KEPT: usize = 256;

/// The trees of one grammar's skeletons by their text; None for one with an error.
type Kept = HashMap<Box<str>, Option<Tree>>;

thread_local! {
    /// This thread's trees of skeletons, by grammar.
    static SKELETONS: RefCell<Vec<(Grammar, Kept)>> =
        const { RefCell::new(Vec::new()) };
}

/// The tree of a statement's skeleton, kept for the next of the same text; None when it
/// has an error.
fn skeleton_tree(grammar: Grammar, compact: &str) -> Option<Tree> {
    SKELETONS.with_borrow_mut(|grammars| {
        let at = match grammars.iter().position(|(g, _)| *g == grammar) {
            Some(at) => at,
            None => {
                grammars.push((grammar, HashMap::new()));
                grammars.len() - 1
            }
        };
        let kept = &mut grammars[at].1;
        if let Some(tree) = kept.get(compact) {
            return tree.clone();
        }
        let tree = parse_whole(grammar, compact).filter(|tree| !tree.root_node().has_error());
        if kept.len() >= SKELETONS_KEPT {
            kept.clear();
        }
        kept.insert(Box::from(compact), tree.clone());
        tree
    })
}

/// The parts of the chosen ranges left to parse when the contents of every import's or
/// re-export's brace list that [`specifiers`] can read are left out (the parser sees
/// `import {} from './x'`), with the names each list binds by the offset of its `{`.
/// Long lists of names are most of an import statement's bytes.
fn left_out(text: &str, ranges: &[Range<usize>], openers: &[usize]) -> (Vec<Range<usize>>, Lists) {
    let bytes = text.as_bytes();
    let mut parts = Vec::with_capacity(ranges.len());
    let mut lists = Vec::new();
    let mut openers = openers.iter().peekable();
    for range in ranges {
        let mut start = range.start;
        while let Some(&at) = openers.next_if(|&&at| at < range.end) {
            if at < start {
                continue;
            }
            let mut clause_end = at + "import".len();
            let list = brace_list(bytes, at, range.end).and_then(|open| {
                let close = memchr::memchr(b'}', &bytes[open..range.end])? + open;
                let names = specifiers(&text[open + 1..close])?;
                from_follows(bytes, close + 1, range.end).then_some((open, close, names))
            });
            if let Some((open, close, names)) = list {
                parts.push(start..open + 1);
                start = close;
                clause_end = close + 1;
                lists.push((open, names));
            }
            if let Some(spec) = specifier_text(bytes, clause_end, range.end) {
                parts.push(start..spec.start);
                start = spec.end;
            }
        }
        parts.push(start..range.end);
    }
    (parts, lists)
}

/// The text inside the quotes of the specifier that ends the clause from `from` (`from
/// './x'`, `import './x'`), when only words, blanks, `*`, `,` and braces stand before its
/// quote and it holds no backslash or line end: the parser then sees an empty string,
/// whose node still spans the file's bytes of the whole literal.
fn specifier_text(bytes: &[u8], from: usize, end: usize) -> Option<Range<usize>> {
    let quote = from
        + bytes[from..end].iter().position(|&b| {
            !(word(b) || b.is_ascii_whitespace() || matches!(b, b'*' | b',' | b'{' | b'}'))
        })?;
    if !matches!(bytes[quote], b'\'' | b'"') {
        return None;
    }
    let close = quote + 1 + memchr::memchr3(bytes[quote], b'\\', b'\n', &bytes[quote + 1..end])?;
    (bytes[close] == bytes[quote] && close > quote + 1).then_some(quote + 1..close)
}

/// The offset of the `{` of the brace list of the `import` or `export` at `at`, when
/// one follows it: `import {`, `import type {`, `import A, {`, `export {`, `export type {`.
fn brace_list(bytes: &[u8], at: usize, end: usize) -> Option<usize> {
    let next_word = |i: usize| {
        let start = skip_blanks(bytes, i, end);
        let stop = start
            + bytes[start..end]
                .iter()
                .position(|&b| !word(b))
                .unwrap_or(end - start);
        (start, stop)
    };
    let mut i = at + "import".len();
    let (start, stop) = next_word(i);
    if &bytes[start..stop] == b"type" {
        i = stop;
    } else if stop > start && bytes[at] == b'i' {
        // `import A, {`: a default binding before the list.
        let after_name = skip_blanks(bytes, stop, end);
        if bytes.get(after_name) == Some(&b',') && after_name < end {
            i = after_name + 1;
        }
    }
    let open = skip_blanks(bytes, i, end);
    (open < end && bytes[open] == b'{').then_some(open)
}

/// The offset of the first byte at or after `at` (before `end`) that is no blank.
fn skip_blanks(bytes: &[u8], at: usize, end: usize) -> usize {
    at + bytes[at..end]
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(end - at)
}

/// True when `from` and a quote follow `at` (blanks between): the list is an import's or a
/// re-export's, not a local `export { a }`.
fn from_follows(bytes: &[u8], at: usize, end: usize) -> bool {
    let at = skip_blanks(bytes, at, end);
    bytes[at..end].starts_with(b"from") && {
        let quote = skip_blanks(bytes, at + 4, end);
        matches!(bytes.get(quote), Some(b'\'' | b'"')) && quote < end
    }
}

/// The local names a brace list's contents bind, when they are a plain list of
/// specifiers (`a`, `type a`, `a as b`, `type a as b`, `'a-b' as c`, `default as d`,
/// blanks, comments, a trailing comma); None for anything else, which the tree then reads.
fn specifiers(list: &str) -> Option<Vec<String>> {
    let bytes = list.as_bytes();
    let mut names = Vec::new();
    let mut words: Vec<&str> = Vec::new();
    let mut i = 0;
    loop {
        i = skip_blanks(bytes, i, bytes.len());
        if bytes[i..].starts_with(b"//") {
            i = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n);
            continue;
        }
        if bytes[i..].starts_with(b"/*") {
            i = memchr::memmem::find(&bytes[i + 2..], b"*/").map(|n| i + n + 4)?;
            continue;
        }
        match bytes.get(i) {
            None => {
                if !words.is_empty() {
                    names.push(bound(&words)?.to_string());
                }
                return Some(names);
            }
            Some(b',') => {
                names.push(bound(&words)?.to_string());
                words.clear();
                i += 1;
            }
            Some(&quote @ (b'\'' | b'"')) => {
                let end = memchr::memchr3(quote, b'\\', b'\n', &bytes[i + 1..])? + i + 1;
                if bytes[end] != quote {
                    return None;
                }
                words.push(&list[i..=end]);
                i = end + 1;
            }
            Some(&b) if word(b) => {
                let end = bytes[i..]
                    .iter()
                    .position(|&c| !word(c))
                    .map_or(bytes.len(), |n| i + n);
                words.push(&list[i..end]);
                i = end;
            }
            Some(_) => return None,
        }
    }
}

/// The name one specifier's words bind: `a`, `type a`, `x as a`, `type x as a` bind `a`;
/// None for any other shape (`type as a`, a keyword, a string where a name must stand).
fn bound<'a>(words: &[&'a str]) -> Option<&'a str> {
    let name = |w: &'a str| Some(w).filter(|w| identifier(w));
    let any = |w: &str| identifier(w) || w == "default" || w.starts_with(['\'', '"']);
    match *words {
        [a] => name(a),
        ["type", a] => name(a),
        [x, "as", a] if x != "type" && any(x) => name(a),
        ["type", x, "as", a] if any(x) => name(a),
        _ => None,
    }
}

/// True for a word that can be a binding name: not a reserved word, nor `type`, `as`
/// or `typeof`, whose place in a specifier the tree must decide.
fn identifier(w: &str) -> bool {
    const RESERVED: &[&str] = &[
        "as",
        "async",
        "await",
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "debugger",
        "default",
        "delete",
        "do",
        "else",
        "enum",
        "export",
        "extends",
        "false",
        "finally",
        "for",
        "from",
        "function",
        "if",
        "implements",
        "import",
        "in",
        "instanceof",
        "interface",
        "let",
        "new",
        "null",
        "of",
        "package",
        "private",
        "protected",
        "public",
        "return",
        "static",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "type",
        "typeof",
        "var",
        "void",
        "while",
        "with",
        "yield",
    ];
    w.as_bytes()
        .first()
        .is_some_and(|b| !b.is_ascii_digit() && word(*b))
        && !RESERVED.contains(&w)
}

/// A searcher for `port`, which `import` and `export` share, built once: one pass
/// finds both (and `require` by its rare `q`).
static PORT: LazyLock<memmem::Finder<'static>> = LazyLock::new(|| memmem::Finder::new("port"));

/// Every `import`, `export` and `require` of `bytes`, in order, wherever they stand.
fn keyword_words(bytes: &[u8]) -> Vec<(usize, Keyword)> {
    let ported = PORT.find_iter(bytes).filter_map(|at| {
        let at = at.checked_sub(2)?;
        match &bytes[at..at + 2] {
            b"im" => Some((at, Keyword::Import)),
            b"ex" => Some((at, Keyword::Export)),
            _ => None,
        }
    });
    let required = memchr::memchr_iter(b'q', bytes).filter_map(|q| {
        let at = q.checked_sub(2)?;
        bytes[at..]
            .starts_with(b"require")
            .then_some((at, Keyword::Require))
    });
    let mut found: Vec<(usize, Keyword)> = ported.chain(required).collect();
    found.sort_unstable_by_key(|&(at, _)| at);
    found
}

/// The bytes the lexer acts on: quotes, slashes, brackets and newlines; any other byte
/// of code is skipped in a run.
static SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let bytes = b"'\"`/()[]{}\n";
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
};

/// The words an import can start with, as the lexer meets them in code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keyword {
    Import,
    Export,
    Require,
}

impl Keyword {
    fn word(self) -> &'static str {
        match self {
            Keyword::Import => "import",
            Keyword::Export => "export",
            Keyword::Require => "require",
        }
    }
}

/// The lines to parse: for each import keyword in code that opens an import (not
/// `import.meta`, not `export const`, not `x.require`), the whole lines of the statement
/// around it, merged where they touch. None when they cannot be told (brackets that do
/// not balance around a keyword): then the whole file is parsed.
fn statements(text: &str) -> Option<Statements> {
    let bytes = text.as_bytes();
    // The words that may open an import, wherever they stand: one that cannot (`export
    // const`, `import.meta`) needs no lexing, so the lexer stops after the last that
    // can, in most files at the end of their head.
    let mut candidates = keyword_words(bytes);
    candidates.retain(|&(at, keyword)| opens_import(bytes, at, keyword));
    let Some(&(at, keyword)) = candidates.last() else {
        return Some(Statements::default());
    };
    let lexed = lex(bytes, at + keyword.word().len(), &candidates);
    let mut chosen = Statements::default();
    for &(at, keyword) in &lexed.keywords {
        let range = statement(bytes, &lexed, at)?;
        if keyword != Keyword::Require {
            chosen.openers.push(at);
        }
        // Statements that only touch stay apart (each is parsed as a skeleton of its own).
        match chosen.ranges.last_mut() {
            Some(previous) if previous.end > range.start => {
                previous.end = previous.end.max(range.end)
            }
            _ => chosen.ranges.push(range),
        }
    }
    chosen.lexed = lexed;
    Some(chosen)
}

/// The parts of a file to parse, and where in them an `import` or `export` keyword in
/// code opens an import (the only places [`left_out`] looks for a brace list).
#[derive(Debug, Default)]
struct Statements {
    ranges: Vec<Range<usize>>,
    openers: Vec<usize>,
    lexed: Lexed,
}

impl Statements {
    /// The ranges with each keyword inside brackets widened to the top-level statement
    /// around it (the lines of its outermost open bracket's statement); None when those
    /// cannot be told.
    fn top_level(&self, bytes: &[u8]) -> Option<Vec<Range<usize>>> {
        let brackets = &self.lexed.brackets;
        let mut ranges: Vec<Range<usize>> = Vec::new();
        for &(at, _) in &self.lexed.keywords {
            let k = brackets.partition_point(|&(p, _)| p < at);
            // The last bracket before `at` that opened from depth 0.
            let outer = (0..k)
                .rev()
                .find(|&j| brackets[j].1 == 1 && (j == 0 || brackets[j - 1].1 == 0));
            let nested = k > 0 && brackets[k - 1].1 > 0;
            let range = match outer.filter(|_| nested) {
                Some(j) => statement(bytes, &self.lexed, brackets[j].0)?,
                None => statement(bytes, &self.lexed, at)?,
            };
            ranges.push(range);
        }
        ranges.sort_by_key(|r| r.start);
        let mut merged: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
        for range in ranges {
            match merged.last_mut() {
                Some(previous) if previous.end >= range.start => {
                    previous.end = previous.end.max(range.end)
                }
                _ => merged.push(range),
            }
        }
        Some(merged)
    }
}

/// True when the keyword at `at` can open an import: `import` not followed by `.`
/// (`import.meta`); `export` followed by `*` or `{`, or by `type` and one of them, but
/// not a list of the file's own names; `require` followed by `(` and not after a `.` (a
/// method of that name loads nothing the tree reads).
fn opens_import(bytes: &[u8], at: usize, keyword: Keyword) -> bool {
    let word = keyword.word();
    let next = bytes[at + word.len()..]
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .map(|n| &bytes[at + word.len() + n..]);
    let Some(next) = next else {
        return false;
    };
    match keyword {
        Keyword::Import => next[0] != b'.',
        // `export type {..} from` and `export type * from` re-export; `export type Name<..>
        // = ..` declares an alias, whose lines (a `<` the lexer does not count as a
        // bracket) are no statement on their own.
        Keyword::Export => {
            let typed = next
                .strip_prefix(b"type")
                .filter(|rest| rest.first().is_some_and(u8::is_ascii_whitespace))
                .and_then(|rest| rest.iter().find(|b| !b.is_ascii_whitespace()));
            match (next[0], typed) {
                (b'*', _) | (_, Some(b'*')) => true,
                (b'{', _) | (_, Some(b'{')) => !local_export(bytes, at),
                _ => false,
            }
        }
        Keyword::Require => {
            let before = bytes[..at].iter().rev().find(|b| !b.is_ascii_whitespace());
            next[0] == b'(' && before != Some(&b'.')
        }
    }
}

/// True when the brace list after the `export` at `at` is surely followed by no `from`
/// (`export { a, b }`, `export type { T }`: names of the file, no import). A list holding
/// a quote or a slash (a string name, a comment), or whose `}` a comment or `from`
/// follows, may be a re-export.
fn local_export(bytes: &[u8], at: usize) -> bool {
    let Some(open) = memchr::memchr(b'{', &bytes[at..]).map(|n| at + n) else {
        return false;
    };
    let Some(close) = memchr::memchr(b'}', &bytes[open..]).map(|n| open + n) else {
        return false;
    };
    if memchr::memchr3(b'\'', b'"', b'/', &bytes[open..close]).is_some() {
        return false;
    }
    let after = bytes[close + 1..].iter().find(|b| !b.is_ascii_whitespace());
    !matches!(after, Some(b'f' | b'/'))
}

/// What the lexer found before its stop: the import keywords in code, and every bracket
/// in code with the depth after it.
#[derive(Debug, Default)]
struct Lexed {
    keywords: Vec<(usize, Keyword)>,
    brackets: Vec<(usize, i32)>,
    /// The comments met, in order.
    comments: Vec<Range<usize>>,
}

/// Lexes `bytes` up to `stop` and on to the first line end where no bracket is open
/// (the statement of the last keyword ends there at the latest). Strings and regular expression literals end at a line's end at the latest, so a wrong
/// guess between a regular expression and a division spoils one line only.
fn lex(bytes: &[u8], stop: usize, candidates: &[(usize, Keyword)]) -> Lexed {
    let mut lexed = Lexed::default();
    let mut depth = 0i32;
    // The depth at which each open `${` of a template literal returns to its text.
    let mut templates: Vec<i32> = Vec::new();
    // The last byte of code that is no blank: decides whether `/` opens a regex.
    let mut previous = b';';
    let mut previous_at = 0;
    // For each open `(`, whether it holds the condition of `if`, `while`, `for` or
    // `with`; and whether the last `)` closed one (a regex may follow it).
    let mut conditions: Vec<bool> = Vec::new();
    let mut after_condition = false;
    // The next of `candidates` (keyword-like words, in order) not yet placed.
    let mut next = 0;
    let mut i = 0;
    while i < bytes.len() {
        // A run of code holding no byte acted on: its words are the candidates in it (a
        // candidate in a literal or comment was jumped over), its last byte that is no
        // blank the one before what follows.
        let run = bytes[i..]
            .iter()
            .position(|&b| SPECIAL[usize::from(b)])
            .map_or(bytes.len(), |n| i + n);
        if run > i {
            while let Some(&(at, keyword)) = candidates.get(next).filter(|(at, _)| *at < run) {
                next += 1;
                let end = at + keyword.word().len();
                // A longer word (`imported`, `reexport`) or a property (`x.require`).
                let apart = at >= i
                    && (at == 0 || !word(bytes[at - 1]) && bytes[at - 1] != b'.')
                    && !bytes.get(end).is_some_and(|&c| word(c));
                if apart {
                    lexed.keywords.push((at, keyword));
                }
            }
            if let Some(n) = bytes[i..run].iter().rposition(|b| !b.is_ascii_whitespace()) {
                (previous, previous_at) = (bytes[i + n], i + n);
            }
            i = run;
            continue;
        }
        let b = bytes[i];
        match b {
            b'\n' if i >= stop && depth <= 0 && templates.is_empty() => break,
            b'\'' | b'"' => {
                i = string_end(bytes, i + 1, b);
                (previous, previous_at) = (b, i.saturating_sub(1));
                continue;
            }
            b'`' => {
                (i, previous) = template_text(bytes, i + 1, &mut depth, &mut templates, &mut lexed);
                previous_at = i.saturating_sub(1);
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n);
                lexed.comments.push(i..end);
                i = end;
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end =
                    memchr::memmem::find(&bytes[i + 2..], b"*/").map_or(bytes.len(), |n| i + n + 4);
                lexed.comments.push(i..end);
                i = end;
                continue;
            }
            b'/' if (previous == b')' && after_condition)
                || regex_may_start(bytes, previous, previous_at) =>
            {
                i = regex_end(bytes, i + 1);
                (previous, previous_at) = (b'/', i.saturating_sub(1));
                continue;
            }
            b'}' if templates.last() == Some(&(depth - 1)) => {
                templates.pop();
                depth -= 1;
                lexed.brackets.push((i, depth));
                (i, previous) = template_text(bytes, i + 1, &mut depth, &mut templates, &mut lexed);
                previous_at = i.saturating_sub(1);
                continue;
            }
            b'(' | b'[' | b'{' => {
                if b == b'(' {
                    conditions.push(word_before(bytes, i, &[b"if", b"while", b"for", b"with"]));
                }
                depth += 1;
                lexed.brackets.push((i, depth));
            }
            b')' | b']' | b'}' => {
                if b == b')' {
                    after_condition = conditions.pop().unwrap_or(false);
                }
                depth -= 1;
                lexed.brackets.push((i, depth));
            }
            _ => {}
        }
        if !b.is_ascii_whitespace() {
            (previous, previous_at) = (b, i);
        }
        i += 1;
    }
    lexed
}

/// True when the word before `at` (blanks skipped) is one of `words`.
fn word_before(bytes: &[u8], at: usize, words: &[&[u8]]) -> bool {
    let Some(end) = bytes[..at].iter().rposition(|b| !b.is_ascii_whitespace()) else {
        return false;
    };
    let start = bytes[..=end]
        .iter()
        .rposition(|&c| !word(c))
        .map_or(0, |n| n + 1);
    words.contains(&&bytes[start..=end])
}

/// Lexes the text of a template literal from `from` (past its backtick, or past the `}`
/// of a substitution): a `${` opens a bracket whose `}` returns to the text. Gives where
/// code goes on and the byte that stands before it.
fn template_text(
    bytes: &[u8],
    from: usize,
    depth: &mut i32,
    templates: &mut Vec<i32>,
    lexed: &mut Lexed,
) -> (usize, u8) {
    match template_end(bytes, from) {
        Some((end, true)) => {
            templates.push(*depth);
            *depth += 1;
            lexed.brackets.push((end - 1, *depth));
            (end, b'{')
        }
        Some((end, false)) => (end, b'`'),
        None => (bytes.len(), b'`'),
    }
}

/// A byte of an identifier (any non-ASCII byte counts: Unicode names).
fn word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// True when a `/` after the code byte `previous` (at `at`) opens a regular expression
/// literal rather than dividing: after an operator or an opening bracket, or after a word
/// that is a keyword ending an expression's start (`return /x/`). After `)`, `]`, `}`, a
/// name, a number or a literal it is read as a division.
fn regex_may_start(bytes: &[u8], previous: u8, at: usize) -> bool {
    if !word(previous) {
        return !matches!(previous, b')' | b']' | b'}' | b'\'' | b'"' | b'`' | b'/');
    }
    let start = bytes[..=at]
        .iter()
        .rposition(|&c| !word(c))
        .map_or(0, |n| n + 1);
    matches!(
        &bytes[start..=at],
        b"return"
            | b"typeof"
            | b"case"
            | b"do"
            | b"else"
            | b"in"
            | b"of"
            | b"new"
            | b"delete"
            | b"void"
            | b"throw"
            | b"instanceof"
            | b"yield"
            | b"await"
    )
}

/// The offset past the string literal whose text starts at `from`, closed by `quote`,
/// or at the end of its line (an unclosed string, or a wrong guess).
fn string_end(bytes: &[u8], from: usize, quote: u8) -> usize {
    let mut i = from;
    while let Some(n) = memchr::memchr3(quote, b'\\', b'\n', &bytes[i..]) {
        let at = i + n;
        match bytes[at] {
            b'\\' => i = at + 2,
            b'\n' => return at,
            _ => return at + 1,
        }
        if i >= bytes.len() {
            break;
        }
    }
    bytes.len()
}

/// The offset past a regular expression literal whose body starts at `from` (a `/` in a
/// class `[...]` does not end it), or the end of its line.
fn regex_end(bytes: &[u8], from: usize) -> usize {
    let mut class = false;
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'\n' => return i,
            b'[' => class = true,
            b']' => class = false,
            b'/' if !class => return i + 1,
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// Where the text of a template literal starting at `from` stops: past its closing
/// backtick (false) or past a `${` (true); None when it never stops.
fn template_end(bytes: &[u8], from: usize) -> Option<(usize, bool)> {
    let mut i = from;
    while let Some(n) = memchr::memchr3(b'`', b'\\', b'$', &bytes[i..]) {
        let at = i + n;
        match bytes[at] {
            b'\\' => i = at + 2,
            b'`' => return Some((at + 1, false)),
            _ if bytes.get(at + 1) == Some(&b'{') => return Some((at + 2, true)),
            _ => i = at + 1,
        }
        if i >= bytes.len() {
            break;
        }
    }
    None
}

/// The whole lines of the statement around the keyword at `at`: back to a line start
/// from which the brackets up to the keyword never close more than they open, and on to
/// the end of the first line where every bracket opened since is closed; widened over a
/// line ending or starting with an operator, a `.` or a bracket (the statement goes on).
/// None when no such lines are found before the text's start or end.
fn statement(bytes: &[u8], lexed: &Lexed, at: usize) -> Option<Range<usize>> {
    let brackets = &lexed.brackets;
    let mut start = line_start(bytes, at);
    // Lines walked back before the whole file is parsed instead: a keyword in a long
    // run of unbalanced lines would cost a scan of them for each line.
    for _ in 0..MAX_LINES_BACK {
        let base = depth_before(brackets, start);
        // The first line end after the keyword where the depth is back at `base`, with
        // no bracket closing below it on the way.
        let mut end = None;
        let mut dips = false;
        let mut depth = base;
        let first = brackets.partition_point(|&(p, _)| p < start);
        let mut k = first;
        let mut line_end = next_line_end(bytes, at);
        loop {
            while k < brackets.len() && brackets[k].0 < line_end {
                depth = brackets[k].1;
                if depth < base {
                    dips = true;
                    break;
                }
                k += 1;
            }
            if dips {
                break;
            }
            if depth == base && !continues_after(bytes, &lexed.comments, line_end) {
                end = Some(line_end);
                break;
            }
            if line_end >= bytes.len() {
                // The brackets at the end of the lexed text are still open: the lexer
                // stopped, or the statement never closes.
                return None;
            }
            line_end = next_line_end(bytes, line_end);
        }
        if let Some(end) = end.filter(|_| !continues_before(bytes, &lexed.comments, start)) {
            return Some(start..end);
        }
        if start == 0 {
            return None;
        }
        start = line_start(bytes, start - 1);
    }
    None
}

/// How many lines [`statement`] walks back from a keyword's line at most.
const MAX_LINES_BACK: usize = 200;

/// The start of the line holding `at`.
fn line_start(bytes: &[u8], at: usize) -> usize {
    memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |n| n + 1)
}

/// The offset past the newline ending the line holding `at` (the text's end on the
/// last line).
fn next_line_end(bytes: &[u8], at: usize) -> usize {
    memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n + 1)
}

/// The bracket depth at `at`.
fn depth_before(brackets: &[(usize, i32)], at: usize) -> i32 {
    match brackets.partition_point(|&(p, _)| p < at) {
        0 => 0,
        n => brackets[n - 1].1,
    }
}

/// True when the statement of the line ending at `end` may go on past it: the line
/// ends with an operator, a `,` or a `.`, or the next line that is not blank starts
/// with one, or with a bracket or backtick (a call, index or tagged template).
fn continues_after(bytes: &[u8], comments: &[Range<usize>], end: usize) -> bool {
    let before = last_code(bytes, comments, end);
    let after = bytes[end..].iter().find(|b| !b.is_ascii_whitespace());
    before.is_some_and(ends_incomplete)
        || after
            .is_some_and(|&b| goes_on(b) || matches!(b, b'(' | b'[' | b'`' | b'-' | b'<' | b'>'))
}

/// True when the line before `start` leaves its statement open (ends with an operator,
/// `,` or `.`), or the line at `start` begins by going on with one (`.then(..)`).
fn continues_before(bytes: &[u8], comments: &[Range<usize>], start: usize) -> bool {
    if start == 0 {
        return false;
    }
    let first = bytes[start..].iter().find(|b| !matches!(b, b' ' | b'\t'));
    last_code(bytes, comments, start).is_some_and(ends_incomplete)
        || first.is_some_and(|&b| goes_on(b))
}

/// The last byte before `end` that is neither blank nor in one of `comments` (a
/// comment's text says nothing of where a statement ends: `// see a.`).
fn last_code(bytes: &[u8], comments: &[Range<usize>], end: usize) -> Option<u8> {
    let mut end = end;
    loop {
        let at = bytes[..end]
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())?;
        let k = comments.partition_point(|c| c.start <= at);
        match k.checked_sub(1).map(|k| &comments[k]) {
            Some(comment) if at < comment.end => end = comment.start,
            _ => return Some(bytes[at]),
        }
    }
}

/// A first byte of a line that goes on with the statement before it.
fn goes_on(b: u8) -> bool {
    matches!(
        b,
        b'.' | b'?' | b'+' | b'*' | b'%' | b'&' | b'|' | b'=' | b':' | b','
    )
}

/// A last byte of a line that leaves the statement open.
fn ends_incomplete(b: u8) -> bool {
    goes_on(b)
        || matches!(
            b,
            b'-' | b'<' | b'>' | b'(' | b'[' | b'{' | b'!' | b'^' | b'~'
        )
}

#[cfg(test)]
mod tests;
