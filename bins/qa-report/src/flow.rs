//! Which flow a stream carries and how far it got: a stream with neither a `range` record
//! (the change flow) nor a `plan` record (the acceptance flow) is never a pass, and one
//! that ends inside its flow names the stages that left no records.

use qa_records::{Envelope, Kind};
use std::collections::BTreeMap;

/// The two flows a report is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// `qa-diff | qa-intent | qa-route | qa-trace | qa-check --exec? | qa-report`.
    Change,
    /// `qa-intent --plan P | qa-fetch | qa-route | qa-check | qa-fetch --verify | qa-trace
    /// | qa-report`.
    Acceptance,
}

/// What each stage of either flow leaves in a stream, counted as records go by.
#[derive(Debug, Default)]
pub struct Stages {
    range: bool,
    plan: bool,
    /// An `intent`, a `scenario`, or a `diag` of stage qa-intent (it always writes one).
    intents: bool,
    /// A `capability` (qa-route always writes them in the change flow) or a `route`.
    routes: bool,
    scenarios: u64,
    traces: u64,
    target_specs: u64,
    targets: u64,
    criteria: u64,
    check_specs: u64,
    observations: u64,
    verifies: u64,
}

impl Stages {
    /// Counts one record.
    pub fn take(&mut self, envelope: &Envelope) {
        let Some(kind) = envelope.known_kind() else {
            return;
        };
        match kind {
            Kind::Range => self.range = true,
            Kind::Plan => self.plan = true,
            Kind::Intent => self.intents = true,
            Kind::Scenario => {
                self.intents = true;
                self.scenarios += 1;
            }
            Kind::Diag
                if envelope.data.get("stage").and_then(|s| s.as_str()) == Some("qa-intent") =>
            {
                self.intents = true
            }
            Kind::Capability | Kind::Route => self.routes = true,
            Kind::Trace => self.traces += 1,
            Kind::TargetSpec => self.target_specs += 1,
            Kind::Target => self.targets += 1,
            Kind::Criterion => self.criteria += 1,
            Kind::CheckSpec => self.check_specs += 1,
            Kind::Observation => self.observations += 1,
            Kind::TargetVerify => self.verifies += 1,
            _ => {}
        }
    }

    /// The flow the stream carries: a plan makes it an acceptance stream, else a range a
    /// change stream; None when it has neither.
    pub fn flow(&self) -> Option<Flow> {
        if self.plan {
            Some(Flow::Acceptance)
        } else if self.range {
            Some(Flow::Change)
        } else {
            None
        }
    }

    /// The stages of the stream's flow that left no records, in flow order (`qa-check
    /// --exec` is optional in the change flow and never missing).
    pub fn missing(&self) -> Vec<&'static str> {
        let stages: Vec<(&'static str, bool)> = match self.flow() {
            None => return Vec::new(),
            Some(Flow::Change) => vec![
                ("qa-intent", self.intents),
                ("qa-route", self.routes),
                // Without scenarios qa-trace writes nothing: it counts as run once qa-intent
                // is seen to have found none.
                (
                    "qa-trace",
                    self.traces > 0 || (self.intents && self.scenarios == 0),
                ),
            ],
            Some(Flow::Acceptance) => vec![
                ("qa-fetch", self.target_specs == 0 || self.targets > 0),
                ("qa-route", self.check_specs == 0 || self.routes),
                ("qa-check", self.check_specs == 0 || self.observations > 0),
                ("qa-fetch --verify", self.verifies > 0),
                ("qa-trace", self.criteria == 0 || self.traces > 0),
            ],
        };
        stages
            .into_iter()
            .filter_map(|(stage, seen)| (!seen).then_some(stage))
            .collect()
    }
}

/// The one line for a stream that carries no flow: what it holds and what is missing.
pub fn no_flow(source: &str, per_kind: &BTreeMap<String, u64>) -> String {
    let records: u64 = per_kind.values().sum();
    if records == 0 {
        return format!("{source}: no records: did an upstream stage fail?");
    }
    let kinds: Vec<String> = per_kind.iter().map(|(k, n)| format!("{k} {n}")).collect();
    format!(
        "{source}: no range or plan record in {records} record{} ({}): did an upstream stage fail? (qa-diff starts the change flow, qa-intent --plan the acceptance flow)",
        if records == 1 { "" } else { "s" },
        kinds.join(", ")
    )
}

