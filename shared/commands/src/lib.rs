//! The repository's existing validation commands: discovery across build systems, their
//! order (exact test, package, whole suite), and the choice of the first one that can start.
//! Shared by qa-route (which routes them) and `qa-check --exec` (which discovers them again
//! before running one); build files are read under the repository root only.
//!
//! It may use qa-records (payload types, exit codes, hashes); it must not depend on any
//! other qapipe library nor on a stage.

pub mod cargo;
pub mod delivery;
pub mod go;
pub mod jvm;
pub mod make;
pub mod node;
pub mod path;
pub mod python;
pub mod sections;
pub mod targets;
pub mod tree;
pub mod wrapper;

use crate::path::SearchPath;
use crate::targets::Targets;
use crate::tree::{shown, Reader};
use qa_records::change::{Command, CommandPurpose, CommandScope, Unmet};
use std::collections::HashSet;

/// Build-file values longer than this are not command material.
pub const MAX_VALUE: usize = 2048;

/// A program a validation command starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Runner {
    Cargo,
    Npm,
    Pnpm,
    Yarn,
    Bun,
    Pytest,
    Go,
    Mvn,
    Gradle,
    /// The repository's own Gradle wrapper, checked in the repository, not on PATH.
    Gradlew,
    Make,
}

impl Runner {
    /// True when this runner's suite can exercise `path`, judged by its language
    /// (extension or build file). `make test` is language-neutral.
    pub fn covers(self, path: &str) -> bool {
        let name = path.rsplit('/').next().unwrap_or(path);
        let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
        let exts: &[&str] = match self {
            Runner::Make => return true,
            Runner::Cargo => &["rs", "toml"],
            Runner::Npm | Runner::Pnpm | Runner::Yarn | Runner::Bun => &[
                "js", "jsx", "ts", "tsx", "mjs", "cjs", "mts", "cts", "vue", "svelte", "json",
                "css", "scss", "html",
            ],
            Runner::Pytest => &["py", "pyi", "toml", "cfg", "ini"],
            Runner::Go => &["go", "mod", "sum"],
            Runner::Mvn | Runner::Gradle | Runner::Gradlew => &[
                "java",
                "kt",
                "kts",
                "groovy",
                "scala",
                "xml",
                "gradle",
                "properties",
            ],
        };
        exts.contains(&ext)
    }

    /// The program as typed.
    pub fn program(self) -> &'static str {
        match self {
            Runner::Cargo => "cargo",
            Runner::Npm => "npm",
            Runner::Pnpm => "pnpm",
            Runner::Yarn => "yarn",
            Runner::Bun => "bun",
            Runner::Pytest => "pytest",
            Runner::Go => "go",
            Runner::Mvn => "mvn",
            Runner::Gradle => "gradle",
            Runner::Gradlew => "./gradlew",
            Runner::Make => "make",
        }
    }

    /// Package managers and build tools that may fetch and install dependencies while
    /// testing; pytest and make only run what is there.
    pub fn fetches(self) -> bool {
        !matches!(self, Runner::Pytest | Runner::Make)
    }
}

/// One discovered command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub runner: Runner,
    pub run: String,
    /// Repository-relative directory, `""` for the root.
    pub dir: String,
    pub scope: CommandScope,
    pub declared_in: String,
    pub purpose: CommandPurpose,
    /// Why it covers the change, in one clause.
    pub why: String,
    /// The package.json script it runs, when it runs one other than `test`.
    pub script: Option<String>,
}

impl Candidate {
    /// A test command.
    pub fn new(
        runner: Runner,
        run: String,
        dir: &str,
        scope: CommandScope,
        declared_in: &str,
    ) -> Candidate {
        Candidate {
            runner,
            run,
            dir: dir.to_string(),
            scope,
            declared_in: declared_in.to_string(),
            purpose: CommandPurpose::Test,
            why: test_why(scope).to_string(),
            script: None,
        }
    }

    pub fn to_command(&self) -> Command {
        Command {
            run: self.run.clone(),
            runner: self.runner.program().to_string(),
            dir: shown(&self.dir).to_string(),
            scope: self.scope,
            declared_in: self.declared_in.clone(),
            purpose: self.purpose,
            why: self.why.clone(),
            unmet: None,
        }
    }
}

/// Why a test command of `scope` covers the change.
fn test_why(scope: CommandScope) -> &'static str {
    match scope {
        CommandScope::ExactTest => "runs the changed tests, and only them",
        CommandScope::File => "runs the changed test files, every test in them",
        CommandScope::Module => "runs the tests of the changed module",
        CommandScope::Package => "runs the tests of the package that holds the change",
        CommandScope::Suite => "runs the whole test suite of the change's language",
    }
}

/// What discovery found for one scenario: candidates in order, and the build-file values
/// it refused to turn into commands.
#[derive(Debug, Default, Clone)]
pub struct Found {
    pub candidates: Vec<Candidate>,
    pub problems: Vec<String>,
}

