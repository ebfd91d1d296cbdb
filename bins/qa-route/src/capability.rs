//! Capability receipts: one per reasoning stage, saying how far this run could go and
//! what was missing.

use qa_records::change::{CapabilityData, CapabilityName, CapabilityStatus, Confidence, Depth};
use qa_records::graph::Support;

/// What an intent contributes to the change-intent receipt.
#[derive(Debug, Clone, Copy)]
pub struct IntentQuality {
    pub confidence: Confidence,
    /// At least one lifecycle step rests on a changed line.
    pub located: bool,
}

/// How validation discovery ended for the scenarios that needed a command.
#[derive(Debug, Default, Clone)]
pub struct ValidationTally {
    /// Scenarios that looked for a command (not review-only).
    pub looked: usize,
    /// Scenarios that got a command.
    pub selected: usize,
    /// Runners not on PATH, in first-seen order.
    pub missing_runners: Vec<String>,
}

/// Everything the receipts rest on.
#[derive(Debug, Default, Clone)]
pub struct Observed {
    pub intents: Vec<IntentQuality>,
    /// `node` or `edge` records were in the stream.
    pub behavior_graph: bool,
    /// The adapter and support of each directly changed node (qa-intent's graph).
    pub graph_support: Vec<(String, Support)>,
    /// Route, endpoint and command nodes in the graph: the user surfaces reached.
    pub reached_entrypoints: usize,
    pub scenarios: usize,
    pub validation: ValidationTally,
}

fn receipt(
    name: CapabilityName,
    status: CapabilityStatus,
    depth: Depth,
    gap: Option<&str>,
) -> CapabilityData {
    CapabilityData {
        name,
        status,
        depth,
        gap: gap.map(str::to_string),
    }
}

fn change_intent(intents: &[IntentQuality]) -> CapabilityData {
    use CapabilityStatus::*;
    let name = CapabilityName::ChangeIntent;
    if intents.is_empty() {
        return receipt(name, NotApplicable, Depth::None, Some("no intent records in the stream: nothing behaviour-bearing changed, or qa-intent did not run"));
    }
    let located = intents.iter().filter(|i| i.located);
    if located.clone().any(|i| i.confidence >= Confidence::Medium) {
        receipt(name, Available, Depth::Deep, None)
    } else if located.count() > 0 {
        receipt(
            name,
            Limited,
            Depth::Structural,
            Some("only low-confidence intents carry located evidence"),
        )
    } else {
        receipt(
            name,
            Generic,
            Depth::Generic,
            Some("no intent carries located evidence: commit wording only"),
        )
    }
}

fn repository_validation(v: &ValidationTally) -> CapabilityData {
    use CapabilityStatus::*;
    let name = CapabilityName::RepositoryValidation;
    if v.selected > 0 {
        receipt(name, Available, Depth::Structural, None)
    } else if !v.missing_runners.is_empty() {
        let gap = format!(
            "declared commands need runners that are not on PATH: {}",
            v.missing_runners.join(", ")
        );
        receipt(name, Limited, Depth::Structural, Some(&gap))
    } else if v.looked > 0 {
        receipt(
            name,
            Unavailable,
            Depth::None,
            Some("the repository declares no validation command for the changed files"),
        )
    } else {
        receipt(
            name,
            NotApplicable,
            Depth::None,
            Some("no scenario with located evidence needs a command"),
        )
    }
}

/// Behavior impact follows the weakest support among the directly changed nodes: deep
/// only when every changed node comes from an adapter that traces impact to entrypoints.
fn behavior_impact(seen: &Observed) -> CapabilityData {
    use CapabilityStatus::*;
    let name = CapabilityName::BehaviorImpact;
    if !seen.behavior_graph {
        return receipt(
            name,
            Unavailable,
            Depth::None,
            Some("no behavior graph in the stream"),
        );
    }
    let Some(weakest) = seen.graph_support.iter().map(|(_, s)| *s).min() else {
        return receipt(
            name,
            Limited,
            Depth::Structural,
            Some("a behavior graph is present but names no directly changed node this build can read"),
        );
    };
    let mut below: Vec<&str> = seen
        .graph_support
        .iter()
        .filter(|(_, s)| *s == weakest)
        .map(|(a, _)| a.as_str())
        .collect();
    below.sort_unstable();
    below.dedup();
    match weakest {
        Support::Deep if seen.reached_entrypoints > 0 => receipt(name, Available, Depth::Deep, None),
        // Deep adapters, but no route, endpoint or command depends on the change: the
        // graph cannot name a user surface, so it does not claim one.
        Support::Deep => receipt(
            name,
            Limited,
            Depth::Structural,
            Some("the changed files reach no route, endpoint or command: impact stops at source files"),
        ),
        Support::Structural => {
            let gap = format!(
                "impact follows imports and declared entrypoints only (calls are not traced) for changes read by: {}",
                below.join(", ")
            );
            receipt(name, Limited, Depth::Structural, Some(&gap))
        }
        Support::Generic => receipt(
            name,
            Generic,
            Depth::Generic,
            Some("some changed files are read by no adapter: the diff shows them, nothing says what depends on them"),
        ),
    }
}

