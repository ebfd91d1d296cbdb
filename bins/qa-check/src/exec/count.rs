//! Tests counted from the runner, not the exit code: the reporter options added to the
//! command qa-check runs (never to the routed line), the runner's output read line by line
//! as it streams (libtest, `go test -json`, pytest, jest and vitest summaries), the report
//! files it wrote (JUnit XML, jest/vitest JSON), and the counts and changed-test outcomes
//! they add up to. Only counts and the outcomes of named tests are kept, never the output.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use qa_commands::targets::KnownTest;
use qa_commands::Runner;
use qa_records::execution::{ChangedTest, TestCounts, TestOutcome};
use serde_json::Value;

use super::junit;
use super::terminal::plain;

/// The longest line read for counts; the rest of a longer line is not looked at.
const MAX_LINE: usize = 4096;

/// A changed test the route's command names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub file: String,
    /// The title a runner filters by (a JS title, else the function name).
    pub name: String,
    /// The function or case name.
    pub ident: String,
}

impl From<&KnownTest> for Named {
    fn from(test: &KnownTest) -> Named {
        Named {
            file: test.file.clone(),
            name: test.name.clone(),
            ident: test.ident.clone(),
        }
    }
}

/// Where a runner writes the report qa-check reads after the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReportFile {
    /// A JUnit XML file (pytest `--junitxml`).
    Junit(PathBuf),
    /// A jest or vitest JSON report (`--json --outputFile`, `--outputFile.json`).
    Jest(PathBuf),
    /// Maven Surefire / Gradle JUnit XML reports under these build folders, written
    /// during the run.
    BuildReports(Vec<PathBuf>),
}

/// The command qa-check runs for a routed line: the line with the runner's reporter
/// options, and where its report goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reporting {
    /// What `/bin/sh -c` runs.
    pub run: String,
    /// The options added, as recorded (private paths included).
    pub added: Vec<String>,
    pub report: Option<ReportFile>,
}

/// The JS test runner a command starts directly (`npx --no vitest run ...`, `pnpm exec
/// jest ...`, `yarn workspace web vitest ...`, `bun run jest ...`): its options can be
/// appended, as the runner's arguments come last. None for a package script (`npm test`,
/// `pnpm run vitest`: appended options would go to the manager or the script).
fn js_runner_word(run: &str) -> Option<&'static str> {
    let words: Vec<&str> = run
        .split_whitespace()
        .skip_while(|w| w.contains('=') && !w.starts_with('-'))
        .collect();
    let launcher = *words.first()?;
    if !matches!(launcher, "npx" | "pnpm" | "yarn" | "bun") {
        return None;
    }
    let at = words.iter().position(|w| matches!(*w, "vitest" | "jest"))?;
    let script = matches!(words[at - 1], "run" | "test") && launcher != "bun";
    (!script).then(|| {
        if words[at] == "vitest" {
            "vitest"
        } else {
            "jest"
        }
    })
}

