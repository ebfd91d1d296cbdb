//! What a scenario asks validation for: the files it rests on and the changed tests
//! known in them.

use crate::tree::{is_relative_inside, Tree};
use qa_records::change::{Evidence, IntentData, ScenarioData, TestContract};
use regex::Regex;
use std::sync::OnceLock;

/// A changed test known by name: from a changed-test contract, or a changed line that
/// declares one (`def test_x(`, `func TestX(`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownTest {
    pub file: String,
    /// The title a runner filters by (a JS title string, else the function name).
    pub name: String,
    /// The function or case name (`parses_ok`, `test_login`, `TestSort`).
    pub ident: String,
    /// Where it is declared at head; 0 when unknown.
    pub line: u32,
    /// Marked skipped by its framework (`#[ignore]`, `test.skip`): a runner that can be
    /// asked to run it anyway must be, or the command naming it runs nothing.
    pub ignored: bool,
    /// Expanded by its runner into cases named under its name (rstest's `#[case]`): its
    /// name matched exactly runs none of them.
    pub cases: bool,
}

/// The files and changed tests discovery looks at.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Targets {
    /// Repository-relative, in first-seen order, no duplicates.
    pub files: Vec<String>,
    pub tests: Vec<KnownTest>,
}

/// A path that was not looked at, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skipped {
    /// Absolute, `..`, or otherwise not a plain repository-relative path.
    Outside(String),
    /// Inside a nested repository (the second field), whose build files are not ours.
    Nested(String, String),
}

/// The parts of an intent discovery uses.
#[derive(Debug, Clone, Default)]
pub struct IntentFiles {
    pub files: Vec<String>,
    pub contracts: Vec<TestContract>,
}

impl From<&IntentData> for IntentFiles {
    fn from(intent: &IntentData) -> Self {
        IntentFiles {
            files: intent.files.clone(),
            contracts: intent.contracts.clone(),
        }
    }
}

impl Targets {
    /// The located evidence files of `scenario`, then its intent's files and changed
    /// tests. Paths outside the root or inside nested repositories are left out.
    pub fn of(
        scenario: &ScenarioData,
        intent: Option<&IntentFiles>,
        tree: &Tree,
    ) -> (Targets, Vec<Skipped>) {
        let mut candidates: Vec<&str> = scenario
            .evidence
            .iter()
            .filter(|e| e.line > 0)
            .map(|e| e.file.as_str())
            .collect();
        if let Some(intent) = intent {
            candidates.extend(intent.files.iter().map(String::as_str));
            candidates.extend(intent.contracts.iter().map(|c| c.file.as_str()));
        }
        let mut targets = Targets::default();
        let mut skipped = Vec::new();
        for file in candidates {
            if targets.files.iter().any(|f| f == file)
                || skipped.iter().any(|s| match s {
                    Skipped::Outside(p) | Skipped::Nested(p, _) => p == file,
                })
            {
                continue;
            }
            if !is_relative_inside(file) {
                skipped.push(Skipped::Outside(file.to_string()));
            } else if let Some(repo) = tree.nested_repo_of(file) {
                skipped.push(Skipped::Nested(file.to_string(), repo));
            } else {
                targets.files.push(file.to_string());
            }
        }
        let declared = intent
            .into_iter()
            .flat_map(|i| &i.contracts)
            .map(|c| KnownTest {
                file: c.file.clone(),
                name: c.title.clone(),
                ident: c.name.clone().unwrap_or_else(|| c.title.clone()),
                line: c.line,
                ignored: c.skipped.is_some(),
                cases: c.cases,
            });
        let from_lines = scenario.evidence.iter().filter_map(declared_test);
        for test in declared.chain(from_lines) {
            let known = targets.tests.iter().any(|t| {
                (&t.file, &t.name, &t.ident, t.line)
                    == (&test.file, &test.name, &test.ident, test.line)
            });
            if targets.files.contains(&test.file) && !known {
                targets.tests.push(test);
            }
        }
        (targets, skipped)
    }

    /// Moves the files that hold a test the change adds (its declaration on a line
    /// `added` says the change wrote) before the others, each group in its order: a new
    /// test is written for this change, so the commands that run it come first among
    /// commands of one scope, before tests the change only adapts.
    pub fn lead_with_new_tests(&mut self, added: impl Fn(&str, u32) -> bool) {
        let new: Vec<&str> = self
            .tests
            .iter()
            .filter(|t| t.line > 0 && added(&t.file, t.line))
            .map(|t| t.file.as_str())
            .collect();
        let (mut first, rest): (Vec<String>, Vec<String>) = self
            .files
            .iter()
            .cloned()
            .partition(|f| new.contains(&f.as_str()));
        first.extend(rest);
        self.files = first;
    }

