//! The verdict rules: each criterion's status and the run's, never a false pass.
//!
//! A criterion passes only with at least one check, every check observed passing, and its
//! source quote found; it fails when an observation failed; otherwise it is unverified,
//! with every reason. The run is cancelled (qa-report itself or an upstream stage was
//! signalled), stale (a recapture differs), fail (a criterion failed), incomplete (any gap,
//! or no non-inferred criterion passed), and only otherwise pass.

use super::model::{Acceptance, CheckView, CriterionView};
use qa_records::acceptance::{
    CheckDecision, Counts, CriterionOutcome, CriterionStatus, ObservationStatus, TargetStatus,
    VerdictData, VerdictStatus, VerifySubject,
};
use qa_records::Exit;

/// A verdict and the exit code it maps to.
#[derive(Debug, Clone)]
pub struct Decided {
    pub data: VerdictData,
    pub exit: Exit,
}

/// The status of one criterion and why.
pub fn criterion(c: &CriterionView) -> CriterionOutcome {
    let mut failed = Vec::new();
    let mut gaps = Vec::new();
    if c.checks.is_empty() {
        gaps.push("no checks".to_string());
    }
    let source = &c.data.source;
    if !source.found {
        gaps.push(match &source.path {
            Some(path) => format!("quote not found in {path}"),
            None => "quote not found".to_string(),
        });
    }
    for check in &c.checks {
        match check_gap(check) {
            Ok(()) => {}
            Err(Outcome::Failed(reason)) => failed.push(reason),
            Err(Outcome::Gap(reason)) => gaps.push(reason),
        }
    }
    let (status, reasons) = if !failed.is_empty() {
        failed.extend(gaps);
        (CriterionStatus::Fail, failed)
    } else if gaps.is_empty() {
        (CriterionStatus::Pass, Vec::new())
    } else {
        (CriterionStatus::Unverified, gaps)
    };
    CriterionOutcome {
        id: c.data.id.clone(),
        status,
        reasons,
    }
}

enum Outcome {
    Failed(String),
    Gap(String),
}

/// Ok when the check passed; otherwise whether it failed or left a gap, and why.
fn check_gap(check: &CheckView) -> Result<(), Outcome> {
    let id = &check.data.id;
    let observed = check.observation.as_ref().map(|o| &o.data);
    // An observation that passed or failed is evidence, whatever the route predicted.
    match observed.map(|o| o.status) {
        Some(ObservationStatus::Pass) => return Ok(()),
        Some(ObservationStatus::Fail) => {
            let o = observed.expect("matched Some");
            return Err(Outcome::Failed(format!(
                "check {id} failed: expected {}, observed {}",
                o.expected, o.observed
            )));
        }
        _ => {}
    }
    if let Some(route) = &check.route {
        let r = &route.data;
        match r.decision {
            CheckDecision::Blocked => {
                return Err(Outcome::Gap(if r.missing.is_empty() {
                    format!("check {id} is blocked: {}", r.reason)
                } else {
                    format!("check {id} is blocked: needs {}", r.missing.join(", "))
                }))
            }
            CheckDecision::Unsupported => {
                return Err(Outcome::Gap(format!(
                    "check {id} is unsupported: {}",
                    r.reason
                )))
            }
            CheckDecision::Runnable => {}
        }
    }
    let Some(o) = observed else {
        return Err(Outcome::Gap(format!("check {id} has no observation")));
    };
    let why = o
        .reason
        .as_deref()
        .map_or(String::new(), |r| format!(": {r}"));
    Err(Outcome::Gap(match o.status {
        ObservationStatus::Error => format!("check {id} errored{why}"),
        ObservationStatus::Cancelled => format!("check {id} was cancelled{why}"),
        ObservationStatus::Skipped => format!("check {id} was skipped{why}"),
        _ => format!("check {id} is unverified{why}"),
    }))
}