/// Single-quotes `path` for `/bin/sh`.
fn quoted(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

impl Reporting {
    /// The run for `run` (started by `runner` in `dir`), with reports written into
    /// `private` (a folder outside the repository only qa-check reads).
    pub fn of(runner: Runner, run: &str, dir: &Path, private: &Path) -> Reporting {
        let plain = |report| Reporting {
            run: run.to_string(),
            added: Vec::new(),
            report,
        };
        let with = |added: Vec<String>, report| Reporting {
            run: format!("{run} {}", added.join(" ")),
            added,
            report: Some(report),
        };
        match runner {
            Runner::Go => match run.strip_prefix("go test ") {
                Some(rest) => Reporting {
                    run: format!("go test -json {rest}"),
                    added: vec!["-json".into()],
                    report: None,
                },
                None => plain(None),
            },
            Runner::Pytest => {
                let file = private.join("junit.xml");
                with(
                    vec![format!("--junitxml={}", quoted(&file))],
                    ReportFile::Junit(file),
                )
            }
            Runner::Npm | Runner::Pnpm | Runner::Yarn | Runner::Bun => {
                let file = private.join("report.json");
                match js_runner_word(run) {
                    Some("vitest") => with(
                        vec![
                            "--reporter=default".into(),
                            "--reporter=json".into(),
                            format!("--outputFile.json={}", quoted(&file)),
                        ],
                        ReportFile::Jest(file),
                    ),
                    Some(_) => with(
                        vec!["--json".into(), format!("--outputFile={}", quoted(&file))],
                        ReportFile::Jest(file),
                    ),
                    // A package script: its own output's summary lines are read.
                    None => plain(None),
                }
            }
            Runner::Mvn | Runner::Gradle | Runner::Gradlew => plain(Some(
                ReportFile::BuildReports(build_report_dirs(runner, dir)),
            )),
            Runner::Cargo | Runner::Make => plain(None),
        }
    }
}

/// The folders Surefire or Gradle write JUnit XML into, in `dir` and its direct
/// subfolders (a multi-module build's modules).
fn build_report_dirs(runner: Runner, dir: &Path) -> Vec<PathBuf> {
    let leaf: &[&str] = match runner {
        Runner::Mvn => &["target/surefire-reports"],
        _ => &["build/test-results/test"],
    };
    let mut roots = vec![dir.to_path_buf()];
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut subs: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .map(|e| e.path())
            .collect();
        subs.sort();
        roots.extend(subs.into_iter().take(256));
    }
    roots
        .iter()
        .flat_map(|root| leaf.iter().map(move |l| root.join(l)))
        .collect()
}

/// One runner's summed counts, kept per source so one run is never counted twice.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Sum {
    seen: bool,
    counts: TestCounts,
}

impl Sum {
    fn add(&mut self, passed: u64, failed: u64, skipped: u64) {
        self.seen = true;
        self.counts.passed += passed;
        self.counts.failed += failed;
        self.counts.skipped += skipped;
        self.counts.ran += passed + failed;
    }
}

/// The output of one stream, line by line as it comes: partial lines wait for their end.
#[derive(Debug, Default)]
struct Pending {
    line: Vec<u8>,
    overlong: bool,
}

/// What the output said so far.
#[derive(Debug, Default)]
pub struct Lines {
    named: Vec<Named>,
    pending: [Pending; 2],
    libtest: Sum,
    go: Sum,
    pytest: Sum,
    js: Sum,
    /// True once a source reporting each test by name was read (libtest's `test x ...`
    /// lines, go events): only then does a changed test's absence mean it did not run.
    per_test: bool,
    outcomes: BTreeMap<usize, TestOutcome>,
}

/// Which output stream bytes came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Stdout = 0,
    Stderr = 1,
}

impl Lines {
    /// A reader looking out for the outcomes of `named`.
    pub fn new(named: Vec<Named>) -> Lines {
        Lines {
            named,
            ..Lines::default()
        }
    }

    /// Reads `bytes` of `stream`.
    pub fn feed(&mut self, stream: Stream, bytes: &[u8]) {
        let mut rest = bytes;
        while let Some(at) = rest.iter().position(|b| *b == b'\n') {
            self.push(stream, &rest[..at]);
            let pending = std::mem::take(&mut self.pending[stream as usize]);
            if !pending.overlong {
                self.line(&String::from_utf8_lossy(&pending.line));
            }
            rest = &rest[at + 1..];
        }
        self.push(stream, rest);
    }

    /// Reads what is left of both streams after they ended.
    pub fn finish(&mut self) {
        for stream in [Stream::Stdout, Stream::Stderr] {
            self.feed(stream, b"\n");
        }
    }

    fn push(&mut self, stream: Stream, bytes: &[u8]) {
        let pending = &mut self.pending[stream as usize];
        if pending.line.len() + bytes.len() > MAX_LINE {
            pending.overlong = true;
            pending.line.clear();
        } else if !pending.overlong {
            pending.line.extend_from_slice(bytes);
        }
    }

