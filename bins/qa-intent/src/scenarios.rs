//! Runner-independent QA scenarios from an intent's located facts, shaped by the role of
//! the files they come from: product journeys only from product sources. The product
//! rules live one per scenario kind in the submodules.

mod boundary;
mod failure;
mod guard;
mod primary;
mod state;

use qa_records::change::{
    Authority, Evidence, Exercised, Expected, Focus, Priority, Relation, Role, ScenarioData,
    ScenarioKind, Stage, TestClass, TestContract,
};

use crate::deltas::{At, DeletedTest, FileDelta};
use crate::intents::Intent;
use crate::lifecycle::{is_compound, Fact, FactKind};
use crate::trees::ExitKind;
use qa_records::steps::{action as action_step, given as given_step, trigger as trigger_step};
use regex::Regex;
use std::sync::LazyLock;

/// A located tree fact with the path of its file.
type InFile<'a> = (&'a str, &'a At);

/// A scenario before it is tied to its intent record.
pub type Scenario = ScenarioData;

/// Most evidence items kept per scenario.
const MAX_EVIDENCE: usize = 12;
/// Most failure, boundary or state-transition scenarios per intent.
const MAX_EDGE: usize = 3;

/// Every scenario of an intent, and the guard of its uncited changed tests; cleanup
/// intents have none.
pub fn for_intent(intent: &Intent) -> Vec<Scenario> {
    let d = &intent.data;
    if d.cleanup {
        return Vec::new();
    }
    let mut out = Vec::new();
    let facts_of = |role: Role| -> Vec<&Fact> {
        intent
            .facts
            .iter()
            .filter(|(f, _)| intent.roles.get(&f.at.file) == Some(&role))
            .map(|(f, _)| f)
            .collect()
    };
    let weak = |f: &Fact| intent.facts.iter().any(|(g, w)| *w && g == f);
    let ctx = Ctx {
        intent,
        weak: &weak,
    };

    if d.focus == Focus::Verification {
        // No changed test title located: the guard, which runs the file where the change
        // wrote in it (or only took lines out), says more than "0 test(s)".
        if d.contracts.is_empty() {
            if let Some(guard) = ctx.guard(&[]) {
                return vec![guard];
            }
        }
        out.push(ctx.verification());
        out.extend(ctx.guard(&out));
        return out;
    }
    let product = facts_of(Role::Product);
    let has = |role: Role| intent.roles.values().any(|&r| r == role);
    // Product journeys need product lines, unless no other behaviour source is there to
    // explain the change (then the commit wording stands, with its proof gap).
    let journey = has(Role::Product)
        && (!product.is_empty() || !(has(Role::Command) || has(Role::AnalysisRule)));
    if journey {
        out.extend(ctx.product(&product));
    }
    let command = facts_of(Role::Command);
    if intent.roles.values().any(|&r| r == Role::Command) {
        out.extend(ctx.command(&command));
        if !journey {
            out.extend(ctx.removed_exits(&ctx.oracle()));
        }
    }
    let rules = facts_of(Role::AnalysisRule);
    if intent.roles.values().any(|&r| r == Role::AnalysisRule) {
        out.extend(ctx.controls(&rules));
    }
    // Ignore lists (`.gitignore`, `.dockerignore`, ...) decide which files exist, not
    // what the product does at run time.
    let settings: Vec<&Fact> = facts_of(Role::Configuration)
        .into_iter()
        .filter(|f| !is_ignore_list(&f.at.file))
        .collect();
    if !settings.is_empty() {
        out.extend(ctx.configuration(&settings));
    }
    let workflow = facts_of(Role::RepositoryWorkflow);
    if !workflow.is_empty() {
        out.push(ctx.workflow(&workflow));
    }
    // Whatever the roles made, a changed test none of it cites still says what the
    // author expects: it gets the scenario that runs it.
    out.extend(ctx.guard(&out));
    out
}

/// An intent's product facts, by what they are.
struct ProductFacts<'f> {
    all: &'f [&'f Fact],
    triggers: Vec<&'f Fact>,
    conditions: Vec<&'f Fact>,
    actions: Vec<&'f Fact>,
    effects: Vec<&'f Fact>,
    outcomes: Vec<&'f Fact>,
    /// New error outcomes: a message moved or renamed along (also on a removed line) is
    /// no new failure.
    errors: Vec<&'f Fact>,
    durable: Vec<&'f Fact>,
    states: Vec<&'f Fact>,
}

impl<'f> ProductFacts<'f> {
    fn of(all: &'f [&'f Fact]) -> Self {
        let of = |pred: &dyn Fn(&FactKind) -> bool| -> Vec<&'f Fact> {
            all.iter().copied().filter(|f| pred(&f.kind)).collect()
        };
        ProductFacts {
            all,
            triggers: of(&|k| *k == FactKind::Trigger),
            conditions: of(&|k| matches!(k, FactKind::Condition | FactKind::Comparison)),
            actions: of(&|k| *k == FactKind::Call),
            effects: of(&|k| *k == FactKind::SideEffect),
            outcomes: of(&|k| matches!(k, FactKind::Outcome { error: false })),
            errors: of(&|k| matches!(k, FactKind::Outcome { error: true }))
                .into_iter()
                .filter(|f| !f.preexisting && !is_placeholder_only(&f.text))
                .collect(),
            durable: of(&|k| matches!(k, FactKind::State { durable: true, .. })),
            states: of(&|k| matches!(k, FactKind::State { .. })),
        }
    }
}

struct Ctx<'a> {
    intent: &'a Intent,
    weak: &'a dyn Fn(&Fact) -> bool,
}

