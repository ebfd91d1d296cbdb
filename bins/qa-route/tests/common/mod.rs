//! Test support: repository trees in temp dirs, hand-built intent and scenario records,
//! runner stubs on a private PATH, running qa-route, and schema validation of its records.
#![allow(dead_code)]

use qa_records::change::{
    Authority, Confidence, Evidence, Focus, IntentData, IntentSource, LifecycleStep, Location,
    Origin, Priority, Relation, ScenarioData, ScenarioKind, Stage, TestClass, TestContract,
};
use qa_records::envelope::Src;
use qa_records::{Kind, Record};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A repository working tree in a temp dir.
pub struct Tree {
    dir: tempfile::TempDir,
}

impl Tree {
    pub fn new() -> Tree {
        Tree {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn write(&self, path: &str, content: &str) -> &Tree {
        let full = self.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, content).unwrap();
        self
    }

    /// Makes `path` a nested repository (a directory holding `.git`).
    pub fn nest_repo(&self, path: &str) -> &Tree {
        std::fs::create_dir_all(self.path().join(path).join(".git")).unwrap();
        self
    }
}

/// A private PATH directory holding executable stubs. qa-route only looks runners up and
/// never starts one: each stub would leave a `<name>.ran` file beside it if it ran, and
/// [`Stubs::assert_none_ran`] checks that none did.
pub struct Stubs {
    dir: tempfile::TempDir,
}

impl Stubs {
    pub fn new(names: &[&str]) -> Stubs {
        let dir = tempfile::tempdir().unwrap();
        for name in names {
            let path = dir.path().join(name);
            std::fs::write(&path, "#!/bin/sh\ntouch \"$0.ran\"\nexit 99\n").unwrap();
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt as _;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
            }
        }
        Stubs { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn assert_none_ran(&self) {
        let ran: Vec<PathBuf> = std::fs::read_dir(self.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "ran"))
            .collect();
        assert!(ran.is_empty(), "qa-route started {ran:?}");
    }
}

/// An intent record over `files`, with one located lifecycle step on the first file.
pub fn intent(files: &[&str], contracts: &[(&str, &str, &str)], confidence: Confidence) -> Record {
    let data = IntentData {
        title: "login: reject expired sessions".into(),
        kind: "fix".into(),
        focus: Focus::Product,
        source: IntentSource::Commits,
        commits: vec!["a".repeat(40)],
        cleanup_commits: vec![],
        tickets: vec![],
        files: files.iter().map(|f| f.to_string()).collect(),
        confidence,
        review_required: true,
        cleanup: false,
        current: false,
        lifecycle: vec![LifecycleStep {
            stage: Stage::Condition,
            text: "session expired".into(),
            evidence: files
                .first()
                .map(|f| Location {
                    file: f.to_string(),
                    line: 3,
                })
                .into_iter()
                .collect(),
            origin: Origin::Diff,
        }],
        authority: Authority::Inference,
        flow: None,
        contracts: contracts
            .iter()
            .map(|(file, title, framework)| TestContract {
                file: file.to_string(),
                line: 5,
                title: title.to_string(),
                framework: framework.to_string(),
                ..Default::default()
            })
            .collect(),
        annotations: vec![],
        reason: "one commit and its files".into(),
    };
    Record::new(Kind::Intent, "test/0", vec![], Src::new(), data).unwrap()
}

/// A scenario of `intent` with `evidence` items (file, line, relation).
pub fn scenario(
    intent: &Record,
    title: &str,
    priority: Priority,
    evidence: &[(&str, u32, Relation)],
) -> Record {
    scenario_with_text(
        intent,
        title,
        priority,
        &evidence
            .iter()
            .map(|(f, l, r)| (*f, *l, *r, "changed line"))
            .collect::<Vec<_>>(),
    )
}

/// Like [`scenario`], with the changed line's text.
pub fn scenario_with_text(
    intent: &Record,
    title: &str,
    priority: Priority,
    evidence: &[(&str, u32, Relation, &str)],
) -> Record {
    let data = ScenarioData {
        intent: intent.id.clone(),
        title: title.into(),
        kind: ScenarioKind::Failure,
        priority,
        steps: vec!["sign in with an expired session".into()],
        assertions: vec!["the request is refused".into()],
        evidence: evidence
            .iter()
            .map(|(file, line, relation, text)| Evidence {
                file: file.to_string(),
                line: *line,
                relation: *relation,
                stage: None,
                text: text.to_string(),
            })
            .collect(),
        proof_gap: None,
        authority: Authority::Inference,
        test_class: TestClass::Regression,
        focus: Focus::Product,
        reaches: Vec::new(),
    };
    Record::new(
        Kind::Scenario,
        "test/0",
        vec![intent.id.clone()],
        Src::new(),
        data,
    )
    .unwrap()
}

/// Records as NDJSON input.
pub fn ndjson(records: &[&Record]) -> Vec<u8> {
    let mut out = Vec::new();
    for r in records {
        out.extend_from_slice(&r.to_line());
        out.push(b'\n');
    }
    out
}

/// What a qa-route run produced.
pub struct Run {
    pub output: Output,
}

impl Run {
    pub fn code(&self) -> i32 {
        self.output.status.code().expect("exited, not signalled")
    }

    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }

    /// Asserts success and returns every record; those qa-route wrote are schema-validated.
    pub fn records(&self) -> Vec<Value> {
        assert_eq!(self.code(), 0, "qa-route failed: {}", self.stderr());
        let records: Vec<Value> = self
            .output
            .stdout
            .split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).expect("each line is JSON"))
            .collect();
        Schemas::get().validate_own(&records);
        records
    }
}

/// Runs qa-route on `input` with `--repo tree` and PATH set to the stubs directory only.
pub fn qa_route(tree: &Path, stubs: &Stubs, input: &[u8], args: &[&str]) -> Run {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_qa-route"))
        .arg("--repo")
        .arg(tree)
        .args(args)
        .env("PATH", stubs.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running qa-route");
    // A run that stops early closes stdin; the error is then in its exit code.
    let _ = child.stdin.take().unwrap().write_all(input);
    Run {
        output: child.wait_with_output().unwrap(),
    }
}

/// One routed scenario: its intent, itself, and everything qa-route wrote.
pub struct Routed {
    pub intent: Record,
    pub scenario: Record,
    pub records: Vec<Value>,
}

/// Routes one critical scenario with direct evidence on `file`, whose intent names
/// `intent_files` and changed tests `contracts` (file, title, framework); checks that no
/// stub ran.
pub fn route_one(
    tree: &Path,
    stubs: &Stubs,
    file: &str,
    intent_files: &[&str],
    contracts: &[(&str, &str, &str)],
) -> Routed {
    let intent = intent(intent_files, contracts, Confidence::High);
    let scenario = scenario(
        &intent,
        "expired",
        Priority::Critical,
        &[(file, 3, Relation::Direct)],
    );
    let records = qa_route(tree, stubs, &ndjson(&[&intent, &scenario]), &[]).records();
    stubs.assert_none_ran();
    Routed {
        intent,
        scenario,
        records,
    }
}

pub fn of_kind<'a>(records: &'a [Value], kind: &str) -> Vec<&'a Value> {
    records.iter().filter(|r| r["kind"] == kind).collect()
}

/// The one route record's data.
pub fn only_route(records: &[Value]) -> &Value {
    let routes = of_kind(records, "route");
    assert_eq!(routes.len(), 1, "expected one route");
    &routes[0]["data"]
}

/// `dir run` of the selected command and then the additional ones.
pub fn commands(route: &Value) -> Vec<String> {
    route["command"]
        .as_object()
        .map(|_| &route["command"])
        .into_iter()
        .chain(route["additional_commands"].as_array().unwrap())
        .map(|c| {
            format!(
                "{} {}",
                c["dir"].as_str().unwrap(),
                c["run"].as_str().unwrap()
            )
        })
        .collect()
}

/// The capability receipt `name`.
pub fn capability<'a>(records: &'a [Value], name: &str) -> &'a Value {
    &of_kind(records, "capability")
        .into_iter()
        .find(|r| r["data"]["name"] == name)
        .unwrap_or_else(|| panic!("no {name} receipt"))["data"]
}

/// Messages of the diag records.
pub fn diags(records: &[Value]) -> Vec<String> {
    of_kind(records, "diag")
        .iter()
        .map(|r| r["data"]["message"].as_str().unwrap().to_string())
        .collect()
}

/// The envelope schema and the data schemas of the kinds qa-route writes.
pub struct Schemas {
    envelope: jsonschema::Validator,
    kinds: Vec<(String, jsonschema::Validator)>,
}

impl Schemas {
    pub fn get() -> &'static Schemas {
        static SCHEMAS: std::sync::OnceLock<Schemas> = std::sync::OnceLock::new();
        SCHEMAS.get_or_init(|| {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema");
            let load = |name: &str| {
                let text = std::fs::read_to_string(dir.join(name)).unwrap();
                let schema: Value = serde_json::from_str(&text).unwrap();
                jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{name}: {e}"))
            };
            Schemas {
                envelope: load("envelope.schema.json"),
                kinds: ["route", "capability", "diag"]
                    .iter()
                    .map(|k| (k.to_string(), load(&format!("{k}.schema.json"))))
                    .collect(),
            }
        })
    }

    /// Validates every record qa-route wrote (its `by`) against its schema.
    pub fn validate_own(&self, records: &[Value]) {
        for (i, record) in records.iter().enumerate() {
            if !record["by"].as_str().unwrap_or("").starts_with("qa-route/") {
                continue;
            }
            if let Err(e) = self.envelope.validate(record) {
                panic!("record {i} breaks the envelope schema: {e}\n{record}");
            }
            let kind = record["kind"].as_str().unwrap();
            let (_, validator) = self
                .kinds
                .iter()
                .find(|(k, _)| k == kind)
                .unwrap_or_else(|| panic!("qa-route wrote an unexpected kind {kind}"));
            if let Err(e) = validator.validate(&record["data"]) {
                panic!("{kind} record {i} breaks its schema: {e}\n{record}");
            }
        }
    }
}
