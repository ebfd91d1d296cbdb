//! The route decision of a scenario: required, recommended or review-only, from its
//! priority and how much of its evidence is a located changed line.

use qa_records::change::{Decision, EvidenceCounts, Priority, Relation, ScenarioData};

/// A decision with the counts behind it and the sentence that says why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgment {
    pub decision: Decision,
    pub evidence: EvidenceCounts,
    pub reason: String,
}

fn noun(n: u32) -> &'static str {
    if n == 1 {
        "line"
    } else {
        "lines"
    }
}

/// Decides `scenario`'s route: changed lines (line > 0) related directly or as support
/// make it routable; commit wording (line 0) and context only ever reach a person.
pub fn judge(scenario: &ScenarioData) -> Judgment {
    let mut evidence = EvidenceCounts::default();
    let (mut direct, mut supporting, mut context, mut wording) = (0u32, 0u32, 0u32, 0u32);
    for item in &scenario.evidence {
        match item.relation {
            Relation::Direct => evidence.direct += 1,
            Relation::Supporting => evidence.supporting += 1,
            Relation::Contextual => evidence.contextual += 1,
        }
        match (item.line, item.relation) {
            (0, _) => wording += 1,
            (_, Relation::Direct) => direct += 1,
            (_, Relation::Supporting) => supporting += 1,
            (_, Relation::Contextual) => context += 1,
        }
    }
    if direct + supporting == 0 {
        let mut parts = Vec::new();
        if wording > 0 {
            parts.push("commit wording".to_string());
        }
        if context > 0 {
            parts.push(format!("{context} contextual {}", noun(context)));
        }
        let reason = if parts.is_empty() {
            "no evidence: a person decides".to_string()
        } else {
            format!("only {}: a person decides", parts.join(" and "))
        };
        return Judgment {
            decision: Decision::ReviewOnly,
            evidence,
            reason,
        };
    }
    let mut support = Vec::new();
    if direct > 0 {
        support.push(format!("{direct} direct"));
    }
    if supporting > 0 {
        support.push(format!("{supporting} supporting"));
    }
    let located = format!(
        "{} changed {}",
        support.join(" and "),
        noun(direct + supporting)
    );
    let (decision, priority) = match scenario.priority {
        Priority::Critical => (Decision::Required, "critical"),
        Priority::Recommended => (Decision::Recommended, "not critical"),
    };
    Judgment {
        decision,
        evidence,
        reason: format!("{priority}; {located}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qa_records::change::{Authority, Evidence, Focus, ScenarioKind, TestClass};

    fn scenario(priority: Priority, evidence: &[(u32, Relation)]) -> ScenarioData {
        ScenarioData {
            intent: String::new(),
            title: "t".into(),
            kind: ScenarioKind::Primary,
            priority,
            steps: vec![],
            assertions: vec![],
            evidence: evidence
                .iter()
                .map(|(line, relation)| Evidence {
                    file: "a.rs".into(),
                    line: *line,
                    relation: *relation,
                    stage: None,
                    text: String::new(),
                })
                .collect(),
            proof_gap: None,
            authority: Authority::Inference,
            test_class: TestClass::Golden,
            focus: Focus::Product,
            reaches: Vec::new(),
        }
    }

    use Relation::{Contextual, Direct, Supporting};

    #[test]
    fn critical_with_located_support_is_required() {
        let j = judge(&scenario(
            Priority::Critical,
            &[(3, Direct), (4, Direct), (9, Supporting)],
        ));
        assert_eq!(j.decision, Decision::Required);
        assert_eq!(
            j.reason,
            "critical; 2 direct and 1 supporting changed lines"
        );
        assert_eq!(
            j.evidence,
            EvidenceCounts {
                direct: 2,
                supporting: 1,
                contextual: 0
            }
        );
    }

    #[test]
    fn not_critical_with_located_support_is_recommended() {
        let j = judge(&scenario(Priority::Recommended, &[(7, Supporting)]));
        assert_eq!(j.decision, Decision::Recommended);
        assert_eq!(j.reason, "not critical; 1 supporting changed line");
    }

    #[test]
    fn critical_with_only_commit_wording_and_context_is_review_only() {
        let j = judge(&scenario(
            Priority::Critical,
            &[(0, Direct), (5, Contextual)],
        ));
        assert_eq!(j.decision, Decision::ReviewOnly);
        assert_eq!(
            j.reason,
            "only commit wording and 1 contextual line: a person decides"
        );
        assert_eq!(j.evidence.direct, 1, "counts keep every item by relation");
    }

    #[test]
    fn a_scenario_without_evidence_is_review_only() {
        let j = judge(&scenario(Priority::Recommended, &[]));
        assert_eq!(j.decision, Decision::ReviewOnly);
        assert_eq!(j.reason, "no evidence: a person decides");
    }
}
