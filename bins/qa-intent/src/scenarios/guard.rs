//! The guard scenario: a test the change wrote in is evidence its author expects it to
//! pass, so a changed test no other scenario of the intent cites gets one scenario that
//! runs it as the commit left it.

use std::collections::BTreeSet;

use super::*;

/// Most uncited test files one guard scenario names.
const MAX_FILES: usize = 6;
/// Most changed tests of one file it names.
const MAX_TESTS_PER_FILE: usize = 3;

/// One uncited test file: where the change wrote in it, and what it is.
struct Uncited<'a> {
    file: &'a str,
    /// The changed tests the change wrote in, with the first line it wrote in each.
    tests: Vec<(String, u32, Option<&'a TestContract>)>,
    /// The line cited when no changed test of the file holds a written line: the first
    /// one that is not an import, else the first.
    line: u32,
    /// A compile-test case (trybuild's `tests/ui/*.rs`): its harness compiles it.
    case: Option<Case>,
}

impl Uncited<'_> {
    /// The compile-test case a file is or records the output of: `x.rs` for `x.stderr`.
    fn case_file(&self) -> String {
        match recorded_output(self.file) {
            Some(stem) => format!("{stem}.rs"),
            None => self.file.to_string(),
        }
    }
}

/// The path without extension of a compile-test case's recorded output
/// (`tests/ui/x.stderr`, `tests/ui/x.stdout`).
fn recorded_output(file: &str) -> Option<&str> {
    file.strip_suffix(".stderr")
        .or_else(|| file.strip_suffix(".stdout"))
}

/// What a compile-test case is expected to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Case {
    /// It must fail to compile with the error its `.stderr` file records.
    Fails,
    /// It must compile.
    Compiles,
}

