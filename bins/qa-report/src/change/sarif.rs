//! The SARIF 2.1.0 report: one result per required (warning) or recommended (note)
//! scenario, located at its direct and supporting evidence, with a fingerprint that is
//! the scenario's record id, so code-scanning tools track it across runs.

use crate::model::{label, IntentView, Report, ScenarioView};
use crate::plain::one_line;
use qa_records::change::{Decision, ScenarioKind};
use serde::Serialize;
use serde_json::{json, Value};

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The partial fingerprint's name: bump it if what it hashes ever changes.
pub const FINGERPRINT: &str = "qapipe/v1";

const KINDS: [(ScenarioKind, &str, &str); 4] = [
    (
        ScenarioKind::Primary,
        "PrimaryScenario",
        "The main path of a changed behaviour needs proof.",
    ),
    (
        ScenarioKind::Failure,
        "FailureScenario",
        "A failure path of a changed behaviour needs proof.",
    ),
    (
        ScenarioKind::Boundary,
        "BoundaryScenario",
        "A boundary of a changed behaviour needs proof.",
    ),
    (
        ScenarioKind::StateTransition,
        "StateTransitionScenario",
        "A state transition of a changed behaviour needs proof.",
    ),
];

/// The rule a scenario kind's findings name (SARIF ruleId, Code Quality check_name).
pub fn rule_id(kind: ScenarioKind) -> String {
    format!("qapipe/{}", label(&kind))
}

/// The report as a SARIF log, pretty-printed, ending with a newline. Results are made
/// one at a time as the log is written, never held together.
pub fn render(report: &Report) -> String {
    let rules: Vec<Value> = KINDS
        .iter()
        .map(|(kind, name, text)| {
            json!({
                "id": rule_id(*kind),
                "name": name,
                "shortDescription": {"text": text},
                "defaultConfiguration": {"level": "warning"},
            })
        })
        .collect();
    let mut properties = json!({"neutralized": report.neutralized, "summary": report.summary});
    // A stream that ends early is a failed run, not a clean scan.
    let invocations = (!report.finished()).then(|| {
        properties["missing_stages"] = json!(report.missing_stages);
        if let Some(signal) = report.cancelled {
            properties["cancelled"] = json!(signal);
        }
        json!([{
            "executionSuccessful": false,
            "toolExecutionNotifications": [{
                "level": "error",
                "message": {"text": one_line(&report.summary)},
            }],
        }])
    });
    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: json!({"driver": {
                "name": "qapipe",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }}),
            results: Results(report),
            properties,
            invocations,
        }],
    };
    let mut s = serde_json::to_string_pretty(&log).expect("a SARIF log is plain JSON");
    s.push('\n');
    s
}

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Serialize)]
struct Run<'a> {
    tool: Value,
    results: Results<'a>,
    properties: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    invocations: Option<Value>,
}

/// The results, each made as it is written.
struct Results<'a>(&'a Report);

impl Serialize for Results<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(
            self.0
                .scenarios()
                .filter_map(|(intent, s)| result(intent, s)),
        )
    }
}

/// One result per required or recommended scenario; None for the others.
fn result(intent: &IntentView, s: &ScenarioView) -> Option<Value> {
    let level = match s.decision() {
        Some(Decision::Required) => "warning",
        Some(Decision::Recommended) => "note",
        _ => return None,
    };
    let index = KINDS
        .iter()
        .position(|(k, _, _)| *k == s.data.kind)
        .expect("every scenario kind has a rule");
    let message = one_line(&s.finding(intent)).into_owned();
    let mut located = s.locations();
    if located.is_empty() {
        // A route on commit wording alone runs its package's tests: the result sits at
        // the top of the files its intent changed (code scanning needs a location).
        located = intent
            .data
            .files
            .iter()
            .take(3)
            .map(|f| (f.as_str(), 1))
            .collect();
    }
    let locations: Vec<Value> = located
        .into_iter()
        .map(|(file, line)| {
            json!({"physicalLocation": {
                "artifactLocation": {"uri": uri(file), "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": line},
            }})
        })
        .collect();
    let mut result = json!({
        "ruleId": rule_id(s.data.kind),
        "ruleIndex": index,
        "level": level,
        "message": {"text": message},
        "partialFingerprints": {FINGERPRINT: s.id},
        "properties": {
            "decision": s.decision_label(),
            "priority": label(&s.data.priority),
            "scenario": s.id,
            "intent": intent.id,
        },
    });
    if !locations.is_empty() {
        result["locations"] = Value::Array(locations);
    }
    Some(result)
}

/// A repository-relative path as a URI reference: every byte outside the unreserved set
/// and `/` percent-encoded.
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::uri;

    #[test]
    fn spaces_percent_signs_and_non_ascii_are_percent_encoded() {
        assert_eq!(uri("a b/%/é.rs"), "a%20b/%25/%C3%A9.rs");
    }

    #[test]
    fn an_ordinary_relative_path_is_its_own_uri() {
        assert_eq!(uri("src/auth/session_v2.rs"), "src/auth/session_v2.rs");
    }
}
