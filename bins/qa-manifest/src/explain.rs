//! `explain ID`: why a scenario exists, for a person: its intent, located evidence,
//! authority, proof gap, route decision and trace path, read from the saved stream, in
//! the reviewer's words of `qa_records::words` (record names only where a step of the
//! trace path is named).

use std::io::Write;

use qa_records::change::{IntentData, ScenarioData};
use qa_records::untrusted::Boundary;
use qa_records::words::Words as _;
use serde::Serialize;

use crate::stream::Stream;

/// Writes the explanation of scenario `id`. Source-derived text (titles, commit wording,
/// changed lines) passes the untrusted-text boundary first.
pub fn explain(stream: &Stream, id: &str, out: &mut impl Write) -> anyhow::Result<()> {
    let (id, scenario) = stream.scenario(id)?;
    let mut b = Boundary::new();
    let mut text = String::new();
    let mut line = |s: String| {
        text.push_str(&s);
        text.push('\n');
    };

    line(format!("scenario {id}"));
    line(format!("  {:?}", b.clean(&scenario.title)));
    line(format!(
        "  {} scenario, {} priority, test class {}; why it matters: {}",
        scenario.kind.words(),
        scenario.priority.words(),
        name(scenario.test_class),
        scenario.authority.words()
    ));
    match stream.intent(&scenario.intent) {
        Some(intent) => intent_lines(intent, &scenario.intent, &mut b, &mut line),
        None => line(format!("intent {} (not in the stream)", scenario.intent)),
    }

    line("evidence:".into());
    if scenario.evidence.is_empty() {
        line("  none".into());
    }
    for e in &scenario.evidence {
        let at = if e.line > 0 {
            format!("{}:{}", b.clean(&e.file), e.line)
        } else {
            format!("commit {}", short(&e.file))
        };
        let stage = e
            .stage
            .map(|s| format!(", {}", s.words()))
            .unwrap_or_default();
        line(format!(
            "  {at} ({}{stage}): {}",
            e.relation.words(),
            b.clean(&e.text)
        ));
    }
    proof_lines(scenario, &mut b, &mut line);

    match stream.routes.get(id) {
        Some((route_id, route)) => {
            line(format!(
                "route {}: {}; what to do: {}",
                short(route_id),
                route.decision.words(),
                route.action.kind.words()
            ));
            line(format!("  {}", b.clean(&route.reason)));
            if let Some(command) = &route.command {
                line(format!(
                    "  command: {} (in {}, from {})",
                    b.clean(&command.run),
                    command.dir,
                    command.declared_in
                ));
            }
        }
        None => line("route: none in the stream (run qa-route)".into()),
    }

    match stream.traces.get(id) {
        Some(trace) => {
            // `required` unless a team-policy flow already approved the judgment.
            let approval = if trace.approval == "required" {
                "a reviewer must approve it".to_string()
            } else {
                format!("approval {}", b.clean(&trace.approval))
            };
            line(format!(
                "trace: {}; {}; {approval}",
                trace.state.words(),
                trace.execution.words()
            ));
            for step in &trace.path {
                line(format!(
                    "  {:<10} {}  {}",
                    name(step.step),
                    b.clean(&step.reference),
                    b.clean(&step.text)
                ));
            }
        }
        None => line("trace: none in the stream (run qa-trace)".into()),
    }
    if b.count() > 0 {
        line(format!(
            "note: {} instruction-like span(s) of repository text were neutralized",
            b.count()
        ));
    }
    out.write_all(text.as_bytes())
        .map_err(|e| qa_records::output::write_failed("stdout", e))?;
    Ok(())
}

fn intent_lines(intent: &IntentData, id: &str, b: &mut Boundary, line: &mut impl FnMut(String)) {
    line(format!("intent {id}"));
    line(format!("  {:?}", b.clean(&intent.title)));
    line(format!(
        "  {}: {}",
        intent.confidence.words(),
        b.clean(&intent.reason)
    ));
    match &intent.flow {
        Some(flow) => line(format!("  manifest flow {:?} (team policy)", b.clean(flow))),
        None => line("  no manifest flow".into()),
    }
    for step in &intent.lifecycle {
        let at: Vec<String> = step
            .evidence
            .iter()
            .map(|l| format!("{}:{}", b.clean(&l.file), l.line))
            .collect();
        // A step no changed line shows is the commit's word, not evidence: said so, so
        // that an outcome read from the message never stands beside a proof gap as if
        // a line had shown it.
        let at = if at.is_empty() {
            format!(
                "stated by the {}, not shown by a changed line",
                name(step.origin)
            )
        } else {
            at.join(", ")
        };
        line(format!(
            "  lifecycle {}: {} ({at})",
            step.stage.words(),
            b.clean(&step.text)
        ));
    }
}

fn proof_lines(scenario: &ScenarioData, b: &mut Boundary, line: &mut impl FnMut(String)) {
    match &scenario.proof_gap {
        Some(gap) => line(format!("proof gap: {}", b.clean(gap))),
        None => line("proof gap: none (a changed line shows the outcome or durable state)".into()),
    }
}

/// The record name of an enumerated value (`regression`, `diff`, ...): for values that
/// are words already.
fn name(value: impl Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => "?".into(),
    }
}

/// The first 12 characters of a commit or the first 12 hex digits of a record id.
fn short(id: &str) -> String {
    match id.strip_prefix("sha256:") {
        Some(hex) => format!("sha256:{}", hex.chars().take(12).collect::<String>()),
        None => id.chars().take(12).collect(),
    }
}
