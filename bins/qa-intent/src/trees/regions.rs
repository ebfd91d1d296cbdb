//! Which parts of a changed TypeScript or JavaScript file its syntax tree needs: all of
//! it but the code blocks the change does not come near (the other tests of a spec, the
//! other functions of a module). Parsing is most of qa-intent's time, and a spec file of
//! 3,000 lines often changes in one test.
//!
//! Blocks are found by indentation, then checked on the tree: a partial tree with an
//! error, or a left-out block that does not sit between two statements, is parsed whole.

use std::ops::Range;
use tree_sitter::{Node, Tree};

/// The shortest block left out: finding and checking a short one costs what parsing it
/// would.
const MIN_LINES: usize = 12;

/// Lines kept on each side of a changed run: the statements right before and after an
/// insertion, and a margin for hunks whose context the diff trimmed.
const MARGIN: usize = 2;

/// Line runs (`[start, end)`, 0-based) of `text` that the tree of a change to the
/// `changed` runs can leave out; an empty changed run marks an insertion point. Empty
/// when nothing is worth leaving out.
/// `tests` says the file may define tests: its top-level constants stay then (a test
/// may read its cases from one).
pub fn skippable(text: &str, changed: &[(usize, usize)], tests: bool) -> Vec<(usize, usize)> {
    let lines: Vec<Line> = text.split('\n').map(Line::of).collect();
    let mut skip = Vec::new();
    let near = |(start, end): (usize, usize)| {
        changed
            .iter()
            .any(|&(s, e)| s.saturating_sub(MARGIN) < end && start < e.max(s + 1) + MARGIN)
    };
    let top = if tests { Scope::File } else { Scope::Module };
    visit(&lines, 0, lines.len(), top, &near, &mut skip);
    skip
}

/// Where a run of sibling blocks stands, which decides what may be left out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// The top level of a file that may define tests: only declarations of functions,
    /// classes and types, and test calls (a constant may be a table a test reads, an
    /// import names what a test exercises).
    File,
    /// The top level of a file without tests: constants too.
    Module,
    /// The body of a `describe`: only test calls and nested groups.
    Suite,
    /// A class body: only methods.
    Class,
}

fn visit(
    lines: &[Line],
    lo: usize,
    hi: usize,
    scope: Scope,
    near: &dyn Fn((usize, usize)) -> bool,
    skip: &mut Vec<(usize, usize)>,
) {
    for (start, end) in blocks(lines, lo, hi) {
        // What the block is, from its first line of code (after comments and decorators).
        let first = (start..end)
            .map(|i| lines[i].rest)
            .find(|t| !(t.is_empty() || lead_in(t)))
            .unwrap_or("");
        if near((start, end)) {
            // A touched group: its header and closing line stay, its members are
            // blocks in turn.
            if let Some(inner) = group(first) {
                let last = (start..end).rev().find(|&i| !lines[i].blank());
                if let Some(last) = last.filter(|&l| l > start + 1) {
                    visit(lines, start + 1, last, inner, near, skip);
                }
            }
        } else if end - start >= MIN_LINES && leaves_out(scope, first) {
            skip.push((start, end));
        }
    }
}

/// Sibling blocks of lines `[lo, hi)`: each starts on a line at the run's smallest
/// indentation that does not continue the line before (a closing bracket, an operator,
/// a `.method()` chain); comments and decorators go with the block after them.
fn blocks(lines: &[Line], lo: usize, hi: usize) -> Vec<(usize, usize)> {
    let Some(level) = (lo..hi)
        .filter(|&i| !lines[i].blank())
        .map(|i| lines[i].indent)
        .min()
    else {
        return Vec::new();
    };
    let mut starts: Vec<usize> = Vec::new();
    let mut lead_in = false;
    for (i, line) in lines.iter().enumerate().take(hi).skip(lo) {
        if line.blank() || line.indent != level {
            continue;
        }
        let t = line.rest;
        if continues(t) {
            continue;
        }
        // A comment or decorator opens the block of what follows it.
        if !lead_in {
            starts.push(i);
        }
        lead_in = self::lead_in(t);
    }
    if starts.first() != Some(&lo) {
        starts.insert(0, lo);
    }
    let mut out: Vec<(usize, usize)> = starts.windows(2).map(|w| (w[0], w[1])).collect();
    if let Some(&last) = starts.last() {
        out.push((last, hi));
    }
    out
}

