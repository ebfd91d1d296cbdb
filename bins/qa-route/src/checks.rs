//! Check routing (acceptance flow): each `check.spec` becomes runnable, blocked (a
//! permission flag it needs was not given) or unsupported, with its `run-check` action.

use qa_records::acceptance::{
    CheckDecision, CheckRouteData, CheckSpecData, TargetKind, TargetSpec,
};
use qa_records::change::{Action, ActionKind, Risk};
use std::collections::HashMap;

/// The flag an http check needs, on qa-route (to route it runnable) and on qa-check.
pub const ALLOW_NETWORK: &str = "--allow-network";
/// The flag an mcp or browser check that calls a tool needs, on qa-route and on qa-check.
pub const ALLOW_TOOL_CALLS: &str = "--allow-tool-calls";

/// The permissions given on the command line that routing looks at.
#[derive(Debug, Clone, Copy, Default)]
pub struct Permissions {
    pub network: bool,
    pub tool_calls: bool,
}

/// What check routing keeps of a stream: targets by the plan they belong to, and the
/// check specs in stream order.
#[derive(Debug, Default)]
pub struct Checks {
    targets: HashMap<String, TargetSpec>,
    specs: Vec<Spec>,
    /// Environments the host profile (a `profile` record) declares production.
    production: Vec<String>,
}

#[derive(Debug)]
struct Spec {
    id: String,
    from: Vec<String>,
    data: CheckSpecData,
}

/// The check kinds qa-route tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CheckKind {
    File,
    Http,
    Mcp,
    Browser,
    Unknown,
}

impl CheckKind {
    fn of(name: &str) -> CheckKind {
        match name {
            "file" => CheckKind::File,
            "http" => CheckKind::Http,
            "mcp" => CheckKind::Mcp,
            "browser" => CheckKind::Browser,
            _ => CheckKind::Unknown,
        }
    }
}

impl Checks {
    /// Keeps a `target.spec` under each record it derives from (its `plan`).
    pub fn target(&mut self, from: &[String], target: TargetSpec) {
        for plan in from {
            self.targets.insert(plan.clone(), target.clone());
        }
    }

    /// Notes which environments a `profile` record declares production.
    pub fn profile(&mut self, profile: &serde_json::Value) {
        if let Some(envs) = profile.get("environments").and_then(|e| e.as_object()) {
            self.production = envs
                .iter()
                .filter(|(_, env)| env.get("kind").and_then(|k| k.as_str()) == Some("production"))
                .map(|(name, _)| name.clone())
                .collect();
        }
    }

    /// Keeps a `check.spec` record.
    pub fn spec(&mut self, id: String, from: Vec<String>, data: CheckSpecData) {
        self.specs.push(Spec { id, from, data });
    }

    pub fn is_empty(&self) -> bool {
        self.specs.is_empty()
    }

    /// One route per check spec, in stream order. The target is the one of the check's
    /// plan (a record both derive from).
    pub fn routes(&self, given: Permissions) -> Vec<CheckRouteData> {
        self.specs
            .iter()
            .map(|spec| {
                let target = spec.from.iter().find_map(|id| self.targets.get(id));
                let routed = route(&spec.id, &spec.data, target, given);
                let production = target
                    .and_then(|t| t.env.as_ref())
                    .filter(|env| self.production.contains(env));
                match production {
                    Some(env) => production_guard(routed, &spec.data, env),
                    None => routed,
                }
            })
            .collect()
    }
}

/// The route of the check `spec` (record id `subject`) against `target`.
/// On a production environment an MCP or browser check that invokes a tool is blocked
/// unless it declares `readOnly: true`: no flag unlocks it.
pub fn production_guard(
    mut routed: CheckRouteData,
    spec: &CheckSpecData,
    env: &str,
) -> CheckRouteData {
    let invokes = spec.spec.get("input").is_some();
    let read_only = spec.spec.get("readOnly").and_then(|v| v.as_bool()) == Some(true);
    if matches!(
        CheckKind::of(&spec.kind),
        CheckKind::Mcp | CheckKind::Browser
    ) && invokes
        && !read_only
    {
        routed.decision = CheckDecision::Blocked;
        routed.reason =
            format!("production environment {env}: a tool invocation needs `readOnly: true` there");
    }
    routed
}

