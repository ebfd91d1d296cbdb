//! Patterns a backtracking matcher (qa-fetch's, the browser's) can take exponential time on:
//! a repeated group that holds a repeated part (`(a+)+`, `(a*)*`), or whose alternatives
//! can start the same way (`(a|aa)+`). A heuristic for a warning, not a proof either way.
//!
//! Only an unbounded repeat (`*`, `+`, `{n,}`) of the group counts: a bounded one
//! (`(\d+\.){3}`) costs a polynomial at most. Whether alternatives overlap is judged on
//! their first character, over ASCII and the characters they name.

use std::ops::Range;

use crate::jsregex::Case;

/// What makes a pattern a risk, and the part of it that does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hazard {
    /// A repeated group holding a repeated part: `(a+)+`.
    NestedRepeat(String),
    /// A repeated group whose alternatives can start with the same character: `(a|aa)+`.
    OverlappingAlternatives(String),
}

impl Hazard {
    /// The profile's warning, in one line.
    pub fn warning(&self) -> String {
        match self {
            Hazard::NestedRepeat(part) => format!(
                "`{part}` repeats a part that is itself repeated: a backtracking matcher (qa-fetch's, the browser's) can take exponential time on text that almost matches; repeat it once (e.g. `(a+)+` as `a+`)"
            ),
            Hazard::OverlappingAlternatives(part) => format!(
                "`{part}` repeats alternatives that can match the same text: a backtracking matcher (qa-fetch's, the browser's) can take exponential time on text that almost matches; make the alternatives start differently (e.g. `(a|aa)+` as `a+`)"
            ),
        }
    }
}

/// The first hazard in `pattern` (a pattern that compiles), or None.
pub fn hazard(pattern: &str, case: Case) -> Option<Hazard> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut parser = Parser { chars, at: 0 };
    let alternatives = parser.alternatives();
    find(&alternatives, &parser.chars, case)
}

/// How often a piece may repeat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Repeat {
    Once,
    /// `?`, `{n}`, `{n,m}`.
    Bounded {
        optional: bool,
    },
    /// `*`, `+`, `{n,}`.
    Unbounded {
        optional: bool,
    },
}

impl Repeat {
    fn optional(self) -> bool {
        match self {
            Repeat::Once => false,
            Repeat::Bounded { optional } | Repeat::Unbounded { optional } => optional,
        }
    }
}

#[derive(Debug, Clone)]
enum Atom {
    Literal(char),
    Any,
    /// The text between `[` and `]`.
    Class(String),
    /// The character after `\` and what it carries (`p{L}`, `u0041`).
    Escape(String),
    Group(Vec<Vec<Piece>>),
    /// `^`, `$`, `\b`, `\B`: match no character.
    Assertion,
}

#[derive(Debug, Clone)]
struct Piece {
    atom: Atom,
    repeat: Repeat,
    /// Where the piece, with its repeat, is in the pattern (in chars).
    span: Range<usize>,
}

struct Parser {
    chars: Vec<char>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    fn eat(&mut self, text: &str) -> bool {
        let wanted: Vec<char> = text.chars().collect();
        if self.chars[self.at..].starts_with(&wanted) {
            self.at += wanted.len();
            return true;
        }
        false
    }

    /// Alternatives up to an unmatched `)` or the end.
    fn alternatives(&mut self) -> Vec<Vec<Piece>> {
        let mut alternatives = vec![Vec::new()];
        while let Some(c) = self.peek() {
            match c {
                ')' => break,
                '|' => {
                    self.at += 1;
                    alternatives.push(Vec::new());
                }
                _ => {
                    let piece = self.piece();
                    alternatives.last_mut().expect("one at least").push(piece);
                }
            }
        }
        alternatives
    }

    fn piece(&mut self) -> Piece {
        let start = self.at;
        let atom = self.atom();
        let repeat = match atom {
            Atom::Assertion => Repeat::Once,
            _ => self.repeat(),
        };
        Piece {
            atom,
            repeat,
            span: start..self.at,
        }
    }