/// A line of the text, its indentation measured once: blocks nest, and each level reads
/// the lines of the one around it again.
#[derive(Debug, Clone, Copy)]
struct Line<'t> {
    /// Bytes of leading whitespace.
    indent: usize,
    /// The line without them.
    rest: &'t str,
}

impl<'t> Line<'t> {
    fn of(line: &'t str) -> Line<'t> {
        let rest = line.trim_start();
        Line {
            indent: line.len() - rest.len(),
            rest,
        }
    }

    /// Only whitespace (what is left after the indentation starts with none).
    fn blank(&self) -> bool {
        self.rest.is_empty()
    }
}

/// True when a line (its indentation removed) opens what follows it: a comment or a
/// decorator.
fn lead_in(t: &str) -> bool {
    t.starts_with("//") || t.starts_with("/*") || t.starts_with('@')
}

/// True when a line (its indentation removed) goes on with the statement before it.
fn continues(t: &str) -> bool {
    t.starts_with([
        '}', ')', ']', '.', '?', ':', '&', '|', '+', '-', '*', '/', '%', '=', ',', '<', '>', '`',
        '"', '\'',
    ]) && !t.starts_with("//")
        && !t.starts_with("/*")
}

/// The scope of a group's members, when `first` (a block's first line) opens one.
fn group(first: &str) -> Option<Scope> {
    if is_call(first, &["describe", "context", "suite"]) {
        return Some(Scope::Suite);
    }
    let words = skip_words(first, &["export", "default", "abstract", "declare"]);
    words.starts_with("class ").then_some(Scope::Class)
}

/// The calls that define tests or groups of them.
const TESTS: &[&str] = &[
    "it",
    "test",
    "describe",
    "context",
    "suite",
    "bench",
    "xit",
    "xtest",
    "xdescribe",
    "fit",
    "fdescribe",
];

/// The line runs (`[start, end)`, 0-based) of the test calls at the top level of `text`
/// (`describe(..)`, `it(..)`, `test.each(..)(..)`): what they define is local to their
/// callbacks, so another file that imports this one never reaches it.
pub fn test_calls(text: &str) -> Vec<(usize, usize)> {
    let lines: Vec<Line> = text.split('\n').map(Line::of).collect();
    blocks(&lines, 0, lines.len())
        .into_iter()
        .filter(|&(start, end)| {
            let first = (start..end)
                .map(|i| lines[i].rest)
                .find(|t| !(t.is_empty() || lead_in(t)));
            first.is_some_and(|t| is_call(t, TESTS))
        })
        .collect()
}

/// True when a block starting with `first` may be left out of a tree in `scope`.
fn leaves_out(scope: Scope, first: &str) -> bool {
    match scope {
        Scope::File | Scope::Module => {
            let words = skip_words(
                first,
                &["export", "default", "async", "abstract", "declare"],
            );
            let constant = ["const ", "let ", "var "]
                .iter()
                .any(|k| words.starts_with(k))
                && !words.starts_with("const enum ");
            [
                "function ",
                "function*",
                "class ",
                "interface ",
                "type ",
                "enum ",
                "const enum ",
                "namespace ",
            ]
            .iter()
            .any(|k| words.starts_with(k))
                || is_call(first, TESTS)
                || scope == Scope::Module && constant
        }
        Scope::Suite => is_call(first, TESTS),
        // A method: a name, then its parameters (`async load(`, `static get x(`), not a
        // field (`handlers = {`).
        Scope::Class => {
            let words = skip_words(
                first,
                &[
                    "public",
                    "private",
                    "protected",
                    "static",
                    "async",
                    "override",
                    "get",
                    "set",
                    "readonly",
                ],
            );
            let name_end = words
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$' || c == '#'))
                .unwrap_or(words.len());
            name_end > 0 && words[name_end..].trim_start().starts_with(['(', '<'])
        }
    }
}

/// `t` calls one of `names`, maybe through modifiers: `it(`, `test.each(`, `describe.skip(`.
fn is_call(t: &str, names: &[&str]) -> bool {
    names.iter().any(|name| {
        t.strip_prefix(name)
            .is_some_and(|rest| rest.starts_with('(') || rest.starts_with('.'))
    })
}

/// `t` without the leading `words`, each followed by a space, in any order.
fn skip_words<'t>(mut t: &'t str, words: &[&str]) -> &'t str {
    while let Some(rest) = words
        .iter()
        .find_map(|w| t.strip_prefix(w).and_then(|r| r.strip_prefix(' ')))
    {
        t = rest.trim_start();
    }
    t
}

