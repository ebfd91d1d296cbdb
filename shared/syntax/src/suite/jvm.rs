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
                "`{}` {} `{}`",
                actual.code,
                if negated { "differs from" } else { "equals" },
                expected.code
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
