//! Syntax trees of changed source files (parsed with the grammars of qa-syntax) and the
//! outline read from them: items, conditions, error exits, list elements, tests.
//!
//! What each language's nodes are to the outline is a table of node kinds (`kinds`); the
//! tests and their expectations are read by `qa_syntax::suite`. Everything here is pure: the same
//! text gives the same outline.

use std::ops::Range;

use qa_syntax::walk::{ByKind, Walk};
use qa_syntax::{excerpt, line_of, text_of};
use tree_sitter::{Node, Tree};

use kinds::Role;
use qa_syntax::suite::{self, Test};

mod kinds;
pub mod regions;
pub use kinds::Up;

/// A language with a grammar (shared/syntax owns them); a file of any other language
/// gives no facts of code.
pub use qa_syntax::Grammar;

/// What kind of item a function, type or constant is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    Function,
    Type,
    Constant,
    Macro,
    Module,
    /// A field of a class that is no constant (Java: not `static final`).
    Field,
}

/// A named item with its line span (1-based, inclusive).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub kind: ItemKind,
    pub name: String,
    /// The names of the enclosing items and this one: `Cart::save`, `tests::sorts`.
    pub path: String,
    pub start: u32,
    pub end: u32,
    /// Parameter names of a function, in order.
    pub params: Vec<String>,
    bytes: (usize, usize),
}

/// A located piece of code: `text` is normalized (no whitespace, no outer parentheses),
/// so the same condition reads the same wherever it moved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// Index of the innermost enclosing item.
    pub item: Option<usize>,
    pub line: u32,
    /// The last line of the statement the mark heads (a condition's `if` block), else
    /// `line`.
    pub end: u32,
    pub text: String,
    /// Where the node stands in its version (a match arm's: the whole arm), to find it
    /// among the changed subtrees [`crate::moves`] matched.
    pub bytes: Range<usize>,
}

/// How code leaves with an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitKind {
    /// `panic!`, `todo!`, `unimplemented!`, `unreachable!`, Go `panic(...)`.
    Panic,
    /// `.unwrap()` / `.expect(...)`: a panic on the failing path.
    Unwrap,
    /// `throw`, `raise`.
    Throw,
    /// An error value: `Err(...)`, `bail!`, `errors.New`, `fmt.Errorf`, `log.Fatal`.
    Error,
}

/// A located error exit; `text` is the exit as written (excerpted), `key` normalized,
/// `shape` what kind of exit it is whatever its arguments (`raise NoSuchOption`, `todo!`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exit {
    pub item: Option<usize>,
    pub line: u32,
    pub kind: ExitKind,
    pub text: String,
    pub key: String,
    pub shape: String,
    pub bytes: Range<usize>,
}

impl Item {
    /// Where the item stands in its version.
    pub fn byte_range(&self) -> Range<usize> {
        self.bytes.0..self.bytes.1
    }
}

/// The kinds and shapes of the error exits inside `bytes` of a parsed text (a function's
/// body read whole, however far from the change).
pub fn exits_within(
    grammar: Grammar,
    tree: &Tree,
    text: &str,
    bytes: Range<usize>,
) -> Vec<(ExitKind, String)> {
    let Some(node) = tree
        .root_node()
        .descendant_for_byte_range(bytes.start, bytes.end)
    else {
        return Vec::new();
    };
    let walk = Walk::new(node, None);
    let mut names = ByKind::default();
    walk.all
        .iter()
        .enumerate()
        .filter_map(|(i, &n)| {
            match kinds::role(grammar, n, names.of(n, |k| k), text, &|m| {
                walk.parent_of(i, m)
            }) {
                Some(Role::Exit(kind)) => Some((kind, shape_of(text_of(n, text)))),
                _ => None,
            }
        })
        .collect()
}

/// The names code calls: each identifier right before `(` (or `!(`, a macro), the last
/// segment of a path (`helper` of `self.helper(x)`, `mod::helper(x)`).
pub fn callees(code: &str) -> std::collections::BTreeSet<&str> {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    let bytes = code.as_bytes();
    let mut out = std::collections::BTreeSet::new();
    for (open, _) in code.match_indices('(') {
        let mut end = open;
        while end > 0 && bytes[end - 1].is_ascii_whitespace() {
            end -= 1;
        }
        if end > 0 && bytes[end - 1] == b'!' {
            end -= 1;
        }
        let mut start = end;
        while start > 0 && word(bytes[start - 1]) {
            start -= 1;
        }
        if start < end && !bytes[start].is_ascii_digit() {
            out.insert(&code[start..end]);
        }
    }
    out
}

