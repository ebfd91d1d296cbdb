//! Regular expressions that read source code, with a word class that keeps each compiled
//! automaton small: a Unicode `\w` alone compiles to hundreds of states (one-pass DFAs of
//! up to 0.8 MB per pattern), while "an ASCII word character or any non-ASCII character"
//! compiles to a handful, and still reads `café` as one identifier.

use regex::Regex;

/// Compiles `pattern` with `\w` read as [`WORD`] and `\d` as `[0-9]` (and their
/// negations); `\b`, `\s`, `.` and negated classes keep their Unicode meaning. Panics on a
/// bad pattern: every caller passes a literal, and the tests compile each one.
pub fn regex(pattern: &str) -> Regex {
    Regex::new(&ascii_classes(pattern)).unwrap_or_else(|e| panic!("code pattern {pattern:?}: {e}"))
}

/// What `\w` matches in code: an ASCII letter, digit or underscore, or any non-ASCII
/// character (outside strings and comments, non-ASCII text in code is an identifier).
pub const WORD: &str = r"0-9A-Za-z_\x{80}-\x{10FFFF}";

/// `pattern` with `\w`, `\W`, `\d` and `\D` spelled as small classes. Inside a bracket class
/// `\w` and `\d` become ranges; `\W` and `\D` there are left alone (a negated Unicode class
/// inside a class still compiles, only larger).
pub fn ascii_classes(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars().peekable();
    // Depth of bracket classes (`[a[b]]` nests); a `]` right after `[` or `[^` is literal.
    let mut depth = 0usize;
    let mut class_start = false;
    while let Some(c) = chars.next() {
        let at_class_start = std::mem::take(&mut class_start);
        match c {
            '\\' => {
                let Some(next) = chars.next() else {
                    out.push(c);
                    break;
                };
                let inside = depth > 0;
                match (next, inside) {
                    ('w', false) => {
                        out.push('[');
                        out.push_str(WORD);
                        out.push(']');
                    }
                    ('w', true) => out.push_str(WORD),
                    ('W', false) => {
                        out.push_str("[^");
                        out.push_str(WORD);
                        out.push(']');
                    }
                    ('d', false) => out.push_str("[0-9]"),
                    ('d', true) => out.push_str("0-9"),
                    ('D', false) => out.push_str("[^0-9]"),
                    _ => {
                        out.push(c);
                        out.push(next);
                    }
                }
            }
            '[' => {
                // `[:word:]` inside a class is a named class, not a nested one.
                if depth > 0 && chars.peek() == Some(&':') {
                    out.push(c);
                    for n in chars.by_ref() {
                        out.push(n);
                        if n == ']' {
                            break;
                        }
                    }
                    continue;
                }
                depth += 1;
                out.push(c);
                class_start = true;
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
            }
            ']' if depth > 0 && !at_class_start => {
                depth -= 1;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_and_digit_classes_outside_a_class_become_small_classes() {
        assert_eq!(
            ascii_classes(r"\bfoo\s*\((\w+)\d\W"),
            format!(r"\bfoo\s*\(([{WORD}]+)[0-9][^{WORD}]")
        );
    }

    #[test]
    fn word_and_digit_classes_inside_a_class_become_ranges() {
        assert_eq!(ascii_classes(r"[\w.\]\)]+"), format!(r"[{WORD}.\]\)]+"));
        assert_eq!(ascii_classes(r"[^\s\d]"), r"[^\s0-9]");
    }

    #[test]
    fn escaped_backslashes_and_other_escapes_are_kept() {
        assert_eq!(ascii_classes(r"\\w\.\(\n"), r"\\w\.\(\n");
    }

    #[test]
    fn a_bracket_right_after_the_opening_one_is_literal() {
        assert_eq!(ascii_classes(r"[]\w]"), format!(r"[]{WORD}]"));
        assert_eq!(ascii_classes(r"[^]\w]"), format!(r"[^]{WORD}]"));
        assert_eq!(
            ascii_classes(r"[[:alpha:]\w]"),
            format!(r"[[:alpha:]{WORD}]")
        );
    }

    #[test]
    fn identifiers_in_any_script_are_words_and_punctuation_is_not() {
        let word = regex(r"^\w+$");
        assert!(word.is_match("max_len2"));
        assert!(word.is_match("größe"));
        assert!(!word.is_match("a-b"));
        assert!(!word.is_match("a b"));
        let assignment = regex(r"\b(\w+)\s*=\s*\d+");
        assert_eq!(&assignment.captures("let café = 42").unwrap()[1], "café");
    }

    #[test]
    fn the_word_class_compiles_to_a_fraction_of_unicode_word() {
        // The memory a pattern holds grows with its NFA; `size_limit` bounds the NFA.
        let limited = |p: &str| {
            regex::RegexBuilder::new(p)
                .size_limit(20_000)
                .build()
                .is_ok()
        };
        let pattern = r"(?m)^(?:fn|struct)[ \t]+([A-Za-z_]\w*)\s*\((\w+):\s*(\w+)";
        assert!(!limited(pattern), "Unicode \\w exceeds the limit");
        assert!(limited(&ascii_classes(pattern)));
    }
}
