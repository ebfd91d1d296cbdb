//! Acceptance streams built from real records (acceptance.rs payloads in `Record::new`
//! envelopes), in the order the acceptance flow writes them.

use super::{qa_report, Stream};
use qa_records::acceptance::*;
use qa_records::change::{Action, ActionKind, Risk};
use qa_records::hash::sha256_hex;
use qa_records::Kind;
use serde_json::{json, Value};
use std::fs;
use std::path::{Path, PathBuf};

/// A PNG of about 1.9 MB whose bytes are distinct for each `seed` (qa-report checks the
/// signature and the hash, not the pixels; the filler does not compress).
pub fn big_png(seed: u64) -> Vec<u8> {
    let mut bytes = include_bytes!("../fixtures/cart.png").to_vec();
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    while bytes.len() < 1_900_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        bytes.extend_from_slice(&state.to_le_bytes());
    }
    bytes
}

/// `bytes` saved as qa-check saves a screenshot under `root`; its observation entry.
pub fn save_screenshot(root: &Path, bytes: &[u8]) -> Value {
    let sha = sha256_hex(bytes);
    let dir = root.join(".qa/screenshots");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join(format!("{sha}.png")), bytes).unwrap();
    json!({"moment": "after", "path": format!(".qa/screenshots/{sha}.png"), "sha256": sha,
           "bytes": bytes.len(), "width": 480, "height": 270})
}

/// A passing plan of one criterion whose browser checks each show `shots[i]`.
pub fn browser_checks(shots: &[Value]) -> Vec<u8> {
    let mut s = Stream::default();
    s.plan();
    s.criterion("cart", SourceKind::Request, true);
    for (i, shot) in shots.iter().enumerate() {
        let id = format!("shot-{i}");
        let route = s.check(&id, "cart", CheckDecision::Runnable, "allowed", &[]);
        s.push(
            Kind::Observation,
            vec![route],
            json!({
                "check": id, "criterion": "cart", "check_kind": "browser", "status": "pass",
                "expected": "the cart shows", "observed": "the cart shows",
                "evidence": {"excerpt": "Cart", "sha256": "c".repeat(64), "bytes": 4,
                             "truncated": false, "url": "http://127.0.0.1:8080/", "path": null,
                             "http_status": 200, "screenshots": [shot]},
                "reason": null
            }),
        );
    }
    s.finished()
}

/// `qa-report --merge RUN --out INTO`: its output, and the merged run folder if one was
/// written.
pub fn merge(run: &Path, into: &Path) -> (std::process::Output, Option<PathBuf>) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_qa-report"))
        .arg("--merge")
        .arg(run)
        .arg("--out")
        .arg(into)
        .output()
        .unwrap();
    let merged = fs::read_dir(into)
        .ok()
        .and_then(|mut d| d.next())
        .map(|e| e.unwrap().path());
    (out, merged)
}

