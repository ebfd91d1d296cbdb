//! Regular expressions that read source code: word, digit and space classes and word
//! boundaries are ASCII, which keeps each compiled automaton small (a Unicode `\w` alone
//! compiles to hundreds of states, and a Unicode `\b` keeps the fast engines out).

use regex::Regex;

/// Compiles `pattern` with ASCII `\w \d \s \b` (and their negations); everything else,
/// `.` and negated classes included, still reads any character. Panics on a bad
/// pattern: every caller passes a literal, and the tests compile each one.
pub fn regex(pattern: &str) -> Regex {
    Regex::new(&ascii_classes(pattern)).unwrap_or_else(|e| panic!("code pattern {pattern:?}: {e}"))
}

/// `pattern` with its Perl classes and word boundaries spelled as their ASCII forms.
/// Inside a bracket class `\w` becomes `[:word:]`; `\W`, `\D` and `\S` there are left
/// alone (a negated Unicode class inside a class still compiles, only larger).
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
                    ('w', false) => out.push_str("[[:word:]]"),
                    ('w', true) => out.push_str("[:word:]"),
                    ('W', false) => out.push_str("[^[:word:]]"),
                    ('d', false) => out.push_str("[0-9]"),
                    ('d', true) => out.push_str("0-9"),
                    ('D', false) => out.push_str("[^0-9]"),
                    ('s', false) => out.push_str("[[:space:]]"),
                    ('s', true) => out.push_str("[:space:]"),
                    ('S', false) => out.push_str("[^[:space:]]"),
                    ('b', false) => out.push_str("(?-u:\\b)"),
                    ('B', false) => out.push_str("(?-u:\\B)"),
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
    fn perl_classes_outside_a_class_become_ascii_classes() {
        assert_eq!(
            ascii_classes(r"\bfoo\s*\(\s*(\w+)\d"),
            r"(?-u:\b)foo[[:space:]]*\([[:space:]]*([[:word:]]+)[0-9]"
        );
    }

    #[test]
    fn perl_classes_inside_a_class_become_named_classes() {
        assert_eq!(ascii_classes(r"[\w.\]\)]+"), r"[[:word:].\]\)]+");
        assert_eq!(ascii_classes(r"[^\s\d]"), r"[^[:space:]0-9]");
    }

    #[test]
    fn escaped_backslashes_and_other_escapes_are_kept() {
        assert_eq!(ascii_classes(r"\\w\.\(\n"), r"\\w\.\(\n");
    }

    #[test]
    fn a_bracket_right_after_the_opening_one_is_literal() {
        assert_eq!(ascii_classes(r"[]\w]\w"), r"[][:word:]][[:word:]]");
        assert_eq!(ascii_classes(r"[^]\w]"), r"[^][:word:]]");
    }

    #[test]
    fn ascii_word_classes_match_code_and_not_other_scripts() {
        let word = regex(r"^\w+$");
        assert!(word.is_match("max_len2"));
        assert!(!word.is_match("größe"));
        let assignment = regex(r"\b(\w+)\s*=\s*\d+");
        assert_eq!(
            &assignment.captures("let max_len = 42").unwrap()[1],
            "max_len"
        );
    }
}