    fn line(&mut self, raw: &str) {
        let line = plain(raw);
        let line = line.trim();
        if line.starts_with('{') && line.contains("\"Action\"") {
            self.go_event(line);
        } else if let Some(rest) = line.strip_prefix("test result: ") {
            self.libtest_result(rest);
        } else if let Some(rest) = line.strip_prefix("test ") {
            self.libtest_test(rest);
        } else if line.starts_with('=') && line.ends_with('=') {
            self.pytest_summary(line.trim_matches('=').trim());
        } else if quiet_pytest_summary(line) {
            // `pytest -q` prints its summary without the `=` rule.
            self.pytest_summary(line);
        } else if let Some(rest) = line.strip_prefix("Tests:") {
            self.js_summary(rest);
        } else if let Some(rest) = line.strip_prefix("Tests ") {
            self.js_summary(rest);
        }
    }

    fn note(&mut self, matches: impl Fn(&Named) -> bool, outcome: TestOutcome) {
        for (i, named) in self.named.iter().enumerate() {
            if matches(named) {
                merge(&mut self.outcomes, i, outcome);
            }
        }
    }

    /// `<path> ... ok|FAILED|ignored`.
    fn libtest_test(&mut self, rest: &str) {
        let Some((path, status)) = rest.split_once(" ... ") else {
            return;
        };
        let outcome = match status.split([',', ' ']).next() {
            Some("ok") => TestOutcome::Passed,
            Some("FAILED") => TestOutcome::Failed,
            Some("ignored") => TestOutcome::Skipped,
            _ => return,
        };
        self.per_test = true;
        let path = path.trim();
        // The test's own path segment, anywhere in the path: a generated case
        // (`totals::case_1`, rstest and the like) is the test too.
        self.note(
            |n| path.split("::").any(|segment| segment == n.ident),
            outcome,
        );
    }

    /// `ok. 3 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; ...`.
    fn libtest_result(&mut self, rest: &str) {
        let numbers = numbers_before(rest, &["passed", "failed", "ignored"]);
        if let [Some(passed), Some(failed), Some(ignored)] = numbers {
            self.libtest.add(passed, failed, ignored);
        }
    }

    /// One `go test -json` event; only top-level tests count (a subtest is part of one).
    fn go_event(&mut self, line: &str) {
        let Ok(event) = serde_json::from_str::<Value>(line) else {
            return;
        };
        let (Some(action), Some(test)) = (
            event.get("Action").and_then(Value::as_str),
            event.get("Test").and_then(Value::as_str),
        ) else {
            return;
        };
        if test.contains('/') {
            return;
        }
        let outcome = match action {
            "pass" => TestOutcome::Passed,
            "fail" => TestOutcome::Failed,
            "skip" => TestOutcome::Skipped,
            _ => return,
        };
        self.per_test = true;
        self.go.add(
            u64::from(outcome == TestOutcome::Passed),
            u64::from(outcome == TestOutcome::Failed),
            u64::from(outcome == TestOutcome::Skipped),
        );
        self.note(|n| n.ident == test, outcome);
    }

    /// `3 passed, 1 skipped in 0.12s`, `no tests ran in 0.01s`.
    fn pytest_summary(&mut self, text: &str) {
        if !text.contains(" in ") {
            return;
        }
        if text.starts_with("no tests ran") {
            self.pytest.add(0, 0, 0);
            return;
        }
        let [passed, failed, errors, skipped, xfailed, xpassed] = numbers_before(
            text,
            &[
                "passed", "failed", "errors", "skipped", "xfailed", "xpassed",
            ],
        );
        let error = numbers_before(text, &["error"])[0];
        if [passed, failed, errors, error, skipped]
            .iter()
            .all(Option::is_none)
        {
            return;
        }
        let n = |v: Option<u64>| v.unwrap_or(0);
        self.pytest.add(
            n(passed) + n(xpassed),
            n(failed) + n(errors).max(n(error)),
            n(skipped) + n(xfailed),
        );
    }