/// `qa-report --acceptance` under `repo` on `input`, which must end with a verdict (exit 0
/// to 2); returns the one run folder it wrote.
pub fn accept(repo: &Path, input: &[u8]) -> PathBuf {
    let out = qa_report(input, &["--acceptance", "--repo", repo.to_str().unwrap()]);
    assert!(
        matches!(out.status.code(), Some(0..=2)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let runs: Vec<PathBuf> = std::fs::read_dir(repo.join(".qa/acceptance"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(runs.len(), 1, "{runs:?}");
    runs[0].clone()
}

/// The plan file's hash every test plan carries: run ids start with `0123abcd`.
pub const PLAN_SHA: &str = "0123abcd0123abcd0123abcd0123abcd0123abcd0123abcd0123abcd0123abcd";

impl Stream {
    pub fn plan(&mut self) -> String {
        self.push(
            Kind::Plan,
            vec![],
            PlanData {
                path: ".qa-acceptance.json".into(),
                sha256: PLAN_SHA.into(),
                target: TargetSpec {
                    kind: TargetKind::Directory,
                    value: "site".into(),
                    build_id: Some("2026.11.29-1".into()),
                    env: None,
                    app: None,
                },
                criteria: 0,
                checks: 0,
            },
        )
    }

    /// A criterion of `kind`; ticket and spec sources quote `quote` from a file.
    pub fn criterion(&mut self, id: &str, kind: SourceKind, found: bool) -> String {
        let quoted = matches!(kind, SourceKind::Ticket | SourceKind::Spec);
        self.push(
            Kind::Criterion,
            vec![],
            CriterionData {
                id: id.into(),
                expected: format!("{id} behaves as asked"),
                source: Source {
                    kind,
                    path: quoted.then(|| "tickets/SHOP-12.md".into()),
                    quote: quoted.then(|| "Refunds above 100 EUR require approval".into()),
                    text: (!quoted).then(|| format!("please make {id} work")),
                    sha256: quoted.then(|| "e".repeat(64)),
                    found,
                },
                inferred: kind == SourceKind::Inferred,
            },
        )
    }

    /// A check of `criterion` and its route; returns the route id.
    pub fn check(
        &mut self,
        id: &str,
        criterion: &str,
        decision: CheckDecision,
        reason: &str,
        missing: &[&str],
    ) -> String {
        let spec = self.push(
            Kind::CheckSpec,
            vec![],
            CheckSpecData {
                id: id.into(),
                criterion: criterion.into(),
                kind: "file".into(),
                spec: serde_json::json!({"id": id, "criterion": criterion, "kind": "file", "path": "index.html", "contains": "Welcome"}),
            },
        );
        self.push(
            Kind::Route,
            vec![spec.clone()],
            CheckRouteData {
                subject: spec,
                check: id.into(),
                criterion: criterion.into(),
                decision,
                reason: reason.into(),
                needs: missing.iter().map(|m| m.to_string()).collect(),
                missing: missing.iter().map(|m| m.to_string()).collect(),
                action: Action {
                    kind: ActionKind::ReviewScenario,
                    risk: Risk::Low,
                    approval: "required".into(),
                    executes_code: false,
                    writes: vec![],
                    network: false,
                    preconditions: vec![],
                },
            },
        )
    }

    /// The observation of `check` after `route`.
    pub fn observe(
        &mut self,
        route: &str,
        check: &str,
        criterion: &str,
        status: ObservationStatus,
        reason: Option<&str>,
    ) -> String {
        self.push(
            Kind::Observation,
            vec![route.to_string()],
            ObservationData {
                check: check.into(),
                criterion: criterion.into(),
                check_kind: "file".into(),
                status,
                expected: "contains \"Welcome\"".into(),
                observed: if status == ObservationStatus::Pass {
                    "found \"Welcome\"".into()
                } else {
                    "\"Welcome\" not found".into()
                },
                evidence: ObservationEvidence {
                    excerpt: Some("<h1>Welcome, visitor</h1>\n<p>Shop</p>".into()),
                    sha256: Some("f".repeat(64)),
                    bytes: 38,
                    path: Some("site/index.html".into()),
                    ..ObservationEvidence::default()
                },
                reason: reason.map(str::to_string),
                shard: None,
            },
        )
    }

    /// A runnable check of `criterion` observed with `status`.
    pub fn observed(&mut self, check: &str, criterion: &str, status: ObservationStatus) -> String {
        let route = self.check(
            check,
            criterion,
            CheckDecision::Runnable,
            "a file checker reads the captured target",
            &[],
        );
        self.observe(&route, check, criterion, status, None)
    }

    pub fn verify(&mut self, same: bool) -> String {
        self.push(
            Kind::TargetVerify,
            vec![],
            TargetVerifyData {
                subject: VerifySubject::Target,
                value: "site".into(),
                before: Some("a".repeat(64)),
                after: Some(if same { "a" } else { "b" }.repeat(64)),
                same,
                changed: if same {
                    vec![]
                } else {
                    vec!["index.html".into()]
                },
                reason: None,
            },
        )
    }

    /// The deployed build of environment `qa` as qa-fetch --env read it.
    pub fn build(
        &mut self,
        status: TargetStatus,
        value: Option<&str>,
        reason: Option<&str>,
    ) -> String {
        self.push(
            Kind::Build,
            vec![],
            BuildData {
                env: "qa".into(),
                url: "https://qa.example/version.json".into(),
                format: BuildFormat::Commit,
                json_path: Some("$.commit".into()),
                regex: None,
                status,
                value: value.map(str::to_string),
                body_sha256: None,
                reason: reason.map(str::to_string),
            },
        )
    }

    pub fn event(&mut self, phase: &str, detail: &str) -> String {
        self.push(
            Kind::Event,
            vec![],
            EventData {
                phase: phase.into(),
                at: "2026-11-29T17:36:00.000Z".into(),
                subject: None,
                duration_ms: Some(12),
                detail: Some(detail.into()),
            },
        )
    }
}

impl Stream {
    /// What qa-trace adds at the end of an acceptance flow: a trace (of the first
    /// criterion; its shape is not what these tests are about).
    pub fn traced(&mut self) -> String {
        let criterion = self
            .records
            .iter()
            .find(|r| r.kind == "criterion")
            .map(|r| r.id.clone());
        self.push(
            Kind::Trace,
            criterion.iter().cloned().collect(),
            serde_json::json!({"subject": criterion.unwrap_or_default(), "state": "traceable", "path": [], "execution": "not-run"}),
        )
    }

    /// The stream as a whole acceptance flow leaves it: with the recapture of
    /// `qa-fetch --verify` (the target unchanged) and qa-trace's trace, so what a test
    /// judges is its own records, not a stream that ends early.
    pub fn finished(&self) -> Vec<u8> {
        let mut whole = Stream {
            records: self.records.clone(),
        };
        whole.verify(true);
        whole.traced();
        whole.bytes()
    }
}

/// A plan with one request criterion `greets` whose check `home` passes, through the
/// whole flow.
pub fn passing() -> Stream {
    let mut s = Stream::default();
    s.plan();
    s.criterion("greets", SourceKind::Request, true);
    s.event("check", "1 of 1 checks done");
    s.observed("home", "greets", ObservationStatus::Pass);
    s.verify(true);
    s.traced();
    s
}
