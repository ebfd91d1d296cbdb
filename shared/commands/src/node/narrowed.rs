//! Narrowed test runs: which changed files a runner takes as its test files, and the
//! one-shot command that runs only them (never a watch mode).

use super::super::Found;
use super::manager::Manager;
use super::runners::{Invocation, TestRunner};
use crate::tree::base_name;

const EXTENSIONS: &[&str] = &["js", "jsx", "ts", "tsx", "mjs", "cjs", "mts", "cts"];

/// Folders of material tests load, never tests themselves, whatever their names.
const MATERIAL: &[&str] = &[
    "node_modules",
    "fixtures",
    "__fixtures__",
    "__mocks__",
    "__snapshots__",
];

/// Folders of support code beside tests: a file in them is a test only by its name
/// (`__tests__/helpers/renderSlot.spec.ts` is one).
const SUPPORT: &[&str] = &["helpers", "__helpers__", "utils", "support"];

/// True when `runner`, by its default conventions, takes `path` as a test file: `.test.` /
/// `.spec.` names for all; `__tests__/` for jest; `test/` folders and `test-*` names too
/// for mocha, node and ava, which run any file they are given.
pub fn is_test_file(path: &str, runner: TestRunner) -> bool {
    if !is_loadable_script(path) {
        return false;
    }
    let name = base_name(path);
    let Some((stem, _)) = name.rsplit_once('.') else {
        return false;
    };
    let dirs: Vec<&str> = path.split('/').collect();
    let dirs = &dirs[..dirs.len() - 1];
    let named = stem.ends_with(".test") || stem.ends_with(".spec");
    if !named && dirs.iter().any(|d| SUPPORT.contains(d)) {
        return false;
    }
    let in_dir = |names: &[&str]| dirs.iter().any(|d| names.contains(d));
    match runner {
        TestRunner::Vitest | TestRunner::Playwright | TestRunner::Karma => named,
        TestRunner::Jest => named || in_dir(&["__tests__"]),
        TestRunner::Mocha | TestRunner::NodeTest | TestRunner::Ava => {
            named
                || (!name.starts_with('_') && in_dir(&["__tests__", "test", "tests"]))
                || stem == "test"
                || stem.starts_with("test-")
                || stem.ends_with("-test")
                || stem.ends_with("_test")
        }
    }
}

/// True for a script file a runner can load (no type declaration), outside the folders of
/// material tests load: what a path a script names can make a test file.
pub fn is_loadable_script(path: &str) -> bool {
    let Some((stem, ext)) = base_name(path).rsplit_once('.') else {
        return false;
    };
    EXTENSIONS.contains(&ext)
        && !stem.ends_with(".d")
        && !path.split('/').rev().skip(1).any(|d| MATERIAL.contains(&d))
}

/// Where a narrowed run starts.
#[derive(Debug, Clone, Copy)]
pub enum Place<'a> {
    /// In the directory of the package whose script names the runner.
    Own,
    /// From the workspace root, aimed at the member of this (quoted) name.
    Member(&'a str),
}

/// What a narrowed run is made of.
pub struct Narrowing<'a> {
    pub manager: Manager,
    pub place: Place<'a>,
    pub invocation: &'a Invocation,
    /// The changed test files, relative to the package whose script names the runner.
    pub files: &'a [&'a str],
    /// The one changed test known in them, if there is exactly one.
    pub test: Option<&'a str>,
    /// Every changed test known in them (one file): karma names them all by title.
    pub tests: &'a [&'a str],
    /// The package.json the runner's script is declared in.
    pub origin: &'a str,
}