/// The outline of one version of a file.
#[derive(Debug, Clone, Default)]
pub struct Outline {
    pub items: Vec<Item>,
    pub conditions: Vec<Mark>,
    pub exits: Vec<Exit>,
    /// Elements of list, set and map literals inside constants, and match arms / cases
    /// inside any item: keyed by the item they belong to.
    pub elements: Vec<Mark>,
    pub tests: Vec<Test>,
    /// Rust `macro_rules!` names whose bodies define `#[test]` functions.
    pub test_macros: Vec<String>,
}

impl Outline {
    /// The innermost item containing `line`.
    pub fn item_at(&self, line: u32) -> Option<usize> {
        self.items
            .iter()
            .enumerate()
            .filter(|(_, it)| it.start <= line && line <= it.end)
            .min_by_key(|(_, it)| it.end - it.start)
            .map(|(i, _)| i)
    }

    /// The path of an item index, or `""` at file level.
    pub fn path_of(&self, item: Option<usize>) -> &str {
        item.map(|i| self.items[i].path.as_str()).unwrap_or("")
    }
}

/// Parses `text` and reads its outline. `test_macros` names test-defining macros known
/// from elsewhere in the repository (Rust).
pub fn outline(grammar: Grammar, text: &str, test_macros: &[String]) -> Option<Outline> {
    let tree = parse(grammar, text)?;
    Some(outline_of(grammar, &tree, text, test_macros, None))
}

/// The outline of an already parsed text, limited to what overlaps `ranges` (bytes) when
/// given: the items around them and the facts and tests inside them.
pub fn outline_of(
    grammar: Grammar,
    tree: &Tree,
    text: &str,
    test_macros: &[String],
    ranges: Option<&[Range<usize>]>,
) -> Outline {
    outline_marked(grammar, tree, text, test_macros, ranges, None)
}

/// [`outline_of`] given what [`suite::may_define_tests`] says of `text` where [`pair`]
/// searched it already (`marked`, see [`Pair::marked`]): the search is not made twice.
pub fn outline_marked(
    grammar: Grammar,
    tree: &Tree,
    text: &str,
    test_macros: &[String],
    ranges: Option<&[Range<usize>]>,
    marked: Option<bool>,
) -> Outline {
    let mut out = read(grammar, tree, text, ranges);
    let mut macros = test_macros.to_vec();
    macros.extend(out.test_macros.iter().cloned());
    if marked.unwrap_or_else(|| suite::may_define_tests(grammar, text, &macros)) {
        out.tests = suite::tests(grammar, tree.root_node(), text, &macros, ranges);
    }
    out
}

/// A syntax tree, or `None` when the parser gives up (it never fails on odd input: errors
/// become `ERROR` nodes).
pub fn parse(grammar: Grammar, text: &str) -> Option<Tree> {
    qa_syntax::parse(grammar, text)
}

/// The whole tree of a text first parsed without some of its blocks ([`pair`]): parsed
/// again with them, reusing the subtrees of the rest.
pub fn whole_from(grammar: Grammar, partial: &Tree, text: &str) -> Option<Tree> {
    let mut parser = qa_syntax::parser(grammar)?;
    parser.parse(text, Some(partial))
}

/// The byte ranges of `text` outside the ranges `tree` was parsed from (the blocks a
/// partial tree of [`pair`] left out, in order; none for a whole tree).
pub fn left_out(tree: &Tree, text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut from = 0;
    for r in tree.included_ranges() {
        if r.start_byte > from {
            out.push(from..r.start_byte);
        }
        from = from.max(r.end_byte);
    }
    if from < text.len() {
        out.push(from..text.len());
    }
    out
}

