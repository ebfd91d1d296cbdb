//! Manual test drafts and their compile receipts: which steps and assertions map to
//! located evidence.

use qa_records::change::{
    Decision, DraftData, DraftItem, Relation, RouteData, ScenarioData, Stage,
};

use crate::reading::Read;
use qa_records::steps::Step;

/// A manual draft of `scenario`. A step maps when a located line supports its stage; an
/// assertion maps when a direct located line proves it and the scenario has no proof gap.
pub fn manual(scenario: &Read<ScenarioData>, route: &Read<RouteData>) -> DraftData {
    let s = &scenario.data;
    let located = |stage: Option<Stage>| {
        s.evidence
            .iter()
            .filter(|e| e.line > 0 && e.relation != Relation::Contextual)
            .find(|e| stage.is_none() || e.stage == stage)
            .map(|e| format!("{}:{}", e.file, e.line))
    };
    let steps: Vec<DraftItem> = s
        .steps
        .iter()
        .map(|text| DraftItem {
            text: text.clone(),
            maps_to: located_in_text(text, s).or_else(|| located(Some(step_stage(text)?))),
        })
        .collect();
    let direct: Vec<String> = s
        .evidence
        .iter()
        .filter(|e| e.line > 0 && e.relation == Relation::Direct)
        .map(|e| format!("{}:{}", e.file, e.line))
        .collect();
    let assertions: Vec<DraftItem> = s
        .assertions
        .iter()
        .enumerate()
        .map(|(i, text)| DraftItem {
            text: text.clone(),
            // The located line whose text the assertion quotes, else the i-th direct line.
            maps_to: if s.proof_gap.is_none() {
                quoted_line(text, s).or_else(|| direct.get(i).cloned())
            } else {
                None
            },
        })
        .collect();
    let (mapped, total) = counts(&steps, &assertions);
    let mut gaps: Vec<String> = steps
        .iter()
        .filter(|i| i.maps_to.is_none())
        .map(|i| format!("step not located: {}", i.text))
        .collect();
    if assertions.is_empty() {
        gaps.push("no assertion: no observable outcome is located".to_string());
    }
    gaps.extend(
        assertions
            .iter()
            .filter(|i| i.maps_to.is_none())
            .map(|i| format!("assertion not located: {}", i.text)),
    );
    gaps.extend(s.proof_gap.clone());
    let receipt = if route.data.decision == Decision::ReviewOnly {
        qa_records::change::Receipt::ReviewOnly
    } else if mapped == total && !assertions.is_empty() {
        qa_records::change::Receipt::Compiled
    } else if mapped == 0 {
        qa_records::change::Receipt::NotCompiled
    } else {
        qa_records::change::Receipt::Partial
    };
    DraftData {
        subject: scenario.id.clone(),
        format: "manual".to_string(),
        receipt,
        mapped,
        total,
        steps,
        assertions,
        gaps,
    }
}

/// `(mapped, total)` over a draft's steps and assertions.
pub fn counts(steps: &[DraftItem], assertions: &[DraftItem]) -> (u32, u32) {
    let mapped = steps
        .iter()
        .chain(assertions)
        .filter(|i| i.maps_to.is_some())
        .count();
    (mapped as u32, (steps.len() + assertions.len()) as u32)
}

/// A `file:line` the step names itself, when a located evidence line matches it.
fn located_in_text(text: &str, s: &ScenarioData) -> Option<String> {
    s.evidence
        .iter()
        .filter(|e| e.line > 0)
        .map(|e| format!("{}:{}", e.file, e.line))
        .find(|at| text.contains(at.as_str()))
}

/// The `file:line` of a located evidence line whose (non-trivial) text the assertion quotes.
fn quoted_line(assertion: &str, s: &ScenarioData) -> Option<String> {
    s.evidence
        .iter()
        .filter(|e| e.line > 0 && e.relation != Relation::Contextual && e.text.len() >= 4)
        .find(|e| assertion.contains(e.text.as_str()))
        .map(|e| format!("{}:{}", e.file, e.line))
}

/// The lifecycle stage a step names.
fn step_stage(text: &str) -> Option<Stage> {
    Some(match qa_records::steps::parse(text) {
        Step::Trigger(_) => Stage::Trigger,
        Step::Given(_) => Stage::Condition,
        Step::Action(_) => Stage::Action,
        Step::Change(_) => Stage::StateChange,
        Step::Other => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{evidence, route, scenario};
    use qa_records::change::{Receipt, Relation::*};
    use qa_records::steps::{action, given};

    fn located() -> Vec<qa_records::change::Evidence> {
        vec![
            evidence(
                "src/refund.ts",
                3,
                Direct,
                Some(Stage::ObservableOutcome),
                "amount must be positive",
            ),
            evidence(
                "src/refund.ts",
                2,
                Supporting,
                Some(Stage::Condition),
                "amount < 0",
            ),
        ]
    }

    #[test]
    fn every_step_and_assertion_located_is_compiled() {
        let s = scenario(
            &[&given("amount < 0")],
            &["The caller gets: amount must be positive"],
            located(),
            None,
        );
        let d = manual(&s, &route(Decision::Recommended, Some("npm test")));
        assert_eq!((d.receipt, d.mapped, d.total), (Receipt::Compiled, 2, 2));
        assert_eq!(d.assertions[0].maps_to.as_deref(), Some("src/refund.ts:3"));
        assert!(d.gaps.is_empty(), "{:?}", d.gaps);
    }

    #[test]
    fn an_unlocated_step_makes_it_partial_and_names_the_gap() {
        let s = scenario(
            &[&given("amount < 0"), &action("open the refunds page")],
            &["The caller gets: amount must be positive"],
            located(),
            None,
        );
        let d = manual(&s, &route(Decision::Recommended, Some("npm test")));
        assert_eq!((d.receipt, d.mapped, d.total), (Receipt::Partial, 2, 3));
        assert!(d.gaps.iter().any(|g| g.contains("open the refunds page")));
    }

    #[test]
    fn a_proof_gap_leaves_assertions_unmapped_and_nothing_located_is_not_compiled() {
        let s = scenario(
            &[&action("refund")],
            &["The refund is shown"],
            vec![],
            Some("no outcome located"),
        );
        let d = manual(&s, &route(Decision::Recommended, None));
        assert_eq!((d.receipt, d.mapped), (Receipt::NotCompiled, 0));
        assert!(d.gaps.iter().any(|g| g == "no outcome located"));
    }

    #[test]
    fn a_review_only_route_gives_a_review_only_receipt_whatever_maps() {
        let s = scenario(
            &[&given("amount < 0")],
            &["The caller gets: amount must be positive"],
            located(),
            None,
        );
        let d = manual(&s, &route(Decision::ReviewOnly, None));
        assert_eq!(d.receipt, Receipt::ReviewOnly);
    }

    #[test]
    fn a_draft_without_assertions_is_never_compiled() {
        let s = scenario(&[&given("amount < 0")], &[], located(), None);
        let d = manual(&s, &route(Decision::Recommended, Some("npm test")));
        assert_eq!(d.receipt, Receipt::Partial);
        assert!(d.gaps.iter().any(|g| g.contains("no assertion")));
    }
}
