//! Check routing (acceptance flow): each `check.spec` routed runnable, blocked (naming the
//! missing flag) or unsupported, with a `run-check` action; what an acceptance stream gets
//! and does not get (capability receipts); bad check data.

use crate::common;

use common::*;
use qa_records::acceptance::{
    CheckSpecData, CriterionData, PlanData, Source, SourceKind, TargetKind, TargetSpec,
};
use qa_records::change::{Confidence, Priority, Relation};
use qa_records::envelope::Src;
use qa_records::{Kind, Record};
use serde_json::{json, Value};

/// A plan's records as qa-intent --plan writes them: plan, target.spec, one criterion,
/// then one check.spec per check object.
struct Plan {
    plan: Record,
    target: Record,
    criterion: Record,
    checks: Vec<Record>,
}

impl Plan {
    fn new(kind: TargetKind, value: &str, checks: &[Value]) -> Plan {
        let target = TargetSpec {
            kind,
            value: value.into(),
            build_id: None,
            env: None,
            app: None,
        };
        let plan = Record::new(
            Kind::Plan,
            "test/0",
            vec![],
            Src::from([("plan.sha256".to_string(), "a".repeat(64))]),
            PlanData {
                path: ".qa-acceptance.json".into(),
                sha256: "a".repeat(64),
                target: target.clone(),
                criteria: 1,
                checks: checks.len() as u32,
            },
        )
        .unwrap();
        let from_plan = vec![plan.id.clone()];
        let target = Record::new(
            Kind::TargetSpec,
            "test/0",
            from_plan.clone(),
            Src::new(),
            target,
        )
        .unwrap();
        let criterion = Record::new(
            Kind::Criterion,
            "test/0",
            from_plan,
            Src::new(),
            CriterionData {
                id: "greets".into(),
                expected: "The home page greets the visitor".into(),
                source: Source {
                    kind: SourceKind::Request,
                    path: None,
                    quote: None,
                    text: Some("Show a greeting".into()),
                    sha256: None,
                    found: true,
                },
                inferred: false,
            },
        )
        .unwrap();
        let checks = checks
            .iter()
            .map(|spec| {
                Record::new(
                    Kind::CheckSpec,
                    "test/0",
                    vec![plan.id.clone(), criterion.id.clone()],
                    Src::new(),
                    CheckSpecData {
                        id: spec["id"].as_str().unwrap().into(),
                        criterion: "greets".into(),
                        kind: spec["kind"].as_str().unwrap().into(),
                        spec: spec.clone(),
                    },
                )
                .unwrap()
            })
            .collect();
        Plan {
            plan,
            target,
            criterion,
            checks,
        }
    }

    fn records(&self) -> Vec<&Record> {
        let mut all = vec![&self.plan, &self.target, &self.criterion];
        all.extend(&self.checks);
        all
    }

    fn ndjson(&self) -> Vec<u8> {
        ndjson(&self.records())
    }
}

/// An http check of the target's `/` expecting 200.
fn health() -> Value {
    json!({"id": "health", "criterion": "greets", "kind": "http", "status": 200})
}

fn check(id: &str, kind: &str) -> Value {
    json!({"id": id, "criterion": "greets", "kind": kind, "contains": "Welcome", "path": "index.html"})
}

/// The check routes qa-route wrote for `plan` with `args`, by check id, schema-validated.
fn routes(plan: &Plan, args: &[&str]) -> Vec<Value> {
    let tree = Tree::new();
    let records = qa_route(tree.path(), &Stubs::new(&[]), &plan.ndjson(), args).records();
    of_kind(&records, "route").into_iter().cloned().collect()
}

fn only(plan: &Plan, args: &[&str]) -> Value {
    let routes = routes(plan, args);
    assert_eq!(routes.len(), 1, "{routes:#?}");
    routes[0].clone()
}

