//! The profile's regular expressions are JavaScript patterns (the write guard and qa-fetch
//! compile them with `new RegExp`): validity and capture groups under ECMAScript rules.

use crate::findings::Findings;

/// How a pattern is compiled: url and body patterns are case-sensitive, deny-control text
/// is matched with the `i` flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    Sensitive,
    Insensitive,
}

/// Compiles `pattern` as `new RegExp(pattern, flags)` would; Err holds why it does not.
pub fn compile(pattern: &str, case: Case) -> Result<regress::Regex, String> {
    let flags = match case {
        Case::Sensitive => "",
        Case::Insensitive => "i",
    };
    regress::Regex::with_flags(pattern, flags).map_err(|e| e.to_string())
}

/// Warns at `at` when `pattern` (if it compiles) is one a backtracking matcher can take
/// exponential time on ([`crate::backtracking`]).
pub fn warn_if_slow(at: &str, pattern: &str, case: Case, f: &mut Findings) {
    if compile(pattern, case).is_err() {
        return;
    }
    if let Some(hazard) = crate::backtracking::hazard(pattern, case) {
        f.warn(at, hazard.warning());
    }
}

/// The number of capture groups in `pattern` (named ones included), or why it does not
/// compile.
pub fn capture_groups(pattern: &str) -> Result<usize, String> {
    compile(pattern, Case::Sensitive)?;
    // `pattern|` always matches the empty string, and a match lists every group.
    let either = compile(&format!("{pattern}|"), Case::Sensitive)?;
    either
        .find("")
        .map(|m| m.captures.len())
        .ok_or_else(|| "does not compile".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_counted_with_ecmascript_rules() {
        assert_eq!(capture_groups(r"assets/index-([A-Za-z0-9_-]+)\.js"), Ok(1));
        assert_eq!(capture_groups(r"(?<sha>[0-9a-f]{40})"), Ok(1));
        assert_eq!(capture_groups(r"(?:x)(?=y)[(]"), Ok(0));
        assert_eq!(capture_groups(r"(a)(b)"), Ok(2));
    }

    #[test]
    fn javascript_only_syntax_compiles() {
        // Lookbehind, named groups and \d in classes: ECMAScript, checked by the write guard.
        for pattern in [r"(?<=v=)\w+", r"(?<n>a)\k<n>", r"[\d-]+", r"^/api/(?!read)"] {
            assert!(compile(pattern, Case::Sensitive).is_ok(), "{pattern}");
        }
    }

    #[test]
    fn broken_patterns_do_not_compile() {
        for pattern in ["(", "[", "a**", r"abc\", "(?<n>a)(?<n>b)"] {
            assert!(compile(pattern, Case::Sensitive).is_err(), "{pattern}");
        }
    }

    #[test]
    fn the_case_flag_does_not_change_validity() {
        assert!(compile("^Wipe$", Case::Insensitive).is_ok());
        assert!(compile("(", Case::Insensitive).is_err());
    }
}