pub fn route(
    subject: &str,
    spec: &CheckSpecData,
    target: Option<&TargetSpec>,
    given: Permissions,
) -> CheckRouteData {
    let verdict = decide(spec, target, given);
    CheckRouteData {
        subject: subject.to_string(),
        check: spec.id.clone(),
        criterion: spec.criterion.clone(),
        decision: verdict.decision,
        reason: verdict.reason,
        needs: verdict.needs.iter().map(|f| f.to_string()).collect(),
        missing: verdict.missing.iter().map(|f| f.to_string()).collect(),
        action: verdict.action,
    }
}

struct Verdict {
    decision: CheckDecision,
    reason: String,
    needs: Vec<&'static str>,
    missing: Vec<&'static str>,
    action: Action,
}

fn decide(spec: &CheckSpecData, target: Option<&TargetSpec>, given: Permissions) -> Verdict {
    let kind = CheckKind::of(&spec.kind);
    let Some(target) = target else {
        return unsupported(
            "no target.spec of the check's plan earlier in the stream".into(),
            "the stream carries the plan's target.spec (qa-intent --plan)".into(),
        );
    };
    match kind {
        CheckKind::File => match target.kind {
            TargetKind::File | TargetKind::Directory => {
                let target = described(target);
                Verdict {
                    decision: CheckDecision::Runnable,
                    reason: format!("a file check reads the captured {target}"),
                    needs: Vec::new(),
                    missing: Vec::new(),
                    action: run_check(
                        "not-required",
                        false,
                        vec![format!("qa-fetch captured the {target}")],
                    ),
                }
            }
            TargetKind::Url => unsupported(
                "a file check needs a file or directory target".into(),
                "the plan's target is a file or directory".into(),
            ),
        },
        CheckKind::Http | CheckKind::Mcp | CheckKind::Browser => match target.kind {
            TargetKind::Url => remote(kind, spec, target, given),
            TargetKind::File | TargetKind::Directory => unsupported(
                format!(
                    "{} {} check needs a url target",
                    if kind == CheckKind::Browser {
                        "a"
                    } else {
                        "an"
                    },
                    spec.kind
                ),
                "the plan's target is a url".into(),
            ),
        },
        CheckKind::Unknown => unsupported(
            format!("unknown check kind `{}`", spec.kind),
            "a check kind qa-check supports (file, http, mcp, browser)".into(),
        ),
    }
}

/// An http, mcp or browser check of a url target: runnable when every flag it needs was
/// given (--allow-network; --allow-tool-calls for a tool call), blocked otherwise.
fn remote(
    kind: CheckKind,
    spec: &CheckSpecData,
    target: &TargetSpec,
    given: Permissions,
) -> Verdict {
    let invokes = kind != CheckKind::Http && spec.spec.get("input").is_some_and(|v| !v.is_null());
    let mut needs = vec![ALLOW_NETWORK];
    if invokes {
        needs.push(ALLOW_TOOL_CALLS);
    }
    let missing: Vec<&'static str> = needs
        .iter()
        .copied()
        .filter(|flag| match *flag {
            ALLOW_NETWORK => !given.network,
            _ => !given.tool_calls,
        })
        .collect();
    let what = match (kind, invokes) {
        (CheckKind::Http, _) => "an http check".to_string(),
        (CheckKind::Mcp, false) => "an mcp tool discovery".to_string(),
        (CheckKind::Browser, false) => "a browser (WebMCP) tool discovery".to_string(),
        (CheckKind::Mcp, true) => "an mcp tool call".to_string(),
        _ => "a browser (WebMCP) tool call".to_string(),
    };
    let verb = if needs.len() == 1 { "is" } else { "are" };
    let mut preconditions = vec![format!(
        "{} {verb} given to qa-route and qa-check",
        needs.join(" and ")
    )];
    preconditions.push(format!("the {} is reachable", described(target)));
    if kind == CheckKind::Browser {
        preconditions.push(
            "qa-check --browser-module names an installed Playwright module, and Chromium is installed".into(),
        );
    }
    let read_only = spec.spec.get("readOnly").and_then(|v| v.as_bool()) == Some(true);
    let mut action = run_check("flag", true, preconditions);
    // A browser runs the page's scripts on this machine.
    action.executes_code = kind == CheckKind::Browser;
    if invokes && !read_only {
        let tool = spec
            .spec
            .get("tool")
            .and_then(|t| t.as_str())
            .unwrap_or("?");
        action.risk = Risk::Medium;
        action.writes = vec![format!("remote state, through tool `{tool}`")];
    }
    if missing.is_empty() {
        Verdict {
            decision: CheckDecision::Runnable,
            reason: format!(
                "{what} of the {}; {} given",
                described(target),
                needs.join(" and ")
            ),
            needs,
            missing,
            action,
        }
    } else {
        let verb = if missing.len() == 1 { "was" } else { "were" };
        Verdict {
            decision: CheckDecision::Blocked,
            reason: format!(
                "{what} needs {}, which {verb} not given",
                missing.join(" and ")
            ),
            needs,
            missing,
            action,
        }
    }
}

