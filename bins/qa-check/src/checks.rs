//! A check of the plan: its kind, its parsed spec, what it expects, the conditions it needs
//! before it can run, and the observation it becomes.

use qa_records::acceptance::{
    CheckDecision, CheckRouteData, CheckSpecData, ObservationData, ObservationEvidence,
    ObservationStatus, TargetData, TargetKind, TargetStatus,
};
use qa_records::shard::Shard;
use qa_records::Exit;
use serde::Deserialize;

use crate::agent::{AgentSpec, Interface};

/// The reason of a check when the stream holds no `target` record.
pub const NO_TARGET: &str = "target not captured: no `target` record: run qa-fetch";
/// The reason of a check no `route` record names.
pub const NOT_ROUTED: &str = "not routed: run qa-route";
/// The reason of an http, mcp or browser check when qa-check itself was not given
/// --allow-network.
pub const NEEDS_NETWORK: &str = "needs --allow-network";
/// The reason of a check that starts after the whole-plan deadline, or runs past it.
pub const TIMED_OUT: &str = "timed out";

/// A file check as the plan writes it.
#[derive(Debug, Clone, Deserialize)]
pub struct FileSpec {
    /// Relative to a directory target; absent for a file target.
    pub path: Option<String>,
    pub contains: String,
}

/// An http check as the plan writes it.
#[derive(Debug, Clone, Deserialize)]
pub struct HttpSpec {
    /// Same-origin path, `/` when absent.
    pub path: Option<String>,
    pub status: Option<u16>,
    pub contains: Option<String>,
}

/// A check this build can run, or why it cannot.
#[derive(Debug, Clone)]
pub enum Spec {
    File(FileSpec),
    Http(HttpSpec),
    /// An mcp or browser check.
    Agent(Interface, AgentSpec),
    /// An unknown kind: no checker here.
    NoChecker,
    /// A check whose fields do not fit its kind.
    Invalid(String),
}

impl Spec {
    pub fn parse(check: &CheckSpecData) -> Spec {
        match check.kind.as_str() {
            "file" => match FileSpec::deserialize(&check.spec) {
                Ok(spec) => Spec::File(spec),
                Err(e) => Spec::Invalid(format!("invalid file check: {e}")),
            },
            "http" => match HttpSpec::deserialize(&check.spec) {
                Ok(spec) if spec.status.is_none() && spec.contains.is_none() => {
                    Spec::Invalid("invalid http check: it needs `status` or `contains`".to_string())
                }
                Ok(spec) => Spec::Http(spec),
                Err(e) => Spec::Invalid(format!("invalid http check: {e}")),
            },
            "mcp" => Spec::agent(check, Interface::Mcp),
            "browser" => Spec::agent(check, Interface::Browser),
            _ => Spec::NoChecker,
        }
    }

    fn agent(check: &CheckSpecData, interface: Interface) -> Spec {
        match AgentSpec::parse(&check.spec, interface) {
            Ok(spec) => Spec::Agent(interface, spec),
            Err(why) => Spec::Invalid(format!("invalid {} check: {why}", check.kind)),
        }
    }

    /// What the check expects, in words.
    pub fn expected(&self, check: &CheckSpecData) -> String {
        match self {
            Spec::File(f) => format!(
                "{} contains {:?}",
                f.path.as_deref().unwrap_or("the target file"),
                f.contains
            ),
            Spec::Http(h) => {
                let mut parts = Vec::new();
                if let Some(status) = h.status {
                    parts.push(format!("status {status}"));
                }
                if let Some(text) = &h.contains {
                    parts.push(format!("body contains {text:?}"));
                }
                format!(
                    "GET {}: {}",
                    h.path.as_deref().unwrap_or("/"),
                    parts.join(" and ")
                )
            }
            Spec::Agent(_, agent) => agent.expected(),
            Spec::NoChecker | Spec::Invalid(_) => {
                format!("{} check {} as the plan states it", check.kind, check.id)
            }
        }
    }
}

/// A check that can run, with the captured target it runs against.
#[derive(Debug, Clone, Copy)]
pub enum Ready<'a> {
    File(&'a FileSpec, &'a TargetData),
    Http(&'a HttpSpec, &'a TargetData),
    Agent(Interface, &'a AgentSpec, &'a TargetData),
}

