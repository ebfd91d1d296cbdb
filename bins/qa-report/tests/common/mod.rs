//! Change-flow streams built from real records (change.rs payloads in `Record::new`
//! envelopes), and a runner for the qa-report binary.
#![allow(dead_code)] // each test file uses its own part of the builder

pub mod acceptance;
pub mod signals;

use qa_records::change::*;
use qa_records::diag::{Diag, Severity};
use qa_records::envelope::{Record, Src};
use qa_records::execution::{Changed, ExecutionData, ExecutionStatus};
use qa_records::graph::{EdgeData, EdgeKind, GraphEvidence, Impact, NodeData, NodeKind, Support};
use qa_records::Kind;
use qa_testkit::process::piped;
use serde::Serialize;
use std::io::Write as _;
use std::process::{Command as Process, Output};

pub const BY: &str = "test/0";

/// A stream under construction; every method returns the new record's id.
#[derive(Default)]
pub struct Stream {
    pub records: Vec<Record>,
}

impl Stream {
    pub fn push(&mut self, kind: Kind, from: Vec<String>, data: impl Serialize) -> String {
        let record = Record::new(kind, BY, from, Src::new(), data).unwrap();
        let id = record.id.clone();
        self.records.push(record);
        id
    }

    pub fn range(&mut self) -> String {
        self.push(
            Kind::Range,
            vec![],
            RangeView {
                base: RefOid {
                    name: "main".into(),
                    oid: "a".repeat(40),
                },
                head: RefOid {
                    name: "feature/login".into(),
                    oid: "b".repeat(40),
                },
                merge_base: "c".repeat(40),
                mode: Mode::Committed,
            },
        )
    }

    pub fn commit(&mut self, oid: &str, subject: &str) -> String {
        self.push(
            Kind::Commit,
            vec![],
            CommitData {
                oid: oid.into(),
                parents: vec![],
                merge: false,
                subject: subject.into(),
                body: String::new(),
                kind: Some("feat".into()),
                scope: None,
                breaking: false,
                tickets: vec![],
                files: vec![],
            },
        )
    }

    pub fn intent(&mut self, title: &str, commits: &[&str], files: &[&str]) -> String {
        self.push(Kind::Intent, vec![], intent_data(title, commits, files))
    }

    pub fn scenario(
        &mut self,
        intent: &str,
        title: &str,
        kind: ScenarioKind,
        evidence: Vec<Evidence>,
    ) -> String {
        self.scenario_reaching(intent, title, kind, evidence, &[])
    }

    /// A scenario whose changed files reach the entrypoints `reaches` (behavior graph).
    pub fn scenario_reaching(
        &mut self,
        intent: &str,
        title: &str,
        kind: ScenarioKind,
        evidence: Vec<Evidence>,
        reaches: &[&str],
    ) -> String {
        let mut data = scenario_data(intent, title, kind, evidence);
        data.reaches = reaches.iter().map(|r| r.to_string()).collect();
        self.push_scenario(data)
    }

    /// A scenario record of `data`, derived from its intent.
    pub fn push_scenario(&mut self, data: ScenarioData) -> String {
        self.push(Kind::Scenario, vec![data.intent.clone()], data)
    }

    /// A behavior-graph `node` the change reaches, as qa-intent writes one.
    pub fn node(&mut self, kind: NodeKind, name: &str, impact: Impact) -> String {
        self.push(
            Kind::Node,
            vec![],
            NodeData {
                kind,
                name: name.into(),
                impact,
                hops: u32::from(impact != Impact::Direct),
                confidence: Confidence::High,
                evidence: vec![GraphEvidence {
                    file: name.into(),
                    line: 1,
                    commit: Some("b".repeat(40)),
                    manifest: None,
                }],
                adapter: "nextjs".into(),
                support: Support::Deep,
            },
        )
    }

    /// A behavior-graph `edge` from the dependant `from` to `to`; the change's impact
    /// travelled along it unless `kind` is `expects`.
    pub fn edge(&mut self, kind: EdgeKind, from: &str, to: &str) -> String {
        let impact = if kind == EdgeKind::Expects {
            Impact::None
        } else {
            Impact::Propagated
        };
        self.push(
            Kind::Edge,
            vec![from.to_string(), to.to_string()],
            EdgeData {
                kind,
                from: from.into(),
                to: to.into(),
                impact,
                confidence: Confidence::High,
                evidence: vec![],
                adapter: "impact".into(),
            },
        )
    }

    pub fn route(
        &mut self,
        scenario: &str,
        decision: Decision,
        action: ActionKind,
        command: Option<Command>,
    ) -> String {
        self.push(
            Kind::Route,
            vec![scenario.to_string()],
            RouteData {
                subject: scenario.into(),
                decision,
                reason: "located diff evidence".into(),
                evidence: EvidenceCounts::default(),
                action: Action {
                    kind: action,
                    risk: Risk::Medium,
                    approval: "required".into(),
                    executes_code: command.is_some(),
                    writes: vec![],
                    network: false,
                    preconditions: vec![],
                },
                command,
                additional_commands: vec![cargo("cargo test --workspace", CommandScope::Suite)],
            },
        )
    }