/// The byte ranges of `text` (line starts `starts`) left after leaving out the line runs
/// `skip`, as tree-sitter reads them.
pub fn included(text: &str, starts: &[usize], skip: &[(usize, usize)]) -> Vec<tree_sitter::Range> {
    let at = |line: usize| starts.get(line).copied().unwrap_or(text.len());
    let mut out = Vec::with_capacity(skip.len() + 1);
    let mut from = 0;
    for &(start, end) in skip {
        out.push(range(starts, from, at(start)));
        from = at(end);
    }
    out.push(range(starts, from, text.len()));
    out.retain(|r| r.end_byte > r.start_byte);
    out
}

fn range(starts: &[usize], start: usize, end: usize) -> tree_sitter::Range {
    tree_sitter::Range {
        start_byte: start,
        end_byte: end,
        start_point: super::point(starts, start),
        end_point: super::point(starts, end),
    }
}

/// True when a tree parsed without the byte runs `gaps` can stand for the whole file's:
/// no syntax error, and each gap sits between two statements of a file, a block or a
/// class body (never inside a string, a comment or an expression).
pub fn sound(tree: &Tree, gaps: &[Range<usize>]) -> bool {
    let root = tree.root_node();
    !root.has_error() && gaps.iter().all(|gap| between_statements(root, gap))
}