/// The tree of `text` parsed without the byte ranges `left_out` (blocks a partial tree of
/// [`pair`] left out, in order), when it checks out as [`pair`]'s trees do. `narrower`,
/// a tree of the same text that left out more, is re-parsed: its subtrees outside the
/// newly included blocks are reused, as [`whole_from`] reuses a partial tree's.
pub fn without(
    grammar: Grammar,
    text: &str,
    left_out: &[Range<usize>],
    narrower: &Tree,
) -> Option<Tree> {
    let starts = line_starts(text);
    let range = |start: usize, end: usize| tree_sitter::Range {
        start_byte: start,
        end_byte: end,
        start_point: point(&starts, start),
        end_point: point(&starts, end),
    };
    let mut included = Vec::with_capacity(left_out.len() + 1);
    let mut from = 0;
    for gap in left_out {
        if gap.start > from {
            included.push(range(from, gap.start));
        }
        from = from.max(gap.end);
    }
    if from < text.len() {
        included.push(range(from, text.len()));
    }
    let mut parser = qa_syntax::parser(grammar)?;
    parser.set_included_ranges(&included).ok()?;
    let tree = parser.parse(text, Some(narrower))?;
    regions::sound(&tree, left_out).then_some(tree)
}

/// The tree of `text` parsed without the line runs `skip` (`[start, end)`, 0-based), when
/// it checks out as [`pair`]'s partial trees do (no error, each run between two
/// statements); `None` otherwise.
pub fn parse_without(grammar: Grammar, text: &str, skip: &[(usize, usize)]) -> Option<Tree> {
    let starts = line_starts(text);
    let mut parser = qa_syntax::parser(grammar)?;
    parser
        .set_included_ranges(&regions::included(text, &starts, skip))
        .ok()?;
    let tree = parser.parse(text, None)?;
    let at = |line: usize| starts.get(line).copied().unwrap_or(text.len());
    let gaps: Vec<Range<usize>> = skip.iter().map(|&(s, e)| at(s)..at(e)).collect();
    regions::sound(&tree, &gaps).then_some(tree)
}

/// One replaced run of lines: 0-based line indexes `[start, end)` of the base and head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineEdit {
    pub base: (usize, usize),
    pub head: (usize, usize),
}

impl LineEdit {
    /// The edit of a diff hunk (1-based starts and line counts, as git writes them). A
    /// side with no lines sits after the line its start names.
    pub fn of_hunk(old_start: u32, old_lines: u32, new_start: u32, new_lines: u32) -> LineEdit {
        let run = |start: u32, len: u32| {
            let from = if len == 0 {
                start
            } else {
                start.saturating_sub(1)
            } as usize;
            (from, from + len as usize)
        };
        LineEdit {
            base: run(old_start, old_lines),
            head: run(new_start, new_lines),
        }
    }
}

/// The head's tree from the base's: the base tree edited where the lines changed, then
/// re-parsed, which reuses every unchanged subtree. `None` when the edits do not turn the
/// base text into the head text (a truncated or inconsistent diff): parse afresh then.
pub fn reparse(
    grammar: Grammar,
    base_tree: &Tree,
    base: &str,
    head: &str,
    edits: &[LineEdit],
) -> Option<Tree> {
    let tree = edited(base_tree, base, head, edits)?;
    let mut parser = qa_syntax::parser(grammar)?;
    parser.parse(head, Some(&tree))
}

/// The base and head trees of a changed file (`edits` None when its diff is not whole).
/// A TypeScript or JavaScript file is parsed without the code blocks the change does not
/// come near ([`regions`]) when its partial trees check out, else whole.
pub fn pair(
    grammar: Grammar,
    base: Option<&str>,
    head: Option<&str>,
    edits: Option<&[LineEdit]>,
) -> Pair {
    if let (Some(b), Some(h), Some(edits)) = (base, head, edits) {
        if grammar.is_javascript() {
            // Searched once here, for the blocks that may be left out and for the
            // outlines (a test marker of these grammars does not depend on macros).
            let marked = [b, h].map(|text| suite::may_define_tests(grammar, text, &[]));
            let pair = partial_pair(grammar, b, h, edits, marked[0] || marked[1])
                .unwrap_or_else(|| whole_pair(grammar, base, head, Some(edits)));
            return Pair {
                marked: marked.map(Some),
                ..pair
            };
        }
    }
    whole_pair(grammar, base, head, edits)
}