impl Ctx<'_> {
    // One argument per scenario field keeps every call site readable as a table row.
    #[allow(clippy::too_many_arguments)]
    fn scenario(
        &self,
        title: String,
        kind: ScenarioKind,
        focus: Focus,
        steps: Vec<String>,
        assertions: Vec<String>,
        evidence: Vec<Evidence>,
        proof_gap: Option<String>,
    ) -> Scenario {
        let d = &self.intent.data;
        let test_class = if d.authority == Authority::TeamPolicy {
            TestClass::Golden
        } else if kind == ScenarioKind::Primary {
            TestClass::Regression
        } else {
            TestClass::Edge
        };
        let tested = |e: &Evidence| {
            self.intent.roles.get(&e.file) == Some(&Role::Test)
                || d.contracts.iter().any(|c| c.file == e.file)
                || self.is_test_code(&e.file, e.line)
        };
        let mut evidence = within_limit(evidence, MAX_EVIDENCE, tested);
        if let Some((oid, wording)) = &self.intent.wording {
            evidence.push(Evidence {
                file: oid.clone(),
                line: 0,
                relation: Relation::Contextual,
                stage: None,
                text: wording.clone(),
            });
        }
        ScenarioData {
            intent: String::new(),
            title,
            kind,
            priority: if self.intent.critical {
                Priority::Critical
            } else {
                Priority::Recommended
            },
            steps,
            assertions,
            evidence,
            proof_gap,
            authority: d.authority,
            test_class,
            focus,
            reaches: Vec::new(),
        }
    }

    /// Evidence for a fact: `relation` unless the line sits in a shared file without this
    /// intent's vocabulary, which makes it supporting at most.
    fn evidence(&self, f: &Fact, relation: Relation) -> Evidence {
        let relation = if (self.weak)(f) && relation == Relation::Direct {
            Relation::Supporting
        } else {
            relation
        };
        Evidence {
            file: f.at.file.clone(),
            line: f.at.line,
            relation,
            stage: Some(f.stage),
            text: f.text.clone(),
        }
    }

    /// The commit wording's clauses of `stage`, as sentences: a trigger clause ("when
    /// asked") is the moment to start from, an action clause the thing to do.
    fn commit_steps(&self, stage: Stage) -> Vec<String> {
        self.intent
            .data
            .lifecycle
            .iter()
            .filter(|s| s.stage == stage && s.evidence.is_empty())
            .map(|s| match stage {
                Stage::Trigger => format!("Reproduce what the commit describes: {}", s.text),
                _ if s.text.split_whitespace().count() >= 2 => crate::intents::capitalized(&s.text),
                _ => format!("Perform what the commit names: {}", s.text),
            })
            .collect()
    }

    /// The product scenarios, one small rule per kind: the journey (`primary`), its
    /// failures (`failure`), limits (`boundary`) and states (`state`).
    fn product(&self, facts: &[&Fact]) -> Vec<Scenario> {
        let f = ProductFacts::of(facts);
        let oracle = self.oracle();
        let mut out = vec![self.primary(&f, &oracle)];
        self.failures(&f, &oracle, &mut out);
        out.extend(self.boundaries(&f));
        out.extend(self.persistence(&f));
        self.states(&f, &mut out);
        out
    }

    fn command(&self, facts: &[&Fact]) -> Vec<Scenario> {
        let args: Vec<&Fact> = facts
            .iter()
            .copied()
            .filter(|f| f.kind == FactKind::Argument)
            .collect();
        let output: Vec<&Fact> = facts
            .iter()
            .copied()
            .filter(|f| f.kind == FactKind::Output)
            .collect();
        let exits: Vec<&Fact> = facts
            .iter()
            .copied()
            .filter(|f| f.kind == FactKind::ExitCode)
            .collect();
        // A successful exit proves the primary run; only failing exits prove the failure.
        let (ok_exits, failing_exits): (Vec<&Fact>, Vec<&Fact>) = exits
            .iter()
            .copied()
            .partition(|f| is_success_exit(&f.text));
        // Writes to stderr belong to the failure contract, stdout to the primary one.
        let (stderr, output): (Vec<&Fact>, Vec<&Fact>) =
            output.into_iter().partition(|f| is_stderr_write(&f.text));
        let errors: Vec<&Fact> = facts
            .iter()
            .copied()
            .filter(|f| matches!(f.kind, FactKind::Outcome { error: true }))
            .collect();
        let files = self.files_with(Role::Command);
        let oracle = self.oracle();
        // The changed tests are the oracle whatever the role: without a CLI fact they
        // still say what a run must show. A command file changed elsewhere (a ticker, a
        // helper) with no changed test has no contract to test.
        if args.is_empty() && output.is_empty() && exits.is_empty() && errors.is_empty() {
            return self.tested_command(&files, &oracle).into_iter().collect();
        }

        let mut evidence: Vec<Evidence> = output
            .iter()
            .chain(ok_exits.iter())
            .map(|f| self.evidence(f, Relation::Direct))
            .collect();
        evidence.extend(args.iter().map(|f| self.evidence(f, Relation::Supporting)));
        let quoted = &oracle[..oracle.len().min(3)];
        evidence.extend(quoted.iter().map(|(c, e)| self.expected_evidence(c, e)));
        evidence.extend(self.changed_test_evidence(quoted));
        let gap = (output.is_empty() && exits.is_empty() && oracle.is_empty())
            .then(|| "No changed line shows the command's stdout, stderr or exit code; state what a run with the changed arguments prints and returns.".to_string());
        let primary = self.scenario(
            format!(
                "Command arguments, stdout and exit code: {}",
                self.intent.data.title
            ),
            ScenarioKind::Primary,
            Focus::Command,
            vec![
                format!(
                    "Run the command in {files} with the changed arguments{}",
                    list_lines(&args)
                ),
                "Capture stdout, stderr and the exit code".to_string(),
            ],
            if oracle.is_empty() {
                vec![
                    "stdout shows the documented result".to_string(),
                    "the exit code is 0".to_string(),
                ]
            } else {
                oracle
                    .iter()
                    .take(3)
                    .map(|(c, e)| format!("Test `{}` expects {}", test_name(c), e.text))
                    .collect()
            },
            evidence,
            gap,
        );
        let mut evidence: Vec<Evidence> = errors
            .iter()
            .chain(failing_exits.iter())
            .chain(stderr.iter())
            .map(|f| self.evidence(f, Relation::Direct))
            .collect();
        evidence.extend(args.iter().map(|f| self.evidence(f, Relation::Supporting)));
        let gap = (errors.is_empty() && failing_exits.is_empty())
            .then(|| "No changed line shows how bad arguments are reported; state the expected stderr and exit code.".to_string());
        let failure = self.scenario(
            format!("Invalid arguments: stderr explains and the exit code is non-zero ({files})"),
            ScenarioKind::Failure,
            Focus::Command,
            vec![
                "Run the command with a missing or malformed value for a changed argument"
                    .to_string(),
            ],
            vec![
                "stderr names the argument and the problem".to_string(),
                "the exit code is non-zero and stdout is empty".to_string(),
            ],
            evidence,
            gap,
        );
        vec![primary, failure]
    }

    /// What the changed tests of a command file expect, as a run of the command: the
    /// tests' expectations quoted, else the tests named (their checks are not read as
    /// values), their setup as the steps; none without a running changed test.
    fn tested_command(
        &self,
        files: &str,
        oracle: &[(&TestContract, &Expected)],
    ) -> Option<Scenario> {
        let running = self.running_tests();
        let first = oracle
            .first()
            .map(|(c, _)| *c)
            .or(running.first().copied())?;
        let at = format!("{}:{}", first.file, first.line);
        let mut steps = vec![match &first.setup {
            Some(setup) => format!(
                "Run the command in {files} the way test `{}` does ({at}): {setup}",
                test_name(first)
            ),
            None => format!(
                "Run the command in {files} the way test `{}` does ({at})",
                test_name(first)
            ),
        }];
        steps.push("Capture stdout, stderr and the exit code".to_string());
        let (assertions, mut evidence): (Vec<String>, Vec<Evidence>) = if oracle.is_empty() {
            running
                .iter()
                .take(3)
                .map(|c| {
                    (
                        format!("Changed test passes: {}", c.title),
                        Evidence {
                            file: c.file.clone(),
                            line: self.test_line(c),
                            relation: Relation::Supporting,
                            stage: Some(Stage::ObservableOutcome),
                            text: c.title.clone(),
                        },
                    )
                })
                .unzip()
        } else {
            oracle
                .iter()
                .take(3)
                .map(|(c, e)| {
                    (
                        format!("Test `{}` expects {}", test_name(c), e.text),
                        self.expected_evidence(c, e),
                    )
                })
                .unzip()
        };
        evidence.extend(self.changed_test_evidence(&oracle[..oracle.len().min(3)]));
        let gap = oracle.is_empty().then(|| {
            "The changed tests' checks were not read as values; state what a run prints and returns.".to_string()
        });
        Some(self.scenario(
            format!(
                "Command behaviour the changed tests expect: {}",
                self.intent.data.title
            ),
            ScenarioKind::Primary,
            Focus::Command,
            steps,
            assertions,
            evidence,
            gap,
        ))
    }

    fn controls(&self, facts: &[&Fact]) -> Vec<Scenario> {
        let files = self.files_with(Role::AnalysisRule);
        let evidence: Vec<Evidence> = facts
            .iter()
            .map(|f| self.evidence(f, Relation::Direct))
            .collect();
        let tested = !self.intent.data.contracts.is_empty();
        let gap = (!tested).then(|| {
            "No changed test shows an input the rule must report and one it must not.".to_string()
        });
        vec![
            self.scenario(
                format!(
                    "Positive control: the changed rule in {files} reports an input it must match"
                ),
                ScenarioKind::Primary,
                Focus::AnalysisRule,
                vec![
                    format!(
                        "Write an input the changed pattern{} must match",
                        list_lines(facts)
                    ),
                    "Run the analysis on it".to_string(),
                ],
                vec!["the rule reports the input".to_string()],
                evidence.clone(),
                gap.clone(),
            ),
            self.scenario(
                format!(
                    "Negative control: the changed rule in {files} stays silent on a near miss"
                ),
                ScenarioKind::Boundary,
                Focus::AnalysisRule,
                vec![
                    "Write an input close to the positive control that the rule must not match"
                        .to_string(),
                    "Run the analysis on it".to_string(),
                ],
                vec!["the rule reports nothing for it".to_string()],
                evidence,
                gap,
            ),
        ]
    }

    /// A CI definition's contract (its triggers and jobs), and the runtime check of the
    /// other changed settings; package metadata (authors, description, keywords) is
    /// neither.
    fn configuration(&self, facts: &[&Fact]) -> Vec<Scenario> {
        let (ci, runtime): (Vec<&Fact>, Vec<&Fact>) = facts
            .iter()
            .copied()
            .filter(|f| !is_package_metadata(&f.at.file, &f.text))
            .partition(|f| is_ci_definition(&f.at.file));
        let files_of = |facts: &[&Fact]| {
            let mut files: Vec<&str> = facts.iter().map(|f| f.at.file.as_str()).collect();
            files.dedup();
            files.truncate(3);
            files.join(", ")
        };
        let mut out = Vec::new();
        if !ci.is_empty() {
            // A CI definition has no runtime: its contract is its triggers and its steps.
            let files = files_of(&ci);
            out.push(
                self.scenario(
                    format!("CI verification: {files} runs on its triggers and its jobs pass"),
                    ScenarioKind::Primary,
                    Focus::Configuration,
                    vec![
                        format!("Push a branch or open a pull request that triggers {files}"),
                        "Follow every job and step the change touches".to_string(),
                    ],
                    vec![
                        "the workflow starts on the changed triggers".to_string(),
                        "every changed job and step passes".to_string(),
                    ],
                    ci.iter()
                        .take(4)
                        .map(|f| self.evidence(f, Relation::Supporting))
                        .collect(),
                    Some("Only a run of the CI definition proves it.".to_string()),
                ),
            );
        }
        if !runtime.is_empty() {
            let files = files_of(&runtime);
            out.push(self.scenario(
                format!("Build and runtime verification: {files}"),
                ScenarioKind::Primary,
                Focus::Configuration,
                vec![
                    "Build the project with the changed configuration".to_string(),
                    format!("Start it and check the changed settings take effect{}", list_lines(&runtime)),
                ],
                vec!["the build succeeds".to_string(), "the runtime uses the changed values".to_string()],
                runtime.iter().map(|f| self.evidence(f, Relation::Direct)).collect(),
                Some("A configuration line cannot show its runtime effect; a build and a run must confirm it.".to_string()),
            ));
        }
        out
    }

    fn workflow(&self, facts: &[&Fact]) -> Scenario {
        let files = self.files_with(Role::RepositoryWorkflow);
        self.scenario(
            format!("Workflow contract: {files} keeps its triggers, required fields and owners"),
            ScenarioKind::Primary,
            Focus::RepositoryWorkflow,
            vec![format!("Render or trigger {files}")],
            vec!["required metadata and sections are enforced as changed".to_string()],
            facts
                .iter()
                .map(|f| self.evidence(f, Relation::Direct))
                .collect(),
            Some("Only a run of the workflow or a rendered form proves it.".to_string()),
        )
    }

    fn verification(&self) -> Scenario {
        let d = &self.intent.data;
        let evidence: Vec<Evidence> = d
            .contracts
            .iter()
            .map(|c| Evidence {
                file: c.file.clone(),
                line: self.test_line(c),
                relation: Relation::Direct,
                stage: Some(Stage::ObservableOutcome),
                text: c.title.clone(),
            })
            .collect();
        let gap = d
            .contracts
            .is_empty()
            .then(|| "Test files changed, but no test title was located.".to_string());
        self.scenario(
            format!(
                "Changed test evidence: {} test(s) in {}",
                d.contracts.len(),
                self.files_with(Role::Test)
            ),
            ScenarioKind::Primary,
            Focus::Verification,
            vec!["Run the changed tests".to_string()],
            d.contracts
                .iter()
                .map(|c| match c.expects.first() {
                    Some(e) => format!("Test `{}` passes, expecting {}", test_name(c), e.text),
                    None => format!("Test `{}` passes", test_name(c)),
                })
                .collect(),
            evidence,
            with_removed_tests(with_skipped_tests(gap, &d.contracts), self.removed_tests()),
        )
    }

    /// Evidence for an expectation of a changed test, at the line the change wrote in it:
    /// its first line, or the line edited inside a multi-line assertion. An expectation
    /// the change did not write (a check after a changed set-up or call) supports the
    /// scenario; it is no changed line.
    fn expected_evidence(&self, c: &TestContract, e: &Expected) -> Evidence {
        let written = self
            .intent
            .deltas
            .get(&c.file)
            .and_then(|d| d.written_expectations.get(&e.line))
            .copied();
        Evidence {
            file: c.file.clone(),
            line: written.unwrap_or(e.line),
            relation: match written {
                Some(_) => Relation::Direct,
                None => Relation::Supporting,
            },
            stage: Some(Stage::ObservableOutcome),
            text: e.text.clone(),
        }
    }

    /// A line the change wrote in changed test `c`: its header when new, else its first
    /// expectation the change wrote (where it wrote in it), else the first added line of
    /// its body; none when the change only removed lines from it.
    fn changed_line(&self, c: &TestContract) -> Option<u32> {
        let d = self.intent.deltas.get(&c.file)?;
        let added = &d.added_lines;
        if added.contains(&c.line) {
            return Some(c.line);
        }
        if let Some(&at) = c
            .expects
            .iter()
            .find_map(|e| d.written_expectations.get(&e.line))
        {
            return Some(at);
        }
        d.changed_tests
            .iter()
            .find(|t| t.line == c.line)
            .and_then(|t| added.range(t.line..=t.end).next().copied())
    }

    /// The line at which a changed test is cited: a line the change wrote in it, else
    /// its header. A test whose body changed is evidence through what changed, not
    /// through its unchanged name.
    fn test_line(&self, c: &TestContract) -> u32 {
        self.changed_line(c).unwrap_or(c.line)
    }

    /// For the expectations a scenario quotes that the change did not write (context
    /// kept because it wrote none of the test's checks: a set-up, a call, a fixture
    /// changed), the line it did write in each such test: the evidence names what
    /// changed in the test, not only what stayed.
    fn changed_test_evidence(&self, quoted: &[(&TestContract, &Expected)]) -> Vec<Evidence> {
        let mut out: Vec<Evidence> = Vec::new();
        for (c, _) in quoted {
            let written = quoted.iter().any(|(o, e)| {
                o.file == c.file
                    && o.line == c.line
                    && self
                        .intent
                        .deltas
                        .get(&c.file)
                        .is_some_and(|d| d.written_expectations.contains_key(&e.line))
            });
            let Some(ev) = self.changed_here(c).filter(|_| !written) else {
                continue;
            };
            if !out.iter().any(|e| e.file == ev.file && e.line == ev.line) {
                out.push(ev);
            }
        }
        out
    }

    /// Evidence at the line the change wrote in changed test `c`, if any.
    fn changed_here(&self, c: &TestContract) -> Option<Evidence> {
        Some(Evidence {
            file: c.file.clone(),
            line: self.changed_line(c)?,
            relation: Relation::Supporting,
            stage: None,
            text: format!("test `{}` changed here", test_name(c)),
        })
    }

    /// Tests the change deletes, in any file of the intent.
    fn removed_tests(&self) -> impl Iterator<Item = (&str, &At)> {
        self.intent
            .deltas
            .iter()
            .flat_map(|(f, d)| d.removed_tests.iter().map(move |t| (f.as_str(), t)))
    }

    /// The first test the change deletes that expected something and was not skipped,
    /// with its file: the oracle of the behaviour a removal gives up.
    fn deleted_oracle(&self) -> Option<(&str, &DeletedTest)> {
        self.intent.deltas.iter().find_map(|(f, d)| {
            d.deleted_tests
                .iter()
                .find(|t| !t.test.expects.is_empty() && t.test.skipped.is_none())
                .map(|t| (f.as_str(), t))
        })
    }

    /// The intent's changed tests that are not skipped.
    fn running_tests(&self) -> Vec<&TestContract> {
        self.intent
            .data
            .contracts
            .iter()
            .filter(|c| c.skipped.is_none())
            .collect()
    }

    /// The expectations of the intent's changed tests that are not skipped, taken in
    /// turns (each test's first, then each test's second, ...) so that one long test does
    /// not hide the others.
    fn oracle(&self) -> Vec<(&TestContract, &Expected)> {
        let running = self.running_tests();
        let deepest = running.iter().map(|c| c.expects.len()).max().unwrap_or(0);
        let mut turns: Vec<(&TestContract, &Expected)> = (0..deepest)
            .flat_map(|k| {
                running
                    .iter()
                    .filter_map(move |c| c.expects.get(k).map(|e| (*c, e)))
            })
            .collect();
        // An expectation quoting a string the change adds to the product (the warning a
        // fix now emits) is the decisive one.
        // Then values over checks that carry none (`err` is nil, succeeds, throws a type),
        // and those over bare predicates (`x` holds).
        let literals = &self.intent.product_literals;
        turns.sort_by_key(|(_, e)| {
            (
                !literals.iter().any(|l| e.text.contains(l.as_str())),
                e.text.ends_with("` holds"),
                carries_no_value(&e.text),
            )
        });
        // Within a rank, an expectation showing the outcome an earlier one showed (`Some(x)`
        // again, for the other direction) tells a tester nothing new: the other outcome
        // (the `None` past the limit) comes first.
        let mut seen = std::collections::HashSet::new();
        let repeats: Vec<bool> = turns
            .iter()
            .map(|(_, e)| !seen.insert(outcome(&e.text)))
            .collect();
        let mut ranked: Vec<(usize, (&TestContract, &Expected))> =
            turns.into_iter().enumerate().collect();
        ranked.sort_by_key(|&(i, (_, e))| {
            (
                !literals.iter().any(|l| e.text.contains(l.as_str())),
                e.text.ends_with("` holds"),
                carries_no_value(&e.text),
                repeats[i],
            )
        });
        ranked.into_iter().map(|(_, t)| t).collect()
    }

    /// Elements added to and removed from constants and match arms of product files.
    fn elements(&self) -> (Vec<InFile<'_>>, Vec<InFile<'_>>) {
        let mut added = Vec::new();
        let mut removed = Vec::new();
        // An entry keyed by a string the change writes again on an added product line
        // (a match arm `"{}" => ..` become a pattern table `["{}", ..]`) is re-expressed:
        // claiming it gone would claim code that still stands.
        // A catch-all arm (`_ =>`, `default:`) is no entry a tester could miss.
        let rewritten = |e: &At| {
            matches!(e.text.trim(), "_" | "default" | "else")
                || crate::intents::string_literals(&e.text)
                    .first()
                    .is_some_and(|key| self.intent.product_strings.contains(key))
        };
        for (file, d) in self.product_deltas() {
            added.extend(
                d.added_elements
                    .iter()
                    .filter(|e| !in_test_code(d, e.line))
                    .map(|e| (file, e)),
            );
            removed.extend(
                d.removed_elements
                    .iter()
                    .filter(|e| !rewritten(e))
                    .map(|e| (file, e)),
            );
        }
        (added, removed)
    }

    /// Whether an added line of `file` lies in the tests the file holds.
    fn is_test_code(&self, file: &str, line: u32) -> bool {
        self.intent
            .deltas
            .get(file)
            .is_some_and(|d| in_test_code(d, line))
    }

    /// The first added line of a product file (one `keep` accepts) that lies in the
    /// tests the file holds.
    fn first_test_code_line(&self, keep: impl Fn(&str) -> bool) -> Option<(&str, u32)> {
        self.product_deltas()
            .filter(|(file, _)| keep(file))
            .find_map(|(file, d)| {
                d.line_facts
                    .iter()
                    .find(|(_, f)| f.test_code)
                    .map(|(&line, _)| (file, line))
            })
    }

    /// Conditions new at head in product files, by the trees.
    fn new_conditions(&self) -> Vec<InFile<'_>> {
        self.product_deltas()
            .flat_map(|(file, d)| {
                d.new_conditions
                    .iter()
                    .filter(|c| !d.copied_lines.contains(&c.line) && !in_test_code(d, c.line))
                    .map(move |c| (file, c))
            })
            .collect()
    }

    /// Error exits new at head in product files, by the trees; an error value only with a
    /// message of its own.
    fn added_exits(&self) -> Vec<(&str, &At, ExitKind)> {
        self.product_deltas()
            .flat_map(|(file, d)| {
                d.added_exits
                    .iter()
                    .filter(|(at, _)| {
                        !d.copied_lines.contains(&at.line) && !in_test_code(d, at.line)
                    })
                    .map(move |(at, k)| (file, at, *k))
            })
            // A new panic guards an invariant (`panic!("expected literal")` after a check
            // that rules it out): not a failure a user can reach.
            .filter(|(_, at, k)| {
                *k == ExitKind::Throw || *k == ExitKind::Error && at.text.contains(['"', '\''])
            })
            .collect()
    }

    /// Functions of product files holding an added line: (file, item path, head line).
    /// A test the file holds itself (Rust's inline `#[test]`) is a changed test, no
    /// product function to exercise.
    fn changed_functions(&self) -> Vec<(&str, &str, u32)> {
        let contracts = &self.intent.data.contracts;
        let is_test = |file: &str, path: &str, line: u32| {
            let name = short(path);
            contracts.iter().any(|c| {
                c.file == file && (c.line == line || c.name.as_deref().unwrap_or(&c.title) == name)
            })
        };
        self.product_deltas()
            .flat_map(|(file, d)| {
                d.changed_items
                    .iter()
                    .filter(|(_, kind, _)| *kind == crate::trees::ItemKind::Function)
                    .map(move |(path, _, line)| (file, path.as_str(), *line))
            })
            .filter(|&(file, path, line)| !is_test(file, path, line))
            .collect()
    }

    fn product_deltas(&self) -> impl Iterator<Item = (&str, &FileDelta)> {
        self.intent
            .deltas
            .iter()
            .filter(|(f, _)| {
                matches!(
                    self.intent.roles.get(*f),
                    Some(Role::Product | Role::Command)
                )
            })
            .map(|(f, d)| (f.as_str(), d))
    }

    fn files_with(&self, role: Role) -> String {
        let names: Vec<&str> = self
            .intent
            .roles
            .iter()
            .filter(|(_, &r)| r == role)
            .map(|(p, _)| p.as_str())
            .take(3)
            .collect();
        names.join(", ")
    }
}