    /// jest `1 failed, 2 passed, 3 total`; vitest `1 failed | 2 passed | 1 skipped (4)`.
    fn js_summary(&mut self, text: &str) {
        let [passed, failed, skipped, todo, total] =
            numbers_before(text, &["passed", "failed", "skipped", "todo", "total"]);
        let vitest_total = text.trim_end().ends_with(')');
        if total.is_none() && !vitest_total {
            return;
        }
        if [passed, failed, skipped, todo].iter().all(Option::is_none) {
            return;
        }
        let n = |v: Option<u64>| v.unwrap_or(0);
        self.js.add(n(passed), n(failed), n(skipped) + n(todo));
    }
}

/// True for `pytest -q`'s summary line: `3 passed, 1 skipped in 0.12s`.
fn quiet_pytest_summary(line: &str) -> bool {
    let mut words = line.split([' ', ',']).filter(|w| !w.is_empty());
    let (Some(count), Some(word)) = (words.next(), words.next()) else {
        return false;
    };
    count.parse::<u64>().is_ok()
        && matches!(
            word,
            "passed" | "failed" | "skipped" | "error" | "errors" | "xfailed" | "xpassed"
        )
        && line.contains(" in ")
        && line
            .split(" in ")
            .last()
            .is_some_and(|t| t.trim_start().starts_with(|c: char| c.is_ascii_digit()))
}

/// Keeps the strongest outcome of a test reported more than once (a parametrised test):
/// a failure over a pass over a skip.
fn merge(outcomes: &mut BTreeMap<usize, TestOutcome>, at: usize, outcome: TestOutcome) {
    let rank = |o: TestOutcome| match o {
        TestOutcome::Skipped => 0,
        TestOutcome::Passed => 1,
        TestOutcome::Failed => 2,
    };
    let kept = outcomes.entry(at).or_insert(outcome);
    if rank(outcome) > rank(*kept) {
        *kept = outcome;
    }
}

/// For each of `words`, the number written just before it in `text` (`3 passed`).
fn numbers_before<const N: usize>(text: &str, words: &[&str; N]) -> [Option<u64>; N] {
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '|' | '.' | '(' | ')'))
        .filter(|t| !t.is_empty())
        .collect();
    words.map(|word| {
        tokens
            .windows(2)
            .find(|pair| pair[1] == word)
            .and_then(|pair| pair[0].parse().ok())
    })
}

/// What the runner reported, all sources read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counted {
    /// None when no source could be read.
    pub tests: Option<TestCounts>,
    /// Each named changed test and what the runner said of it; empty when no source
    /// reported tests by name (a summary line alone cannot say which ran).
    pub changed: Vec<ChangedTest>,
}

/// The counts of a run: its report file when one was written (during the run, for build
/// folders `started` bounds), else the summary lines of every runner its output showed.
pub fn counted(lines: &Lines, report: Option<&ReportFile>, started: SystemTime) -> Counted {
    let mut outcomes = lines.outcomes.clone();
    let from_file = report.and_then(|report| {
        let mut sum = Sum::default();
        let mut note = |name: &str, full: &str, outcome: TestOutcome| {
            for (i, named) in lines.named.iter().enumerate() {
                if reported_as(named, name, full) {
                    merge(&mut outcomes, i, outcome);
                }
            }
            sum.add(
                u64::from(outcome == TestOutcome::Passed),
                u64::from(outcome == TestOutcome::Failed),
                u64::from(outcome == TestOutcome::Skipped),
            );
        };
        let read = match report {
            ReportFile::Junit(file) => junit::read(file, &mut note),
            ReportFile::Jest(file) => read_jest(file, &mut note),
            ReportFile::BuildReports(dirs) => junit::read_dirs(dirs, started, &mut note),
        };
        read.then_some(sum.counts)
    });
    let tests = from_file.or_else(|| {
        let sums = [lines.libtest, lines.go, lines.pytest, lines.js];
        sums.iter().any(|s| s.seen).then(|| {
            sums.iter().fold(TestCounts::default(), |mut all, s| {
                all.ran += s.counts.ran;
                all.passed += s.counts.passed;
                all.failed += s.counts.failed;
                all.skipped += s.counts.skipped;
                all
            })
        })
    });
    let per_test = lines.per_test || from_file.is_some();
    let changed = lines
        .named
        .iter()
        .filter(|_| per_test)
        .enumerate()
        .map(|(i, named)| {
            let outcome = outcomes.get(&i).copied();
            ChangedTest {
                file: named.file.clone(),
                name: named.name.clone(),
                ran: matches!(outcome, Some(TestOutcome::Passed | TestOutcome::Failed)),
                outcome,
            }
        })
        .collect();
    Counted { tests, changed }
}