fn between_statements(root: Node, gap: &Range<usize>) -> bool {
    let Some(around) = root.descendant_for_byte_range(gap.start, gap.end) else {
        return false;
    };
    // The smallest node holding the gap must be a list of statements or members, and
    // none of its children may reach into the gap: the children stand in order, so the
    // first one that ends after the gap's start must begin at its end or later (a file of
    // many blocks left out would otherwise walk all its statements once per gap).
    matches!(around.kind(), "program" | "statement_block" | "class_body")
        && around
            .first_child_for_byte(gap.start)
            .is_none_or(|c| c.start_byte() >= gap.end)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A test call of `body` lines, indented by `indent`.
    fn test_block(indent: &str, title: &str, body: usize) -> String {
        let mut s = format!("{indent}it('{title}', () => {{\n");
        for i in 0..body {
            s.push_str(&format!("{indent}  expect(f({i})).toBe({i})\n"));
        }
        s.push_str(&format!("{indent}}})\n"));
        s
    }

    /// A spec: an import, a table, then `describe` holding a `beforeEach` and three tests
    /// of 14 lines each (lines: describe at 3, tests at 5, 19 and 33).
    fn spec() -> String {
        let mut s = String::from("import { f } from '../src/f'\nconst rows = [1, 2]\n\n");
        s.push_str("describe('f', () => {\n  beforeEach(() => reset())\n");
        for title in ["one", "two", "three"] {
            s.push_str(&test_block("  ", title, 12));
        }
        s.push_str("})\n");
        s
    }

    #[test]
    fn the_other_tests_of_a_changed_describe_are_left_out() {
        // A change inside the second test (line 25, 0-based 24).
        assert_eq!(skippable(&spec(), &[(24, 25)], true), [(5, 19), (33, 47)]);
    }

    #[test]
    fn a_test_next_to_the_change_is_kept() {
        // An insertion right after the first test's closing line keeps both neighbours.
        let skip = skippable(&spec(), &[(19, 19)], true);
        assert_eq!(skip, [(33, 47)]);
    }

    #[test]
    fn nothing_is_left_out_of_a_file_changed_at_its_top_level() {
        // The import changed: `describe` is a test group far away, left out whole.
        // (To the end of the text: the empty line after its last newline.)
        assert_eq!(skippable(&spec(), &[(0, 1)], true), [(3, 49)]);
        // Short blocks stay: nothing here is 12 lines long.
        let short = "function a() {\n  return 1\n}\nfunction b() {\n  return 2\n}\n";
        assert!(skippable(short, &[(4, 5)], false).is_empty());
    }

    #[test]
    fn constants_and_setup_stay_however_long_and_far() {
        let mut s = String::from("const table = [\n");
        for i in 0..20 {
            s.push_str(&format!("  [{i}, {i}],\n"));
        }
        s.push_str("]\n");
        let changed_at = s.lines().count() + 2;
        s.push_str(&test_block("", "uses the table", 3));
        assert!(skippable(&s, &[(changed_at, changed_at + 1)], true).is_empty());
    }

    #[test]
    fn a_module_without_tests_leaves_out_far_constants_and_types_too() {
        let mut s = String::from("export const TABLE = {\n");
        for i in 0..14 {
            s.push_str(&format!("  k{i}: {i},\n"));
        }
        s.push_str("}\nexport interface Shape {\n");
        for i in 0..14 {
            s.push_str(&format!("  f{i}: number\n"));
        }
        s.push_str("}\n\nexport function changed() {\n  a()\n  b()\n  return 1\n}\n");
        let changed = s.lines().position(|l| l.contains("return 1")).unwrap();
        let run = [(changed, changed + 1)];
        assert_eq!(skippable(&s, &run, false), [(0, 16), (16, 33)]);
        // With tests in the file, the constant may be their table: only the type goes.
        assert_eq!(skippable(&s, &run, true), [(16, 33)]);
    }

    #[test]
    fn methods_far_from_the_change_are_left_out_and_fields_kept() {
        let mut s = String::from("export class Cart {\n  handlers = {\n");
        for i in 0..14 {
            s.push_str(&format!("    h{i}: () => {i},\n"));
        }
        s.push_str("  }\n  total() {\n");
        for i in 0..14 {
            s.push_str(&format!("    sum += {i}\n"));
        }
        s.push_str("  }\n  size() {\n    return 0\n  }\n  save(id) {\n    return id\n  }\n}\n");
        let save = s.lines().position(|l| l.contains("save(id)")).unwrap();
        let total = s.lines().position(|l| l.contains("total()")).unwrap();
        assert_eq!(
            skippable(&s, &[(save + 1, save + 2)], false),
            [(total, total + 16)]
        );
    }

    #[test]
    fn a_comment_or_decorator_goes_with_the_block_after_it() {
        let mut s = String::from("// helpers\n");
        s.push_str(&test_block("", "far", 12));
        s.push_str("// the changed one\n");
        s.push_str(&test_block("", "near", 2));
        let near = s.lines().position(|l| l.contains("'near'")).unwrap();
        // The first comment leaves with the far test; the second stays with the near one.
        assert_eq!(skippable(&s, &[(near + 1, near + 2)], true), [(0, 15)]);
    }

    #[test]
    fn the_top_level_test_calls_of_a_file_are_its_describe_and_it_blocks() {
        let helper = "export function expectF(x: number) {\n  expect(f(x)).toBe(x)\n}\n";
        let text = format!("{}{helper}{}", spec(), test_block("", "alone", 2));
        // `describe` (lines 3-47 with its closing line), the lone `it` after the helper
        // (lines 48-50).
        let lines = text.split('\n').count();
        assert_eq!(test_calls(&text), [(3, 48), (51, lines)]);
        // Control: the import, the table and the exported helper are no test call.
        assert!(test_calls(helper).is_empty());
        assert!(test_calls("import { f } from '../src/f'\nconst rows = [1, 2]\n").is_empty());
    }
}