    fn atom(&mut self) -> Atom {
        match self.next() {
            Some('(') => {
                // Lookarounds and named groups are groups too; only their opening differs.
                if self.eat("?<") {
                    if !self.eat("=") && !self.eat("!") {
                        self.until('>');
                    }
                } else {
                    let _ = self.eat("?:") || self.eat("?=") || self.eat("?!");
                }
                let inner = self.alternatives();
                self.eat(")");
                Atom::Group(inner)
            }
            Some('[') => {
                let start = self.at;
                // `]` right after `[` or `[^` closes an empty class in JavaScript.
                while let Some(c) = self.next() {
                    match c {
                        '\\' => {
                            self.next();
                        }
                        ']' => break,
                        _ => {}
                    }
                }
                let end = self.at.saturating_sub(1).max(start);
                Atom::Class(self.chars[start..end].iter().collect())
            }
            Some('\\') => {
                let mut escape: String = self.next().into_iter().collect();
                match escape.as_str() {
                    "b" | "B" => return Atom::Assertion,
                    "p" | "P" | "u" if self.peek() == Some('{') => {
                        escape.push_str(&self.until('}'))
                    }
                    "k" if self.peek() == Some('<') => escape.push_str(&self.until('>')),
                    "u" => escape.extend(self.hex(4)),
                    "x" => escape.extend(self.hex(2)),
                    "c" => escape.extend(self.next()),
                    _ => {}
                }
                Atom::Escape(escape)
            }
            Some('.') => Atom::Any,
            Some('^' | '$') => Atom::Assertion,
            Some(c) => Atom::Literal(c),
            None => Atom::Assertion,
        }
    }

    /// Everything up to and including `close`.
    fn until(&mut self, close: char) -> String {
        let mut text = String::new();
        while let Some(c) = self.next() {
            text.push(c);
            if c == close {
                break;
            }
        }
        text
    }

    fn hex(&mut self, most: usize) -> Vec<char> {
        let mut digits = Vec::new();
        while digits.len() < most && self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
            digits.extend(self.next());
        }
        digits
    }

    fn repeat(&mut self) -> Repeat {
        let repeat = match self.peek() {
            Some('*') => Repeat::Unbounded { optional: true },
            Some('+') => Repeat::Unbounded { optional: false },
            Some('?') => Repeat::Bounded { optional: true },
            Some('{') => match self.braces() {
                Some(repeat) => return self.lazy(repeat),
                None => return Repeat::Once,
            },
            _ => return Repeat::Once,
        };
        self.at += 1;
        self.lazy(repeat)
    }

    /// A trailing `?` makes a repeat lazy: the same risk.
    fn lazy(&mut self, repeat: Repeat) -> Repeat {
        self.eat("?");
        repeat
    }

    /// `{n}`, `{n,}` or `{n,m}` at the cursor (consumed), else None (a literal `{`).
    fn braces(&mut self) -> Option<Repeat> {
        let rest: String = self.chars[self.at..].iter().collect();
        let close = rest.find('}')?;
        let inside = &rest[1..close];
        let (min, max) = match inside.split_once(',') {
            Some((min, max)) => (min, Some(max)),
            None => (inside, None),
        };
        let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
        if !digits(min) || max.is_some_and(|m| !m.is_empty() && !digits(m)) {
            return None;
        }
        self.at += rest[..=close].chars().count();
        let optional = min.trim_start_matches('0').is_empty();
        Some(match max {
            Some("") => Repeat::Unbounded { optional },
            _ => Repeat::Bounded { optional },
        })
    }
}

fn find(alternatives: &[Vec<Piece>], chars: &[char], case: Case) -> Option<Hazard> {
    for piece in alternatives.iter().flatten() {
        let Atom::Group(inner) = &piece.atom else {
            continue;
        };
        if matches!(piece.repeat, Repeat::Unbounded { .. }) {
            let part: String = chars[piece.span.clone()].iter().collect();
            if inner.iter().flatten().any(repeats) {
                return Some(Hazard::NestedRepeat(part));
            }
            if overlapping(inner, case) {
                return Some(Hazard::OverlappingAlternatives(part));
            }
        }
        if let Some(hazard) = find(inner, chars, case) {
            return Some(hazard);
        }
    }
    None
}

