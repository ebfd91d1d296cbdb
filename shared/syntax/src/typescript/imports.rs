//! TypeScript and JavaScript imports from a tree of the statements around the import
//! keywords that stand in code: a lexer (strings, template literals with `${}` nesting,
//! comments, regular expression literals) finds `import`, `export` and `require` outside
//! literals and comments, and the lines of the bracket-balanced statement around each
//! are parsed together as one text; the tree decides what they mean.

use super::TypeScript;
use crate::reading::{Import, Reader};
use crate::walk::descend;
use crate::{read_ranges, Grammar};
use std::ops::Range;

/// The imports of a TypeScript or JavaScript file, in the order they stand, at any depth
/// (a dynamic `import()` or a `require` in a function too). The text only chooses which
/// lines are parsed; every import is a node of the tree. When the lexer is unsure where
/// a statement ends, or the chosen lines' tree has an error, the whole file is parsed.
pub fn read(grammar: Grammar, text: &str) -> Vec<Import> {
    let ranges = match statements(text) {
        Some(ranges) if ranges.is_empty() => return Vec::new(),
        Some(ranges) => ranges,
        None => std::iter::once(0..text.len()).collect(),
    };
    read_ranges(grammar, text, &ranges, |tree| {
        let mut out = Vec::new();
        descend(tree.root_node(), |node| {
            !TypeScript.imports(node, text, &mut out)
        });
        out
    })
    .unwrap_or_default()
}

/// The words an import can start with, as the lexer meets them in code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keyword {
    Import,
    Export,
    Require,
}

/// The lines to parse: for each import keyword in code that opens an import (not
/// `import.meta`, not `export const`, not `x.require`), the whole lines of the statement
/// around it, merged where they touch. None when they cannot be told (brackets that do
/// not balance around a keyword): then the whole file is parsed.
fn statements(text: &str) -> Option<Vec<Range<usize>>> {
    let bytes = text.as_bytes();
    // Lexing stops after the last keyword: most files hold none after their head.
    let last = ["import", "export", "require"]
        .iter()
        .filter_map(|word| memchr::memmem::rfind(bytes, word.as_bytes()).map(|at| at + word.len()))
        .max();
    let Some(last) = last else {
        return Some(Vec::new());
    };
    let lexed = lex(bytes, last);
    let mut ranges: Vec<Range<usize>> = Vec::new();
    for &(at, keyword) in &lexed.keywords {
        if !opens_import(bytes, at, keyword) {
            continue;
        }
        let range = statement(bytes, &lexed.brackets, at)?;
        match ranges.last_mut() {
            Some(previous) if previous.end >= range.start => {
                previous.end = previous.end.max(range.end)
            }
            _ => ranges.push(range),
        }
    }
    Some(ranges)
}

/// True when the keyword at `at` can open an import: `import` not followed by `.`
/// (`import.meta`); `export` followed by `*`, `{` or `type`; `require` followed by `(`
/// and not after a `.` (a method of that name loads nothing the tree reads).
fn opens_import(bytes: &[u8], at: usize, keyword: Keyword) -> bool {
    let word = match keyword {
        Keyword::Import => "import",
        Keyword::Export => "export",
        Keyword::Require => "require",
    };
    let next = bytes[at + word.len()..]
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .map(|n| &bytes[at + word.len() + n..]);
    let Some(next) = next else {
        return false;
    };
    match keyword {
        Keyword::Import => next[0] != b'.',
        Keyword::Export => {
            matches!(next[0], b'*' | b'{')
                || next.starts_with(b"type") && next.get(4).is_some_and(u8::is_ascii_whitespace)
        }
        Keyword::Require => {
            let before = bytes[..at].iter().rev().find(|b| !b.is_ascii_whitespace());
            next[0] == b'(' && before != Some(&b'.')
        }
    }
}

/// What the lexer found before its stop: the import keywords in code, and every bracket
/// in code with the depth after it.
#[derive(Debug, Default)]
struct Lexed {
    keywords: Vec<(usize, Keyword)>,
    brackets: Vec<(usize, i32)>,
}

/// Lexes `bytes` up to `stop` and on to the first line end where no bracket is open
/// (the statement of the last keyword ends there at the latest). Strings and regular expression literals end at a line's end at the latest, so a wrong
/// guess between a regular expression and a division spoils one line only.
fn lex(bytes: &[u8], stop: usize) -> Lexed {
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
    let mut i = 0;
    while i < bytes.len() {
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
                i = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n);
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = memchr::memmem::find(&bytes[i + 2..], b"*/").map_or(bytes.len(), |n| i + n + 4);
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
            b'i' | b'e' | b'r' if !bytes.get(i.wrapping_sub(1)).is_some_and(|&p| word(p)) => {
                let end = i + bytes[i..]
                    .iter()
                    .position(|&c| !word(c))
                    .unwrap_or(bytes.len() - i);
                let keyword = match &bytes[i..end] {
                    b"import" => Some(Keyword::Import),
                    b"export" => Some(Keyword::Export),
                    b"require" => Some(Keyword::Require),
                    _ => None,
                };
                // A property named so (`x.import`, `x.require`) is no keyword.
                if let Some(keyword) = keyword.filter(|_| i == 0 || bytes[i - 1] != b'.') {
                    lexed.keywords.push((i, keyword));
                }
                (previous, previous_at, i) = (bytes[end - 1], end - 1, end);
                continue;
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
fn statement(bytes: &[u8], brackets: &[(usize, i32)], at: usize) -> Option<Range<usize>> {
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
            if depth == base && !continues_after(bytes, line_end) {
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
        if let Some(end) = end.filter(|_| !continues_before(bytes, start)) {
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
fn continues_after(bytes: &[u8], end: usize) -> bool {
    let before = bytes[..end].iter().rev().find(|b| !b.is_ascii_whitespace());
    let after = bytes[end..].iter().find(|b| !b.is_ascii_whitespace());
    before.is_some_and(|&b| ends_incomplete(b))
        || after
            .is_some_and(|&b| goes_on(b) || matches!(b, b'(' | b'[' | b'`' | b'-' | b'<' | b'>'))
}

/// True when the line before `start` leaves its statement open (ends with an operator,
/// `,` or `.`), or the line at `start` begins by going on with one (`.then(..)`).
fn continues_before(bytes: &[u8], start: usize) -> bool {
    if start == 0 {
        return false;
    }
    let first = bytes[start..].iter().find(|b| !matches!(b, b' ' | b'\t'));
    let before = bytes[..start]
        .iter()
        .rev()
        .find(|b| !b.is_ascii_whitespace());
    before.is_some_and(|&b| ends_incomplete(b)) || first.is_some_and(|&b| goes_on(b))
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
