//! What Java and Kotlin tests share: the JUnit annotations, string literals, and how an
//! equality assertion reads once its sides are known.

use tree_sitter::Node;

use super::Expectation;
use crate::text_of;

/// Annotations that make a method a test (JUnit 4/5, TestNG, kotlin.test).
pub(super) const TEST_ANNOTATIONS: &[&str] = &[
    "Test",
    "ParameterizedTest",
    "RepeatedTest",
    "TestFactory",
    "TestTemplate",
];

/// Annotations that disable a test or all tests of a class.
pub(super) const SKIP_ANNOTATIONS: &[&str] = &["Disabled", "Ignore"];

/// The text inside a string literal's quotes (a text block's or raw string's too).
pub(super) fn string_content(node: Node, text: &str) -> String {
    let t = text_of(node, text);
    let t = t
        .strip_prefix("\"\"\"")
        .and_then(|t| t.strip_suffix("\"\"\""))
        .or_else(|| t.strip_prefix('"').and_then(|t| t.strip_suffix('"')))
        .unwrap_or(t);
    t.to_string()
}

/// One side of an equality assertion: its code, and its literal with the literal's line.
pub(super) struct Side {
    pub code: String,
    pub literal: Option<(String, u32)>,
}

/// `assertEquals(expected, actual)` (or `assertNotEquals`): the literal side is the
/// expected value wherever it stands (a literal on the actual side means the arguments
/// were swapped); with no literal, the two codes are compared.
pub(super) fn equality(expected: Side, actual: Side, negated: bool, line: u32) -> Expectation {
    let words = if negated { "is not" } else { "is" };
    match (expected.literal, actual.literal) {
        (Some((v, l)), _) => Expectation {
            line: l,
            text: format!("`{}` {words} {v}", actual.code),
        },
        (None, Some((v, l))) => Expectation {
            line: l,
            text: format!("`{}` {words} {v}", expected.code),
        },
        (None, None) => Expectation {
            line,
            text: format!(
                "`{}` {} {}",
                actual.code,
                if negated { "differs from" } else { "equals" },
                joined_code(&expected.code)
            ),
        },
    }
}

/// A condition `l == r` (`equal`) or `l != r` read as a value: `` `l` is 5 `` when one side
/// is a literal.
pub(super) fn literal_comparison(l: Side, r: Side, equal: bool) -> Option<String> {
    let words = if equal { "is" } else { "is not" };
    if let Some((v, _)) = r.literal {
        return Some(format!("`{}` {words} {v}", l.code));
    }
    l.literal.map(|(v, _)| format!("`{}` {words} {v}", r.code))
}

/// A string literal as a reader should see it: one that escapes quotes (`"\"NEW\""`,
/// `"{\"a\":1}"`) is shown as the text it holds (`` the text `"NEW"` ``), since its
/// escapes hide the value the test fixes; any other literal as written.
pub(super) fn shown_literal(code: &str) -> String {
    let written = super::literal(code);
    let Some(inner) = code
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .filter(|t| !t.starts_with("\"\"") && t.contains("\\\"") && !t.contains('`'))
    else {
        return written;
    };
    let mut held = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match (c, chars.clone().next()) {
            ('\\', Some(d @ ('"' | '\\'))) => {
                held.push(d);
                chars.next();
            }
            _ => held.push(c),
        }
    }
    let shown = super::literal(&held);
    match shown.ends_with('…') || shown.contains('\n') {
        true => written,
        false => format!("the text `{shown}`"),
    }
}

/// An expected value the test builds by joining strings (`"b" + emoji + "a"`), shown as
/// its parts: each literal as written and each other part as code (`"b"` + `emoji` +
/// `"a"`), so the literals it fixes read as values. Any other value is its code.
pub(super) fn joined_code(code: &str) -> String {
    let parts = top_level_sums(code);
    let is_literal = |p: &str| {
        (p.len() >= 2 && p.starts_with('"') && p.ends_with('"'))
            || (p.len() >= 3 && p.starts_with('\'') && p.ends_with('\''))
    };
    if parts.len() < 2 || !parts.iter().any(|p| is_literal(p)) || code.contains('…') {
        return format!("`{code}`");
    }
    parts
        .iter()
        .map(|p| match is_literal(p) {
            true => shown_literal(p),
            false => format!("`{p}`"),
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The operands of the `+` chain code is at its top level (outside strings and brackets),
/// trimmed; the whole code when it is no such chain.
fn top_level_sums(code: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quote, mut escaped, mut start) = (0i32, None, false, 0);
    for (i, c) in code.char_indices() {
        match quote {
            Some(q) => {
                if c == q && !escaped {
                    quote = None;
                }
                escaped = c == '\\' && !escaped;
            }
            None => match c {
                '"' | '\'' => quote = Some(c),
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                '+' if depth == 0 && code[..i].ends_with(' ') && code[i + 1..].starts_with(' ') => {
                    parts.push(code[start..i].trim());
                    start = i + 1;
                }
                _ => {}
            },
        }
    }
    parts.push(code[start..].trim());
    match parts.iter().any(|p| p.is_empty()) {
        true => vec![code.trim()],
        false => parts,
    }
}