/// A move to a named state: the state and the fact that makes it.
type Move<'f> = (&'f str, &'f Fact);

/// The named states each target moves to, in line order, grouped by file and target:
/// `setStatus("saving")` and `setStatus("saved")` are two moves of `setStatus`.
/// Whether an added line of a product file lies in the tests the file holds (a
/// `#[cfg(test)]` module): test evidence, never a product condition, exit or element.
fn in_test_code(d: &FileDelta, line: u32) -> bool {
    d.line_facts.get(&line).is_some_and(|f| f.test_code)
}

fn transitions<'f>(states: &[&'f Fact]) -> Vec<(String, Vec<Move<'f>>)> {
    let mut groups: Vec<(String, String, Vec<Move<'f>>)> = Vec::new();
    for s in states {
        let FactKind::State {
            literal: Some(to), ..
        } = &s.kind
        else {
            continue;
        };
        let Some(at) = s.text.find(to.as_str()) else {
            continue;
        };
        let target: String = s.text[..at]
            .trim_end_matches(|c: char| c.is_whitespace() || "\"'`(=:".contains(c))
            .rsplit(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .next()
            .unwrap_or("")
            .to_string();
        if target.is_empty() {
            continue;
        }
        match groups
            .iter_mut()
            .find(|(file, t, _)| *file == s.at.file && *t == target)
        {
            Some((_, _, moves)) => {
                if !moves.iter().any(|(m, _)| *m == to.as_str()) {
                    moves.push((to.as_str(), s));
                }
            }
            None => groups.push((s.at.file.clone(), target, vec![(to.as_str(), s)])),
        }
    }
    groups.into_iter().map(|(_, t, moves)| (t, moves)).collect()
}

/// A state a failing path ends in.
fn is_failure_state(state: &str) -> bool {
    let s = state.to_ascii_lowercase();
    [
        "error", "fail", "reject", "invalid", "denied", "timeout", "timed",
    ]
    .iter()
    .any(|w| s.contains(w))
}

/// A message that is only format placeholders (`{}`, `%s`, `{0}`) says nothing a user
/// would read.
fn is_placeholder_only(message: &str) -> bool {
    static PLACEHOLDER: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\{[^{}]*\}|%[-+ #0-9.]*[a-zA-Z]").expect("placeholder pattern")
    });
    !PLACEHOLDER
        .replace_all(message, "")
        .chars()
        .any(char::is_alphanumeric)
}

fn is_ignore_list(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.starts_with('.') && name.ends_with("ignore")
        || name == ".gitattributes"
        || name == ".editorconfig"
}

/// What a new exit is, in a step.
fn exit_noun(kind: ExitKind) -> &'static str {
    match kind {
        ExitKind::Panic | ExitKind::Unwrap => "panic",
        ExitKind::Throw => "throw",
        ExitKind::Error => "error",
    }
}