/// The whole base and head trees of a changed file: the head re-parsed from the base's
/// tree when `edits` are given and turn the base into the head, else parsed afresh.
pub fn whole_pair(
    grammar: Grammar,
    base: Option<&str>,
    head: Option<&str>,
    edits: Option<&[LineEdit]>,
) -> Pair {
    let base_tree = base.and_then(|t| parse(grammar, t));
    let head_tree = match (&base_tree, base, head, edits) {
        (Some(tree), Some(b), Some(h), Some(edits)) => {
            reparse(grammar, tree, b, h, edits).or_else(|| parse(grammar, h))
        }
        (_, _, Some(h), _) => parse(grammar, h),
        _ => None,
    };
    Pair {
        base: base_tree,
        head: head_tree,
        left_out: 0,
        marked: [None, None],
    }
}

/// The two trees of a changed file.
pub struct Pair {
    pub base: Option<Tree>,
    pub head: Option<Tree>,
    /// Bytes of the base left out of its tree (the head leaves out the same blocks).
    pub left_out: usize,
    /// Whether the base and the head text may define tests
    /// ([`suite::may_define_tests`]), where making the trees searched them already.
    pub marked: [Option<bool>; 2],
}

/// Both trees without the blocks far from the change; None when there is nothing to
/// leave out or a tree does not check out.
/// `tests` says whether either text may define tests.
fn partial_pair(
    grammar: Grammar,
    base: &str,
    head: &str,
    edits: &[LineEdit],
    tests: bool,
) -> Option<Pair> {
    let changed: Vec<(usize, usize)> = edits.iter().map(|e| e.base).collect();
    let skip = regions::skippable(base, &changed, tests);
    if skip.is_empty() {
        return None;
    }
    // The same blocks stand in the head, moved by the lines the edits before them added
    // or removed (they are clear of every edit).
    let head_skip: Vec<(usize, usize)> = skip
        .iter()
        .map(|&(start, end)| {
            let mut shift = 0isize;
            for e in edits {
                if e.base.1 <= start && e.base.0 < start {
                    shift += (e.head.1 - e.head.0) as isize - (e.base.1 - e.base.0) as isize;
                } else if e.base.0 < end {
                    return None;
                }
            }
            Some((
                (start as isize + shift) as usize,
                (end as isize + shift) as usize,
            ))
        })
        .collect::<Option<_>>()?;
    let (bs, hs) = (line_starts(base), line_starts(head));
    let gaps = |starts: &[usize], text: &str, skip: &[(usize, usize)]| -> Vec<Range<usize>> {
        let at = |line: usize| starts.get(line).copied().unwrap_or(text.len());
        skip.iter().map(|&(s, e)| at(s)..at(e)).collect()
    };
    let mut parser = qa_syntax::parser(grammar)?;
    parser
        .set_included_ranges(&regions::included(base, &bs, &skip))
        .ok()?;
    let base_tree = parser.parse(base, None)?;
    let base_gaps = gaps(&bs, base, &skip);
    if !regions::sound(&base_tree, &base_gaps) {
        return None;
    }
    let edited = edited(&base_tree, base, head, edits)?;
    parser
        .set_included_ranges(&regions::included(head, &hs, &head_skip))
        .ok()?;
    let head_tree = parser.parse(head, Some(&edited))?;
    if !regions::sound(&head_tree, &gaps(&hs, head, &head_skip)) {
        return None;
    }
    Some(Pair {
        base: Some(base_tree),
        head: Some(head_tree),
        left_out: base_gaps.iter().map(|g| g.len()).sum(),
        marked: [None, None],
    })
}

/// The base tree edited into the head's positions; None when the edits do not turn the
/// base text into the head text.
fn edited(base_tree: &Tree, base: &str, head: &str, edits: &[LineEdit]) -> Option<Tree> {
    let (bs, hs) = (line_starts(base), line_starts(head));
    if !hold(base, head, &bs, &hs, edits) {
        return None;
    }
    let mut tree = base_tree.clone();
    // Last edit first: the earlier ones keep their base positions.
    for e in edits.iter().rev() {
        let start = at(&bs, base, e.base.0);
        let old_end = at(&bs, base, e.base.1);
        let new_len = at(&hs, head, e.head.1) - at(&hs, head, e.head.0);
        let start_point = point(&bs, start);
        let inserted = &head[at(&hs, head, e.head.0)..at(&hs, head, e.head.1)];
        let new_end_point = match inserted.rsplit_once('\n') {
            Some((_, last)) => tree_sitter::Point::new(
                start_point.row + inserted.matches('\n').count(),
                last.len(),
            ),
            None => tree_sitter::Point::new(start_point.row, start_point.column + inserted.len()),
        };
        tree.edit(&tree_sitter::InputEdit {
            start_byte: start,
            old_end_byte: old_end,
            new_end_byte: start + new_len,
            start_position: start_point,
            old_end_position: point(&bs, old_end),
            new_end_position: new_end_point,
        });
    }
    Some(tree)
}

