//! A url target that names a host-profile environment's app: resolved from the profile
//! record forwarded before the plan (`qa-profile P --ndjson | qa-intent --plan X --in -`).

use qa_records::envelope::Src;
use qa_records::{Kind, Record};
use qa_testkit::{Program, Schemas};
use serde_json::{json, Value};

fn profile_stream() -> Vec<u8> {
    let data = json!({
        "project": "shop",
        "tracker": "none",
        "apps": {"storefront": {"framework": "react", "spec_dir": "e2e", "repo": "."}},
        "environments": {"qa": {
            "kind": "qa",
            "apps": {"storefront": "http://127.0.0.1:8080/"},
            "sha_source": {"url": "http://127.0.0.1:8080/version.json", "json_path": "commit"},
            "evidence_upload": "local"
        }},
        "auth": {"model": "dev-handoff", "playwright_min": "1.51.0", "storage_state": {"indexed_db": true}},
        "assertions": {"network_events": "allowed", "style": "mixed"},
        "selectors": {"testid_attribute": "data-testid"},
        "models": {"generation_approved": ["model-a"]},
        "sandbox": {"mode": {"env_var": "VITE_API_MODE", "value": "mocks"}}
    });
    let mut line = Record::new(Kind::Profile, "test/0", Vec::new(), Src::new(), data)
        .unwrap()
        .to_line();
    line.push(b'\n');
    line
}

fn plan(target: Value) -> Value {
    json!({
        "target": target,
        "criteria": [{"id": "up", "expected": "the shop answers", "source": {"kind": "request", "text": "it answers"}}],
        "checks": [{"id": "health", "criterion": "up", "kind": "http", "path": "/health", "status": 200}]
    })
}

fn run(plan: &Value, stdin: Option<Vec<u8>>) -> qa_testkit::Run {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("plan.json"), plan.to_string()).unwrap();
    let mut inv = Program::at(env!("CARGO_BIN_EXE_qa-intent"))
        .invocation()
        .dir(dir.path())
        .args(["--plan", "plan.json"]);
    if let Some(bytes) = stdin {
        inv = inv.args(["--in", "-"]).stdin(bytes);
    }
    inv.run()
}

#[test]
fn an_environment_app_resolves_to_its_url_from_the_profile() {
    let out = run(
        &plan(json!({"kind": "url", "env": "qa", "app": "storefront"})),
        Some(profile_stream()),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let records = out.records();
    Schemas::get().validate_all(&records);
    let spec = records.iter().find(|r| r["kind"] == "target.spec").unwrap();
    assert_eq!(spec["data"]["value"], "http://127.0.0.1:8080/");
    assert_eq!(spec["data"]["env"], "qa");
    assert_eq!(spec["data"]["app"], "storefront");
}

#[test]
fn without_the_profile_in_the_stream_it_is_bad_input_saying_how_to_pass_it() {
    let out = run(
        &plan(json!({"kind": "url", "env": "qa", "app": "storefront"})),
        None,
    );
    assert_eq!(out.code, 65);
    assert!(out.stderr.contains("qa-profile"), "{}", out.stderr);
}

#[test]
fn an_unknown_environment_or_app_is_bad_input_naming_it() {
    let out = run(
        &plan(json!({"kind": "url", "env": "staging", "app": "storefront"})),
        Some(profile_stream()),
    );
    assert_eq!(out.code, 65);
    assert!(out.stderr.contains("staging"), "{}", out.stderr);
    let out = run(
        &plan(json!({"kind": "url", "env": "qa", "app": "admin"})),
        Some(profile_stream()),
    );
    assert_eq!(out.code, 65);
    assert!(out.stderr.contains("admin"), "{}", out.stderr);
}

#[test]
fn env_and_app_go_together_and_exclude_a_value() {
    let out = run(
        &plan(json!({"kind": "url", "env": "qa"})),
        Some(profile_stream()),
    );
    assert_eq!(out.code, 65);
    assert!(out.stderr.contains("/target/app"), "{}", out.stderr);
    let out = run(
        &plan(json!({"kind": "url", "env": "qa", "app": "storefront", "value": "http://x/"})),
        Some(profile_stream()),
    );
    assert_eq!(out.code, 65);
    let out = run(
        &plan(json!({"kind": "directory", "env": "qa", "app": "storefront"})),
        Some(profile_stream()),
    );
    assert_eq!(out.code, 65);
}

#[test]
fn a_plain_url_target_needs_no_profile() {
    let out = run(
        &plan(json!({"kind": "url", "value": "http://127.0.0.1:9/"})),
        None,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
}
