//! pytest: configured at the root (pytest.ini, pyproject.toml, setup.cfg, tox.ini,
//! conftest.py) or implied by changed `test_*.py` / `*_test.py` / `*_tests.py` files.

use super::{Found, Runner};
use crate::sections;
use crate::targets::{KnownTest, Targets};
use crate::tree::{base_name, Reader};
use qa_records::change::CommandScope;

/// Root files that configure pytest, with the section that must be present (None: the
/// file itself is enough).
const CONFIGS: &[(&str, Option<&str>)] = &[
    ("pytest.ini", None),
    ("pyproject.toml", Some("tool.pytest.ini_options")),
    ("setup.cfg", Some("tool:pytest")),
    ("tox.ini", Some("pytest")),
    ("conftest.py", None),
];

/// The root file that configures pytest, if any.
fn configured(reader: &mut Reader) -> Option<&'static str> {
    CONFIGS.iter().find_map(|(name, section)| {
        let file = reader.read(name)?;
        section
            .is_none_or(|s| sections::has_section(&file.text, s))
            .then_some(*name)
    })
}

/// True for pytest's default test file names and unittest's plural `*_tests.py`: pytest
/// collects any file named on its command line, whatever its `python_files` says.
fn is_test_file(path: &str) -> bool {
    let name = base_name(path);
    name.ends_with(".py")
        && (name.starts_with("test_") || name.ends_with("_test.py") || name.ends_with("_tests.py"))
}

/// The pytest node id of a changed test: `file::Class::test_name` for a method of a test
/// class (the classes read from indentation above its line), `file::test_name` otherwise.
fn node_id(reader: &mut Reader, file: &str, test: &KnownTest) -> String {
    let text = reader
        .read(file)
        .map(|f| f.text.clone())
        .unwrap_or_default();
    let mut parts = vec![file.to_string()];
    parts.extend(enclosing_classes(&text, test.line));
    parts.push(test.ident.clone());
    parts.join("::")
}

/// The classes whose bodies hold line `line` (1-based), outermost first.
fn enclosing_classes(text: &str, line: u32) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let Some(at) = (line as usize).checked_sub(1).and_then(|i| lines.get(i)) else {
        return Vec::new();
    };
    let mut indent = at.len() - at.trim_start().len();
    let mut classes = Vec::new();
    for l in lines[..line as usize - 1].iter().rev() {
        let trimmed = l.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('@') {
            continue;
        }
        let own = l.len() - trimmed.len();
        if own >= indent {
            continue;
        }
        indent = own;
        if let Some(rest) = trimmed.strip_prefix("class ") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            classes.push(name);
        }
        if own == 0 {
            break;
        }
    }
    classes.reverse();
    classes
}