/// True when a report's test `name` (its full title `full`) is `named`: the same function
/// or title, a parametrised case of it (`test_x[1]`), or a JS title ending in it.
fn reported_as(named: &Named, name: &str, full: &str) -> bool {
    name == named.ident
        || name == named.name
        || name.starts_with(&format!("{}[", named.ident))
        || full == named.name
        || full.ends_with(&format!(" {}", named.name))
}

/// A jest or vitest JSON report: each assertion's title, full name and status. False when
/// the file is absent or not such a report.
fn read_jest(file: &Path, note: &mut impl FnMut(&str, &str, TestOutcome)) -> bool {
    let fits = std::fs::metadata(file).is_ok_and(|m| m.is_file() && m.len() <= junit::MAX_FILE);
    let Some(text) = fits.then(|| std::fs::read_to_string(file).ok()).flatten() else {
        return false;
    };
    let Ok(json) = serde_json::from_str::<Value>(&text) else {
        return false;
    };
    let Some(files) = json.get("testResults").and_then(Value::as_array) else {
        return false;
    };
    for result in files {
        let assertions = result.get("assertionResults").and_then(Value::as_array);
        for assertion in assertions.into_iter().flatten() {
            let text = |key| assertion.get(key).and_then(Value::as_str).unwrap_or("");
            let outcome = match text("status") {
                "passed" => TestOutcome::Passed,
                "failed" => TestOutcome::Failed,
                _ => TestOutcome::Skipped,
            };
            note(text("title"), text("fullName"), outcome);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(ident: &str) -> Named {
        Named {
            file: "f".into(),
            name: ident.into(),
            ident: ident.into(),
        }
    }

    fn read(named: Vec<Named>, output: &str) -> Counted {
        let mut lines = Lines::new(named);
        // Fed in small pieces, as a pipe delivers them.
        for chunk in output.as_bytes().chunks(7) {
            lines.feed(Stream::Stdout, chunk);
        }
        lines.finish();
        counted(&lines, None, SystemTime::now())
    }

    fn counts(ran: u64, passed: u64, failed: u64, skipped: u64) -> Option<TestCounts> {
        Some(TestCounts {
            ran,
            passed,
            failed,
            skipped,
        })
    }

    #[test]
    fn libtest_results_are_summed_over_every_test_binary() {
        let out = "running 2 tests\ntest cart::totals ... ok\ntest cart::slow ... ignored, needs db\n\
                   test result: ok. 1 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\
                   running 0 tests\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n";
        let counted = read(vec![named("totals"), named("missing")], out);
        let cases = read(vec![named("rounds")], "test tax::rounds::case_1 ... ok\n");
        assert_eq!(cases.changed[0].outcome, Some(TestOutcome::Passed));
        assert_eq!(counted.tests, counts(1, 1, 0, 1));
        assert_eq!(counted.changed[0].outcome, Some(TestOutcome::Passed));
        assert!(counted.changed[0].ran);
        assert!(!counted.changed[1].ran);
    }

    #[test]
    fn a_summary_line_alone_says_nothing_of_the_changed_tests() {
        let counted = read(vec![named("totals")], "Tests:       2 passed, 2 total\n");
        assert_eq!(counted.tests, counts(2, 2, 0, 0));
        assert!(counted.changed.is_empty());
        // Control: per-test lines do say it.
        let counted = read(vec![named("totals")], "test a::totals ... ok\n");
        assert_eq!(counted.changed.len(), 1);
    }

    #[test]
    fn output_without_a_summary_is_not_counted() {
        assert_eq!(
            read(vec![], "make: nothing to be done\nall good\n").tests,
            None
        );
    }

    #[test]
    fn go_json_events_count_top_level_tests_only() {
        let out = r#"{"Action":"run","Test":"TestA"}
{"Action":"pass","Test":"TestA/sub"}
{"Action":"pass","Test":"TestA","Elapsed":0}
{"Action":"skip","Test":"TestB"}
{"Action":"pass","Package":"x"}
"#;
        let counted = read(vec![named("TestA"), named("TestB")], out);
        assert_eq!(counted.tests, counts(1, 1, 0, 1));
        assert_eq!(counted.changed[1].outcome, Some(TestOutcome::Skipped));
        assert!(!counted.changed[1].ran);
    }

    #[test]
    fn pytest_summary_lines_are_counted() {
        let summary = |line: &str| read(vec![], line).tests;
        assert_eq!(
            summary("===== 1 failed, 3 passed, 2 skipped, 1 warning in 0.12s ====="),
            counts(4, 3, 1, 2)
        );
        assert_eq!(
            summary("============ no tests ran in 0.01s ============"),
            counts(0, 0, 0, 0)
        );
        assert_eq!(summary("=== test session starts ==="), None);
        // `pytest -q`, without the rule.
        assert_eq!(summary("2 passed, 1 skipped in 0.05s"), counts(2, 2, 0, 1));
        assert_eq!(summary("2 passed in the kitchen"), None);
    }

    #[test]
    fn jest_and_vitest_summary_lines_are_counted() {
        let summary = |line: &str| read(vec![], line).tests;
        assert_eq!(
            summary("Tests:       1 failed, 2 passed, 3 total"),
            counts(3, 2, 1, 0)
        );
        assert_eq!(
            summary("\u{1b}[2m      Tests \u{1b}[22m 2 passed | 1 skipped (3)"),
            counts(2, 2, 0, 1)
        );
        assert_eq!(summary("Tests are fun"), None);
    }

    #[test]
    fn a_line_longer_than_the_bound_is_not_read_but_the_next_one_is() {
        let long = format!(
            "test result: ok. 5 passed; 0 failed; 0 ignored;{}\n",
            "x".repeat(MAX_LINE)
        );
        let out = format!("{long}test result: ok. 1 passed; 0 failed; 0 ignored;\n");
        assert_eq!(read(vec![], &out).tests, counts(1, 1, 0, 0));
    }

    #[test]
    fn reporter_options_go_to_the_run_and_not_the_routed_line() {
        let private = Path::new("/tmp/private");
        let go = Reporting::of(
            Runner::Go,
            "go test ./ -run ^TestA$",
            Path::new("."),
            private,
        );
        assert_eq!(go.run, "go test -json ./ -run ^TestA$");
        assert_eq!(go.added, ["-json"]);
        let vitest = Reporting::of(
            Runner::Npm,
            "npx --no vitest run a.test.ts",
            Path::new("."),
            private,
        );
        assert!(vitest
            .run
            .starts_with("npx --no vitest run a.test.ts --reporter=default"));
        assert_eq!(
            vitest.report,
            Some(ReportFile::Jest(private.join("report.json")))
        );
        for script in ["npm test", "npm run vitest", "pnpm run jest"] {
            let plain = Reporting::of(Runner::Npm, script, Path::new("."), private);
            assert_eq!((plain.run.as_str(), plain.added.len()), (script, 0));
        }
        let bun = Reporting::of(
            Runner::Bun,
            "bun run jest a.test.js",
            Path::new("."),
            private,
        );
        assert_eq!(bun.added[0], "--json");
        let cargo = Reporting::of(Runner::Cargo, "cargo test -p a", Path::new("."), private);
        assert!(cargo.added.is_empty() && cargo.report.is_none());
    }
}