/// What the changed tests set up and the call whose result they check: the steps a
/// tester follows to do what the test does.
fn oracle_steps(oracle: &[(&TestContract, &Expected)]) -> Vec<String> {
    use qa_records::steps::{act_as_test, arrange_as_test};
    let mut steps = Vec::new();
    let mut named: Vec<&str> = Vec::new();
    for (c, _) in oracle {
        if named.len() >= 2 || named.contains(&test_name(c)) {
            continue;
        }
        named.push(test_name(c));
        steps.push(match &c.setup {
            Some(setup) => arrange_as_test(test_name(c), &c.file, c.line, setup),
            None => format!(
                "Set up the case that test `{}` builds ({}:{})",
                test_name(c),
                c.file,
                c.line
            ),
        });
        if let Some(call) = &c.act {
            steps.push(act_as_test(call, test_name(c)));
        } else if let Some(x) = c.exercises.first() {
            steps.push(format!("Call `{}` as that test does", short(&x.item)));
        } else if let Some(subject) = c
            .expects
            .first()
            .and_then(|e| subject_of(&e.text))
            .filter(|s| !is_predicate(s))
        {
            steps.push(format!("Run `{subject}` as that test does"));
        }
    }
    steps
}

/// An expression that only tests something (`x.is_none()`, `a == b`, `!done`): checked,
/// not run.
/// An expectation that names no value of the behaviour: a nil error, a boolean, success,
/// an exception's type without its message. It holds for many behaviours, so a value the
/// same tests expect says more about this one.
/// What an expectation says its subject gives: the text after a leading backticked
/// subject (`` `f(0)` equals `Some(x)` `` gives `equals `Some(x)``), else the whole text.
/// The inputs a helper's call is read with (`` for `rawConfig` `...` ``) are no part of
/// it: the same expected value for other inputs is the same outcome.
fn outcome(text: &str) -> &str {
    let said = text
        .strip_prefix('`')
        .and_then(|rest| rest.find("` ").map(|at| &rest[at + 2..]))
        .unwrap_or(text);
    said.find(" for `").map_or(said, |at| &said[..at])
}

