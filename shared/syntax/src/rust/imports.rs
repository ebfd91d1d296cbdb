//! Rust's imports from a tree of its `use` and `mod x;` items alone: a lexer (strings,
//! raw strings, characters and lifetimes, nested block comments) finds the keywords in
//! code, each item from its keyword to its `;` is parsed together with the others as one
//! text, and the tree decides what they mean.

use super::Rust;
use crate::reading::{Import, Reader};
use crate::walk::descend;
use crate::{read_ranges, Grammar};
use std::ops::Range;

/// The imports of a Rust file, in the order they stand, at any depth (a `use` in a
/// function or an inline module too). The text only chooses which items are parsed;
/// every import is a `use_declaration` or `mod_item` node of the tree. When an item's
/// tree has an error (a `use` in a macro's rules, or a wrong guess), the whole file is
/// parsed.
pub fn read(text: &str) -> Vec<Import> {
    let items = items(text.as_bytes());
    if items.is_empty() {
        return Vec::new();
    }
    read_ranges(Grammar::Rust, text, &items, |tree| {
        let mut out = Vec::new();
        descend(tree.root_node(), |node| !Rust.imports(node, text, &mut out));
        out
    })
    .unwrap_or_default()
}

/// The `use ...;` and `mod name;` items of the code, each from its keyword to the first
/// `;` after it (a `use` tree holds none; one in a comment inside it cuts the item short,
/// its tree has an error and the whole file is read).
fn items(bytes: &[u8]) -> Vec<Range<usize>> {
    let mut keywords = keywords(bytes).peekable();
    let mut items: Vec<Range<usize>> = Vec::new();
    if keywords.peek().is_none() {
        return items;
    }
    // Only quotes and slashes change what the bytes after them are: the lexer jumps from
    // one to the next, and a keyword between two jumps' stops is in code.
    let mut code = 0;
    let mut i = 0;
    while let Some(&at) = keywords.peek() {
        let special =
            memchr::memchr3(b'"', b'\'', b'/', &bytes[i..]).map_or(bytes.len(), |n| i + n);
        if at < special {
            keywords.next();
            // In code since `code`, and after the last item (a `use` tree holds none).
            let after_item = items.last().is_none_or(|item| item.end <= at);
            if at >= code && after_item {
                let end = memchr::memchr(b';', &bytes[at..]).map_or(bytes.len(), |n| at + n + 1);
                items.push(at..end);
            }
            continue;
        }
        i = match bytes[special] {
            b'"' => match raw_prefix(bytes, special) {
                Some(hashes) => raw_string_end(bytes, special + 1, hashes),
                None => string_end(bytes, special + 1),
            },
            b'\'' => quote_end(bytes, special),
            _ => match bytes.get(special + 1) {
                Some(b'/') => {
                    memchr::memchr(b'\n', &bytes[special..]).map_or(bytes.len(), |n| special + n)
                }
                Some(b'*') => block_comment_end(bytes, special + 2),
                _ => special + 1,
            },
        };
        code = i;
        // Keywords inside the literal or comment just passed are none.
        while keywords.next_if(|&k| k < i).is_some() {}
    }
    items
}

/// The offsets of the words `use` and `mod` that may open an item: not part of a longer
/// name nor after `#` (`r#use`) or `$` (a macro's variable), and a `mod` followed by a
/// name and `;` (an inline module's items are met on their own).
fn keywords(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let uses = memchr::memmem::find_iter(bytes, b"use").filter(move |&at| word_at(bytes, at, 3));
    let mods = memchr::memmem::find_iter(bytes, b"mod")
        .filter(move |&at| word_at(bytes, at, 3) && declares_file(bytes, at + 3));
    merge(uses, mods)
}

/// True when the `len` bytes at `at` are a whole word, not after `#`, `$` or `::`.
fn word_at(bytes: &[u8], at: usize, len: usize) -> bool {
    let before = at.checked_sub(1).map(|i| bytes[i]);
    !before.is_some_and(|b| ident(b) || matches!(b, b'#' | b'$' | b':'))
        && !bytes.get(at + len).is_some_and(|&b| ident(b))
}