    /// The names of the changed tests known in `file`.
    pub fn tests_in(&self, file: &str) -> Vec<&str> {
        self.tests
            .iter()
            .filter(|t| t.file == file)
            .map(|t| t.name.as_str())
            .collect()
    }

    /// The changed tests known in `file`.
    pub fn known_in<'a>(&'a self, file: &'a str) -> impl Iterator<Item = &'a KnownTest> + 'a {
        self.tests.iter().filter(move |t| t.file == file)
    }
}

/// A test a changed line declares: `def test_x(` in Python, `func TestX(` in a Go test.
fn declared_test(evidence: &Evidence) -> Option<KnownTest> {
    static PY: OnceLock<Regex> = OnceLock::new();
    static GO: OnceLock<Regex> = OnceLock::new();
    static JVM: OnceLock<Regex> = OnceLock::new();
    if evidence.line == 0 {
        return None;
    }
    let pattern = if evidence.file.ends_with(".py") {
        PY.get_or_init(|| Regex::new(r"^\s*(?:async\s+)?def\s+(test\w*)\s*\(").expect("valid"))
    } else if evidence.file.ends_with("_test.go") {
        GO.get_or_init(|| Regex::new(r"^\s*func\s+(Test\w*)\s*\(").expect("valid"))
    } else if crate::jvm::test_class(&evidence.file).is_some() {
        // A method of a JUnit test class (`void rejectsExpired()`, `fun rejectsExpired()`):
        // the class is a test class by name, so its `void` methods are its tests.
        JVM.get_or_init(|| {
            Regex::new(r"^\s*(?:public\s+|protected\s+)?(?:void|fun)\s+([A-Za-z_]\w*)\s*\(\s*\)")
                .expect("valid")
        })
    } else {
        return None;
    };
    let name = pattern.captures(&evidence.text)?.get(1)?.as_str();
    Some(KnownTest {
        file: evidence.file.clone(),
        name: name.to_string(),
        ident: name.to_string(),
        line: evidence.line,
        ignored: false,
        cases: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use qa_records::change::{Authority, Focus, Priority, Relation, ScenarioKind, TestClass};

    fn evidence(file: &str, line: u32, text: &str) -> Evidence {
        Evidence {
            file: file.into(),
            line,
            relation: Relation::Direct,
            stage: None,
            text: text.into(),
        }
    }

    fn scenario(evidence: Vec<Evidence>) -> ScenarioData {
        ScenarioData {
            intent: String::new(),
            title: "t".into(),
            kind: ScenarioKind::Primary,
            priority: Priority::Critical,
            steps: vec![],
            assertions: vec![],
            evidence,
            proof_gap: None,
            authority: Authority::Inference,
            test_class: TestClass::Golden,
            focus: Focus::Product,
            reaches: Vec::new(),
        }
    }

    fn tree() -> (tempfile::TempDir, Tree) {
        let dir = tempfile::tempdir().unwrap();
        let tree = Tree::open(dir.path()).unwrap();
        (dir, tree)
    }

    #[test]
    fn files_come_from_located_evidence_then_the_intent() {
        let (_d, tree) = tree();
        let intent = IntentFiles {
            files: vec!["b.rs".into(), "a.rs".into()],
            contracts: vec![TestContract {
                file: "tests/t.rs".into(),
                line: 3,
                title: "works".into(),
                framework: "rust".into(),
                ..Default::default()
            }],
        };
        let s = scenario(vec![evidence("a.rs", 4, "x"), evidence("abc123", 0, "fix")]);
        let (targets, skipped) = Targets::of(&s, Some(&intent), &tree);
        assert_eq!(targets.files, ["a.rs", "b.rs", "tests/t.rs"]);
        assert_eq!(targets.tests_in("tests/t.rs"), ["works"]);
        assert!(skipped.is_empty());
    }

    #[test]
    fn a_changed_test_marked_skipped_is_known_as_ignored_and_a_plain_one_is_not() {
        let (_d, tree) = tree();
        let mut slow = contract("tests/t.rs", 3, "slow");
        slow.skipped = Some("#[ignore]".into());
        let intent = IntentFiles {
            files: vec!["a.rs".into()],
            contracts: vec![slow, contract("tests/t.rs", 9, "fast")],
        };
        let s = scenario(vec![evidence("a.rs", 4, "x")]);
        let (targets, _) = Targets::of(&s, Some(&intent), &tree);
        let ignored: Vec<(&str, bool)> = targets
            .tests
            .iter()
            .map(|t| (t.ident.as_str(), t.ignored))
            .collect();
        assert_eq!(ignored, [("slow", true), ("fast", false)]);
    }

    fn contract(file: &str, line: u32, title: &str) -> TestContract {
        TestContract {
            file: file.into(),
            line,
            title: title.into(),
            framework: "rust".into(),
            ..Default::default()
        }
    }

    #[test]
    fn a_file_with_a_test_the_change_adds_leads_the_files() {
        let (_d, tree) = tree();
        let intent = IntentFiles {
            files: vec![
                "src/assets.rs".into(),
                "src/lib.rs".into(),
                "tests/cli.rs".into(),
            ],
            contracts: vec![
                contract("src/assets.rs", 40, "adapted"),
                contract("tests/cli.rs", 90, "added"),
            ],
        };
        let s = scenario(vec![evidence("src/assets.rs", 12, "x")]);
        let (mut targets, _) = Targets::of(&s, Some(&intent), &tree);
        targets.lead_with_new_tests(|file, line| file == "tests/cli.rs" && line >= 88);
        assert_eq!(
            targets.files,
            ["tests/cli.rs", "src/assets.rs", "src/lib.rs"]
        );
    }

    #[test]
    fn files_whose_tests_the_change_only_adapts_keep_their_order() {
        let (_d, tree) = tree();
        let intent = IntentFiles {
            files: vec!["src/assets.rs".into(), "tests/cli.rs".into()],
            contracts: vec![
                contract("src/assets.rs", 40, "adapted"),
                contract("tests/cli.rs", 90, "adapted too"),
            ],
        };
        let s = scenario(vec![evidence("src/assets.rs", 12, "x")]);
        let (mut targets, _) = Targets::of(&s, Some(&intent), &tree);
        // The changed lines are inside the tests, none on a declaration.
        targets.lead_with_new_tests(|_, line| line == 41 || line == 93);
        assert_eq!(targets.files, ["src/assets.rs", "tests/cli.rs"]);
    }

    #[test]
    fn paths_outside_the_root_are_skipped() {
        let (_d, tree) = tree();
        let s = scenario(vec![evidence("../etc/x", 1, ""), evidence("ok.py", 1, "")]);
        let (targets, skipped) = Targets::of(&s, None, &tree);
        assert_eq!(targets.files, ["ok.py"]);
        assert_eq!(skipped, [Skipped::Outside("../etc/x".into())]);
    }

    #[test]
    fn files_in_nested_repositories_are_skipped() {
        let (dir, tree) = tree();
        std::fs::create_dir_all(dir.path().join("sub/.git")).unwrap();
        let s = scenario(vec![evidence("sub/x.rs", 1, ""), evidence("x.rs", 1, "")]);
        let (targets, skipped) = Targets::of(&s, None, &tree);
        assert_eq!(targets.files, ["x.rs"]);
        assert_eq!(skipped, [Skipped::Nested("sub/x.rs".into(), "sub".into())]);
    }

    #[test]
    fn a_changed_python_or_go_test_declaration_is_a_known_test() {
        let (_d, tree) = tree();
        let s = scenario(vec![
            evidence(
                "tests/test_login.py",
                3,
                "    async def test_expired(client):",
            ),
            evidence("auth/login_test.go", 9, "func TestExpired(t *testing.T) {"),
            evidence("auth/login.go", 9, "func TestLike() {"),
            evidence("tests/test_login.py", 5, "def helper():"),
        ]);
        let (targets, _) = Targets::of(&s, None, &tree);
        assert_eq!(targets.tests_in("tests/test_login.py"), ["test_expired"]);
        assert_eq!(targets.tests_in("auth/login_test.go"), ["TestExpired"]);
        assert!(targets.tests_in("auth/login.go").is_empty());
    }

    #[test]
    fn a_void_method_of_a_junit_test_class_is_a_changed_test_and_of_another_class_is_not() {
        let test = evidence(
            "src/test/java/shop/LoginTest.java",
            12,
            "    void rejectsExpiredToken() {",
        );
        assert_eq!(
            declared_test(&test).map(|t| t.ident),
            Some("rejectsExpiredToken".to_string())
        );
        let kotlin = evidence("src/test/kotlin/CartTests.kt", 3, "    fun addsItem() {");
        assert!(declared_test(&kotlin).is_some());
        let main = evidence(
            "src/main/java/shop/Login.java",
            12,
            "    void rejectsExpiredToken() {",
        );
        assert_eq!(declared_test(&main), None);
        let call = evidence(
            "src/test/java/shop/LoginTest.java",
            13,
            "        login.reject();",
        );
        assert_eq!(declared_test(&call), None);
    }
}
