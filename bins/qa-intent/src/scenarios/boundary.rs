//! Boundary scenarios: a located comparison against a limit, new at head, probed on both
//! sides.

use super::*;

impl Ctx<'_> {
    pub(super) fn boundaries(&self, f: &ProductFacts) -> Vec<Scenario> {
        let ProductFacts {
            conditions,
            errors,
            outcomes,
            ..
        } = f;
        let mut out = Vec::new();
        // Boundary: a located comparison against a limit, new at head (one the base file
        // already had only moved).
        for c in conditions
            .iter()
            .filter(|c| c.kind == FactKind::Comparison && !c.preexisting && !is_compound(&c.text))
            .take(MAX_EDGE)
        {
            let nearby_outcome = errors.iter().chain(outcomes.iter()).find(|o| {
                o.at.file == c.at.file && o.at.line >= c.at.line && o.at.line - c.at.line <= 5
            });
            let mut evidence = vec![self.evidence(c, Relation::Direct)];
            evidence.extend(nearby_outcome.map(|o| self.evidence(o, Relation::Supporting)));
            let assertions = match nearby_outcome {
                Some(o) => vec![
                    format!("When the condition holds: {}", o.text),
                    format!("One step on the other side: {} does not happen", o.text),
                ],
                None => vec!["Behaviour changes exactly at the limit".to_string()],
            };
            let gap = nearby_outcome.is_none().then(|| "The limit is located, but no changed line shows what happens on each side of it.".to_string());
            out.push(self.scenario(
                format!("Boundary: {}", c.text),
                ScenarioKind::Boundary,
                Focus::Product,
                vec![format!(
                    "{} ({}:{})",
                    boundary_step(&c.text),
                    c.at.file,
                    c.at.line
                )],
                assertions,
                evidence,
                gap,
            ));
        }
        out
    }
}