impl Narrowing<'_> {
    /// The command line, or None when a value cannot be part of one (with a problem) or
    /// the manager cannot start the runner there.
    pub fn command(&self, found: &mut Found) -> Option<String> {
        let args = self.arguments(found)?;
        let run = match (self.invocation.runner, self.place) {
            (TestRunner::NodeTest, Place::Own) => self.manager.node(None, &args)?,
            (TestRunner::NodeTest, Place::Member(name)) => self.manager.node(Some(name), &args)?,
            (_, Place::Own) => self.manager.exec(&args),
            (_, Place::Member(name)) => self.manager.member_exec(name, &args)?,
        };
        let mut env = String::new();
        for (name, value) in &self.invocation.env {
            let value = found.word(
                value,
                "an environment value of the test script",
                self.origin,
            )?;
            env.push_str(&format!("{name}={value} "));
        }
        Some(format!("{env}{run}"))
    }

    /// The `-t` pattern naming the one known changed test, when the runner takes one and
    /// the title can be matched literally: the command then selects that test, not its
    /// files whole.
    fn test_pattern(&self) -> Option<String> {
        let pattern = match self.invocation.runner {
            TestRunner::Vitest | TestRunner::Jest => self.test.and_then(name_pattern),
            // One pattern for every known test: karma-jasmine matches it in each spec's
            // full name, so a title alone selects its test.
            TestRunner::Karma => {
                let titles: Option<Vec<String>> =
                    self.tests.iter().map(|t| name_pattern(t)).collect();
                match titles?.as_slice() {
                    [] => None,
                    [one] => Some(one.clone()),
                    many => Some(format!("({})", many.join("|"))),
                }
            }
            _ => None,
        };
        pattern.filter(|p| crate::refusal(p).is_none())
    }

    /// True when [`Narrowing::command`] names the changed test by `-t`.
    pub fn names_test(&self) -> bool {
        self.test_pattern().is_some()
    }

    /// The runner and its arguments: kept options, the files, and `-t` for one known test.
    fn arguments(&self, found: &mut Found) -> Option<String> {
        let runner = self.invocation.runner;
        let mut words: Vec<String> = match runner {
            // `vitest` alone watches in a terminal: `run` always finishes.
            TestRunner::Vitest => vec!["vitest".into(), "run".into()],
            TestRunner::Jest => vec!["jest".into()],
            TestRunner::Mocha => vec!["mocha".into()],
            TestRunner::NodeTest => Vec::new(),
            TestRunner::Playwright => vec!["playwright".into(), "test".into()],
            TestRunner::Ava => vec!["ava".into()],
            TestRunner::Karma => vec!["karma".into(), "start".into()],
        };
        for option in &self.invocation.options {
            words.push(found.word(option, "an option of the test script", self.origin)?);
        }
        if runner == TestRunner::NodeTest {
            words.push("--test".into());
        }
        // Karma runs the files its configuration lists, once, and only the tests the
        // pattern names: without a known test there is no narrowed karma run. The adapters
        // (karma-jasmine, karma-mocha) read `--grep=/re/` as a regular expression and a
        // bare value as literal text, so the pattern goes between slashes.
        if runner == TestRunner::Karma {
            let pattern = self.test_pattern()?;
            words.push("--single-run".into());
            words.push("--".into());
            let grep = format!("--grep=/{pattern}/");
            words.push(found.word(&grep, "a changed test name", self.origin)?);
            return Some(words.join(" "));
        }
        // jest reads its file arguments as patterns: a path with pattern characters
        // (`app/[id]/page.test.tsx`) is only itself by path.
        if runner == TestRunner::Jest && self.files.iter().any(|f| has_pattern_characters(f)) {
            words.push("--runTestsByPath".into());
        }
        for file in self.files {
            words.push(found.word(file, "a changed test path", self.origin)?);
        }
        if let Some(pattern) = self.test_pattern() {
            words.push("-t".into());
            words.push(found.word(&pattern, "a changed test name", self.origin)?);
        }
        Some(words.join(" "))
    }
}

fn has_pattern_characters(path: &str) -> bool {
    path.contains(['(', ')', '[', ']', '{', '}', '+', '?', '*', '^', '$', '|'])
}