    /// An `execution` of `data` derived from `scenario`, as qa-check --exec writes one.
    pub fn execution(&mut self, scenario: &str, mut data: ExecutionData) -> String {
        data.subject = Some(scenario.to_string());
        self.push(Kind::Execution, vec![scenario.to_string()], data)
    }

    pub fn trace(&mut self, scenario: &str) -> String {
        self.trace_as(scenario, TraceState::Partial, ExecutionState::NotRun)
    }

    /// A trace of `scenario` in `state`, saying `execution`.
    pub fn trace_as(
        &mut self,
        scenario: &str,
        state: TraceState,
        execution: ExecutionState,
    ) -> String {
        self.push(
            Kind::Trace,
            vec![scenario.to_string()],
            TraceData {
                subject: scenario.into(),
                state,
                path: vec![],
                execution,
                authority: Authority::Inference,
                test_class: TestClass::Regression,
                approval: "required".into(),
            },
        )
    }

    pub fn draft(&mut self, scenario: &str, receipt: Receipt, gap: &str) -> String {
        self.push(
            Kind::Draft,
            vec![scenario.to_string()],
            DraftData {
                subject: scenario.into(),
                format: "manual".into(),
                receipt,
                mapped: 1,
                total: 3,
                steps: vec![],
                assertions: vec![],
                gaps: vec![gap.into()],
            },
        )
    }

    pub fn capability(&mut self, name: CapabilityName, status: CapabilityStatus) -> String {
        self.push(
            Kind::Capability,
            vec![],
            CapabilityData {
                name,
                status,
                depth: Depth::Structural,
                gap: Some("no test runner found for src/upload.rs".into()),
            },
        )
    }

    pub fn diag(&mut self, severity: Severity, message: &str) -> String {
        let record = Diag::new(severity, "qa-route", message)
            .into_record(BY, vec![])
            .unwrap();
        let id = record.id.clone();
        self.records.push(record);
        id
    }

    /// The stream as the whole change flow leaves it: with a record from each stage that
    /// wrote none here (qa-diff's range, qa-intent's diag when there is no intent, a qa-route capability
    /// when nothing is routed, a trace of the first scenario when none is traced), so what
    /// a test reads is its own records, not a stream that ends early.
    pub fn whole(&self) -> Vec<u8> {
        let has = |kinds: &[&str]| {
            self.records
                .iter()
                .any(|r| kinds.contains(&r.kind.as_str()))
        };
        let mut whole = Stream::default();
        if !has(&["range"]) {
            whole.range();
        }
        whole.records.extend(self.records.iter().cloned());
        if !has(&["intent", "scenario"]) {
            let record = Diag::new(Severity::Info, "qa-intent", "behavior graph: 0 nodes")
                .into_record(BY, vec![])
                .unwrap();
            whole.records.push(record);
        }
        if !has(&["capability", "route"]) {
            whole.capability(CapabilityName::ChangeIntent, CapabilityStatus::Available);
        }
        if !has(&["trace"]) {
            let first = self.records.iter().find(|r| r.kind == "scenario");
            if let Some(scenario) = first.map(|r| r.id.clone()) {
                whole.trace(&scenario);
            }
        }
        whole.bytes()
    }

    pub fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for r in &self.records {
            out.extend(r.to_line());
            out.push(b'\n');
        }
        out
    }
}

/// A product intent of `title` over `commits` and `files`, inferred with high confidence.
pub fn intent_data(title: &str, commits: &[&str], files: &[&str]) -> IntentData {
    IntentData {
        title: title.into(),
        kind: "feat".into(),
        focus: Focus::Product,
        source: IntentSource::Commits,
        commits: commits.iter().map(|c| c.to_string()).collect(),
        cleanup_commits: vec![],
        tickets: vec![],
        files: files.iter().map(|f| f.to_string()).collect(),
        confidence: Confidence::High,
        review_required: false,
        cleanup: false,
        current: false,
        lifecycle: vec![],
        authority: Authority::Inference,
        flow: None,
        contracts: vec![],
        annotations: vec![],
        reason: "one behaviour-bearing commit and its files".into(),
    }
}

/// A critical scenario of `intent` with one step, one assertion, a proof gap and no
/// reached entrypoints.
pub fn scenario_data(
    intent: &str,
    title: &str,
    kind: ScenarioKind,
    evidence: Vec<Evidence>,
) -> ScenarioData {
    ScenarioData {
        intent: intent.into(),
        title: title.into(),
        kind,
        priority: Priority::Critical,
        steps: vec!["sign in".into()],
        assertions: vec!["the response is 401".into()],
        evidence,
        proof_gap: Some("no changed line shows the response".into()),
        authority: Authority::Inference,
        test_class: TestClass::Regression,
        focus: Focus::Product,
        reaches: vec![],
    }
}

pub fn at(file: &str, line: u32, relation: Relation, text: &str) -> Evidence {
    Evidence {
        file: file.into(),
        line,
        relation,
        stage: None,
        text: text.into(),
    }
}