/// Two increasing sequences as one.
fn merge(
    a: impl Iterator<Item = usize>,
    b: impl Iterator<Item = usize>,
) -> impl Iterator<Item = usize> {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    std::iter::from_fn(move || match (a.peek(), b.peek()) {
        (Some(x), Some(y)) if x <= y => a.next(),
        (Some(_), Some(_)) | (None, Some(_)) => b.next(),
        (Some(_), None) => a.next(),
        (None, None) => None,
    })
}

/// The number of `#`s of a raw string whose `"` is at `quote` (`r"`, `r#"`, `br##"`,
/// `cr"`), None for a plain, byte or C string.
fn raw_prefix(bytes: &[u8], quote: usize) -> Option<usize> {
    let hashes = bytes[..quote]
        .iter()
        .rev()
        .take_while(|&&b| b == b'#')
        .count();
    let r = quote.checked_sub(hashes + 1)?;
    if bytes[r] != b'r' {
        return None;
    }
    // `r` alone or after `b`/`c`, and not the end of a longer name (`bar"` is no string).
    let start = match r.checked_sub(1).map(|i| bytes[i]) {
        Some(b'b' | b'c') => r - 1,
        _ => r,
    };
    let before = start.checked_sub(1).map(|i| bytes[i]);
    (!before.is_some_and(ident)).then_some(hashes)
}

/// True when `mod` ending at `at` is followed by a name and `;` (a file module), not
/// a `{` (an inline one, whose items the lexer meets on its own).
fn declares_file(bytes: &[u8], at: usize) -> bool {
    let rest = &bytes[at..];
    let name = rest
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(rest.len());
    if name == 0 {
        return false;
    }
    let rest = &rest[name..];
    let after = rest.iter().position(|&c| !ident(c)).unwrap_or(rest.len());
    after > 0
        && rest[after..]
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|&b| b == b';')
}

/// A byte of an identifier (any non-ASCII byte counts: Unicode names).
fn ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// The offset past a plain (or byte, or C) string whose text starts at `from`.
fn string_end(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(n) = memchr::memchr2(b'"', b'\\', &bytes[i..]) {
        let at = i + n;
        if bytes[at] == b'"' {
            return at + 1;
        }
        i = at + 2;
        if i >= bytes.len() {
            break;
        }
    }
    bytes.len()
}

/// The offset past a raw string whose text starts at `from`, closed by `"` and `hashes`
/// `#`s (no escapes).
fn raw_string_end(bytes: &[u8], from: usize, hashes: usize) -> usize {
    let mut i = from;
    while let Some(n) = memchr::memchr(b'"', &bytes[i..]) {
        let at = i + n;
        let closing = bytes[at + 1..]
            .iter()
            .take(hashes)
            .take_while(|&&c| c == b'#');
        if closing.count() == hashes {
            return at + 1 + hashes;
        }
        i = at + 1;
    }
    bytes.len()
}

/// The offset past a block comment whose text starts at `from` (they nest).
fn block_comment_end(bytes: &[u8], from: usize) -> usize {
    let mut depth = 1;
    let mut i = from;
    while let Some(n) = memchr::memchr2(b'*', b'/', &bytes[i..]) {
        let at = i + n;
        match (bytes[at], bytes.get(at + 1)) {
            (b'*', Some(b'/')) => {
                depth -= 1;
                if depth == 0 {
                    return at + 2;
                }
                i = at + 2;
            }
            (b'/', Some(b'*')) => {
                depth += 1;
                i = at + 2;
            }
            _ => i = at + 1,
        }
    }
    bytes.len()
}

/// The offset past a character literal at `at` (`'a'`, `'\n'`, `'\u{1F600}'`, `'é'`),
/// or past the quote of a lifetime or label (`'a`, `'static`).
fn quote_end(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at + 1) {
        Some(b'\\') => {
            memchr::memchr(b'\'', &bytes[at + 3..]).map_or(bytes.len(), |n| at + 3 + n + 1)
        }
        Some(&c) => {
            // One character (up to four bytes of UTF-8), then a quote: a literal.
            let width = match c {
                0..=0x7f => 1,
                0xc0..=0xdf => 2,
                0xe0..=0xef => 3,
                _ => 4,
            };
            match bytes.get(at + 1 + width) {
                Some(b'\'') => at + 2 + width,
                _ => at + 1,
            }
        }
        None => bytes.len(),
    }
}

#[cfg(test)]
mod tests;