/// The check ready to run, or why it cannot run with what the stream and the flags give
/// it. Checked in this order: route, checker, permission, target.
pub fn ready<'a>(
    check: &CheckSpecData,
    spec: &'a Spec,
    route: Option<&CheckRouteData>,
    target: Option<&'a TargetData>,
    allow_network: bool,
) -> Result<Ready<'a>, String> {
    let Some(route) = route else {
        return Err(NOT_ROUTED.to_string());
    };
    match route.decision {
        CheckDecision::Runnable => {}
        CheckDecision::Blocked => return Err(blocked_reason(route)),
        CheckDecision::Unsupported => return Err(route.reason.clone()),
    }
    match spec {
        Spec::NoChecker => return Err(format!("no {} checker in this build", check.kind)),
        Spec::Invalid(why) => return Err(why.clone()),
        Spec::Http(_) | Spec::Agent(..) if !allow_network => return Err(NEEDS_NETWORK.to_string()),
        Spec::File(_) | Spec::Http(_) | Spec::Agent(..) => {}
    }
    let Some(target) = target else {
        return Err(NO_TARGET.to_string());
    };
    if target.status != TargetStatus::Captured {
        let status = match target.status {
            TargetStatus::Blocked => "blocked",
            TargetStatus::Cancelled => "cancelled",
            _ => "failed",
        };
        let reason = target.reason.as_deref().unwrap_or("no reason given");
        return Err(format!("target not captured ({status}): {reason}"));
    }
    match (spec, target.kind) {
        (Spec::File(file), TargetKind::File | TargetKind::Directory) => {
            Ok(Ready::File(file, target))
        }
        (Spec::Http(web), TargetKind::Url) => Ok(Ready::Http(web, target)),
        (Spec::Agent(interface, agent), TargetKind::Url) => {
            Ok(Ready::Agent(*interface, agent, target))
        }
        (Spec::File(_), _) => Err("a file check needs a file or directory target".to_string()),
        _ => Err(format!(
            "{} {} check needs a url target",
            if check.kind == "browser" { "a" } else { "an" },
            check.kind
        )),
    }
}

/// A blocked route's reason, naming every missing flag even when the reason does not.
fn blocked_reason(route: &CheckRouteData) -> String {
    let unnamed: Vec<&str> = route
        .missing
        .iter()
        .filter(|flag| !route.reason.contains(flag.as_str()))
        .map(String::as_str)
        .collect();
    if unnamed.is_empty() {
        route.reason.clone()
    } else {
        format!("{} (missing {})", route.reason, unnamed.join(", "))
    }
}

/// The signal a cancel exit code stands for.
pub fn signal_name(exit: Exit) -> &'static str {
    if exit == Exit::Terminated {
        "SIGTERM"
    } else {
        "SIGINT"
    }
}

/// What running (or not running) a check came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub status: ObservationStatus,
    pub observed: String,
    pub evidence: ObservationEvidence,
    pub reason: Option<String>,
}

impl Outcome {
    /// A completed observation: pass or fail.
    pub fn judged(passed: bool, observed: String, evidence: ObservationEvidence) -> Outcome {
        Outcome {
            status: if passed {
                ObservationStatus::Pass
            } else {
                ObservationStatus::Fail
            },
            observed,
            evidence,
            reason: None,
        }
    }

    /// The check could not run.
    pub fn unverified(reason: impl Into<String>) -> Outcome {
        Outcome {
            status: ObservationStatus::Unverified,
            observed: "not run".to_string(),
            evidence: ObservationEvidence::default(),
            reason: Some(reason.into()),
        }
    }

    /// The observation broke.
    pub fn error(reason: impl Into<String>, evidence: ObservationEvidence) -> Outcome {
        let reason = reason.into();
        Outcome {
            status: ObservationStatus::Error,
            observed: reason.clone(),
            evidence,
            reason: Some(reason),
        }
    }

    /// A signal came before the check finished.
    pub fn cancelled(exit: Exit) -> Outcome {
        Outcome {
            status: ObservationStatus::Cancelled,
            observed: "not run".to_string(),
            evidence: ObservationEvidence::default(),
            reason: Some(format!("cancelled by {}", signal_name(exit))),
        }
    }