/// True when the piece, or a piece inside it, repeats without bound.
fn repeats(piece: &Piece) -> bool {
    matches!(piece.repeat, Repeat::Unbounded { .. })
        || matches!(&piece.atom, Atom::Group(inner) if inner.iter().flatten().any(repeats))
}

/// True when two of the alternatives can start with the same character (or both match
/// nothing at all).
fn overlapping(alternatives: &[Vec<Piece>], case: Case) -> bool {
    let firsts: Vec<(Vec<&Atom>, bool)> = alternatives.iter().map(|a| first(a)).collect();
    firsts.iter().enumerate().any(|(i, (a, a_empty))| {
        firsts[i + 1..].iter().any(|(b, b_empty)| {
            (*a_empty && *b_empty)
                || a.iter()
                    .any(|x| b.iter().any(|y| share_a_character(x, y, case)))
        })
    })
}

/// The atoms an alternative can start with, and whether it can match the empty string.
fn first(pieces: &[Piece]) -> (Vec<&Atom>, bool) {
    let mut atoms = Vec::new();
    for piece in pieces {
        let optional = match &piece.atom {
            Atom::Assertion => continue,
            Atom::Group(inner) => {
                let mut empty = false;
                for alternative in inner {
                    let (inner_atoms, inner_empty) = first(alternative);
                    atoms.extend(inner_atoms);
                    empty |= inner_empty;
                }
                empty || piece.repeat.optional()
            }
            atom => {
                atoms.push(atom);
                piece.repeat.optional()
            }
        };
        if !optional {
            return (atoms, false);
        }
    }
    (atoms, true)
}

/// True when some character can start both atoms (tried over ASCII and the characters the
/// atoms name).
fn share_a_character(a: &Atom, b: &Atom, case: Case) -> bool {
    let named = [a, b].into_iter().filter_map(|atom| match atom {
        Atom::Literal(c) => Some(*c),
        _ => None,
    });
    (0u8..128)
        .map(char::from)
        .chain(named)
        .any(|c| starts(a, c, case) && starts(b, c, case))
}

/// True when `atom` can match the character `c`; unknown forms count as matching.
fn starts(atom: &Atom, c: char, case: Case) -> bool {
    let variants = match case {
        Case::Sensitive => vec![c],
        Case::Insensitive => vec![c.to_ascii_lowercase(), c.to_ascii_uppercase()],
    };
    variants.into_iter().any(|c| match atom {
        Atom::Literal(l) => *l == c,
        Atom::Any => c != '\n' && c != '\r',
        Atom::Class(text) => in_class(text, c),
        Atom::Escape(e) => escape_matches(e, c).unwrap_or(true),
        Atom::Group(_) | Atom::Assertion => false,
    })
}

/// Whether the class `[text]` matches `c`.
fn in_class(text: &str, c: char) -> bool {
    let (negated, body) = match text.strip_prefix('^') {
        Some(body) => (true, body),
        None => (false, text),
    };
    let items: Vec<char> = body.chars().collect();
    let mut found = false;
    let mut i = 0;
    while i < items.len() {
        let (low, next) = class_char(&items, i);
        let Some(low) = low else {
            // An escape that stands for a set (`\d`, `\p{L}`).
            let escape: String = items[i + 1..next].iter().collect();
            found |= escape_matches(&escape, c).unwrap_or(true);
            i = next;
            continue;
        };
        if items.get(next) == Some(&'-') && next + 1 < items.len() {
            if let (Some(high), after) = class_char(&items, next + 1) {
                found |= (low..=high).contains(&c);
                i = after;
                continue;
            }
        }
        found |= low == c;
        i = next;
    }
    found != negated
}

/// The character at `items[i]` (an escape standing for one character resolved) and the
/// index after it; None for an escape that stands for a set.
fn class_char(items: &[char], i: usize) -> (Option<char>, usize) {
    if items[i] != '\\' {
        return (Some(items[i]), i + 1);
    }
    let Some(&e) = items.get(i + 1) else {
        return (Some('\\'), i + 1);
    };
    match e {
        'd' | 'D' | 'w' | 'W' | 's' | 'S' => (None, i + 2),
        'p' | 'P' => {
            let close = items[i..]
                .iter()
                .position(|&c| c == '}')
                .map_or(items.len(), |p| i + p + 1);
            (None, close)
        }
        'n' => (Some('\n'), i + 2),
        't' => (Some('\t'), i + 2),
        'r' => (Some('\r'), i + 2),
        other => (Some(other), i + 2),
    }
}

