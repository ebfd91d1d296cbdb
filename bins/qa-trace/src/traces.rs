//! The reasoning path of one scenario: diff line -> lifecycle stage -> risk -> route ->
//! draft -> execution, and whether its links join.

use qa_records::change::{
    ActionKind, Authority, Decision, DraftData, ExecutionState, IntentData, Relation, RouteData,
    ScenarioData, Stage, TraceData, TraceState, TraceStep, TraceStepKind,
};

use crate::reading::{ExecutionView, Read};

/// Most diff links shown per trace.
const MAX_DIFF: usize = 3;

/// Builds the trace of `scenario`.
pub fn trace(
    scenario: &Read<ScenarioData>,
    intent: Option<&Read<IntentData>>,
    route: Option<&Read<RouteData>>,
    draft: Option<&(String, DraftData)>,
    execution: Option<&Read<ExecutionView>>,
) -> TraceData {
    let s = &scenario.data;
    let mut path = Vec::new();

    // Located diff lines, direct first, and the lifecycle stage each supports.
    let mut located: Vec<_> = s
        .evidence
        .iter()
        .filter(|e| e.line > 0 && e.relation != Relation::Contextual)
        .collect();
    located.sort_by_key(|e| e.relation);
    let mut joined = false;
    for e in located.iter().take(MAX_DIFF) {
        path.push(TraceStep {
            step: TraceStepKind::Diff,
            reference: format!("{}:{}", e.file, e.line),
            text: e.text.clone(),
        });
    }
    // The first evidence line whose stage the intent's lifecycle locates at that same line.
    let link = located.iter().find_map(|e| {
        let stage = e.stage?;
        let step = intent?.data.lifecycle.iter().find(|l| {
            l.stage == stage
                && l.evidence
                    .iter()
                    .any(|at| at.file == e.file && at.line == e.line)
        })?;
        Some((stage, step.text.clone()))
    });
    match link {
        Some((stage, text)) => {
            joined = true;
            path.push(TraceStep {
                step: TraceStepKind::Lifecycle,
                reference: stage_name(stage).to_string(),
                text,
            });
        }
        None => path.push(TraceStep {
            step: TraceStepKind::Lifecycle,
            reference: "unlinked".to_string(),
            text: if located.is_empty() {
                "no changed line supports this scenario".to_string()
            } else {
                "no lifecycle stage of the intent is located on these lines".to_string()
            },
        }),
    }
    path.push(TraceStep {
        step: TraceStepKind::Risk,
        reference: format!("{}/{}", name(&s.priority), name(&s.kind)),
        text: match &s.proof_gap {
            Some(gap) => format!(
                "{} {} scenario; proof gap: {gap}",
                name(&s.priority),
                name(&s.kind)
            ),
            None => format!("{} {} scenario", name(&s.priority), name(&s.kind)),
        },
    });
    match route {
        Some(r) => path.push(TraceStep {
            step: TraceStepKind::Route,
            reference: r.id.clone(),
            text: match &r.data.command {
                Some(c) => format!(
                    "{}: {}; {} `{}`",
                    name(&r.data.decision),
                    r.data.reason,
                    name(&r.data.action.kind),
                    c.run
                ),
                None => format!(
                    "{}: {}; {}",
                    name(&r.data.decision),
                    r.data.reason,
                    name(&r.data.action.kind)
                ),
            },
        }),
        None => path.push(TraceStep {
            step: TraceStepKind::Route,
            reference: "unrouted".to_string(),
            text: "no route: run qa-route before qa-trace".to_string(),
        }),
    }
    path.push(match draft {
        Some((id, d)) => TraceStep {
            step: TraceStepKind::Draft,
            reference: id.clone(),
            text: format!(
                "{} draft {}: {} of {} mapped",
                d.format,
                name(&d.receipt),
                d.mapped,
                d.total
            ),
        },
        None => TraceStep {
            step: TraceStepKind::Draft,
            reference: "none".to_string(),
            text: "no draft requested (qa-trace --draft manual)".to_string(),
        },
    });
    let execution_state = execution_state(route, execution);
    path.push(TraceStep {
        step: TraceStepKind::Execution,
        reference: name(&execution_state),
        text: match execution_state {
            ExecutionState::NotRun => {
                "not run: analysis is static; qa-check --exec --allow-exec runs the routed command"
                    .to_string()
            }
            other => format!("the routed command {}", name(&other)),
        },
    });

    let state = match route.map(|r| r.data.decision) {
        Some(Decision::ReviewOnly) => TraceState::ReviewOnly,
        _ if joined && route.is_some() => TraceState::Traceable,
        _ => TraceState::Partial,
    };
    TraceData {
        subject: scenario.id.clone(),
        state,
        path,
        execution: execution_state,
        authority: s.authority,
        test_class: s.test_class,
        approval: if s.authority == Authority::TeamPolicy {
            "team-policy"
        } else {
            "required"
        }
        .to_string(),
    }
}

