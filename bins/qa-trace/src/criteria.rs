//! The trace of one acceptance criterion: its source -> each check with its route
//! decision -> each check's observation, and whether that chain is complete.

use qa_records::acceptance::{
    CheckDecision, CheckRouteData, CheckSpecData, CriterionData, ObservationData,
    ObservationStatus, SourceKind,
};
use qa_records::change::{
    Authority, ExecutionState, TestClass, TraceData, TraceState, TraceStep, TraceStepKind,
};

use crate::reading::{Read, Seen};
use crate::traces::name;

/// Most characters of an observed value a trace step repeats (the observation keeps it all).
const MAX_OBSERVED: usize = 200;

/// One check of a criterion with what the stream says about it.
#[derive(Debug, Clone, Copy)]
pub struct CheckLinks<'a> {
    pub spec: &'a Read<CheckSpecData>,
    pub route: Option<&'a Read<CheckRouteData>>,
    pub observation: Option<&'a Read<ObservationData>>,
}

/// The checks of `criterion` in stream order, each with its route and final observation.
pub fn links<'a>(criterion: &Read<CriterionData>, seen: &'a Seen) -> Vec<CheckLinks<'a>> {
    seen.checks
        .iter()
        .filter(|c| c.data.criterion == criterion.data.id)
        .map(|spec| CheckLinks {
            spec,
            route: seen.check_routes.get(&spec.data.id),
            observation: seen.observations.get(&spec.data.id),
        })
        .collect()
}