    /// Another shard of a sharded run owns the check.
    pub fn skipped(owner: Shard) -> Outcome {
        Outcome {
            status: ObservationStatus::Skipped,
            observed: "not run".to_string(),
            evidence: ObservationEvidence::default(),
            reason: Some(format!("shard {owner}")),
        }
    }

    /// The observation record's data for `check`.
    pub fn into_observation(self, check: &CheckSpecData, expected: String) -> ObservationData {
        ObservationData {
            check: check.id.clone(),
            criterion: check.criterion.clone(),
            check_kind: check.kind.clone(),
            status: self.status,
            expected,
            observed: self.observed,
            evidence: self.evidence,
            reason: self.reason,
            shard: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qa_records::change::{Action, ActionKind, Risk};
    use serde_json::json;

    fn check(kind: &str, spec: serde_json::Value) -> CheckSpecData {
        CheckSpecData {
            id: "c1".into(),
            criterion: "k1".into(),
            kind: kind.into(),
            spec,
        }
    }

    fn route(decision: CheckDecision, reason: &str, missing: &[&str]) -> CheckRouteData {
        CheckRouteData {
            subject: format!("sha256:{}", "a".repeat(64)),
            check: "c1".into(),
            criterion: "k1".into(),
            decision,
            reason: reason.into(),
            needs: missing.iter().map(|s| s.to_string()).collect(),
            missing: missing.iter().map(|s| s.to_string()).collect(),
            action: Action {
                kind: ActionKind::RunCheck,
                risk: Risk::Low,
                approval: "required".into(),
                executes_code: false,
                writes: vec![],
                network: false,
                preconditions: vec!["none".into()],
            },
        }
    }

    fn target(kind: TargetKind, status: TargetStatus) -> TargetData {
        TargetData {
            kind,
            value: "site".into(),
            build_id: None,
            status,
            sha256: None,
            entries: vec![],
            excluded: vec![],
            reason: Some("--allow-network not given".into()),
            http_status: None,
            etag: None,
            x_build_id: None,
        }
    }

    fn reason_of(
        kind: &str,
        spec: serde_json::Value,
        route: Option<&CheckRouteData>,
        target: Option<&TargetData>,
        allow_network: bool,
    ) -> Option<String> {
        let c = check(kind, spec);
        ready(&c, &Spec::parse(&c), route, target, allow_network).err()
    }

    #[test]
    fn a_runnable_file_check_with_a_captured_directory_is_ready() {
        let r = route(CheckDecision::Runnable, "ok", &[]);
        let t = target(TargetKind::Directory, TargetStatus::Captured);
        let spec = json!({"path": "index.html", "contains": "x"});
        assert_eq!(reason_of("file", spec, Some(&r), Some(&t), false), None);
    }

    #[test]
    fn an_unrouted_check_says_to_run_qa_route() {
        let t = target(TargetKind::Directory, TargetStatus::Captured);
        let spec = json!({"path": "a", "contains": "x"});
        assert_eq!(
            reason_of("file", spec, None, Some(&t), false).as_deref(),
            Some(NOT_ROUTED)
        );
    }

    #[test]
    fn a_blocked_route_names_its_missing_flag() {
        let r = route(
            CheckDecision::Blocked,
            "network is not allowed",
            &["--allow-network"],
        );
        let t = target(TargetKind::Url, TargetStatus::Captured);
        let got = reason_of("http", json!({"status": 200}), Some(&r), Some(&t), true).unwrap();
        assert_eq!(got, "network is not allowed (missing --allow-network)");
    }

    #[test]
    fn a_blocked_route_that_names_its_flag_is_kept_verbatim() {
        let r = route(
            CheckDecision::Blocked,
            "needs --allow-network",
            &["--allow-network"],
        );
        let got = reason_of("http", json!({"status": 200}), Some(&r), None, true).unwrap();
        assert_eq!(got, "needs --allow-network");
    }

    #[test]
    fn an_http_check_needs_the_network_flag_even_when_routed_runnable() {
        let r = route(CheckDecision::Runnable, "ok", &[]);
        let t = target(TargetKind::Url, TargetStatus::Captured);
        assert_eq!(
            reason_of("http", json!({"status": 200}), Some(&r), Some(&t), false).as_deref(),
            Some(NEEDS_NETWORK)
        );
        assert_eq!(
            reason_of("http", json!({"status": 200}), Some(&r), Some(&t), true),
            None
        );
    }

    #[test]
    fn kinds_without_a_checker_are_named() {
        let r = route(CheckDecision::Runnable, "ok", &[]);
        let got = reason_of("ftp", json!({"tool": "x"}), Some(&r), None, true).unwrap();
        assert_eq!(got, "no ftp checker in this build");
    }

    #[test]
    fn an_mcp_check_needs_the_network_flag_and_a_url_target() {
        let r = route(CheckDecision::Runnable, "ok", &[]);
        let url = target(TargetKind::Url, TargetStatus::Captured);
        let dir = target(TargetKind::Directory, TargetStatus::Captured);
        let spec = json!({"tool": "get_volume"});
        assert_eq!(
            reason_of("mcp", spec.clone(), Some(&r), Some(&url), false).as_deref(),
            Some(NEEDS_NETWORK)
        );
        assert_eq!(
            reason_of("mcp", spec.clone(), Some(&r), Some(&url), true),
            None
        );
        assert_eq!(
            reason_of("mcp", spec, Some(&r), Some(&dir), true).as_deref(),
            Some("an mcp check needs a url target")
        );
    }

    #[test]
    fn a_positive_invocation_without_an_observation_is_invalid() {
        let c = check("mcp", json!({"tool": "set_volume", "input": {"level": 20}}));
        assert!(matches!(Spec::parse(&c), Spec::Invalid(why) if why.contains("proves no effect")));
        let c = check(
            "mcp",
            json!({"tool": "set_volume", "input": {"level": 20}, "observePath": "/s", "observeContains": "20"}),
        );
        assert!(matches!(Spec::parse(&c), Spec::Agent(..)));
    }

    #[test]
    fn a_browser_check_observes_the_body_by_default() {
        let c = check(
            "browser",
            json!({"tool": "add_item", "input": {"text": "x"}, "observeContains": "x"}),
        );
        assert!(matches!(
            Spec::parse(&c),
            Spec::Agent(Interface::Browser, _)
        ));
        let c = check(
            "mcp",
            json!({"tool": "add_item", "input": {"text": "x"}, "observeContains": "x"}),
        );
        assert!(matches!(Spec::parse(&c), Spec::Invalid(_)));
    }

    #[test]
    fn a_negative_case_needs_no_observation_but_needs_input() {
        let c = check(
            "mcp",
            json!({"tool": "set_volume", "input": {"level": 900}, "expectError": true}),
        );
        assert!(matches!(Spec::parse(&c), Spec::Agent(..)));
        let c = check("mcp", json!({"tool": "set_volume", "expectError": true}));
        assert!(matches!(Spec::parse(&c), Spec::Invalid(_)));
    }

    #[test]
    fn an_uncaptured_target_says_how_it_was_not_captured() {
        let r = route(CheckDecision::Runnable, "ok", &[]);
        let t = target(TargetKind::Url, TargetStatus::Blocked);
        let got = reason_of("http", json!({"status": 200}), Some(&r), Some(&t), true).unwrap();
        assert_eq!(
            got,
            "target not captured (blocked): --allow-network not given"
        );
    }

    #[test]
    fn a_file_check_against_a_url_target_cannot_run() {
        let r = route(CheckDecision::Runnable, "ok", &[]);
        let t = target(TargetKind::Url, TargetStatus::Captured);
        let got = reason_of("file", json!({"contains": "x"}), Some(&r), Some(&t), true);
        assert_eq!(
            got.as_deref(),
            Some("a file check needs a file or directory target")
        );
    }

    #[test]
    fn an_http_check_without_status_or_contains_is_invalid() {
        let c = check("http", json!({"path": "/"}));
        assert!(matches!(Spec::parse(&c), Spec::Invalid(_)));
        let c = check("http", json!({"path": "/", "status": 204}));
        assert!(matches!(Spec::parse(&c), Spec::Http(_)));
    }

    #[test]
    fn expectations_read_as_the_plan_states_them() {
        let c = check(
            "http",
            json!({"path": "/health", "status": 200, "contains": "ok"}),
        );
        assert_eq!(
            Spec::parse(&c).expected(&c),
            "GET /health: status 200 and body contains \"ok\""
        );
        let c = check("file", json!({"path": "index.html", "contains": "Welcome"}));
        assert_eq!(
            Spec::parse(&c).expected(&c),
            "index.html contains \"Welcome\""
        );
    }
}
