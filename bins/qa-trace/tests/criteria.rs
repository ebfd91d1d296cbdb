//! qa-trace on an acceptance stream: one schema-valid trace per criterion, after the
//! forwarded records, derived from the criterion, its checks, routes and observations.

use qa_records::acceptance::*;
use qa_records::envelope::{Record, Src};
use qa_records::Kind;
use qa_testkit::{filter, of_kind, Schemas};
use serde::Serialize;

const BIN: &str = env!("CARGO_BIN_EXE_qa-trace");

#[derive(Default)]
struct Stream {
    records: Vec<Record>,
}

impl Stream {
    fn push(&mut self, kind: Kind, from: Vec<String>, data: impl Serialize) -> String {
        let record = Record::new(kind, "test/0", from, Src::new(), data).unwrap();
        let id = record.id.clone();
        self.records.push(record);
        id
    }

    fn criterion(&mut self, id: &str, kind: SourceKind) -> String {
        self.push(
            Kind::Criterion,
            vec![],
            CriterionData {
                id: id.into(),
                expected: format!("{id} holds"),
                source: Source {
                    kind,
                    path: None,
                    quote: None,
                    text: Some(format!("{id} please")),
                    sha256: None,
                    found: true,
                },
                inferred: kind == SourceKind::Inferred,
            },
        )
    }

    /// A check of `criterion`, routed runnable, observed with `status`.
    fn check(&mut self, id: &str, criterion: &str, status: ObservationStatus) -> [String; 3] {
        let spec = self.push(
            Kind::CheckSpec,
            vec![],
            CheckSpecData {
                id: id.into(),
                criterion: criterion.into(),
                kind: "file".into(),
                spec: serde_json::json!({"id": id, "criterion": criterion, "kind": "file", "contains": "x"}),
            },
        );
        // The route as qa-route writes it for a check qa-check can run.
        let route = self.push(
            Kind::Route,
            vec![spec.clone()],
            serde_json::json!({
                "subject": spec, "check": id, "criterion": criterion, "decision": "runnable",
                "reason": "a file checker reads the captured target", "needs": [], "missing": [],
                "action": {
                    "kind": "review-scenario", "risk": "low", "approval": "required",
                    "executes_code": false, "writes": [], "network": false, "preconditions": []
                }
            }),
        );
        let observation = self.push(
            Kind::Observation,
            vec![route.clone()],
            ObservationData {
                check: id.into(),
                criterion: criterion.into(),
                check_kind: "file".into(),
                status,
                expected: "contains x".into(),
                observed: "x found".into(),
                evidence: ObservationEvidence::default(),
                reason: None,
                shard: None,
            },
        );
        [spec, route, observation]
    }

    fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for r in &self.records {
            out.extend(r.to_line());
            out.push(b'\n');
        }
        out
    }
}

#[test]
fn each_criterion_gets_one_schema_valid_trace_after_the_forwarded_records() {
    let mut s = Stream::default();
    let greets = s.criterion("greets", SourceKind::Request);
    let guess = s.criterion("guess", SourceKind::Inferred);
    let [spec, route, observation] = s.check("home", "greets", ObservationStatus::Pass);
    let input = s.bytes();
    let out = filter::output(BIN, &input);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with(&input));
    let records = qa_testkit::parse(&out.stdout);
    let traces = of_kind(&records, "trace");
    // Only the records this stage owns: the upstream kinds' schemas belong to their stages.
    Schemas::get().validate_all(&traces.iter().map(|t| (*t).clone()).collect::<Vec<_>>());
    assert_eq!(traces.len(), 2);
    assert_eq!(traces[0]["data"]["subject"], greets.as_str());
    assert_eq!(traces[0]["data"]["state"], "traceable");
    assert_eq!(traces[0]["data"]["execution"], "passed");
    assert_eq!(
        traces[0]["from"],
        serde_json::json!([greets, spec, route, observation])
    );
    assert_eq!(traces[1]["data"]["subject"], guess.as_str());
    assert_eq!(traces[1]["data"]["state"], "review-only");
    assert_eq!(traces[1]["data"]["execution"], "not-run");
}

#[test]
fn a_stream_without_criteria_gets_no_criterion_traces() {
    let mut s = Stream::default();
    s.check("home", "greets", ObservationStatus::Fail);
    let out = filter::output(BIN, &s.bytes());
    assert_eq!(out.code, 0);
    assert!(of_kind(&qa_testkit::parse(&out.stdout), "trace").is_empty());
}
