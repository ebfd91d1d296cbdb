//! The lines the change wrote in each file and each file's role, read from qa-diff's file
//! records: which changed tests the change adds rather than adapts, and which changed
//! files are tests.

use qa_records::change::Role;
use serde::Deserialize;
use std::collections::{HashMap, HashSet};

/// What qa-route reads of a file record: its path and the numbers of its `+` lines (the
/// lines' text is skipped).
#[derive(Deserialize)]
pub struct FileLines {
    path: String,
    role: Role,
    hunks: Vec<HunkLines>,
}

#[derive(Deserialize)]
struct HunkLines {
    lines: Vec<LineNumber>,
}

#[derive(Deserialize)]
struct LineNumber {
    line: u32,
    op: String,
}

/// The head line numbers the change added, by repository-relative path.
#[derive(Debug, Default)]
pub struct Added {
    lines: HashMap<String, HashSet<u32>>,
    tests: HashSet<String>,
}

impl Added {
    pub fn record(&mut self, file: FileLines) {
        if file.role == Role::Test {
            self.tests.insert(file.path.clone());
        }
        let added = file
            .hunks
            .iter()
            .flat_map(|h| &h.lines)
            .filter(|l| l.op == "+")
            .map(|l| l.line);
        self.lines.entry(file.path).or_default().extend(added);
    }

    /// True when qa-diff gave the changed file `path` the test role.
    pub fn is_test(&self, path: &str) -> bool {
        self.tests.contains(path)
    }

    /// True when the change added line `line` of `path`.
    pub fn contains(&self, path: &str, line: u32) -> bool {
        self.lines.get(path).is_some_and(|l| l.contains(&line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(json: &str) -> FileLines {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn added_lines_are_known_by_path_and_removed_ones_are_not() {
        let mut added = Added::default();
        added.record(file(
            r#"{"path": "tests/cli.rs", "role": "test", "hunks": [{"lines": [
                {"line": 9, "op": "-", "text": "fn old() {"},
                {"line": 12, "op": "+", "text": "fn new() {"}]}]}"#,
        ));
        assert!(added.contains("tests/cli.rs", 12));
        assert!(!added.contains("tests/cli.rs", 9));
        assert!(!added.contains("src/lib.rs", 12));
    }

    #[test]
    fn a_file_is_a_test_by_the_role_qa_diff_gave_it() {
        let mut added = Added::default();
        added.record(file(
            r#"{"path": "tests/cli.rs", "role": "test", "hunks": []}"#,
        ));
        added.record(file(
            r#"{"path": "src/lib.rs", "role": "product", "hunks": []}"#,
        ));
        assert!(added.is_test("tests/cli.rs"));
        assert!(!added.is_test("src/lib.rs"));
    }
}