/// The five receipts, in the documented order.
pub fn receipts(seen: &Observed) -> Vec<CapabilityData> {
    use CapabilityStatus::*;
    let behavior = behavior_impact(seen);
    let routing = if seen.scenarios > 0 {
        receipt(
            CapabilityName::ScenarioRouting,
            Available,
            Depth::Deep,
            None,
        )
    } else {
        receipt(
            CapabilityName::ScenarioRouting,
            NotApplicable,
            Depth::None,
            Some("no scenario records in the stream"),
        )
    };
    vec![
        change_intent(&seen.intents),
        behavior,
        routing,
        repository_validation(&seen.validation),
        receipt(
            CapabilityName::AutomationDrafting,
            Limited,
            Depth::Structural,
            Some("manual drafts only (qa-trace --draft manual); no runner adapter"),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn intent(confidence: Confidence, located: bool) -> IntentQuality {
        IntentQuality {
            confidence,
            located,
        }
    }

    fn status_of(intents: &[IntentQuality]) -> (CapabilityStatus, Depth) {
        let r = change_intent(intents);
        (r.status, r.depth)
    }

    #[test]
    fn a_located_medium_intent_makes_change_intent_deep() {
        let got = status_of(&[
            intent(Confidence::Low, true),
            intent(Confidence::Medium, true),
        ]);
        assert_eq!(got, (CapabilityStatus::Available, Depth::Deep));
    }

    #[test]
    fn only_low_confidence_located_intents_are_limited() {
        let got = status_of(&[
            intent(Confidence::Low, true),
            intent(Confidence::High, false),
        ]);
        assert_eq!(got, (CapabilityStatus::Limited, Depth::Structural));
    }

    #[test]
    fn intents_without_located_evidence_are_generic() {
        let got = status_of(&[intent(Confidence::High, false)]);
        assert_eq!(got, (CapabilityStatus::Generic, Depth::Generic));
    }

    #[test]
    fn no_intents_is_not_applicable_with_a_gap() {
        let r = change_intent(&[]);
        assert_eq!(r.status, CapabilityStatus::NotApplicable);
        assert!(r.gap.is_some());
    }

    #[test]
    fn the_behavior_graph_decides_behavior_impact() {
        let without = receipts(&Observed::default());
        assert_eq!(without[1].status, CapabilityStatus::Unavailable);
        assert_eq!(
            without[1].gap.as_deref(),
            Some("no behavior graph in the stream")
        );
        let with = receipts(&Observed {
            behavior_graph: true,
            ..Observed::default()
        });
        assert_eq!(
            (with[1].status, with[1].depth),
            (CapabilityStatus::Limited, Depth::Structural)
        );
    }

    fn graph_of(support: &[(&str, Support)]) -> CapabilityData {
        behavior_impact(&Observed {
            behavior_graph: true,
            graph_support: support.iter().map(|(a, s)| (a.to_string(), *s)).collect(),
            reached_entrypoints: 1,
            ..Observed::default()
        })
    }

    #[test]
    fn deep_changes_that_reach_no_entrypoint_are_only_structural() {
        let r = behavior_impact(&Observed {
            behavior_graph: true,
            graph_support: vec![("typescript".to_string(), Support::Deep)],
            reached_entrypoints: 0,
            ..Observed::default()
        });
        assert_eq!(
            (r.status, r.depth),
            (CapabilityStatus::Limited, Depth::Structural)
        );
        assert!(r.gap.unwrap().contains("reach no route"));
    }

    #[test]
    fn changes_read_only_by_deep_adapters_make_behavior_impact_deep() {
        let r = graph_of(&[("typescript", Support::Deep), ("nextjs", Support::Deep)]);
        assert_eq!(
            (r.status, r.depth, r.gap),
            (CapabilityStatus::Available, Depth::Deep, None)
        );
    }

    #[test]
    fn one_structural_change_limits_behavior_impact_and_names_its_adapter() {
        let r = graph_of(&[
            ("typescript", Support::Deep),
            ("python", Support::Structural),
        ]);
        assert_eq!(
            (r.status, r.depth),
            (CapabilityStatus::Limited, Depth::Structural)
        );
        assert!(r.gap.unwrap().ends_with("read by: python"));
    }

    #[test]
    fn a_change_no_adapter_reads_makes_behavior_impact_generic() {
        let r = graph_of(&[("typescript", Support::Deep), ("diff", Support::Generic)]);
        assert_eq!(
            (r.status, r.depth),
            (CapabilityStatus::Generic, Depth::Generic)
        );
        assert!(r.gap.is_some());
    }

    #[test]
    fn repository_validation_follows_the_tally() {
        let tally = |looked, selected, missing: &[&str]| {
            repository_validation(&ValidationTally {
                looked,
                selected,
                missing_runners: missing.iter().map(|s| s.to_string()).collect(),
            })
        };
        assert_eq!(tally(2, 1, &["go"]).status, CapabilityStatus::Available);
        let limited = tally(2, 0, &["pytest", "go"]);
        assert_eq!(limited.status, CapabilityStatus::Limited);
        assert!(limited.gap.unwrap().ends_with("PATH: pytest, go"));
        assert_eq!(tally(1, 0, &[]).status, CapabilityStatus::Unavailable);
        assert_eq!(tally(0, 0, &[]).status, CapabilityStatus::NotApplicable);
    }

    #[test]
    fn receipts_come_in_the_documented_order() {
        let names: Vec<CapabilityName> = receipts(&Observed::default())
            .iter()
            .map(|r| r.name)
            .collect();
        assert_eq!(
            names,
            [
                CapabilityName::ChangeIntent,
                CapabilityName::BehaviorImpact,
                CapabilityName::ScenarioRouting,
                CapabilityName::RepositoryValidation,
                CapabilityName::AutomationDrafting
            ]
        );
    }
}