fn carries_no_value(text: &str) -> bool {
    static TYPE_ONLY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?:throws|raises|rejects with|panics)(?: an?)? `?[\w.:]+`?$")
            .expect("exception type pattern")
    });
    const EMPTY: &[&str] = &[
        " is nil",
        " is null",
        " is None",
        " is undefined",
        " is true",
        " is false",
        " is True",
        " is False",
        " succeeds",
        " is Ok(())",
    ];
    // `` `is_hidden(".git")` is true ``: a truth value of literal inputs is what the
    // behaviour gives them.
    let of_literal_inputs = subject_of(text).is_some_and(calls_with_literal);
    let truth = [" is true", " is false", " is True", " is False"]
        .iter()
        .any(|w| text.ends_with(w));
    EMPTY.iter().any(|w| text.ends_with(w)) && !(truth && of_literal_inputs)
        || TYPE_ONLY.is_match(text)
        || relates_code(text)
}

/// A call given a string or number literal: `is_hidden(".git")`, `m.has("k")`.
fn calls_with_literal(code: &str) -> bool {
    static CALL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"\w\s*\([^()]*(?:"[^"]*"|'[^']*'|\d)"#).expect("call with a literal pattern")
    });
    CALL.is_match(code)
}

/// `` `a.charAt(1)` equals `b.charAt(1)` ``: two expressions said equal, neither a value
/// (no quoted literal, no number or constant of its own): a relation the test sets up,
/// not what the behaviour gives.
fn relates_code(text: &str) -> bool {
    let Some((left, right)) = text
        .strip_prefix('`')
        .and_then(|t| t.strip_suffix('`'))
        .and_then(|t| t.split_once("` equals `"))
    else {
        return false;
    };
    let names_value = |side: &str| {
        let tail = side.rsplit(['.', ':']).next().unwrap_or(side);
        side.contains(['"', '\''])
            || side.parse::<f64>().is_ok()
            || tail.len() > 1 && tail.chars().all(|c| c.is_ascii_uppercase() || c == '_')
    };
    // The expected side may also be a keyword constant or a value built from literals.
    let expected_value = |side: &str| is_keyword_constant(side) || builds_from_literals(side);
    !left.contains('`') && !names_value(left) && !names_value(right) && !expected_value(right)
}