#[test]
fn a_file_check_on_a_directory_target_is_runnable_and_needs_no_approval() {
    let plan = Plan::new(TargetKind::Directory, "site", &[check("home", "file")]);
    let route = only(&plan, &[]);
    assert_eq!(route["from"], json!([plan.checks[0].id]));
    assert_eq!(
        route["data"],
        json!({
            "subject": plan.checks[0].id,
            "check": "home",
            "criterion": "greets",
            "decision": "runnable",
            "reason": "a file check reads the captured directory target `site`",
            "needs": [],
            "missing": [],
            "action": {
                "kind": "run-check",
                "risk": "low",
                "approval": "not-required",
                "executes_code": false,
                "writes": [],
                "network": false,
                "preconditions": ["qa-fetch captured the directory target `site`"]
            }
        })
    );
}

#[test]
fn a_file_check_on_a_file_target_is_runnable() {
    let plan = Plan::new(
        TargetKind::File,
        "site/index.html",
        &[json!({"id": "home", "criterion": "greets", "kind": "file", "contains": "Welcome"})],
    );
    assert_eq!(only(&plan, &[])["data"]["decision"], "runnable");
}

#[test]
fn a_file_check_on_a_url_target_is_unsupported() {
    let plan = Plan::new(
        TargetKind::Url,
        "https://shop.example",
        &[check("home", "file")],
    );
    let data = only(&plan, &["--allow-network"])["data"].clone();
    assert_eq!(data["decision"], "unsupported");
    assert_eq!(
        data["reason"],
        "a file check needs a file or directory target"
    );
    assert_eq!(data["action"]["approval"], "not-required");
}

#[test]
fn an_http_check_without_allow_network_is_blocked_naming_the_flag() {
    let plan = Plan::new(TargetKind::Url, "https://shop.example", &[health()]);
    let data = only(&plan, &[])["data"].clone();
    assert_eq!(data["decision"], "blocked");
    assert_eq!(data["needs"], json!(["--allow-network"]));
    assert_eq!(data["missing"], json!(["--allow-network"]));
    assert_eq!(
        data["reason"],
        "an http check needs --allow-network, which was not given"
    );
    assert_eq!(data["action"]["approval"], "flag");
    assert_eq!(data["action"]["network"], true);
    assert_eq!(
        data["action"]["preconditions"],
        json!([
            "--allow-network is given to qa-route and qa-check",
            "the url target `https://shop.example` is reachable"
        ])
    );
}

#[test]
fn an_http_check_with_allow_network_is_runnable() {
    let plan = Plan::new(TargetKind::Url, "https://shop.example", &[health()]);
    let data = only(&plan, &["--allow-network"])["data"].clone();
    assert_eq!(data["decision"], "runnable");
    assert_eq!(data["needs"], json!(["--allow-network"]));
    assert_eq!(data["missing"], json!([]));
    assert_eq!(data["action"]["approval"], "flag");
    assert_eq!(data["action"]["executes_code"], false);
}

#[test]
fn an_http_check_on_a_directory_target_is_unsupported_not_blocked() {
    let plan = Plan::new(TargetKind::Directory, "site", &[health()]);
    let data = only(&plan, &[])["data"].clone();
    assert_eq!(data["decision"], "unsupported");
    assert_eq!(data["reason"], "an http check needs a url target");
    assert_eq!(data["missing"], json!([]));
}

fn tool_check(id: &str, kind: &str, extra: Value) -> Value {
    let mut c = json!({"id": id, "criterion": "greets", "kind": kind, "tool": "set_volume"});
    for (k, v) in extra.as_object().unwrap() {
        c[k] = v.clone();
    }
    c
}

#[test]
fn mcp_and_browser_tool_calls_need_both_flags_and_discovery_only_the_network() {
    let call = json!({"input": {"level": 20}, "observePath": "/state", "observeContains": "20"});
    let plan = Plan::new(
        TargetKind::Url,
        "https://shop.example",
        &[
            tool_check("list", "mcp", json!({})),
            tool_check("call", "mcp", call.clone()),
            tool_check("page", "browser", call),
            check("c", "smoke"),
        ],
    );
    let decisions = |args: &[&str]| -> Vec<(Value, Value)> {
        routes(&plan, args)
            .iter()
            .map(|r| (r["data"]["decision"].clone(), r["data"]["missing"].clone()))
            .collect()
    };
    assert_eq!(
        decisions(&["--allow-network"]),
        [
            (json!("runnable"), json!([])),
            (json!("blocked"), json!(["--allow-tool-calls"])),
            (json!("blocked"), json!(["--allow-tool-calls"])),
            (json!("unsupported"), json!([])),
        ]
    );
    assert_eq!(
        decisions(&["--allow-network", "--allow-tool-calls"]),
        [
            (json!("runnable"), json!([])),
            (json!("runnable"), json!([])),
            (json!("runnable"), json!([])),
            (json!("unsupported"), json!([])),
        ]
    );
    assert_eq!(
        decisions(&[])[1],
        (
            json!("blocked"),
            json!(["--allow-network", "--allow-tool-calls"])
        )
    );
}