/// Whether `edits` turn `base` into `head`: the unchanged runs between them are the same
/// text on both sides. A linear check, where diffing the texts again would hash both.
pub fn edits_hold(base: &str, head: &str, edits: &[LineEdit]) -> bool {
    hold(base, head, &line_starts(base), &line_starts(head), edits)
}

fn hold(base: &str, head: &str, bs: &[usize], hs: &[usize], edits: &[LineEdit]) -> bool {
    let (mut b, mut h) = (0, 0);
    for e in edits.iter().chain(std::iter::once(&LineEdit {
        base: (bs.len(), bs.len()),
        head: (hs.len(), hs.len()),
    })) {
        if e.base.0 < b || e.head.0 < h || e.base.0 - b != e.head.0 - h {
            return false;
        }
        let same = base.get(at(bs, base, b)..at(bs, base, e.base.0))
            == head.get(at(hs, head, h)..at(hs, head, e.head.0));
        if !same {
            return false;
        }
        (b, h) = (e.base.1, e.head.1);
    }
    true
}

/// The byte where 0-based `line` starts; the text's end past its last line.
fn at(starts: &[usize], text: &str, line: usize) -> usize {
    starts.get(line).copied().unwrap_or(text.len())
}

/// An exit's shape: its text up to the first bracket, whitespace-free (`raiseNoSuchOption`,
/// `thrownewError`, `todo!`, `g().unwrap`).
pub fn shape_of(code: &str) -> String {
    let head = code.split(['(', '{', '[']).next().unwrap_or(code);
    head.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Calls `visit` on a node and its descendants in document order.
pub use qa_syntax::walk::descend;

/// The byte ranges of runs of lines (0-based, end-exclusive), merged; an empty run (the
/// spot where lines were inserted or removed) covers the bytes around it.
pub fn byte_ranges(text: &str, runs: impl Iterator<Item = (usize, usize)>) -> Vec<Range<usize>> {
    let starts = line_starts(text);
    let at = |line: usize| starts.get(line).copied().unwrap_or(text.len());
    let mut out: Vec<Range<usize>> = runs
        .map(|(from, to)| {
            let (start, end) = (at(from), at(to));
            if end > start {
                start..end
            } else {
                start.saturating_sub(1)..(start + 1).min(text.len())
            }
        })
        .filter(|r| !r.is_empty())
        .collect();
    out.sort_by_key(|r| r.start);
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(out.len());
    for r in out {
        match merged.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => merged.push(r),
        }
    }
    merged
}

/// Where the constructs that start on a text's lines end: the text's line starts are
/// found once for all the lines a file asks about.
pub struct Statements<'t> {
    tree: &'t Tree,
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> Statements<'t> {
    pub fn new(tree: &'t Tree, text: &'t str) -> Statements<'t> {
        Statements {
            tree,
            text,
            starts: line_starts(text),
        }
    }

    /// The last line (1-based) of the construct that starts on `line`: the widest node
    /// beginning at the line's first non-blank byte, so an assertion written over several
    /// lines (`assert_eq!(\n a,\n "..."\n)`) spans all of them; on a line that goes on
    /// with a method chain (`.stdout(\n "..."\n)`), the call that the line's `.` opens.
    /// `line` itself when the text has no such line or the tree holds nothing there.
    pub fn end(&self, line: u32) -> u32 {
        let Some(&start) = (line as usize)
            .checked_sub(1)
            .and_then(|i| self.starts.get(i))
        else {
            return line;
        };
        let rest = &self.text.as_bytes()[start..];
        let Some(col) = rest
            .iter()
            .take_while(|&&b| b != b'\n')
            .position(|b| !b.is_ascii_whitespace())
        else {
            return line;
        };
        let at = start + col;
        let chained = rest.get(col) == Some(&b'.') && rest.get(col + 1) != Some(&b'.');
        let node = match chained {
            true => innermost_call_at(self.tree, at).unwrap_or_else(|| widest_at(self.tree, at)),
            false => widest_at(self.tree, at),
        };
        (node.end_position().row as u32 + 1).max(line)
    }
}

