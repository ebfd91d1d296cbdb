//! Manual test drafts and their compile receipts: which steps and assertions map to
//! located evidence.

use qa_shared::change::{Decision, DraftData, DraftItem, Relation, RouteData, ScenarioData, Stage};

use crate::reading::Read;

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
            maps_to: if s.proof_gap.is_none() {
                direct.get(i).cloned()
            } else {
                None
            },
        })
        .collect();
    let total = (steps.len() + assertions.len()) as u32;
    let mapped = steps
        .iter()
        .chain(&assertions)
        .filter(|i| i.maps_to.is_some())
        .count() as u32;
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
        qa_shared::change::Receipt::ReviewOnly
    } else if mapped == total && !assertions.is_empty() {
        qa_shared::change::Receipt::Compiled
    } else if mapped == 0 {
        qa_shared::change::Receipt::NotCompiled
    } else {
        qa_shared::change::Receipt::Partial
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

/// A `file:line` the step names itself, when a located evidence line matches it.
fn located_in_text(text: &str, s: &ScenarioData) -> Option<String> {
    s.evidence
        .iter()
        .filter(|e| e.line > 0)
        .map(|e| format!("{}:{}", e.file, e.line))
        .find(|at| text.contains(at.as_str()))
}

/// The lifecycle stage a step's prefix names.
fn step_stage(text: &str) -> Option<Stage> {
    let prefix = text.split(':').next()?;
    Some(match prefix {
        "Trigger" => Stage::Trigger,
        "Given" => Stage::Condition,
        "Action" => Stage::Action,
        "Change" => Stage::StateChange,
        _ => return None,
    })
}