#[test]
fn check_routes_follow_the_forwarded_stream_in_check_order() {
    let plan = Plan::new(
        TargetKind::Directory,
        "site",
        &[check("one", "file"), check("two", "file")],
    );
    let tree = Tree::new();
    let run = qa_route(tree.path(), &Stubs::new(&[]), &plan.ndjson(), &[]);
    let records = run.records();
    let forwarded: Vec<Vec<u8>> = plan.records().iter().map(|r| r.to_line()).collect();
    let lines: Vec<&[u8]> = run.output.stdout.split(|b| *b == b'\n').collect();
    for (n, want) in forwarded.iter().enumerate() {
        assert_eq!(lines[n], want.as_slice(), "line {n}");
    }
    let appended: Vec<&Value> = records[forwarded.len()..]
        .iter()
        .map(|r| &r["data"]["check"])
        .collect();
    assert_eq!(appended, ["one", "two"]);
}

#[test]
fn an_acceptance_stream_gets_no_capability_receipts() {
    let plan = Plan::new(TargetKind::Directory, "site", &[check("home", "file")]);
    let tree = Tree::new();
    let records = qa_route(tree.path(), &Stubs::new(&[]), &plan.ndjson(), &[]).records();
    assert!(of_kind(&records, "capability").is_empty());
    // The negative control: the same stage on the plan's records without check specs.
    let no_checks = Plan::new(TargetKind::Directory, "site", &[]);
    let records = qa_route(tree.path(), &Stubs::new(&[]), &no_checks.ndjson(), &[]).records();
    assert_eq!(of_kind(&records, "capability").len(), 5);
}

#[test]
fn a_stream_with_scenarios_and_checks_routes_both_and_keeps_the_receipts() {
    let tree = Tree::new();
    tree.write("Cargo.toml", "[package]\nname = \"shop\"\n")
        .write("src/login.rs", "");
    let i = intent(&["src/login.rs"], &[], Confidence::High);
    let s = scenario(
        &i,
        "expired",
        Priority::Critical,
        &[("src/login.rs", 3, Relation::Direct)],
    );
    let plan = Plan::new(TargetKind::Directory, "site", &[check("home", "file")]);
    let mut input = ndjson(&[&i, &s]);
    input.extend(plan.ndjson());
    let records = qa_route(tree.path(), &Stubs::new(&["cargo"]), &input, &[]).records();
    let subjects: Vec<&Value> = of_kind(&records, "route")
        .iter()
        .map(|r| &r["data"]["subject"])
        .collect();
    assert_eq!(subjects, [&json!(s.id), &json!(plan.checks[0].id)]);
    assert_eq!(of_kind(&records, "capability").len(), 5);
}

#[test]
fn a_check_whose_plan_target_is_not_in_the_stream_is_unsupported() {
    let plan = Plan::new(TargetKind::Directory, "site", &[check("home", "file")]);
    let input = ndjson(&[&plan.plan, &plan.criterion, &plan.checks[0]]);
    let tree = Tree::new();
    let records = qa_route(tree.path(), &Stubs::new(&[]), &input, &[]).records();
    let data = &only_route(&records);
    assert_eq!(data["decision"], "unsupported");
    assert_eq!(
        data["reason"],
        "no target.spec of the check's plan earlier in the stream"
    );
}

