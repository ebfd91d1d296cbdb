//! State scenarios: a value stored and read back, one target moved through named states,
//! and a located move to a named state.

use super::*;

impl Ctx<'_> {
    pub(super) fn persistence(&self, f: &ProductFacts) -> Vec<Scenario> {
        let ProductFacts {
            all: facts,
            durable,
            ..
        } = f;
        let mut out = Vec::new();
        // Persistence: a located write and a located read of the same storage key; only
        // then does a reload step belong in the scenario.
        let mut keys = Vec::new();
        for w in durable.iter() {
            let Some(key) = crate::lifecycle::stored_key(&w.text, "setItem") else {
                continue;
            };
            let Some(read) = facts
                .iter()
                .find(|r| matches!(&r.kind, FactKind::StoredRead { key: k } if *k == key))
            else {
                continue;
            };
            if keys.len() >= MAX_EDGE || keys.contains(&key) {
                continue;
            }
            keys.push(key.clone());
            out.push(self.scenario(
                format!("Persistence: \"{key}\" survives a reload"),
                ScenarioKind::StateTransition,
                Focus::Product,
                vec![
                    qa_records::steps::stored_change(&w.text, &w.at.file, w.at.line),
                    "Reload the page".to_string(),
                ],
                vec![format!(
                    "The value stored under \"{key}\" is read back: {}",
                    read.text
                )],
                vec![
                    self.evidence(w, Relation::Direct),
                    self.evidence(read, Relation::Direct),
                ],
                None,
            ));
        }
        out
    }

    pub(super) fn states(&self, f: &ProductFacts, out: &mut Vec<Scenario>) {
        let ProductFacts {
            all: facts,
            triggers,
            outcomes,
            states,
            ..
        } = f;
        // State machine: one target moved through several named states in a file (a save
        // handler's "saving" then "saved" or "error"): one transition scenario naming them
        // in order, and a failure scenario for the failing state.
        let mut grouped: Vec<String> = Vec::new();
        for (target, moves) in transitions(states) {
            if moves.len() < 2 || out.len() >= MAX_EDGE * 3 {
                continue;
            }
            let names: Vec<String> = moves.iter().map(|(to, _)| format!("\"{to}\"")).collect();
            grouped.extend(moves.iter().map(|(to, _)| to.to_string()));
            let (failing, passing): (Vec<_>, Vec<_>) =
                moves.iter().partition(|(to, _)| is_failure_state(to));
            let first = &moves[0];
            let mut assertions = vec![format!("`{target}` reads \"{}\" first", first.0)];
            if let Some(last) = passing.last().filter(|p: &&&(&str, &Fact)| p.0 != first.0) {
                assertions.push(format!("On success `{target}` ends at \"{}\"", last.0));
            }
            let evidence: Vec<Evidence> = moves
                .iter()
                .map(|(_, f)| self.evidence(f, Relation::Direct))
                .collect();
            let trigger: Vec<String> = triggers
                .iter()
                .take(1)
                .map(|t| trigger_step(&t.text))
                .collect();
            out.push(
                self.scenario(
                    format!("State: `{target}` moves through {}", names.join(", ")),
                    ScenarioKind::StateTransition,
                    Focus::Product,
                    trigger
                        .iter()
                        .cloned()
                        .chain([format!(
                            "Watch `{target}` from the start of the change's handler to its end"
                        )])
                        .collect(),
                    assertions,
                    evidence.clone(),
                    None,
                ),
            );
            for (to, f) in failing.iter().take(1) {
                out.push(
                    self.scenario(
                        format!("Failure: `{target}` ends at \"{to}\" when the work fails"),
                        ScenarioKind::Failure,
                        Focus::Product,
                        trigger
                            .iter()
                            .cloned()
                            .chain([
                                format!("Make the call before {}:{} fail", f.at.file, f.at.line),
                                format!("Watch `{target}` until the handler ends"),
                            ])
                            .collect(),
                        vec![format!(
                            "`{target}` reads \"{to}\" afterwards, not {}",
                            passing
                                .last()
                                .map_or("a success state".to_string(), |p| format!("\"{}\"", p.0))
                        )],
                        vec![self.evidence(f, Relation::Direct)],
                        None,
                    ),
                );
            }
        }

        // State transition: a located move to a named state.
        let mut named = Vec::new();
        for s in states.iter() {
            let FactKind::State {
                literal: Some(to),
                durable,
            } = &s.kind
            else {
                continue;
            };
            if named.len() >= MAX_EDGE || named.contains(to) || grouped.contains(to) {
                continue;
            }
            named.push(to.clone());
            // Stored when the same line writes it, or a write follows within three lines
            // (`self.status = "approved"` then `self.save()`).
            let durable = *durable
                || facts.iter().any(|d| {
                    matches!(d.kind, FactKind::State { durable: true, .. })
                        && d.at.file == s.at.file
                        && d.at.line > s.at.line
                        && d.at.line - s.at.line <= 3
                });
            let mut assertions = vec![format!("Afterwards the state reads \"{to}\"")];
            if durable {
                assertions.push(format!(
                    "\"{to}\" is still there after a reload or re-entry"
                ));
            }
            let gap = (!durable && outcomes.is_empty())
                .then(|| "The transition is located in memory; no changed line shows it to a user or stores it.".to_string());
            out.push(
                self.scenario(
                    format!("State: moves to \"{to}\""),
                    ScenarioKind::StateTransition,
                    Focus::Product,
                    triggers
                        .iter()
                        .take(1)
                        .map(|t| trigger_step(&t.text))
                        .chain([qa_records::steps::state_change(&s.text)])
                        .collect(),
                    assertions,
                    vec![self.evidence(s, Relation::Direct)],
                    gap,
                ),
            );
        }
    }
}