/// Whether the escape `\e` matches `c`; None when it is not understood here.
fn escape_matches(escape: &str, c: char) -> Option<bool> {
    let mut chars = escape.chars();
    let first = chars.next()?;
    if chars.next().is_some() {
        return None; // \p{L}, \u0041, \k<name>, ...
    }
    Some(match first {
        'd' => c.is_ascii_digit(),
        'D' => !c.is_ascii_digit(),
        'w' => c.is_ascii_alphanumeric() || c == '_',
        'W' => !(c.is_ascii_alphanumeric() || c == '_'),
        's' => c.is_whitespace(),
        'S' => !c.is_whitespace(),
        'n' => c == '\n',
        't' => c == '\t',
        'r' => c == '\r',
        '0'..='9' => return None, // a backreference
        other if other.is_ascii_alphabetic() => return None,
        other => c == other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warned(pattern: &str) -> Option<Hazard> {
        hazard(pattern, Case::Sensitive)
    }

    #[test]
    fn a_repeated_group_holding_a_repeat_is_a_nested_repeat() {
        for (pattern, part) in [
            ("(a+)+$", "(a+)+"),
            ("(a*)*", "(a*)*"),
            ("^(\\w+\\s?)*$", "(\\w+\\s?)*"),
            ("(?:x+x+)+y", "(?:x+x+)+"),
            ("((ab)*c)+", "((ab)*c)+"),
            ("(a{1,})+", "(a{1,})+"),
            ("(?<n>a+){2,}", "(?<n>a+){2,}"),
            ("(a+)+?", "(a+)+?"),
            ("v=((\\d+)+)", "(\\d+)+"),
        ] {
            assert_eq!(
                warned(pattern),
                Some(Hazard::NestedRepeat(part.to_string())),
                "{pattern}"
            );
        }
    }

    #[test]
    fn repeated_alternatives_that_start_alike_overlap() {
        for (pattern, part) in [
            ("(a|aa)+", "(a|aa)+"),
            ("(?:ab|a)*c", "(?:ab|a)*"),
            ("(\\d|[0-9a-f])+", "(\\d|[0-9a-f])+"),
            ("(.|x)+", "(.|x)+"),
            ("(?:b?a|a)+", "(?:b?a|a)+"),
        ] {
            assert_eq!(
                warned(pattern),
                Some(Hazard::OverlappingAlternatives(part.to_string())),
                "{pattern}"
            );
        }
    }

    #[test]
    fn case_insensitive_alternatives_overlap_across_case() {
        assert!(hazard("(A|b)+", Case::Insensitive).is_none());
        assert!(hazard("(a|Ab)+", Case::Insensitive).is_some());
        assert!(hazard("(a|Ab)+", Case::Sensitive).is_none());
    }

    #[test]
    fn safe_patterns_are_not_warned_about() {
        for pattern in [
            r"assets/index-([A-Za-z0-9_-]+)\.js",
            r"(?<sha>[0-9a-f]{40})",
            r#""commit":\s*"([0-9a-f]{7,40})""#,
            "(ab)+",
            "(GET|POST)+",
            "(a|b)+",
            r"(?:\s|,)+",
            r"(?:[a-z]|\d)+",
            r"(\d+\.){3}\d+",
            r"\(a+\)+",
            "[(a+)+]",
            r"^/api/(?!read)",
            "^Wipe$",
            r"(?<=v=)\w+",
            r"\p{L}+",
            "a{2}",
            "x{,5}",
            "(a+)?",
        ] {
            assert_eq!(warned(pattern), None, "{pattern}");
        }
    }

    #[test]
    fn the_warning_names_the_part_in_one_line() {
        let warning = warned("^v(a+)+$").unwrap().warning();
        assert!(warning.starts_with("`(a+)+` repeats a part"), "{warning}");
        assert!(!warning.contains('\n'));
    }
}