/// What a report says first when its stream lacks the records of `missing` stages.
pub fn ends_early(missing: &[&str]) -> String {
    format!(
        "INCOMPLETE, not a pass: the stream ends inside its flow, with no records from {} (did an upstream stage fail?)",
        missing.join(", ")
    )
}

/// What a report says first when `signal` cut its stream after `records` records, with
/// none yet from the `missing` stages.
pub fn cut(signal: &str, records: u64, missing: &[&str]) -> String {
    let mut line = format!(
        "CANCELLED, not a pass: {signal} stopped qa-report after {records} record{} of the stream",
        if records == 1 { "" } else { "s" }
    );
    if !missing.is_empty() {
        line.push_str(&format!(", with none yet from {}", missing.join(", ")));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use qa_records::envelope::{Record, Src};
    use serde_json::json;

    fn stages(kinds: &[(Kind, serde_json::Value)]) -> Stages {
        let mut s = Stages::default();
        for (kind, data) in kinds {
            let line = Record::new(*kind, "t/0", vec![], Src::new(), data)
                .unwrap()
                .to_line();
            s.take(&Envelope::parse(&line).unwrap());
        }
        s
    }

    #[test]
    fn a_range_alone_misses_every_stage_after_qa_diff() {
        let s = stages(&[(Kind::Range, json!({}))]);
        assert_eq!(s.flow(), Some(Flow::Change));
        assert_eq!(s.missing(), vec!["qa-intent", "qa-route", "qa-trace"]);
    }

    #[test]
    fn a_change_without_scenarios_needs_no_trace() {
        let s = stages(&[
            (Kind::Range, json!({})),
            (Kind::Diag, json!({"stage": "qa-intent"})),
            (Kind::Capability, json!({})),
        ]);
        assert!(s.missing().is_empty());
    }

    #[test]
    fn scenarios_without_traces_miss_qa_trace() {
        let s = stages(&[
            (Kind::Range, json!({})),
            (Kind::Scenario, json!({})),
            (Kind::Capability, json!({})),
        ]);
        assert_eq!(s.missing(), vec!["qa-trace"]);
    }

    #[test]
    fn a_cut_stream_says_cancelled_the_signal_and_what_had_not_arrived() {
        assert_eq!(
            cut("SIGINT", 1, &["qa-trace"]),
            "CANCELLED, not a pass: SIGINT stopped qa-report after 1 record of the stream, with none yet from qa-trace"
        );
        assert_eq!(
            cut("SIGTERM", 7, &[]),
            "CANCELLED, not a pass: SIGTERM stopped qa-report after 7 records of the stream"
        );
    }

    #[test]
    fn a_plan_alone_misses_every_stage_after_it() {
        let s = stages(&[
            (Kind::Plan, json!({})),
            (Kind::TargetSpec, json!({})),
            (Kind::Criterion, json!({})),
            (Kind::CheckSpec, json!({})),
        ]);
        assert_eq!(s.flow(), Some(Flow::Acceptance));
        assert_eq!(
            s.missing(),
            vec![
                "qa-fetch",
                "qa-route",
                "qa-check",
                "qa-fetch --verify",
                "qa-trace"
            ]
        );
    }

    #[test]
    fn neither_range_nor_plan_is_no_flow_and_the_line_says_what_is_there() {
        let s = stages(&[(Kind::Capability, json!({}))]);
        assert_eq!(s.flow(), None);
        let kinds = BTreeMap::from([("capability".to_string(), 1)]);
        assert!(
            no_flow("stdin", &kinds).contains("no range or plan record in 1 record (capability 1)")
        );
        assert_eq!(
            no_flow("stdin", &BTreeMap::new()),
            "stdin: no records: did an upstream stage fail?"
        );
    }
}