/// The run's verdict. `interrupted` is the signal qa-report itself received, if any.
pub fn decide(report: &Acceptance, interrupted: Option<Exit>) -> Decided {
    let outcomes: Vec<CriterionOutcome> = report.criteria.iter().map(criterion).collect();
    let mut counts = Counts::default();
    for o in &outcomes {
        match o.status {
            CriterionStatus::Pass => counts.pass += 1,
            CriterionStatus::Fail => counts.fail += 1,
            CriterionStatus::Unverified => counts.unverified += 1,
        }
    }
    let mut reasons = Vec::new();
    let cancelled = interrupted.or(report.cancelled);
    match (interrupted, report.cancelled) {
        (Some(signal), _) => reasons.push(format!(
            "qa-report was cancelled by {}: the report is partial",
            signal_name(signal)
        )),
        (None, Some(_)) => {
            reasons.push("an upstream stage was cancelled: the report is partial".to_string())
        }
        (None, None) => {}
    }
    let stale: Vec<String> = report
        .verifies
        .iter()
        .filter(|v| !v.data.same)
        .map(|v| {
            let what = match v.data.subject {
                VerifySubject::Target => "target",
                VerifySubject::Plan => "plan",
                VerifySubject::Source => "source",
            };
            format!("{what} {} changed during the run", v.data.value)
        })
        .collect();
    let builds_changed: Vec<String> = report
        .build_verifies
        .iter()
        .filter(|v| !v.data.same)
        .map(|v| {
            format!(
                "the deployed build of {} changed during the run: {} -> {}",
                v.data.env,
                v.data.before.as_deref().unwrap_or("unknown"),
                v.data.after.as_deref().unwrap_or("unreadable")
            )
        })
        .collect();
    // A deployed build that was asked for and not read leaves the run without proof of
    // what it tested: a gap, never a pass.
    let builds_unread: Vec<String> = report
        .builds
        .iter()
        .filter(|b| b.data.status != TargetStatus::Captured || b.data.value.is_none())
        .map(|b| {
            let why = b
                .data
                .reason
                .as_deref()
                .unwrap_or("no build id in the answer");
            format!("the deployed build of {} was not read: {why}", b.data.env)
        })
        .collect();
    let stale_run = !stale.is_empty() || !builds_changed.is_empty();
    reasons.extend(stale);
    reasons.extend(builds_changed);
    let build_gap = !builds_unread.is_empty();
    reasons.extend(builds_unread);
    if report.plan.is_none() {
        reasons.push("no plan record in the stream".to_string());
    }
    // A cancelled run ends early by its nature; the cancellation is its reason.
    let ends_early = !report.missing.is_empty() && cancelled.is_none();
    if ends_early {
        reasons.push(crate::flow::ends_early(&report.missing));
    }
    reasons.extend(report.gaps.iter().cloned());
    if report.criteria.is_empty() {
        reasons.push("no criteria".to_string());
    }
    for o in &outcomes {
        match o.status {
            CriterionStatus::Pass => {}
            CriterionStatus::Fail => reasons.push(format!("criterion {} failed", o.id)),
            CriterionStatus::Unverified => reasons.push(format!(
                "criterion {} is unverified: {}",
                o.id,
                o.reasons.join("; ")
            )),
        }
    }
    let established = report
        .criteria
        .iter()
        .zip(&outcomes)
        .any(|(c, o)| !c.is_inferred() && o.status == CriterionStatus::Pass);
    if !established && !report.criteria.is_empty() {
        reasons.push(
            "no request, ticket or spec criterion passed: inferred criteria cannot establish acceptance"
                .to_string(),
        );
    }
    let (status, exit) = if let Some(signal) = interrupted {
        (VerdictStatus::Cancelled, signal)
    } else if stale_run {
        (VerdictStatus::Stale, Exit::Incomplete)
    } else if let Some(signal) = cancelled {
        (VerdictStatus::Cancelled, signal)
    } else if counts.fail > 0 {
        (VerdictStatus::Fail, Exit::Fail)
    } else if counts.unverified > 0
        || !established
        || report.plan.is_none()
        || ends_early
        || build_gap
        || !report.gaps.is_empty()
    {
        (VerdictStatus::Incomplete, Exit::Incomplete)
    } else {
        (VerdictStatus::Pass, Exit::Success)
    };
    Decided {
        data: VerdictData {
            status,
            counts,
            reasons,
            criteria: outcomes,
        },
        exit,
    }
}

/// `SIGINT` or `SIGTERM`, for messages.
pub fn signal_name(exit: Exit) -> &'static str {
    if exit == Exit::Terminated {
        "SIGTERM"
    } else {
        "SIGINT"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Linked;
    use qa_records::acceptance::BuildVerifyData;

    fn rebuilt(same: bool) -> Acceptance {
        Acceptance {
            build_verifies: vec![Linked {
                id: format!("sha256:{}", "e".repeat(64)),
                data: BuildVerifyData {
                    env: "qa".into(),
                    before: Some("abc1234".into()),
                    after: Some(if same { "abc1234" } else { "def5678" }.into()),
                    same,
                    reason: None,
                },
            }],
            ..Acceptance::default()
        }
    }

    #[test]
    fn a_deploy_during_the_run_makes_it_stale_naming_both_builds() {
        let decided = decide(&rebuilt(false), None);
        assert_eq!(decided.data.status, VerdictStatus::Stale);
        assert_eq!(decided.exit, Exit::Incomplete);
        assert!(decided
            .data
            .reasons
            .iter()
            .any(|r| r.contains("qa") && r.contains("abc1234 -> def5678")));
    }

    #[test]
    fn the_same_build_after_the_run_is_not_stale() {
        assert_ne!(
            decide(&rebuilt(true), None).data.status,
            VerdictStatus::Stale
        );
    }
}