/// An execution counts for this scenario only when it ran this route's exact command.
fn execution_state(
    route: Option<&Read<RouteData>>,
    execution: Option<&Read<ExecutionView>>,
) -> ExecutionState {
    let (Some(route), Some(exec)) = (route, execution) else {
        return ExecutionState::NotRun;
    };
    let Some(command) = &route.data.command else {
        return ExecutionState::NotRun;
    };
    if route.data.action.kind != ActionKind::RunRepositoryCommand {
        return ExecutionState::NotRun;
    }
    let ran = exec.data.command.as_ref().and_then(|c| match c {
        serde_json::Value::String(s) => Some(s.as_str()),
        serde_json::Value::Object(o) => o.get("run").and_then(|v| v.as_str()),
        _ => None,
    });
    if ran != Some(command.run.as_str()) {
        return ExecutionState::NotRun;
    }
    match exec.data.status.as_str() {
        "passed" => ExecutionState::Passed,
        "failed" | "timed-out" => ExecutionState::Failed,
        "blocked" => ExecutionState::Blocked,
        _ => ExecutionState::NotRun,
    }
}

/// The serialized name of an enum value.
pub fn name<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn stage_name(stage: Stage) -> String {
    name(&stage)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{evidence, route, scenario};
    use qa_records::change::{LifecycleStep, Location, Origin, Relation::*};

    fn intent(stage: Stage, file: &str, line: u32) -> Read<IntentData> {
        let json = serde_json::json!({
            "title": "Refund", "type": "fix", "focus": "product", "source": "commits",
            "commits": [], "cleanup_commits": [], "tickets": [], "files": [file],
            "confidence": "medium", "review_required": false, "cleanup": false, "current": false,
            "lifecycle": [], "authority": "inference", "flow": null, "contracts": [],
            "annotations": [], "reason": "test"
        });
        let mut data: IntentData = serde_json::from_value(json).unwrap();
        data.lifecycle.push(LifecycleStep {
            stage,
            text: "amount must be positive".into(),
            evidence: vec![Location {
                file: file.into(),
                line,
            }],
            origin: Origin::Diff,
        });
        Read {
            id: format!("sha256:{}", "b".repeat(64)),
            data,
        }
    }

    fn failure() -> Read<ScenarioData> {
        scenario(
            &[&qa_records::steps::given("amount < 0")],
            &["amount must be positive"],
            vec![evidence(
                "src/refund.ts",
                3,
                Direct,
                Some(Stage::ObservableOutcome),
                "amount must be positive",
            )],
            None,
        )
    }

    #[test]
    fn a_located_line_joined_to_its_lifecycle_stage_and_routed_is_traceable() {
        let i = intent(Stage::ObservableOutcome, "src/refund.ts", 3);
        let t = trace(
            &failure(),
            Some(&i),
            Some(&route(Decision::Recommended, Some("npm test"))),
            None,
            None,
        );
        assert_eq!(t.state, TraceState::Traceable);
        assert_eq!(t.execution, ExecutionState::NotRun);
        let steps: Vec<TraceStepKind> = t.path.iter().map(|p| p.step).collect();
        assert_eq!(steps.first(), Some(&TraceStepKind::Diff));
        assert_eq!(steps.last(), Some(&TraceStepKind::Execution));
    }

    #[test]
    fn a_stage_located_elsewhere_leaves_the_trace_partial() {
        let i = intent(Stage::ObservableOutcome, "src/refund.ts", 9);
        let t = trace(
            &failure(),
            Some(&i),
            Some(&route(Decision::Recommended, Some("npm test"))),
            None,
            None,
        );
        assert_eq!(t.state, TraceState::Partial);
    }

    #[test]
    fn a_review_only_route_gives_a_review_only_trace() {
        let i = intent(Stage::ObservableOutcome, "src/refund.ts", 3);
        let t = trace(
            &failure(),
            Some(&i),
            Some(&route(Decision::ReviewOnly, None)),
            None,
            None,
        );
        assert_eq!(t.state, TraceState::ReviewOnly);
    }

    #[test]
    fn an_unrouted_scenario_is_partial() {
        let i = intent(Stage::ObservableOutcome, "src/refund.ts", 3);
        let t = trace(&failure(), Some(&i), None, None, None);
        assert_eq!(t.state, TraceState::Partial);
    }

    #[test]
    fn only_an_execution_of_the_routed_command_counts() {
        let r = route(Decision::Recommended, Some("npm test"));
        let ran = |cmd: &str, status: &str| Read {
            id: format!("sha256:{}", "d".repeat(64)),
            data: ExecutionView {
                status: status.into(),
                command: Some(serde_json::json!({"run": cmd})),
            },
        };
        assert_eq!(
            execution_state(Some(&r), Some(&ran("npm test", "passed"))),
            ExecutionState::Passed
        );
        assert_eq!(
            execution_state(Some(&r), Some(&ran("npm test", "timed-out"))),
            ExecutionState::Failed
        );
        assert_eq!(
            execution_state(Some(&r), Some(&ran("make test", "passed"))),
            ExecutionState::NotRun
        );
        assert_eq!(execution_state(Some(&r), None), ExecutionState::NotRun);
    }
}