/// A language's constant for nothing or a truth value (`None`, `null`, `nil`, `true`,
/// `false`, `undefined`): a value of its own, the outcome a lookup or a check gives.
fn is_keyword_constant(side: &str) -> bool {
    matches!(
        side.trim(),
        "None" | "null" | "nil" | "undefined" | "true" | "false" | "True" | "False"
    )
}

/// A value built from literals only (`Some(0)`, `C1(1, 42)`, `Ok("x")`): a constructor or
/// free function, no method of a computed subject (`b.charAt(1)`), given nothing but
/// numbers, strings and keyword constants.
fn builds_from_literals(side: &str) -> bool {
    let Some((callee, rest)) = side.trim().split_once('(') else {
        return false;
    };
    let Some(args) = rest.strip_suffix(')') else {
        return false;
    };
    let literal = |a: &str| {
        let a = a.trim();
        a.parse::<f64>().is_ok()
            || is_keyword_constant(a)
            || a.len() >= 2
                && (a.starts_with('"') && a.ends_with('"')
                    || a.starts_with('\'') && a.ends_with('\''))
    };
    !callee.is_empty()
        && !callee.contains('.')
        && callee
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
        && !args.trim().is_empty()
        && !args.contains('(')
        && args.split(',').all(literal)
}

fn is_predicate(expr: &str) -> bool {
    let e = expr.trim();
    e.starts_with('!')
        || e.starts_with("not ")
        || ["==", "!=", "<=", ">=", " < ", " > ", " in ", "&&", "||"]
            .iter()
            .any(|op| e.contains(op))
        || e.rsplit('.').next().is_some_and(|last| {
            last.starts_with("is_")
                || last.starts_with("has_")
                || last.starts_with("is") && last.chars().nth(2).is_some_and(char::is_uppercase)
        })
        || !e.contains('(')
}