impl Found {
    pub fn push(
        &mut self,
        runner: Runner,
        run: String,
        dir: &str,
        scope: CommandScope,
        declared_in: &str,
    ) {
        self.candidates
            .push(Candidate::new(runner, run, dir, scope, declared_in));
    }

    /// `value` as one shell word, or None (with a problem naming `what` and `origin`) when
    /// it cannot be part of a one-line command: commands are data, never a way to smuggle
    /// a second line or an unbounded string into one.
    pub fn word(&mut self, value: &str, what: &str, origin: &str) -> Option<String> {
        if let Some(why) = refusal(value) {
            self.problems.push(format!(
                "{what} in `{origin}` {why}; it is not used in a command"
            ));
            return None;
        }
        Some(quote(value))
    }

    /// Checks a build-file value that is not itself part of the command (a script body).
    pub fn accept(&mut self, value: &str, what: &str, origin: &str) -> bool {
        match refusal(value) {
            None => true,
            Some(why) => {
                self.problems.push(format!(
                    "{what} in `{origin}` {why}; it is not treated as a command"
                ));
                false
            }
        }
    }
}

pub(crate) fn refusal(value: &str) -> Option<&'static str> {
    if value.len() > MAX_VALUE {
        Some("is longer than 2048 bytes")
    } else if value.contains(['\0', '\r', '\n']) {
        Some("contains NUL, CR or LF")
    } else {
        None
    }
}

/// A POSIX shell word: bare when every byte is plainly safe, else single-quoted.
pub fn quote(value: &str) -> String {
    let plain = !value.is_empty()
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"@%+=:,./_-".contains(&b));
    if plain {
        value.to_string()
    } else {
        format!("'{}'", value.replace('\'', r"'\''"))
    }
}

/// Every candidate for `targets`, exact tests first, then packages, then whole suites,
/// without duplicates (same directory and command line).
pub fn discover(reader: &mut Reader, targets: &Targets) -> Found {
    let mut found = Found::default();
    if targets.files.is_empty() {
        return found;
    }
    cargo::discover(reader, targets, &mut found);
    node::discover(reader, targets, &mut found);
    python::discover(reader, targets, &mut found);
    go::discover(reader, targets, &mut found);
    jvm::discover(reader, targets, &mut found);
    make::discover(reader, &mut found);
    delivery::discover(reader, targets, &mut found);
    // A whole-repository suite of one build system only covers its own languages: a
    // Python change is not validated by `cargo test --workspace`.
    found.candidates.retain(|c| {
        c.scope != CommandScope::Suite || targets.files.iter().any(|f| c.runner.covers(f))
    });
    // A stable sort keeps each build system's own order within a scope. A change made
    // only of configuration and shipped files is validated first by the commands that
    // load them (build, typecheck, validate:*), then by the tests; any other change by
    // its tests first.
    if delivery::only_delivery(&targets.files) {
        found
            .candidates
            .sort_by_key(|c| (c.purpose == CommandPurpose::Test, c.scope));
    } else {
        found
            .candidates
            .sort_by_key(|c| (c.scope, c.purpose != CommandPurpose::Test));
    }
    let mut seen = HashSet::new();
    found
        .candidates
        .retain(|c| seen.insert((c.dir.clone(), c.run.clone())));
    let mut seen = HashSet::new();
    found.problems.retain(|p| seen.insert(p.clone()));
    found
}

/// The first candidate that can start, the others that can, and those that cannot with
/// what each lacks.
#[derive(Debug, Default)]
pub struct Selection {
    pub command: Option<Candidate>,
    pub additional: Vec<Candidate>,
    pub missing: Vec<(Candidate, Unmet)>,
}

/// Splits `candidates` (in order) by whether they can start: their runner on PATH (for
/// the Gradle wrapper, an executable file in the repository) and the tool behind their
/// wrapper too ([`wrapper::unmet`]); `reader` reads the build files that say so.
pub fn select(candidates: Vec<Candidate>, path: &SearchPath, reader: &mut Reader) -> Selection {
    let mut selection = Selection::default();
    for candidate in candidates {
        if let Some(unmet) = wrapper::unmet(&candidate, path, reader) {
            selection.missing.push((candidate, unmet));
        } else if selection.command.is_none() {
            selection.command = Some(candidate);
        } else {
            selection.additional.push(candidate);
        }
    }
    selection
}

#[cfg(test)]
mod covering {
    use super::Runner;

    #[test]
    fn a_suite_covers_its_own_languages_only() {
        assert!(Runner::Cargo.covers("crates/a/src/lib.rs"));
        assert!(!Runner::Cargo.covers("service/orders.py"));
        assert!(Runner::Pytest.covers("service/orders.py"));
        assert!(!Runner::Pytest.covers("web/app.tsx"));
        assert!(Runner::Npm.covers("web/app.tsx"));
        assert!(Runner::Go.covers("cmd/api/main.go"));
        assert!(Runner::Make.covers("anything.txt"));
    }
}