pub fn discover(reader: &mut Reader, targets: &Targets, found: &mut Found) {
    let config = configured(reader);
    let test_files: Vec<&String> = targets
        .files
        .iter()
        .filter(|f| is_test_file(f) || (f.ends_with(".py") && !targets.tests_in(f).is_empty()))
        .collect();
    let Some(declared_in) = config.or(test_files.first().map(|f| f.as_str())) else {
        return;
    };
    for file in &test_files {
        let known: Vec<&KnownTest> = targets.known_in(file).collect();
        // The narrowest selection pytest has: a node id per changed test function; the
        // whole file only when no changed test is known by name.
        let (targets, scope) = match known.as_slice() {
            [] => (vec![file.to_string()], CommandScope::File),
            tests => (
                tests.iter().map(|t| node_id(reader, file, t)).collect(),
                CommandScope::ExactTest,
            ),
        };
        let words: Option<Vec<String>> = targets
            .iter()
            .map(|t| found.word(t, "a changed test", file))
            .collect();
        if let Some(words) = words {
            let run = format!("pytest {}", words.join(" "));
            found.push(Runner::Pytest, run, "", scope, declared_in);
        }
    }
    found.push(
        Runner::Pytest,
        "pytest".into(),
        "",
        CommandScope::Suite,
        declared_in,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests_support::{files, runs, scopes, tree_with, with_tests};

    #[test]
    fn a_changed_test_file_with_one_known_test_runs_that_test() {
        let (_d, tree) = tree_with(&[(
            "pyproject.toml",
            "[tool.pytest.ini_options]\naddopts = \"-q\"\n",
        )]);
        let t = with_tests(
            &["tests/test_login.py", "app/login.py"],
            &[("tests/test_login.py", "test_expired")],
        );
        assert_eq!(
            runs(&tree, &t, discover),
            [". pytest tests/test_login.py::test_expired", ". pytest"]
        );
    }

    #[test]
    fn two_known_tests_run_by_their_node_ids_not_the_whole_file() {
        let (_d, tree) = tree_with(&[("pytest.ini", "[pytest]\n")]);
        let file = "tests/login_test.py";
        let t = with_tests(&[file], &[(file, "test_a"), (file, "test_b")]);
        assert_eq!(
            runs(&tree, &t, discover),
            [
                ". pytest tests/login_test.py::test_a tests/login_test.py::test_b",
                ". pytest"
            ]
        );
        assert_eq!(scopes(&tree, &t, discover)[0], CommandScope::ExactTest);
    }

    #[test]
    fn a_changed_test_file_without_a_known_test_runs_whole_and_says_file() {
        let (_d, tree) = tree_with(&[]);
        let t = files(&["test_math.py"]);
        assert_eq!(scopes(&tree, &t, discover)[0], CommandScope::File);
    }

    #[test]
    fn configuration_alone_offers_the_suite() {
        for (file, text) in [
            ("setup.cfg", "[tool:pytest]\n"),
            ("tox.ini", "[pytest]\n"),
            ("conftest.py", ""),
        ] {
            let (_d, tree) = tree_with(&[(file, text)]);
            assert_eq!(
                runs(&tree, &files(&["app/x.py"]), discover),
                [". pytest"],
                "{file}"
            );
        }
    }

    #[test]
    fn a_pyproject_without_a_pytest_section_is_not_configuration() {
        let (_d, tree) = tree_with(&[
            ("pyproject.toml", "[project]\nname = \"x\"\n"),
            ("tox.ini", "[tox]\n"),
        ]);
        assert!(runs(&tree, &files(&["app/x.py"]), discover).is_empty());
    }

    #[test]
    fn a_changed_test_file_implies_pytest_without_configuration() {
        let (_d, tree) = tree_with(&[]);
        assert_eq!(
            runs(&tree, &files(&["test_math.py"]), discover),
            [". pytest test_math.py", ". pytest"]
        );
        assert_eq!(
            runs(&tree, &files(&["examples/math_tests.py"]), discover),
            [". pytest examples/math_tests.py", ". pytest"]
        );
        assert!(runs(&tree, &files(&["testing.py", "contests.py"]), discover).is_empty());
    }

    #[test]
    fn a_changed_test_method_runs_by_its_class_node_id() {
        let file = "tests/test_login.py";
        let (_d, tree) = tree_with(&[
            ("pytest.ini", "[pytest]\n"),
            (
                file,
                "import pytest\n\nclass TestLogin:\n    @pytest.mark.slow\n    def test_expired(self):\n        assert True\n\ndef test_free():\n    pass\n",
            ),
        ]);
        let known = |ident: &str, line: u32| Targets {
            files: vec![file.to_string()],
            tests: vec![KnownTest {
                file: file.to_string(),
                name: "Expired sessions are refused".to_string(),
                ident: ident.to_string(),
                line,
                ignored: false,
                cases: false,
            }],
        };
        assert_eq!(
            runs(&tree, &known("test_expired", 5), discover)[0],
            ". pytest tests/test_login.py::TestLogin::test_expired",
            "the docstring title is not part of the node id"
        );
        assert_eq!(
            runs(&tree, &known("test_free", 8), discover)[0],
            ". pytest tests/test_login.py::test_free",
            "a module-level test has no class"
        );
    }
}