/// The checked expression of an expectation written as `` `subject` is value ``.
fn subject_of(expectation: &str) -> Option<&str> {
    let rest = expectation.strip_prefix('`')?;
    let end = rest.find("` ")?;
    Some(&rest[..end])
}

/// A test's name for a sentence: its case name when it has one, else its title.
fn test_name(c: &TestContract) -> &str {
    c.name.as_deref().unwrap_or(&c.title)
}

/// At most `max` evidence items, in their order: the changed tests' lines (`tested`)
/// keep up to half the room whatever the product lines before them, so a change with
/// many product lines still cites the test that says what it does.
fn within_limit(
    evidence: Vec<Evidence>,
    max: usize,
    tested: impl Fn(&Evidence) -> bool,
) -> Vec<Evidence> {
    if evidence.len() <= max {
        return evidence;
    }
    let from_tests = evidence.iter().filter(|e| tested(e)).count();
    let others = evidence.len() - from_tests;
    // Half the room for the tests, or more when the other lines leave it free.
    let mut tests_left = from_tests.min((max / 2).max(max.saturating_sub(others)));
    let mut others_left = max - tests_left;
    evidence
        .into_iter()
        .filter(|e| {
            let room = if tested(e) {
                &mut tests_left
            } else {
                &mut others_left
            };
            let keep = *room > 0;
            *room = room.saturating_sub(1);
            keep
        })
        .collect()
}

/// The last segment of an item path: `Cart::save` -> `save`.
fn short(path: &str) -> &str {
    path.rsplit("::").next().unwrap_or(path)
}

fn element_evidence(file: &str, e: &At, verb: &str) -> Evidence {
    Evidence {
        file: file.to_string(),
        line: e.line,
        relation: Relation::Direct,
        stage: Some(Stage::Condition),
        text: format!("`{}` {verb} {}", short(&e.item), e.text),
    }
}

/// A test the change deletes no longer checks what it checked: named in the proof gap.
fn with_removed_tests<'a>(
    gap: Option<String>,
    removed: impl Iterator<Item = (&'a str, &'a At)>,
) -> Option<String> {
    let names: Vec<String> = removed
        .take(3)
        .map(|(file, t)| format!("`{}` ({file})", t.item))
        .collect();
    if names.is_empty() {
        return gap;
    }
    let note = format!(
        "The change deletes the test {}: what it checked is no longer checked unless another test took it over.",
        names.join(", ")
    );
    Some(match gap {
        Some(g) => format!("{g} {note}"),
        None => note,
    })
}

/// A skipped or disabled changed test proves nothing: named in the proof gap.
fn with_skipped_tests(gap: Option<String>, contracts: &[TestContract]) -> Option<String> {
    let skipped: Vec<String> = contracts
        .iter()
        .filter_map(|c| {
            c.skipped
                .as_ref()
                .map(|m| format!("`{}` ({m}, {}:{})", test_name(c), c.file, c.line))
        })
        .take(3)
        .collect();
    if skipped.is_empty() {
        return gap;
    }
    let note = format!(
        "The changed test {} is skipped or disabled: it proves nothing until it runs.",
        skipped.join(", ")
    );
    Some(match gap {
        Some(g) => format!("{g} {note}"),
        None => note,
    })
}

/// How to probe a comparison: an equality has one value to hit and one beside it, an
/// ordering has a value on the limit and one on each side.
fn boundary_step(condition: &str) -> String {
    if let Some((input, side, lit)) = crate::lifecycle::affix_test(condition) {
        return format!("Try a value of `{input}` that {side} with `{lit}` and one that does not");
    }
    let equality = ["===", "!==", "==", "!="]
        .iter()
        .any(|op| condition.contains(op));
    if equality {
        format!("Try the exact value in `{condition}` and one step away from it")
    } else {
        format!("Try the limit in `{condition}`, one step below it and one step above it")
    }
}

/// A package manifest's descriptive field (`authors = [...]`, `"description": ...`): it
/// changes what a registry shows, not what the program does.
fn is_package_metadata(path: &str, line: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    if !matches!(
        name,
        "Cargo.toml" | "package.json" | "pyproject.toml" | "setup.cfg"
    ) {
        return false;
    }
    let key = line
        .split(['=', ':'])
        .next()
        .unwrap_or("")
        .trim()
        .trim_matches('"')
        .to_ascii_lowercase();
    [
        "authors",
        "author",
        "description",
        "license",
        "license-file",
        "repository",
        "homepage",
        "documentation",
        "readme",
        "keywords",
        "categories",
        "bugs",
        "contributors",
        "funding",
        "maintainers",
    ]
    .contains(&key.as_str())
}

/// A CI pipeline definition (GitHub Actions, GitLab CI, CircleCI, Azure, Jenkins, ...).
fn is_ci_definition(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.starts_with(".github/workflows/")
        || lower.starts_with(".circleci/")
        || lower.starts_with(".buildkite/")
        || [
            ".gitlab-ci.yml",
            "azure-pipelines.yml",
            "jenkinsfile",
            ".travis.yml",
            "bitbucket-pipelines.yml",
        ]
        .iter()
        .any(|n| lower == *n || lower.ends_with(&format!("/{n}")))
}

/// `eprintln!`, `console.error`, `sys.stderr`, `click.echo(..., err=True)`, `os.Stderr`.
fn is_stderr_write(text: &str) -> bool {
    [
        "eprintln!",
        "eprint!",
        "console.error",
        "console.warn",
        "stderr",
        "Stderr",
        "err=True",
    ]
    .iter()
    .any(|m| text.contains(m))
}

/// `exit(0)`, `ExitCode::SUCCESS`, `sys.exit()` without a code.
fn is_success_exit(text: &str) -> bool {
    let t = text.replace(' ', "");
    t.contains("SUCCESS")
        || t.contains("exit(0)")
        || t.contains("Exit(0)")
        || t.ends_with("exit()")
        || t.contains("exit();")
}