/// A test title as a `-t` pattern matching it literally; None for a templated title
/// (`%s`, `$name`, `${x}`), whose run-time name differs from what the source says.
fn name_pattern(title: &str) -> Option<String> {
    let templated = title.as_bytes().windows(2).any(|pair| match pair {
        [b'%', next] => b"sdifjoOpc#%".contains(next),
        [b'$', next] => next.is_ascii_alphabetic() || b"_{#".contains(next),
        _ => false,
    });
    if templated || title.trim().is_empty() {
        return None;
    }
    let mut pattern = String::with_capacity(title.len());
    for c in title.chars() {
        if "\\^$.|?*+()[]{}".contains(c) {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    Some(pattern)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_and_test_names_are_test_files_for_every_runner() {
        for runner in [
            TestRunner::Vitest,
            TestRunner::Jest,
            TestRunner::Mocha,
            TestRunner::NodeTest,
            TestRunner::Playwright,
            TestRunner::Ava,
        ] {
            assert!(is_test_file("packages/a/__tests__/x.spec.ts", runner));
            assert!(is_test_file("src/login.test.tsx", runner));
            assert!(!is_test_file("src/login.ts", runner));
            assert!(!is_test_file("src/login.test.json", runner));
        }
    }

    #[test]
    fn a_tests_folder_counts_for_jest_but_not_for_vitest() {
        assert!(is_test_file("src/__tests__/nav.js", TestRunner::Jest));
        assert!(!is_test_file("src/__tests__/nav.js", TestRunner::Vitest));
        assert!(is_test_file("test/cart.js", TestRunner::Mocha));
        assert!(is_test_file("test/cart.mjs", TestRunner::NodeTest));
        assert!(!is_test_file("test/cart.js", TestRunner::Jest));
    }

    #[test]
    fn fixtures_helpers_and_declarations_are_no_test_files() {
        assert!(!is_test_file("test/fixtures/a.test.js", TestRunner::Mocha));
        assert!(!is_test_file("test/helpers/setup.js", TestRunner::Ava));
        assert!(!is_test_file("test/_setup.js", TestRunner::Ava));
        assert!(!is_test_file("types/x.test.d.ts", TestRunner::Vitest));
    }

    #[test]
    fn a_spec_named_file_in_a_helpers_folder_is_a_test_file() {
        assert!(is_test_file(
            "packages/runtime-core/__tests__/helpers/renderSlot.spec.ts",
            TestRunner::Vitest
        ));
        assert!(!is_test_file(
            "__tests__/helpers/render.ts",
            TestRunner::Jest
        ));
    }

    fn karma(tests: &[&str]) -> Option<String> {
        let invocation = Invocation {
            runner: TestRunner::Karma,
            env: Vec::new(),
            options: vec!["karma.conf.cjs".into()],
            paths: Vec::new(),
        };
        let narrowing = Narrowing {
            manager: Manager::Npm,
            place: Place::Own,
            invocation: &invocation,
            files: &["test/specs/a.spec.js"],
            test: match tests {
                [one] => Some(one),
                _ => None,
            },
            tests,
            origin: "package.json",
        };
        narrowing.command(&mut Found::default())
    }

    #[test]
    fn karma_names_every_known_test_by_title_and_no_file() {
        assert_eq!(
            karma(&["adds (one)", "keeps order"]).unwrap(),
            r"npx --no karma start karma.conf.cjs --single-run -- '--grep=/(adds \(one\)|keeps order)/'"
        );
        // Control: without a known test karma would run every file it lists: no narrowed run.
        assert_eq!(karma(&[]), None);
    }

    #[test]
    fn a_title_becomes_a_literal_pattern() {
        assert_eq!(
            name_pattern("adds (two) items").unwrap(),
            r"adds \(two\) items"
        );
        assert_eq!(name_pattern("costs $5.00"), Some(r"costs \$5\.00".into()));
    }

    #[test]
    fn a_templated_title_gives_no_pattern() {
        assert_eq!(name_pattern("adds %s"), None);
        assert_eq!(name_pattern("adds $a and $b"), None);
        assert_eq!(name_pattern("adds ${n}"), None);
    }
}