/// `the directory target `site``, `the url target `https://...``.
fn described(target: &TargetSpec) -> String {
    let kind = match target.kind {
        TargetKind::File => "file",
        TargetKind::Directory => "directory",
        TargetKind::Url => "url",
    };
    format!("{kind} target `{}`", target.value)
}

/// A check that cannot run in this build: nothing runs, so nothing needs approval.
fn unsupported(reason: String, precondition: String) -> Verdict {
    Verdict {
        decision: CheckDecision::Unsupported,
        reason,
        needs: Vec::new(),
        missing: Vec::new(),
        action: run_check("not-required", false, vec![precondition]),
    }
}

/// The `run-check` action: checks read captured files or send GET requests; they never
/// run project code and never write.
fn run_check(approval: &str, network: bool, preconditions: Vec<String>) -> Action {
    Action {
        kind: ActionKind::RunCheck,
        risk: Risk::Low,
        approval: approval.into(),
        executes_code: false,
        writes: Vec::new(),
        network,
        preconditions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SUBJECT: &str = "sha256:0000000000000000000000000000000000000000000000000000000000000001";

    fn spec(kind: &str) -> CheckSpecData {
        CheckSpecData {
            id: "c1".into(),
            criterion: "k1".into(),
            kind: kind.into(),
            spec: json!({"id": "c1", "criterion": "k1", "kind": kind}),
        }
    }

    fn target(kind: TargetKind, value: &str) -> TargetSpec {
        TargetSpec {
            kind,
            value: value.into(),
            build_id: None,
            env: None,
            app: None,
        }
    }

    fn routed(kind: &str, target: &TargetSpec, network: bool) -> CheckRouteData {
        let given = Permissions {
            network,
            tool_calls: false,
        };
        route(SUBJECT, &spec(kind), Some(target), given)
    }

    fn agent_routed(kind: &str, extra: serde_json::Value, given: Permissions) -> CheckRouteData {
        let mut s = spec(kind);
        for (k, v) in extra.as_object().unwrap() {
            s.spec[k] = v.clone();
        }
        route(
            SUBJECT,
            &s,
            Some(&target(TargetKind::Url, "http://127.0.0.1:9/mcp")),
            given,
        )
    }

    #[test]
    fn a_file_check_on_a_directory_target_is_runnable_without_approval() {
        let r = routed("file", &target(TargetKind::Directory, "site"), false);
        assert_eq!(r.decision, CheckDecision::Runnable);
        assert_eq!(r.action.kind, ActionKind::RunCheck);
        assert_eq!(r.action.approval, "not-required");
        assert!(!r.action.network && !r.action.executes_code && r.action.writes.is_empty());
        assert_eq!(
            r.action.preconditions,
            ["qa-fetch captured the directory target `site`"]
        );
        assert!(r.needs.is_empty() && r.missing.is_empty());
    }

    #[test]
    fn a_file_check_on_a_url_target_is_unsupported() {
        let r = routed("file", &target(TargetKind::Url, "https://x.example"), true);
        assert_eq!(r.decision, CheckDecision::Unsupported);
        assert_eq!(r.reason, "a file check needs a file or directory target");
    }

    #[test]
    fn an_http_check_is_blocked_without_the_network_flag_and_runnable_with_it() {
        let url = target(TargetKind::Url, "https://x.example");
        let blocked = routed("http", &url, false);
        assert_eq!(blocked.decision, CheckDecision::Blocked);
        assert_eq!(blocked.missing, ["--allow-network"]);
        assert!(
            blocked.reason.contains("--allow-network"),
            "{}",
            blocked.reason
        );
        let runnable = routed("http", &url, true);
        assert_eq!(runnable.decision, CheckDecision::Runnable);
        assert_eq!(runnable.needs, ["--allow-network"]);
        assert!(runnable.missing.is_empty());
        for r in [&blocked, &runnable] {
            assert_eq!(r.action.approval, "flag");
            assert!(r.action.network && !r.action.executes_code);
        }
    }

    #[test]
    fn an_http_check_on_a_directory_target_is_unsupported_even_with_the_flag() {
        let r = routed("http", &target(TargetKind::Directory, "site"), true);
        assert_eq!(r.decision, CheckDecision::Unsupported);
        assert_eq!(r.reason, "an http check needs a url target");
        assert!(r.needs.is_empty());
    }

    #[test]
    fn an_unknown_kind_is_unsupported_naming_it() {
        let r = routed("ftp", &target(TargetKind::Url, "https://x.example"), true);
        assert_eq!(r.decision, CheckDecision::Unsupported);
        assert_eq!(r.reason, "unknown check kind `ftp`");
    }

    #[test]
    fn a_tool_discovery_needs_only_the_network_flag() {
        let given = Permissions {
            network: true,
            tool_calls: false,
        };
        for kind in ["mcp", "browser"] {
            let r = agent_routed(kind, json!({"tool": "get_volume"}), given);
            assert_eq!(r.decision, CheckDecision::Runnable, "{kind}: {}", r.reason);
            assert_eq!(r.needs, ["--allow-network"]);
            assert!(r.action.writes.is_empty());
        }
        let r = agent_routed("mcp", json!({"tool": "get_volume"}), Permissions::default());
        assert_eq!(r.decision, CheckDecision::Blocked);
        assert_eq!(r.missing, ["--allow-network"]);
    }

    #[test]
    fn a_tool_call_needs_the_tool_call_flag_too() {
        let extra = json!({"tool": "set_volume", "input": {"level": 20}});
        let network_only = Permissions {
            network: true,
            tool_calls: false,
        };
        let r = agent_routed("mcp", extra.clone(), network_only);
        assert_eq!(r.decision, CheckDecision::Blocked);
        assert_eq!(r.missing, ["--allow-tool-calls"]);
        assert!(r.reason.contains("--allow-tool-calls"), "{}", r.reason);
        let both = Permissions {
            network: true,
            tool_calls: true,
        };
        let r = agent_routed("mcp", extra, both);
        assert_eq!(r.decision, CheckDecision::Runnable);
        assert_eq!(r.needs, ["--allow-network", "--allow-tool-calls"]);
        assert_eq!(r.action.writes, ["remote state, through tool `set_volume`"]);
        assert_eq!(r.action.risk, Risk::Medium);
    }

    #[test]
    fn a_read_only_tool_call_writes_nothing_but_still_needs_the_flag() {
        let extra = json!({"tool": "get_volume", "input": {}, "readOnly": true});
        let r = agent_routed(
            "mcp",
            extra.clone(),
            Permissions {
                network: true,
                tool_calls: false,
            },
        );
        assert_eq!(r.missing, ["--allow-tool-calls"]);
        let r = agent_routed(
            "mcp",
            extra,
            Permissions {
                network: true,
                tool_calls: true,
            },
        );
        assert!(r.action.writes.is_empty());
        assert_eq!(r.action.risk, Risk::Low);
    }

    #[test]
    fn a_browser_check_runs_page_code_and_an_mcp_check_does_not() {
        let given = Permissions {
            network: true,
            tool_calls: false,
        };
        let browser = agent_routed("browser", json!({"tool": "add"}), given);
        let mcp = agent_routed("mcp", json!({"tool": "add"}), given);
        assert!(browser.action.executes_code);
        assert!(!mcp.action.executes_code);
    }

    #[test]
    fn an_mcp_check_on_a_directory_target_is_unsupported() {
        let r = routed("mcp", &target(TargetKind::Directory, "site"), true);
        assert_eq!(r.decision, CheckDecision::Unsupported);
        assert_eq!(r.reason, "an mcp check needs a url target");
    }

    #[test]
    fn a_check_without_its_plans_target_is_unsupported() {
        let given = Permissions {
            network: true,
            tool_calls: true,
        };
        let r = route(SUBJECT, &spec("file"), None, given);
        assert_eq!(r.decision, CheckDecision::Unsupported);
        assert!(r.reason.contains("no target.spec"), "{}", r.reason);
    }

    #[test]
    fn a_check_finds_the_target_of_its_own_plan() {
        let mut checks = Checks::default();
        checks.target(
            &["plan-a".into()],
            target(TargetKind::Url, "https://a.example"),
        );
        checks.target(&["plan-b".into()], target(TargetKind::Directory, "site"));
        checks.spec("s".into(), vec!["plan-b".into(), "k".into()], spec("file"));
        checks.spec("t".into(), vec!["plan-a".into(), "k".into()], spec("file"));
        let decisions: Vec<CheckDecision> = checks
            .routes(Permissions::default())
            .iter()
            .map(|r| r.decision)
            .collect();
        assert_eq!(
            decisions,
            [CheckDecision::Runnable, CheckDecision::Unsupported]
        );
    }
}

#[cfg(test)]
mod production_guard_tests {
    use super::*;
    use serde_json::json;

    fn spec(kind: &str, extra: serde_json::Value) -> CheckSpecData {
        let mut body = json!({"id": "c1", "criterion": "k1", "kind": kind});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        CheckSpecData {
            id: "c1".into(),
            criterion: "k1".into(),
            kind: kind.into(),
            spec: body,
        }
    }

    fn routed(kind: &str, extra: serde_json::Value) -> CheckRouteData {
        let spec = spec(kind, extra);
        let target = TargetSpec {
            kind: TargetKind::Url,
            value: "https://shop.example.com/".into(),
            build_id: None,
            env: Some("prod".into()),
            app: Some("storefront".into()),
        };
        let r = route(
            "sha256:00",
            &spec,
            Some(&target),
            Permissions {
                network: true,
                tool_calls: true,
            },
        );
        production_guard(r, &spec, "prod")
    }

    #[test]
    fn a_tool_invocation_on_production_is_blocked_unless_read_only() {
        let r = routed("mcp", json!({"tool": "set_volume", "input": {"level": 20}}));
        assert_eq!(r.decision, CheckDecision::Blocked);
        assert!(r.reason.contains("readOnly"), "{}", r.reason);
        let r = routed("browser", json!({"tool": "add", "input": {}}));
        assert_eq!(r.decision, CheckDecision::Blocked);
    }

    #[test]
    fn read_only_invocations_discovery_and_other_kinds_are_not_touched() {
        for (kind, extra) in [
            (
                "mcp",
                json!({"tool": "get_volume", "input": {}, "readOnly": true}),
            ),
            ("mcp", json!({"tool": "get_volume"})),
            ("http", json!({"path": "/", "status": 200})),
        ] {
            let r = routed(kind, extra.clone());
            assert!(
                !r.reason.contains("production environment"),
                "{kind} {extra}: {}",
                r.reason
            );
        }
    }
}