fn list_lines(facts: &[&Fact]) -> String {
    if facts.is_empty() {
        return String::new();
    }
    let at: Vec<String> = facts
        .iter()
        .take(3)
        .map(|f| format!("{}:{}", f.at.file, f.at.line))
        .collect();
    format!(" ({})", at.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(file: &str, line: u32) -> Evidence {
        Evidence {
            file: file.to_string(),
            line,
            relation: Relation::Direct,
            stage: None,
            text: String::new(),
        }
    }

    #[test]
    fn test_lines_after_many_product_lines_keep_half_the_evidence_room() {
        let mut all: Vec<Evidence> = (1..=20).map(|l| ev("src/lib.rs", l)).collect();
        all.extend((1..=3).map(|l| ev("tests/t.rs", l)));
        let kept = within_limit(all, 12, |e| e.file.starts_with("tests/"));
        assert_eq!(kept.len(), 12);
        assert_eq!(kept.iter().filter(|e| e.file == "tests/t.rs").count(), 3);
        // Order stays: product lines first, as written.
        assert_eq!(kept[0].line, 1);
        assert_eq!(kept[8].file, "src/lib.rs");
        assert_eq!(kept[9].file, "tests/t.rs");
    }

    #[test]
    fn evidence_within_the_limit_or_without_test_lines_is_cut_as_before() {
        let few: Vec<Evidence> = (1..=5).map(|l| ev("src/lib.rs", l)).collect();
        assert_eq!(within_limit(few.clone(), 12, |_| false), few);
        let many: Vec<Evidence> = (1..=20).map(|l| ev("src/lib.rs", l)).collect();
        let kept = within_limit(many.clone(), 12, |_| false);
        assert_eq!(kept, many[..12].to_vec());
        // Many test lines with few product lines: the free room goes to the tests.
        let mut mixed: Vec<Evidence> = (1..=2).map(|l| ev("src/lib.rs", l)).collect();
        mixed.extend((1..=20).map(|l| ev("tests/t.rs", l)));
        let kept = within_limit(mixed, 12, |e| e.file.starts_with("tests/"));
        assert_eq!(kept.iter().filter(|e| e.file == "src/lib.rs").count(), 2);
        assert_eq!(kept.len(), 12);
    }

    #[test]
    fn checks_that_name_no_value_are_told_from_expected_values() {
        for text in [
            "`err` is nil",
            "running `bat single-line.txt` succeeds",
            "`reader.nextDouble()` throws NumberFormatException",
            "`parse(\"x\")` raises `ValueError`",
            "`ok` is true",
            "`CharU24000.charAt(1)` equals `CharU20000.charAt(1)`",
        ] {
            assert!(carries_no_value(text), "{text}");
        }
        for text in [
            "`e.getMessage()` is \"Expected a double at path $.x\"",
            "`output` is \"apple\\nbanana\"",
            "`parse(\"x\")` raises `ValueError` matching \"bad x\"",
            "`count` is 3",
            "`aIt.next()` equals `Character.valueOf('a')`",
            "`emptySet.getStart()` equals `Character.MIN_VALUE`",
            "`total` equals `-1`",
        ] {
            assert!(!carries_no_value(text), "{text}");
        }
    }

    #[test]
    fn a_truth_value_of_literal_inputs_is_an_expected_value() {
        for text in [
            "`isEmitListener(options, 'onOnce')` is true",
            "`is_hidden(\".git\")` is false",
            "`m.has(\"k\")` is True",
        ] {
            assert!(!carries_no_value(text), "{text}");
        }
        // Controls: a truth value of computed inputs, or no truth value at all.
        for text in ["`isReady(app)` is true", "`parse(\"x\")` is nil"] {
            assert!(carries_no_value(text), "{text}");
        }
    }

    #[test]
    fn a_keyword_constant_or_a_value_built_from_literals_is_an_expected_value() {
        for text in [
            "`head.headers().get(CONTENT_LENGTH)` equals `None`",
            "`map.get(key)` equals `null`",
            "`parse(s)` equals `Some(0)`",
            "`decode(bytes)` equals `C1(1, 42)`",
        ] {
            assert!(!carries_no_value(text), "{text}");
        }
        // Negative controls: expressions of the test's own values stay relations.
        for text in [
            "`get.headers().get(CONTENT_LENGTH)` equals `Some(&content_length)`",
            "`a.charAt(1)` equals `b.charAt(1)`",
            "`parse(s)` equals `Some(expected)`",
            "`got` equals `wrap(parse(1))`",
        ] {
            assert!(carries_no_value(text), "{text}");
        }
    }

    #[test]
    fn an_outcome_leaves_out_the_inputs_a_helper_is_read_with() {
        assert_eq!(
            outcome("`InitServer`: `configType` is \"caddyfile\" for `rawConfig` `{ a }`"),
            outcome("`InitServer`: `configType` is \"caddyfile\" for `rawConfig` `{ b }`")
        );
        // Negative control: another expected value is another outcome.
        assert_ne!(
            outcome("`check`: `want` is 1 for `input` `a`"),
            outcome("`check`: `want` is 2 for `input` `a`")
        );
        assert_eq!(outcome("`f(0)` equals `Some(x)`"), "equals `Some(x)`");
    }

    #[test]
    fn stderr_writes_are_told_from_stdout_writes() {
        for line in [
            "eprintln!(\"x: {e}\");",
            "console.error(err)",
            "click.echo(msg, err=True)",
            "fmt.Fprintln(os.Stderr, err)",
        ] {
            assert!(is_stderr_write(line), "{line}");
        }
        for line in [
            "println!(\"{n}\");",
            "console.log(total)",
            "click.echo(msg)",
        ] {
            assert!(!is_stderr_write(line), "{line}");
        }
    }

    #[test]
    fn success_exits_are_told_from_failing_ones() {
        for line in ["ExitCode::SUCCESS", "process.exit(0);", "sys.exit()"] {
            assert!(is_success_exit(line), "{line}");
        }
        for line in ["ExitCode::FAILURE", "std::process::exit(2);", "sys.exit(1)"] {
            assert!(!is_success_exit(line), "{line}");
        }
    }

    #[test]
    fn ci_definitions_are_told_from_runtime_configuration() {
        assert!(is_ci_definition(".github/workflows/test.yml"));
        assert!(is_ci_definition(".gitlab-ci.yml"));
        assert!(!is_ci_definition("tsconfig.json"));
        assert!(!is_ci_definition("config/workflows.yml"));
    }

    #[test]
    fn equality_and_ordering_limits_are_probed_differently() {
        assert!(boundary_step("count == 0").contains("exact value"));
        assert!(boundary_step("amount < 0").contains("one step below"));
        assert_eq!(
            boundary_step("code.ends_with(\"\\r\\n\")"),
            "Try a value of `code` that ends with `\"\\r\\n\"` and one that does not"
        );
    }
}