/// Fixtures for the build-system modules' unit tests.
#[cfg(test)]
pub(crate) mod tests_support {
    use super::*;
    use crate::tree::Tree;

    pub(crate) use crate::tree::tests::tree_with;

    /// A package.json `scripts` object of (name, body) pairs.
    pub fn scripts(pairs: &[(&str, &str)]) -> serde_json::Map<String, serde_json::Value> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), serde_json::Value::String(v.to_string())))
            .collect()
    }

    /// What one build system's discovery finds, as `dir run` lines in discovery order.
    pub fn runs(
        tree: &Tree,
        targets: &Targets,
        discover: fn(&mut Reader, &Targets, &mut Found),
    ) -> Vec<String> {
        let mut found = Found::default();
        discover(&mut tree.reader(), targets, &mut found);
        found
            .candidates
            .iter()
            .map(|c| format!("{} {}", shown(&c.dir), c.run))
            .collect()
    }

    /// The scope of each command [`runs`] lists, in the same order.
    pub fn scopes(
        tree: &Tree,
        targets: &Targets,
        discover: fn(&mut Reader, &Targets, &mut Found),
    ) -> Vec<CommandScope> {
        let mut found = Found::default();
        discover(&mut tree.reader(), targets, &mut found);
        found.candidates.iter().map(|c| c.scope).collect()
    }

    /// Targets of `files` with no known tests.
    pub fn files(files: &[&str]) -> Targets {
        with_tests(files, &[])
    }

    /// Targets of `files` with changed tests known by (file, name).
    pub fn with_tests(files: &[&str], tests: &[(&str, &str)]) -> Targets {
        Targets {
            files: files.iter().map(|f| f.to_string()).collect(),
            tests: tests
                .iter()
                .map(|(file, name)| crate::targets::KnownTest {
                    file: file.to_string(),
                    name: name.to_string(),
                    ident: name.to_string(),
                    line: 0,
                    ignored: false,
                    cases: false,
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_words_stay_bare_and_others_are_single_quoted() {
        assert_eq!(quote("tests/test_a.py::test_b"), "tests/test_a.py::test_b");
        assert_eq!(quote("@scope/web"), "@scope/web");
        assert_eq!(quote("^TestX$"), "'^TestX$'");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
    }

    #[test]
    fn a_value_with_a_line_break_is_refused_with_a_problem() {
        let mut found = Found::default();
        assert_eq!(
            found.word("web\nrm -rf /", "package name", "package.json"),
            None
        );
        assert_eq!(found.problems.len(), 1);
        assert!(
            found.problems[0].contains("`package.json`"),
            "{:?}",
            found.problems
        );
    }

    #[test]
    fn a_value_over_the_limit_is_refused_and_one_at_it_is_not() {
        let mut found = Found::default();
        assert!(found.word(&"a".repeat(MAX_VALUE), "name", "x").is_some());
        assert!(found
            .word(&"a".repeat(MAX_VALUE + 1), "name", "x")
            .is_none());
        assert_eq!(found.problems.len(), 1);
    }

    #[test]
    fn only_pytest_and_make_are_offline() {
        assert!(!Runner::Pytest.fetches());
        assert!(!Runner::Make.fetches());
        assert!(Runner::Cargo.fetches());
        assert!(Runner::Gradlew.fetches());
    }

    fn candidate(runner: Runner, run: &str) -> Candidate {
        Candidate {
            runner,
            run: run.into(),
            dir: String::new(),
            scope: CommandScope::Suite,
            declared_in: "x".into(),
            purpose: CommandPurpose::Test,
            why: String::new(),
            script: None,
        }
    }

    #[test]
    fn selection_takes_the_first_runner_on_path_and_keeps_order() {
        let bin = tempfile::tempdir().unwrap();
        let stub = bin.path().join("make");
        std::fs::write(&stub, "").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        std::fs::copy(&stub, bin.path().join("cargo")).unwrap();
        let repo = tempfile::tempdir().unwrap();
        let tree = crate::tree::Tree::open(repo.path()).unwrap();
        let path = SearchPath::new(bin.path().as_os_str());
        let s = select(
            vec![
                candidate(Runner::Pytest, "pytest a"),
                candidate(Runner::Cargo, "cargo test"),
                candidate(Runner::Gradlew, "./gradlew test"),
                candidate(Runner::Make, "make test"),
            ],
            &path,
            &mut tree.reader(),
        );
        assert_eq!(s.command.unwrap().run, "cargo test");
        assert_eq!(
            s.additional
                .iter()
                .map(|c| c.run.as_str())
                .collect::<Vec<_>>(),
            ["make test"]
        );
        assert_eq!(
            s.missing
                .iter()
                .map(|(c, _)| c.run.as_str())
                .collect::<Vec<_>>(),
            ["pytest a", "./gradlew test"]
        );
    }
}