impl Ctx<'_> {
    /// One scenario for the intent's changed tests that no scenario in `made` cites at a
    /// line the change wrote; none when every changed test is cited already.
    pub(super) fn guard(&self, made: &[Scenario]) -> Option<Scenario> {
        let cited: BTreeSet<(&str, u32)> = made
            .iter()
            .flat_map(|s| s.evidence.iter())
            .map(|e| (e.file.as_str(), e.line))
            .collect();
        // A file no scenario cites at a written line, or one with a changed test none of
        // whose written lines is cited (a scenario quoting one test of a file says
        // nothing of the others the change wrote).
        let mut files: Vec<(&String, &Vec<(u32, String)>)> = self
            .intent
            .written_tests
            .iter()
            .filter(|(file, lines)| {
                let is_cited = |l: u32| cited.contains(&(file.as_str(), l));
                !lines.iter().any(|(l, _)| is_cited(*l))
                    || self.changed_tests_of(file).iter().any(|t| {
                        let mine: Vec<u32> = lines
                            .iter()
                            .map(|(l, _)| *l)
                            .filter(|l| (t.line..=t.end).contains(l))
                            .collect();
                        !mine.is_empty() && !mine.iter().any(|l| is_cited(*l))
                    })
            })
            .collect();
        // Test code first: a recorded output or a data file is read by a test, and the
        // test is what runs.
        files.sort_by_key(|(file, _)| crate::trees::Grammar::of(file).is_none());
        let mut uncited: Vec<Uncited> = Vec::new();
        for (file, lines) in files {
            let u = self.uncited(file, lines, &cited);
            // A case's recorded output is the case's evidence: named once, by the case.
            let named = |o: &Uncited| o.case.is_some() && o.case_file() == u.case_file();
            if uncited.len() < MAX_FILES && !(u.case.is_some() && uncited.iter().any(named)) {
                uncited.push(u);
            }
        }
        if uncited.is_empty() {
            return self.shortened_guard(made);
        }
        let mut steps = Vec::new();
        let mut assertions = Vec::new();
        let mut evidence = Vec::new();
        for u in &uncited {
            match (u.case, u.tests.as_slice()) {
                (Some(case), _) => {
                    let case_file = u.case_file();
                    steps.push(format!(
                        "Build the compile-test case {case_file} with the crate's UI test harness (trybuild)"
                    ));
                    assertions.push(match case {
                        Case::Fails => format!(
                            "{case_file} fails to compile with the error its `.stderr` file records"
                        ),
                        Case::Compiles => format!("{case_file} compiles"),
                    });
                    evidence.push(self.written_here(u.file, u.line, "compile-test case"));
                }
                (None, []) => {
                    // No test of the file is read as changed: it may hold tests, or
                    // support them (helpers, fixtures, recorded outputs).
                    steps.push(format!(
                        "Run the tests in or using {}, which the commit changed",
                        u.file
                    ));
                    assertions.push(format!("The tests in or using {} pass", u.file));
                    evidence.push(self.written_here(u.file, u.line, "test file"));
                }
                (None, tests) => {
                    let names: Vec<String> =
                        tests.iter().map(|(n, _, _)| format!("`{n}`")).collect();
                    steps.push(format!(
                        "Run the changed test{} {} in {}",
                        if names.len() == 1 { "" } else { "s" },
                        names.join(", "),
                        u.file
                    ));
                    for (name, line, contract) in tests {
                        assertions.push(match contract.and_then(|c| c.expects.first()) {
                            Some(e) => format!("Test `{name}` passes, expecting {}", e.text),
                            None => format!("Test `{name}` passes"),
                        });
                        evidence.push(self.written_here(u.file, *line, &format!("test `{name}`")));
                    }
                }
            }
        }
        steps
            .push("Leave the tests as the commit wrote them: do not edit them to pass".to_string());
        let files: Vec<&str> = uncited.iter().map(|u| u.file).collect();
        let mut scenario = self.scenario(
            format!(
                "The changed tests pass as the commit left them: {}",
                files.join(", ")
            ),
            ScenarioKind::Primary,
            Focus::Verification,
            steps,
            assertions,
            evidence,
            None,
        );
        // The tests hold the author's expectations: a regression check, whatever the
        // intent's authority.
        scenario.test_class = TestClass::Regression;
        Some(scenario)
    }

    /// With no scenario made at all, one that runs the test files the change only removed
    /// lines from: the tests left must still pass, and a commit that ships a test gets a
    /// scenario. Cited where the first removal was (no written line to cite).
    fn shortened_guard(&self, made: &[Scenario]) -> Option<Scenario> {
        let shortened = &self.intent.shortened_tests;
        if !made.is_empty() || shortened.is_empty() {
            return None;
        }
        let files: Vec<(&str, u32, &str)> = shortened
            .iter()
            .take(MAX_FILES)
            .map(|(f, (l, removed))| (f.as_str(), *l, removed.as_str()))
            .collect();
        let names: Vec<&str> = files.iter().map(|(f, _, _)| *f).collect();
        let more = shortened.len() - files.len();
        let listed = match more {
            0 => names.join(", "),
            n => format!("{} and {n} more", names.join(", ")),
        };
        let mut scenario = self.scenario(
            format!("The changed tests pass as the commit left them: {listed}"),
            ScenarioKind::Primary,
            Focus::Verification,
            vec![
                format!("Run the tests in {listed}, which the commit edited"),
                "Leave the tests as the commit wrote them: do not edit them to pass".to_string(),
            ],
            names
                .iter()
                .map(|f| format!("Every test in {f} passes"))
                .collect(),
            files
                .iter()
                .map(|(f, l, removed)| Evidence {
                    file: f.to_string(),
                    line: *l,
                    relation: Relation::Supporting,
                    stage: Some(Stage::ObservableOutcome),
                    text: match removed {
                        &"" => "test file edited here".to_string(),
                        r => format!("removed here: {r}"),
                    },
                })
                .collect(),
            Some("The commit only took lines out of these tests: no line it wrote says what they check.".to_string()),
        );
        scenario.test_class = TestClass::Regression;
        Some(scenario)
    }

    /// The changed tests of test `file`, as its delta reads them.
    fn changed_tests_of(&self, file: &str) -> &[qa_syntax::suite::Test] {
        self.intent
            .deltas
            .get(file)
            .map(|d| d.changed_tests.as_slice())
            .unwrap_or_default()
    }

    /// Where the change wrote in test `file` (`lines`: its written lines with text): its
    /// changed tests that no scenario cites at a written line (`cited`).
    fn uncited<'a>(
        &'a self,
        file: &'a str,
        lines: &'a [(u32, String)],
        cited: &BTreeSet<(&str, u32)>,
    ) -> Uncited<'a> {
        let delta = self.intent.deltas.get(file);
        let written = |from: u32, to: u32| {
            lines
                .iter()
                .map(|(l, _)| *l)
                .find(|l| (from..=to).contains(l))
        };
        let cited_in = |from: u32, to: u32| {
            lines
                .iter()
                .any(|(l, _)| (from..=to).contains(l) && cited.contains(&(file, *l)))
        };
        let tests: Vec<(String, u32, Option<&TestContract>)> = self
            .changed_tests_of(file)
            .iter()
            .filter_map(|t| {
                let line = written(t.line, t.end)?;
                if cited_in(t.line, t.end) {
                    return None;
                }
                let contract = self
                    .intent
                    .data
                    .contracts
                    .iter()
                    .find(|c| c.file == file && c.line == t.line);
                Some((t.name.clone(), line, contract))
            })
            .take(MAX_TESTS_PER_FILE)
            .collect();
        let imports = |l: u32| {
            delta
                .and_then(|d| d.line_facts.get(&l))
                .is_some_and(|f| !f.imports.is_empty())
        };
        let line = lines
            .iter()
            .map(|(l, _)| *l)
            .find(|&l| !imports(l))
            .unwrap_or(lines[0].0);
        Uncited {
            file,
            case: (tests.is_empty())
                .then(|| compile_case(file, lines, &self.intent.data.files))
                .flatten(),
            tests,
            line,
        }
    }

    /// Evidence at `line` of test `file`, a line the change wrote in `what`.
    fn written_here(&self, file: &str, line: u32, what: &str) -> Evidence {
        Evidence {
            file: file.to_string(),
            line,
            relation: Relation::Direct,
            stage: Some(Stage::ObservableOutcome),
            text: format!("{what} changed here"),
        }
    }
}