/// The smallest call holding `byte` (a call expression, or a Java method invocation,
/// whose `.` a chained line starts with).
fn innermost_call_at(tree: &Tree, byte: usize) -> Option<Node<'_>> {
    let mut cursor = tree.walk();
    let mut call = None;
    while cursor.goto_first_child_for_byte(byte).is_some() {
        let node = cursor.node();
        if node.start_byte() > byte {
            break;
        }
        if node.kind().contains("call") || node.kind().contains("invocation") {
            call = Some(node);
        }
    }
    call
}

/// The outermost node below the root that starts at `byte`, on the way down to the
/// smallest node holding it (as `descendant_for_byte_range` goes); that smallest node when
/// none on the way starts there. Going down with a cursor spares `Node::parent`, which
/// tree-sitter answers by searching down from the root each time.
fn widest_at(tree: &Tree, byte: usize) -> Node<'_> {
    let mut cursor = tree.walk();
    while cursor.goto_first_child_for_byte(byte).is_some() {
        let node = cursor.node();
        if node.start_byte() > byte {
            cursor.goto_parent();
            break;
        }
        if node.start_byte() == byte {
            return node;
        }
    }
    cursor.node()
}

/// Byte offsets where each line starts.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
        .filter(|&i| i < text.len() || i == 0)
        .collect()
}

/// The row and byte column of a byte offset.
fn point(starts: &[usize], byte: usize) -> tree_sitter::Point {
    let row = starts.partition_point(|&s| s <= byte).saturating_sub(1);
    let col = byte - starts.get(row).copied().unwrap_or(0);
    tree_sitter::Point::new(row, col)
}

/// Code text with its layout dropped (whitespace only between two word characters, as
/// one space: `not x`, `a is None` keep theirs) and outer parentheses removed.
pub fn normalize(code: &str) -> String {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut s = String::with_capacity(code.len());
    let mut gap = false;
    for c in code.chars() {
        if c.is_whitespace() {
            gap = true;
            continue;
        }
        if gap && word(c) && s.chars().last().is_some_and(word) {
            s.push(' ');
        }
        gap = false;
        s.push(c);
    }
    while s.starts_with('(') && s.ends_with(')') && balanced(&s[1..s.len() - 1]) {
        s = s[1..s.len() - 1].to_string();
    }
    s
}