#[test]
fn the_network_flag_changes_the_network_routes_only() {
    let plan = Plan::new(
        TargetKind::Url,
        "https://shop.example",
        &[
            json!({"id": "health", "criterion": "greets", "kind": "http", "contains": "ok"}),
            check("b", "smoke"),
        ],
    );
    let without = routes(&plan, &[]);
    let with = routes(&plan, &["--allow-network"]);
    assert_ne!(without[0], with[0]);
    assert_eq!(without[1], with[1]);
}

#[test]
fn the_same_stream_and_flags_give_byte_identical_routes() {
    let plan = Plan::new(TargetKind::Directory, "site", &[check("home", "file")]);
    let tree = Tree::new();
    let stubs = Stubs::new(&[]);
    let first = qa_route(tree.path(), &stubs, &plan.ndjson(), &[]);
    let second = qa_route(tree.path(), &stubs, &plan.ndjson(), &[]);
    assert_eq!(first.code(), 0, "{}", first.stderr());
    assert_eq!(first.output.stdout, second.output.stdout);
}

#[test]
fn check_spec_data_that_does_not_parse_is_exit_65_naming_line_and_kind() {
    let plan = Plan::new(TargetKind::Directory, "site", &[]);
    let bad = Record::new(
        Kind::CheckSpec,
        "test/0",
        vec![plan.plan.id.clone()],
        Src::new(),
        json!({"id": "home", "kind": "file"}),
    )
    .unwrap();
    let mut input = plan.ndjson();
    input.extend(ndjson(&[&bad]));
    let tree = Tree::new();
    let run = qa_route(tree.path(), &Stubs::new(&[]), &input, &[]);
    assert_eq!(run.code(), 65);
    assert!(
        run.stderr()
            .contains("stdin line 4: `check.spec` record data"),
        "{}",
        run.stderr()
    );
}

#[test]
fn target_spec_data_that_does_not_parse_is_exit_65_naming_line_and_kind() {
    let bad = Record::new(
        Kind::TargetSpec,
        "test/0",
        vec![],
        Src::new(),
        json!({"kind": "ftp", "value": "x", "build_id": null}),
    )
    .unwrap();
    let tree = Tree::new();
    let run = qa_route(tree.path(), &Stubs::new(&[]), &ndjson(&[&bad]), &[]);
    assert_eq!(run.code(), 65);
    assert!(
        run.stderr()
            .contains("stdin line 1: `target.spec` record data"),
        "{}",
        run.stderr()
    );
}

// ---- the route schema ------------------------------------------------------------------

fn route_schema() -> jsonschema::Validator {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema/route.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

fn blocked_route() -> Value {
    let plan = Plan::new(TargetKind::Url, "https://shop.example", &[health()]);
    only(&plan, &[])["data"].clone()
}

#[test]
fn the_route_schema_takes_check_routes_and_scenario_routes() {
    let schema = route_schema();
    assert!(schema.is_valid(&blocked_route()));
    let tree = Tree::new();
    tree.write("Cargo.toml", "[package]\nname = \"shop\"\n");
    let stubs = Stubs::new(&["cargo"]);
    let scenario_route =
        only_route(&route_one(tree.path(), &stubs, "src/a.rs", &[], &[]).records).clone();
    assert!(schema.is_valid(&scenario_route));
}

#[test]
fn the_route_schema_refuses_a_blocked_check_with_nothing_missing() {
    let mut route = blocked_route();
    route["missing"] = json!([]);
    assert!(!route_schema().is_valid(&route));
}

#[test]
fn the_route_schema_refuses_a_malformed_action_or_scenario_fields_in_a_check_route() {
    let schema = route_schema();
    let mut runs_code = blocked_route();
    runs_code["action"]["executes_code"] = json!("yes");
    assert!(!schema.is_valid(&runs_code));
    let mut writes = blocked_route();
    writes["action"]["writes"] = json!([""]);
    assert!(!schema.is_valid(&writes));
    let mut mixed = blocked_route();
    mixed["command"] = Value::Null;
    assert!(!schema.is_valid(&mixed));
    let mut wrong_kind = blocked_route();
    wrong_kind["action"]["kind"] = json!("run-repository-command");
    assert!(!schema.is_valid(&wrong_kind));
}