/// Whether Rust test file `file` is a compile-test case and what it must do: a file in a
/// folder below `tests/` (not a test target itself) with a main function the change
/// wrote, or a `.stderr` file of the same stem among the changed `files`. A case with a
/// `.stderr` file, or in a `fail` folder, must fail to compile; another must compile.
fn compile_case(file: &str, lines: &[(u32, String)], files: &[String]) -> Option<Case> {
    // The recorded error of a case (`x.stderr` beside `x.rs`): the case must fail so.
    if let Some(stem) = recorded_output(file) {
        let parts: Vec<&str> = file.split('/').collect();
        let below_tests = parts.contains(&"tests");
        // A folder of compile-test cases: `ui`, `derive_ui`, `fail`, `compile-fail`.
        let cases = parts.iter().any(|p| {
            *p == "ui"
                || p.ends_with("_ui")
                || p.ends_with("-ui")
                || matches!(*p, "fail" | "pass" | "compile-fail" | "compile_fail")
        });
        let beside = format!("{stem}.rs");
        return (below_tests && (files.contains(&beside) || cases)).then_some(Case::Fails);
    }
    let stem = file.strip_suffix(".rs")?;
    let below_tests = file
        .split('/')
        .collect::<Vec<_>>()
        .windows(3)
        .any(|w| w[0] == "tests");
    let stderr = format!("{stem}.stderr");
    let recorded = files.contains(&stderr);
    let has_main = lines.iter().any(|(_, t)| t.starts_with("fn main("));
    if !below_tests || !(recorded || has_main) {
        return None;
    }
    let fails = recorded || file.split('/').any(|part| part == "fail");
    Some(if fails { Case::Fails } else { Case::Compiles })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(texts: &[&str]) -> Vec<(u32, String)> {
        texts
            .iter()
            .enumerate()
            .map(|(i, t)| (i as u32 + 1, t.to_string()))
            .collect()
    }

    #[test]
    fn a_case_with_a_recorded_error_below_tests_must_fail_to_compile() {
        let files = vec![
            "macros/tests/typed_path/fail/catch_all.rs".to_string(),
            "macros/tests/typed_path/fail/catch_all.stderr".to_string(),
        ];
        let case = compile_case(&files[0], &lines(&["struct P;"]), &files);
        assert_eq!(case, Some(Case::Fails));
    }

    #[test]
    fn a_new_case_with_a_main_in_a_pass_folder_must_compile() {
        let file = "macros/tests/typed_path/pass/affixed.rs";
        let case = compile_case(file, &lines(&["struct P;", "fn main() {}"]), &[]);
        assert_eq!(case, Some(Case::Compiles));
    }

    #[test]
    fn a_recorded_error_in_a_folder_of_cases_names_its_case() {
        let file = "tests/derive_ui/bool_value_enum.stderr";
        let case = compile_case(file, &lines(&["error: oops"]), &[]);
        assert_eq!(case, Some(Case::Fails));
        assert_eq!(
            recorded_output(file),
            Some("tests/derive_ui/bool_value_enum")
        );
    }

    #[test]
    fn a_recorded_output_outside_a_folder_of_cases_is_no_compile_case() {
        // A command's snapshot beside no changed case.
        let file = "tests/snapshots/help.stderr";
        assert_eq!(compile_case(file, &lines(&["Usage: x"]), &[]), None);
    }

    #[test]
    fn a_test_target_or_a_support_module_is_no_compile_case() {
        // A test target directly in `tests/`, even with a main function.
        assert_eq!(
            compile_case("tests/cli.rs", &lines(&["fn main() {}"]), &[]),
            None
        );
        // A support module below `tests/` without a main or a recorded error.
        assert_eq!(
            compile_case("tests/common/mod.rs", &lines(&["pub fn env() {}"]), &[]),
            None
        );
        // Not Rust.
        assert_eq!(
            compile_case("tests/ui/fail/a.py", &lines(&["fn main() {}"]), &[]),
            None
        );
    }
}