fn balanced(s: &str) -> bool {
    let mut depth = 0i32;
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

fn read(grammar: Grammar, tree: &Tree, text: &str, ranges: Option<&[Range<usize>]>) -> Outline {
    let mut items = Vec::new();
    let mut conditions = Vec::new();
    let mut exits = Vec::new();
    let mut lists = Vec::new();
    let mut arms = Vec::new();
    let walk = Walk::new(tree.root_node(), ranges);
    let mut names = ByKind::default();
    for (i, &node) in walk.all.iter().enumerate() {
        let kind = names.of(node, |k| k);
        match kinds::role(grammar, node, kind, text, &|n| walk.parent_of(i, n)) {
            Some(Role::Item { kind, name, params }) => items.push(Item {
                kind,
                name: excerpt(text_of(name, text)),
                path: String::new(),
                start: line_of(node),
                end: node.end_position().row as u32 + 1,
                params: params.map(|p| param_names(p, text)).unwrap_or_default(),
                bytes: (node.start_byte(), node.end_byte()),
            }),
            Some(Role::Condition(c)) => conditions.push(c),
            Some(Role::Exit(kind)) => exits.push((node, kind)),
            Some(Role::List) => lists.push(node),
            Some(Role::Arm(pattern)) => arms.push(pattern),
            None => {}
        }
    }
    // Ranges that share an item or a fact capture it once each.
    items.sort_by_key(|it| (it.bytes.0, std::cmp::Reverse(it.bytes.1)));
    items.dedup_by(|a, b| a.bytes == b.bytes);
    for nodes in [&mut conditions, &mut lists, &mut arms] {
        nodes.sort_by_key(|n: &Node| (n.start_byte(), n.end_byte()));
        nodes.dedup();
    }
    exits.sort_by_key(|(n, _): &(Node, ExitKind)| (n.start_byte(), n.end_byte()));
    exits.dedup_by(|a, b| a.0 == b.0);
    name_paths(&mut items);
    let within = |node: Node| innermost(&items, node.start_byte());
    let mut out = Outline {
        conditions: conditions
            .into_iter()
            .map(|n| Mark {
                item: within(n),
                line: line_of(n),
                // The `if`/`while` (or match arm) the condition belongs to.
                end: n
                    .parent()
                    .map_or(line_of(n), |p| p.end_position().row as u32 + 1),
                text: normalize(text_of(n, text)),
                bytes: n.byte_range(),
            })
            .collect(),
        exits: exits
            .into_iter()
            .map(|(n, kind)| Exit {
                item: within(n),
                line: line_of(n),
                kind,
                text: excerpt(text_of(n, text)),
                key: normalize(text_of(n, text)),
                shape: shape_of(text_of(n, text)),
                bytes: n.byte_range(),
            })
            .collect(),
        ..Outline::default()
    };
    // The queries capture only lists that are a constant's value; their elements count.
    for list in lists {
        let item = within(list);
        if !item.is_some_and(|i| items[i].kind == ItemKind::Constant) {
            continue;
        }
        let mut walk = list.walk();
        for el in list.named_children(&mut walk) {
            if el.kind().contains("comment") {
                continue;
            }
            out.elements.push(Mark {
                item,
                line: line_of(el),
                end: line_of(el),
                text: excerpt(text_of(el, text)),
                bytes: el.byte_range(),
            });
        }
    }
    for arm in arms {
        if let Some(item) = within(arm) {
            out.elements.push(Mark {
                item: Some(item),
                line: line_of(arm),
                end: line_of(arm),
                text: excerpt(text_of(arm, text)),
                // The arm, not its pattern: the arm is what moves.
                bytes: arm.parent().map_or(arm.byte_range(), |a| a.byte_range()),
            });
        }
    }
    out.test_macros = items
        .iter()
        .filter(|it| it.kind == ItemKind::Macro)
        .filter(|it| {
            let body = &text[it.bytes.0..it.bytes.1];
            let squeezed: String = body.chars().filter(|c| !c.is_whitespace()).collect();
            squeezed.contains("#[test]") || squeezed.contains("::test]")
        })
        .map(|it| it.name.clone())
        .collect();
    out.items = items;
    out
}

/// The innermost item whose byte span holds `at` (items sorted by start, outer first).
fn innermost(items: &[Item], at: usize) -> Option<usize> {
    let last = items.partition_point(|it| it.bytes.0 <= at);
    (0..last).rev().find(|&i| items[i].bytes.1 > at)
}

/// Each item's path: the enclosing items' names and its own, joined by `::`.
fn name_paths(items: &mut [Item]) {
    for i in 0..items.len() {
        let at = items[i].bytes.0;
        let mut chain = vec![items[i].name.clone()];
        let mut limit = i;
        while let Some(p) = innermost(&items[..limit], at) {
            chain.push(items[p].name.clone());
            limit = p;
        }
        chain.reverse();
        items[i].path = chain.join("::");
    }
}

/// The names a parameter list declares: the first identifier of each parameter.
fn param_names(params: Node, text: &str) -> Vec<String> {
    let mut walk = params.walk();
    params
        .named_children(&mut walk)
        .filter(|p| !p.kind().contains("comment"))
        .filter_map(|p| {
            if matches!(p.kind(), "identifier" | "self_parameter") {
                return Some(text_of(p, text).to_string());
            }
            // Java: the declared name, not an annotation before it (`@Valid Cart cart`).
            let declared = match p.kind() {
                "formal_parameter" => p.child_by_field_name("name"),
                "spread_parameter" => p
                    .named_children(&mut p.walk())
                    .find(|c| c.kind() == "variable_declarator")
                    .and_then(|d| d.child_by_field_name("name")),
                _ => None,
            };
            if let Some(name) = declared {
                return Some(text_of(name, text).to_string());
            }
            first_identifier(p).map(|n| text_of(n, text).to_string())
        })
        .collect()
}

fn first_identifier(node: Node) -> Option<Node> {
    if node.kind() == "identifier" {
        return Some(node);
    }
    let mut walk = node.walk();
    let children: Vec<Node> = node.named_children(&mut walk).collect();
    children.into_iter().find_map(first_identifier)
}

#[cfg(test)]
mod tests;
