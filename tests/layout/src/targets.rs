//! Test targets: each crate has at most one integration-test binary, and every file its
//! root could own is declared in it (with `autotests = false`, an undeclared file under
//! `tests/` would silently never be compiled).

use serde_json::Value;

/// The names of a `cargo metadata` package's integration-test targets.
pub fn integration_targets(package: &Value) -> Vec<String> {
    package["targets"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| {
            t["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|k| k == "test"))
        })
        .filter_map(|t| t["name"].as_str().map(str::to_string))
        .collect()
}

/// The stems of `files` (the `.rs` files directly under a crate's `tests/`, by name) that
/// the test root `root_name` does not declare with a `mod STEM;` line in `root_text`.
pub fn undeclared(root_name: &str, root_text: &str, files: &[String]) -> Vec<String> {
    files
        .iter()
        .filter(|f| f.as_str() != root_name)
        .filter_map(|f| f.strip_suffix(".rs"))
        .filter(|stem| {
            !root_text
                .lines()
                .any(|l| l.trim() == format!("mod {stem};"))
        })
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_test_kinds_are_integration_targets() {
        let package = json!({"targets": [
            {"name": "qa-x", "kind": ["bin"]},
            {"name": "qa_x", "kind": ["lib"]},
            {"name": "integration", "kind": ["test"]},
        ]});
        assert_eq!(integration_targets(&package), ["integration"]);
    }

    #[test]
    fn two_test_targets_are_both_listed() {
        let package = json!({"targets": [
            {"name": "a", "kind": ["test"]},
            {"name": "b", "kind": ["test"]},
        ]});
        assert_eq!(integration_targets(&package).len(), 2);
    }

    #[test]
    fn a_file_the_root_declares_is_not_undeclared() {
        let files = ["tests.rs".to_string(), "cli.rs".to_string()];
        assert!(undeclared("tests.rs", "mod cli;\n", &files).is_empty());
    }

    #[test]
    fn a_file_the_root_forgets_is_undeclared() {
        let files = [
            "tests.rs".to_string(),
            "cli.rs".to_string(),
            "new.rs".to_string(),
        ];
        let text = "mod cli;\n// mod new;\n";
        assert_eq!(undeclared("tests.rs", text, &files), ["new"]);
    }
}