/// What qa-check --exec records for `run` (in the root) that ended with `status` and
/// `exit_code`, the repository unchanged.
pub fn ran(run: &str, status: ExecutionStatus, exit_code: Option<i32>) -> ExecutionData {
    let mut data = ExecutionData::not_started(status, 300);
    data.command = Some(run.to_string());
    data.runner = run.split(' ').next().map(str::to_string);
    data.dir = Some(".".to_string());
    data.exit_code = exit_code;
    data.duration_ms = 1234;
    data.changed = Some(Changed::default());
    data
}

pub fn cargo(run: &str, scope: CommandScope) -> Command {
    Command {
        run: run.into(),
        runner: "cargo".into(),
        dir: ".".into(),
        scope,
        declared_in: "Cargo.toml".into(),
        purpose: CommandPurpose::Test,
        why: "runs the tests".into(),
        unmet: None,
    }
}

/// Ids of the sample's scenarios, by what they stand for.
pub struct Sample {
    pub stream: Stream,
    pub expired_refused: String,
    pub valid_signs_in: String,
    pub expiring_now: String,
    pub upload_retries: String,
}

/// A typical change: an upload intent with one recommended, draft-only scenario, then
/// (later in the stream) a login intent with a required, a recommended and a
/// review-only scenario; capabilities and a warning.
pub fn sample() -> Sample {
    let mut s = Stream::default();
    s.range();
    s.commit(&"1".repeat(40), "feat(upload): retry failed uploads");
    s.commit(&"2".repeat(40), "feat(auth): refuse expired session tokens");
    let upload = s.intent(
        "Retry failed uploads",
        &[&"1".repeat(40)],
        &["src/upload.rs"],
    );
    let upload_retries = s.scenario(
        &upload,
        "Upload retries after a failure",
        ScenarioKind::StateTransition,
        vec![at("src/upload.rs", 10, Relation::Direct, "retry(3, send)")],
    );
    s.route(
        &upload_retries,
        Decision::Recommended,
        ActionKind::CompleteDraft,
        None,
    );
    s.draft(
        &upload_retries,
        Receipt::NotCompiled,
        "name the retry limit",
    );
    let login = s.intent(
        "Refuse expired session tokens",
        &[&"2".repeat(40)],
        &["src/auth.rs", "tests/auth.rs"],
    );
    let expiring_now = s.scenario(
        &login,
        "Token expiring exactly now",
        ScenarioKind::Boundary,
        vec![at(
            "",
            0,
            Relation::Contextual,
            "refuse expired session tokens",
        )],
    );
    let valid_signs_in = s.scenario(
        &login,
        "Valid token still signs in",
        ScenarioKind::Primary,
        vec![at(
            "src/auth.rs",
            40,
            Relation::Supporting,
            "fn check(token)",
        )],
    );
    let expired_refused = s.scenario(
        &login,
        "Expired token is refused",
        ScenarioKind::Failure,
        vec![
            at("src/auth.rs", 42, Relation::Direct, "if token.expired() {"),
            at(
                "src/auth.rs",
                43,
                Relation::Direct,
                "return Err(Unauthorized)",
            ),
        ],
    );
    let auth_tests = cargo("cargo test -p auth", CommandScope::Package);
    s.route(
        &expiring_now,
        Decision::ReviewOnly,
        ActionKind::ReviewScenario,
        None,
    );
    s.route(
        &valid_signs_in,
        Decision::Recommended,
        ActionKind::RunRepositoryCommand,
        Some(auth_tests.clone()),
    );
    s.route(
        &expired_refused,
        Decision::Required,
        ActionKind::RunRepositoryCommand,
        Some(auth_tests),
    );
    s.trace(&expired_refused);
    s.draft(
        &expiring_now,
        Receipt::Partial,
        "say what exactly now means",
    );
    s.capability(CapabilityName::ChangeIntent, CapabilityStatus::Available);
    s.capability(
        CapabilityName::RepositoryValidation,
        CapabilityStatus::Limited,
    );
    s.diag(Severity::Warning, "src/upload.rs has no validation command");
    s.diag(Severity::Info, "2 commands found");
    Sample {
        stream: s,
        expired_refused,
        valid_signs_in,
        expiring_now,
        upload_retries,
    }
}

/// Runs qa-report with `args`, `input` on stdin.
pub fn qa_report(input: &[u8], args: &[&str]) -> Output {
    let (child, mut stdin) = piped(Process::new(env!("CARGO_BIN_EXE_qa-report")).args(args));
    let input = input.to_vec();
    // A writer thread: a large input must not deadlock against a full stdout pipe.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// Runs qa-report and returns its stdout, asserting it succeeded.
pub fn rendered(input: &[u8], args: &[&str]) -> String {
    let out = qa_report(input, args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Byte offset of `needle` in `hay`, failing the test when absent.
pub fn pos(hay: &str, needle: &str) -> usize {
    hay.find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not found in:\n{hay}"))
}

/// The permission bits of `path` (not following a symlink).
pub fn mode(path: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::symlink_metadata(path)
        .unwrap()
        .permissions()
        .mode()
        & 0o777
}

/// The names in folder `dir`, sorted.
pub fn names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}