/// The ids a criterion's trace derives from: the criterion, then per check its spec,
/// route and observation.
pub fn from(criterion: &Read<CriterionData>, checks: &[CheckLinks<'_>]) -> Vec<String> {
    let mut ids = vec![criterion.id.clone()];
    for c in checks {
        ids.push(c.spec.id.clone());
        ids.extend(c.route.map(|r| r.id.clone()));
        ids.extend(c.observation.map(|o| o.id.clone()));
    }
    ids
}

/// Builds the trace of `criterion` from its checks.
pub fn trace(criterion: &Read<CriterionData>, checks: &[CheckLinks<'_>]) -> TraceData {
    let c = &criterion.data;
    let mut path = vec![source_step(c)];
    for link in checks {
        path.push(check_step(link));
    }
    for link in checks {
        path.push(observation_step(link));
    }
    let complete = !checks.is_empty() && checks.iter().all(|l| l.observation.is_some());
    let state = if c.inferred || c.source.kind == SourceKind::Inferred {
        TraceState::ReviewOnly
    } else if complete && c.source.found {
        TraceState::Traceable
    } else {
        TraceState::Partial
    };
    TraceData {
        subject: criterion.id.clone(),
        state,
        path,
        execution: execution(checks),
        authority: match c.source.kind {
            SourceKind::Ticket | SourceKind::Spec => Authority::RepositoryContract,
            SourceKind::Request | SourceKind::Inferred => Authority::Inference,
        },
        test_class: TestClass::Regression,
        approval: "required".to_string(),
    }
}

/// Failed when a check failed; blocked when a check was blocked, unsupported or could
/// not be observed; passed only when every check passed; not-run otherwise (no checks, or
/// a check with no observation yet).
pub fn execution(checks: &[CheckLinks<'_>]) -> ExecutionState {
    let status = |l: &CheckLinks<'_>| l.observation.map(|o| o.data.status);
    if checks
        .iter()
        .any(|l| status(l) == Some(ObservationStatus::Fail))
    {
        return ExecutionState::Failed;
    }
    let blocked = checks.iter().any(|l| {
        l.route
            .is_some_and(|r| r.data.decision != CheckDecision::Runnable)
            || matches!(
                status(l),
                Some(
                    ObservationStatus::Unverified
                        | ObservationStatus::Error
                        | ObservationStatus::Cancelled
                )
            )
    });
    if blocked {
        return ExecutionState::Blocked;
    }
    if !checks.is_empty()
        && checks
            .iter()
            .all(|l| status(l) == Some(ObservationStatus::Pass))
    {
        return ExecutionState::Passed;
    }
    ExecutionState::NotRun
}

fn source_step(c: &CriterionData) -> TraceStep {
    let s = &c.source;
    let kind = name(&s.kind);
    match s.kind {
        SourceKind::Ticket | SourceKind::Spec => TraceStep {
            step: TraceStepKind::Source,
            reference: match &s.path {
                Some(path) => format!("{kind} {path}"),
                None => kind,
            },
            text: format!(
                "quote {}: {}",
                if s.found { "found" } else { "not found" },
                s.quote.as_deref().unwrap_or("")
            ),
        },
        SourceKind::Request | SourceKind::Inferred => TraceStep {
            step: TraceStepKind::Source,
            reference: kind,
            text: s.text.clone().unwrap_or_default(),
        },
    }
}

fn check_step(link: &CheckLinks<'_>) -> TraceStep {
    let spec = &link.spec.data;
    TraceStep {
        step: TraceStepKind::Check,
        reference: link.spec.id.clone(),
        text: match link.route {
            Some(r) => format!(
                "{} ({}): {}: {}",
                spec.id,
                spec.kind,
                name(&r.data.decision),
                r.data.reason
            ),
            None => format!("{} ({}): not routed", spec.id, spec.kind),
        },
    }
}

fn observation_step(link: &CheckLinks<'_>) -> TraceStep {
    let check = &link.spec.data.id;
    match link.observation {
        Some(o) => {
            let d = &o.data;
            let observed: String = d.observed.chars().take(MAX_OBSERVED).collect();
            let mut text = format!(
                "{check}: {}; expected {}; observed {observed}",
                name(&d.status),
                d.expected
            );
            if let Some(reason) = &d.reason {
                text.push_str(&format!("; {reason}"));
            }
            TraceStep {
                step: TraceStepKind::Observation,
                reference: o.id.clone(),
                text,
            }
        }
        None => TraceStep {
            step: TraceStepKind::Observation,
            reference: "none".to_string(),
            text: format!("{check}: no observation in the stream"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qa_records::acceptance::{ObservationEvidence, Source};

    fn id(c: char) -> String {
        format!("sha256:{}", c.to_string().repeat(64))
    }

    fn criterion(kind: SourceKind, found: bool) -> Read<CriterionData> {
        let quoted = matches!(kind, SourceKind::Ticket | SourceKind::Spec);
        Read {
            id: id('a'),
            data: CriterionData {
                id: "refunds".into(),
                expected: "Refunds over 100 EUR need approval".into(),
                source: Source {
                    kind,
                    path: quoted.then(|| "tickets/SHOP-12.md".into()),
                    quote: quoted.then(|| "Refunds above 100 EUR".into()),
                    text: (!quoted).then(|| "refunds need approval".into()),
                    sha256: None,
                    found,
                },
                inferred: kind == SourceKind::Inferred,
            },
        }
    }

    fn spec(check: &str) -> Read<CheckSpecData> {
        Read {
            id: id('b'),
            data: CheckSpecData {
                id: check.into(),
                criterion: "refunds".into(),
                kind: "file".into(),
                spec: serde_json::json!({"id": check, "kind": "file", "contains": "approval"}),
            },
        }
    }

    fn route(check: &str, decision: CheckDecision) -> Read<CheckRouteData> {
        let action = serde_json::json!({"kind": "review-scenario", "risk": "low", "approval": "required", "executes_code": false, "writes": [], "network": false, "preconditions": []});
        let data = serde_json::json!({"subject": id('b'), "check": check, "criterion": "refunds", "decision": decision, "reason": "test", "needs": [], "missing": [], "action": action});
        Read {
            id: id('c'),
            data: serde_json::from_value(data).unwrap(),
        }
    }

    fn observation(check: &str, status: ObservationStatus) -> Read<ObservationData> {
        Read {
            id: id('d'),
            data: ObservationData {
                check: check.into(),
                criterion: "refunds".into(),
                check_kind: "file".into(),
                status,
                expected: "contains approval".into(),
                observed: "found".into(),
                evidence: ObservationEvidence::default(),
                reason: None,
                shard: None,
            },
        }
    }

    struct Check {
        spec: Read<CheckSpecData>,
        route: Option<Read<CheckRouteData>>,
        observation: Option<Read<ObservationData>>,
    }

    fn check(decision: CheckDecision, status: Option<ObservationStatus>) -> Check {
        Check {
            spec: spec("page"),
            route: Some(route("page", decision)),
            observation: status.map(|s| observation("page", s)),
        }
    }

    fn links(checks: &[Check]) -> Vec<CheckLinks<'_>> {
        checks
            .iter()
            .map(|c| CheckLinks {
                spec: &c.spec,
                route: c.route.as_ref(),
                observation: c.observation.as_ref(),
            })
            .collect()
    }

    fn traced(kind: SourceKind, found: bool, checks: &[Check]) -> TraceData {
        trace(&criterion(kind, found), &links(checks))
    }

    use CheckDecision::*;
    use ObservationStatus as O;

    #[test]
    fn a_found_quote_with_every_check_observed_and_passing_is_traceable_and_passed() {
        let t = traced(
            SourceKind::Ticket,
            true,
            &[
                check(Runnable, Some(O::Pass)),
                check(Runnable, Some(O::Pass)),
            ],
        );
        assert_eq!(t.state, TraceState::Traceable);
        assert_eq!(t.execution, ExecutionState::Passed);
        assert_eq!(t.authority, Authority::RepositoryContract);
        let steps: Vec<TraceStepKind> = t.path.iter().map(|s| s.step).collect();
        use TraceStepKind::*;
        assert_eq!(steps, [Source, Check, Check, Observation, Observation]);
        assert_eq!(t.path[0].text, "quote found: Refunds above 100 EUR");
    }

    #[test]
    fn a_check_without_an_observation_leaves_the_trace_partial_and_not_run() {
        let t = traced(
            SourceKind::Spec,
            true,
            &[check(Runnable, Some(O::Pass)), check(Runnable, None)],
        );
        assert_eq!(t.state, TraceState::Partial);
        assert_eq!(t.execution, ExecutionState::NotRun);
        assert_eq!(t.path.last().unwrap().reference, "none");
    }

    #[test]
    fn a_missing_quote_leaves_the_trace_partial_and_says_so() {
        let t = traced(SourceKind::Ticket, false, &[check(Runnable, Some(O::Pass))]);
        assert_eq!(t.state, TraceState::Partial);
        assert_eq!(t.path[0].text, "quote not found: Refunds above 100 EUR");
    }

    #[test]
    fn a_criterion_without_checks_is_partial_and_not_run() {
        let t = traced(SourceKind::Request, true, &[]);
        assert_eq!(t.state, TraceState::Partial);
        assert_eq!(t.execution, ExecutionState::NotRun);
        assert_eq!(t.authority, Authority::Inference);
    }

    #[test]
    fn one_failed_check_fails_the_execution_even_beside_a_blocked_one() {
        let t = traced(
            SourceKind::Request,
            true,
            &[check(Blocked, None), check(Runnable, Some(O::Fail))],
        );
        assert_eq!(t.execution, ExecutionState::Failed);
    }

    #[test]
    fn blocked_unsupported_unverified_and_error_checks_block_the_execution() {
        for c in [
            check(Blocked, None),
            check(Unsupported, Some(O::Unverified)),
            check(Runnable, Some(O::Unverified)),
            check(Runnable, Some(O::Error)),
        ] {
            let t = traced(
                SourceKind::Request,
                true,
                &[check(Runnable, Some(O::Pass)), c],
            );
            assert_eq!(t.execution, ExecutionState::Blocked);
        }
    }

    #[test]
    fn an_inferred_criterion_is_review_only_even_when_it_passes() {
        let t = traced(
            SourceKind::Inferred,
            true,
            &[check(Runnable, Some(O::Pass))],
        );
        assert_eq!(t.state, TraceState::ReviewOnly);
        assert_eq!(t.execution, ExecutionState::Passed);
        assert_eq!(t.authority, Authority::Inference);
    }

    #[test]
    fn the_check_step_names_its_route_decision() {
        let t = traced(SourceKind::Request, true, &[check(Blocked, None)]);
        assert_eq!(t.path[1].step, TraceStepKind::Check);
        assert_eq!(t.path[1].text, "page (file): blocked: test");
        assert_eq!(t.path[1].reference, id('b'));
    }
}
