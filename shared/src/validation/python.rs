//! pytest: configured at the root (pytest.ini, pyproject.toml, setup.cfg, tox.ini,
//! conftest.py) or implied by changed `test_*.py` / `*_test.py` files.

use super::{Found, Runner};
use crate::change::CommandScope;
use crate::validation::sections;
use crate::validation::targets::Targets;
use crate::validation::tree::{base_name, Reader};

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

/// True for pytest's default test file names.
fn is_test_file(path: &str) -> bool {
    let name = base_name(path);
    name.ends_with(".py") && (name.starts_with("test_") || name.ends_with("_test.py"))
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
        let target = match targets.tests_in(file).as_slice() {
            [test] => format!("{file}::{test}"),
            _ => file.to_string(),
        };
        if let Some(target) = found.word(&target, "a changed test", file) {
            let run = format!("pytest {target}");
            found.push(
                Runner::Pytest,
                run,
                "",
                CommandScope::ExactTest,
                declared_in,
            );
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
    use crate::validation::tests_support::{files, runs, tree_with, with_tests};

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
    fn two_known_tests_run_the_whole_file() {
        let (_d, tree) = tree_with(&[("pytest.ini", "[pytest]\n")]);
        let file = "tests/login_test.py";
        let t = with_tests(&[file], &[(file, "test_a"), (file, "test_b")]);
        assert_eq!(
            runs(&tree, &t, discover),
            [". pytest tests/login_test.py", ". pytest"]
        );
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
        assert!(runs(&tree, &files(&["testing.py", "math_tests.py"]), discover).is_empty());
    }
}
