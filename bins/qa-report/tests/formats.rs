//! The machine and review formats: markdown, JSON, SARIF, GitHub workflow commands and
//! the agent line; and that every format gives the same bytes for the same stream.

use crate::common;

use common::{at, cargo, pos, rendered, sample, Stream};
use qa_records::change::{ActionKind, CommandScope, Decision, Relation, ScenarioKind};
use serde_json::Value;

fn render(format: &str) -> String {
    rendered(&sample().stream.whole(), &["--format", format])
}

fn json_of(format: &str) -> Value {
    serde_json::from_str(&render(format)).unwrap()
}

#[test]
fn markdown_has_the_layers_as_headings_and_scenarios_as_table_rows() {
    let md = render("markdown");
    let map = pos(&md, "### 1. What changed and what to test");
    let now = pos(&md, "### 2. Run this");
    let manual = pos(&md, "### 3. What a person must check");
    assert!(map < now && now < manual);
    pos(
        &md,
        "| priority | kind | scenario | proof gap | reaches | evidence | traced and run |\n|---|---|---|---|---|---|---|\n",
    );
    pos(&md, "| required | failure | Expired token is refused | no changed line shows the response |  | `src/auth.rs:42` changed line:");
    pos(
        &md,
        "| `cargo test -p auth` | tests: runs the tests | `.` | the package's tests | `Cargo.toml` | required: Expired token is refused",
    );
    pos(&md, "manual: partially mapped, 1 of 3 mapped");
}

#[test]
fn markdown_keeps_source_text_from_linking_or_breaking_a_table() {
    let mut s = Stream::default();
    let intent = s.intent("t", &[], &[]);
    let sc = s.scenario(
        &intent,
        "[click](https://example.invalid) | <img src=x>",
        ScenarioKind::Primary,
        vec![at("src/a|b.rs", 3, Relation::Direct, "x")],
    );
    s.route(&sc, Decision::Required, ActionKind::ReviewScenario, None);
    let md = rendered(&s.whole(), &["--format", "markdown"]);
    pos(&md, r"\[click\](https://example.invalid) \| \<img src=x\>");
    pos(&md, r"`src/a\|b.rs:3`");
    let row = md.lines().find(|l| l.contains("click")).unwrap();
    assert_eq!(row.matches(" | ").count(), 6, "{row}");
}

#[test]
fn markdown_shows_a_backtick_span_of_a_step_as_code_and_escapes_the_rest() {
    let mut s = Stream::default();
    let intent = s.intent("t", &[], &[]);
    let mut data = common::scenario_data(&intent, "Fee", ScenarioKind::Primary, vec![]);
    data.steps = vec!["Call `total([1, 2], fee=3)` as *that* test does".into()];
    data.assertions = vec!["`total` is 6 <b>".into()];
    let sc = s.push_scenario(data);
    s.route(&sc, Decision::Required, ActionKind::ReviewScenario, None);
    let md = rendered(&s.whole(), &["--format", "markdown"]);
    pos(&md, r"1. Call `total([1, 2], fee=3)` as \*that\* test does");
    pos(&md, r"- `total` is 6 \<b\>");
    assert!(!md.contains(r"\`"), "{md}");
}

#[test]
fn json_nests_route_trace_and_drafts_under_each_scenario_by_id() {
    let s = sample();
    let json: Value =
        serde_json::from_str(&rendered(&s.stream.whole(), &["--format", "json"])).unwrap();
    assert_eq!(json["format"], "qapipe.change-report/v1");
    assert_eq!(json["range"]["head"]["ref"], "feature/login");
    let intents = json["intents"].as_array().unwrap();
    assert_eq!(intents[0]["title"], "Refuse expired session tokens");
    let first = &intents[0]["scenarios"][0];
    assert_eq!(first["id"], s.expired_refused.as_str());
    assert_eq!(first["route"]["subject"], s.expired_refused.as_str());
    assert_eq!(first["route"]["decision"], "required");
    assert!(first["route"]["id"]
        .as_str()
        .unwrap()
        .starts_with("sha256:"));
    assert_eq!(first["trace"]["state"], "partial");
    let review = &intents[0]["scenarios"][2];
    assert_eq!(review["id"], s.expiring_now.as_str());
    assert_eq!(review["drafts"][0]["receipt"], "partial");
    assert!(intents[1]["scenarios"][0]["trace"].is_null());
    assert_eq!(json["capabilities"].as_array().unwrap().len(), 2);
    assert_eq!(json["diagnostics"].as_array().unwrap().len(), 2);
    assert_eq!(json["neutralized"], 0);
    assert_eq!(json["counts"]["required"], 1);
}

#[test]
fn json_without_intents_has_an_empty_list_and_says_so() {
    let whole = Stream::default().whole();
    let json: Value = serde_json::from_str(&rendered(&whole, &["--format", "json"])).unwrap();
    assert_eq!(json["intents"], Value::Array(vec![]));
    assert_eq!(json["summary"], "no behaviour-bearing change found");
    assert_eq!(json["missing_stages"], Value::Array(vec![]));
}

#[test]
fn sarif_has_the_required_top_level_tool_and_rule_fields() {
    let sarif = json_of("sarif");
    assert_eq!(
        sarif["$schema"],
        "https://json.schemastore.org/sarif-2.1.0.json"
    );
    assert_eq!(sarif["version"], "2.1.0");
    let runs = sarif["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let driver = &runs[0]["tool"]["driver"];
    assert_eq!(driver["name"], "qapipe");
    let rules: Vec<&str> = driver["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        [
            "qapipe/primary",
            "qapipe/failure",
            "qapipe/boundary",
            "qapipe/state-transition"
        ]
    );
    for rule in driver["rules"].as_array().unwrap() {
        assert!(rule["shortDescription"]["text"].is_string());
    }
}

#[test]
fn sarif_has_a_result_per_required_and_recommended_scenario_only() {
    let s = sample();
    let sarif: Value =
        serde_json::from_str(&rendered(&s.stream.whole(), &["--format", "sarif"])).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    let mut fingerprints = Vec::new();
    for r in results {
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], r["ruleId"]);
        assert!(r["message"]["text"].as_str().unwrap().len() > 10);
        fingerprints.push(
            r["partialFingerprints"]["qapipe/v1"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    let levels: Vec<&str> = results
        .iter()
        .map(|r| r["level"].as_str().unwrap())
        .collect();
    assert_eq!(levels, ["warning", "note", "note"]);
    assert!(fingerprints.contains(&s.expired_refused));
    assert!(fingerprints.contains(&s.upload_retries));
    assert!(
        !fingerprints.contains(&s.expiring_now),
        "review-only is not a result"
    );
}

#[test]
fn sarif_locations_come_from_direct_and_supporting_evidence_with_a_line() {
    let mut s = Stream::default();
    let intent = s.intent("t", &[], &[]);
    let sc = s.scenario(
        &intent,
        "x",
        ScenarioKind::Primary,
        vec![
            at("src/a b.rs", 7, Relation::Direct, "x"),
            at("src/c.rs", 0, Relation::Direct, "wording"),
            at("src/d.rs", 9, Relation::Contextual, "context"),
            at("src/e.rs", 11, Relation::Supporting, "y"),
        ],
    );
    s.route(&sc, Decision::Required, ActionKind::ReviewScenario, None);
    let sarif: Value = serde_json::from_str(&rendered(&s.whole(), &["--format", "sarif"])).unwrap();
    let locations: Vec<(String, u64)> = sarif["runs"][0]["results"][0]["locations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let p = &l["physicalLocation"];
            (
                p["artifactLocation"]["uri"].as_str().unwrap().to_string(),
                p["region"]["startLine"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        locations,
        [
            ("src/a%20b.rs".to_string(), 7),
            ("src/e.rs".to_string(), 11)
        ]
    );
}

#[test]
fn sarif_fingerprints_are_stable_across_runs() {
    let a = json_of("sarif");
    let b = json_of("sarif");
    let prints = |v: &Value| -> Vec<Value> {
        v["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["partialFingerprints"].clone())
            .collect()
    };
    assert_eq!(prints(&a), prints(&b));
}

#[test]
fn github_writes_a_warning_per_required_and_a_notice_per_recommended_scenario() {
    let out = render("github");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with(
        "::warning file=src/auth.rs,line=42,title=Expired token is refused::required failure scenario"
    ));
    assert!(lines[1]
        .starts_with("::notice file=src/auth.rs,line=40,title=Valid token still signs in::"));
    assert!(lines[2]
        .starts_with("::notice file=src/upload.rs,line=10,title=Upload retries after a failure::"));
    assert!(lines[3].starts_with("::notice title=qapipe change report::"));
    assert!(
        !out.contains("Token expiring exactly now"),
        "review-only is not annotated"
    );
}

#[test]
fn github_escapes_properties_and_messages_as_documented() {
    let mut s = Stream::default();
    let intent = s.intent("line one\nline two", &[], &[]);
    let sc = s.scenario(
        &intent,
        "a, b: 100%",
        ScenarioKind::Primary,
        vec![at("dir,x/a:b.rs", 3, Relation::Direct, "x")],
    );
    s.route(&sc, Decision::Required, ActionKind::ReviewScenario, None);
    let out = rendered(&s.whole(), &["--format", "github"]);
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with("::warning file=dir%2Cx/a%3Ab.rs,line=3,title=a%2C b%3A 100%25::"),
        "{first}"
    );
    assert!(first.contains("(intent: line one%0Aline two)."), "{first}");
}

#[test]
fn the_agent_line_puts_routes_first_with_their_action_contract() {
    let s = sample();
    let line = rendered(&s.stream.whole(), &["--format", "agent"]);
    assert_eq!(line.matches('\n').count(), 1);
    assert!(line.starts_with("{\"format\":\"qapipe.agent/v1\",\"routes\":[{\"scenario\":"));
    let v: Value = serde_json::from_str(&line).unwrap();
    let routes = v["routes"].as_array().unwrap();
    let decisions: Vec<&str> = routes
        .iter()
        .map(|r| r["decision"].as_str().unwrap())
        .collect();
    assert_eq!(
        decisions,
        ["required", "recommended", "recommended", "review-only"]
    );
    assert_eq!(routes[0]["scenario"], s.expired_refused.as_str());
    assert_eq!(routes[0]["action"], "run-repository-command");
    assert_eq!(routes[0]["approval"], "required");
    assert_eq!(routes[0]["run"], "cargo test -p auth");
    assert!(routes[3]["run"].is_null());
    assert_eq!(v["range"]["head_ref"], "feature/login");
    assert_eq!(v["counts"]["scenarios"], 4);
    assert_eq!(v["truncated"], false);
    assert_eq!(v["detail"][0]["evidence"][0], "src/auth.rs:42");
}

#[test]
fn the_agent_line_without_out_has_a_null_report_and_a_hint() {
    let v = json_of("agent");
    assert!(v["report"].is_null());
    assert!(v["hint"].as_str().unwrap().contains("--out"));
}

/// A stream of `n` routed scenarios with long titles, commands and evidence.
fn huge(n: usize) -> Vec<u8> {
    let mut s = Stream::default();
    s.range();
    let intent = s.intent(&"Long intent title ".repeat(40), &[], &["src/a.rs"]);
    for i in 0..n {
        let sc = s.scenario(
            &intent,
            &format!("Scenario {i} {}", "é".repeat(300)),
            ScenarioKind::Failure,
            (1..6)
                .map(|l| at("src/a.rs", l, Relation::Direct, "x"))
                .collect(),
        );
        let decision = [
            Decision::Required,
            Decision::Recommended,
            Decision::ReviewOnly,
        ][i % 3];
        s.route(
            &sc,
            decision,
            ActionKind::RunRepositoryCommand,
            Some(cargo(
                &format!("cargo test {}", "t".repeat(i % 50)),
                CommandScope::ExactTest,
            )),
        );
    }
    s.whole()
}

#[test]
fn the_agent_line_stays_within_4096_bytes_with_500_scenarios_and_says_truncated() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let line = rendered(
        &huge(500),
        &["--format", "agent", "--out", out.to_str().unwrap()],
    );
    assert!(line.len() <= 4096, "{} bytes", line.len());
    assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
    let v: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["truncated"], true);
    assert_eq!(v["counts"]["scenarios"], 500);
    let routes = v["routes"].as_array().unwrap();
    assert!(!routes.is_empty());
    assert!(
        routes.iter().all(|r| r["decision"] == "required"),
        "required routes first"
    );
    assert_eq!(v["report"], out.join("report.json").to_str().unwrap());
}

#[test]
fn the_agent_line_with_few_scenarios_is_not_truncated() {
    let v: Value = serde_json::from_str(&rendered(&huge(2), &["--format", "agent"])).unwrap();
    assert_eq!(v["routes"].as_array().unwrap().len(), 2);
    // Titles are long (over 120 characters): detail keeps a shortened title ending in an
    // ellipsis, which is no truncation of the payload.
    assert_eq!(v["truncated"], false, "{v:#}");
    let title = v["detail"][0]["title"].as_str().unwrap();
    assert!(title.ends_with('…'), "{title}");
    let small: Value = json_of("agent");
    assert_eq!(small["truncated"], false);
    assert_eq!(small["detail"].as_array().unwrap().len(), 4);
}

/// An --out folder whose path is `len` bytes long (PATH_MAX is 4096).
fn deep(root: &std::path::Path, len: usize) -> std::path::PathBuf {
    let mut out = root.to_path_buf();
    while out.as_os_str().len() < len {
        let room = len - out.as_os_str().len() - 1;
        out.push("d".repeat(room.clamp(1, 250)));
    }
    out
}

#[test]
fn the_agent_line_sheds_the_range_before_the_report_path() {
    let dir = tempfile::tempdir().unwrap();
    let out = deep(dir.path(), 3750);
    let line = rendered(
        &huge(3),
        &["--format", "agent", "--out", out.to_str().unwrap()],
    );
    assert!(line.len() <= 4096, "{} bytes", line.len());
    let v: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["report"], out.join("report.json").to_str().unwrap());
    assert!(v["range"].is_null());
    assert_eq!(v["truncated"], true);
}

#[test]
fn the_agent_line_fits_even_when_the_out_path_alone_is_too_long() {
    let dir = tempfile::tempdir().unwrap();
    let out = deep(dir.path(), 4040);
    let line = rendered(
        &huge(3),
        &["--format", "agent", "--out", out.to_str().unwrap()],
    );
    assert!(line.len() <= 4096, "{} bytes", line.len());
    let v: Value = serde_json::from_str(&line).unwrap();
    assert!(v["report"].is_null());
    assert!(v["hint"].as_str().unwrap().contains("too long"));
    assert!(out.join("report.json").is_file());
}

#[test]
fn every_format_gives_the_same_bytes_for_the_same_stream() {
    for format in ["text", "markdown", "json", "sarif", "github", "agent"] {
        assert_eq!(render(format), render(format), "{format}");
    }
}

#[test]
fn a_sarif_result_on_commit_wording_sits_at_the_top_of_its_intents_files() {
    let mut stream = Stream::default();
    stream.range();
    let intent = stream.intent(
        "Keep the receipt order",
        &[],
        &["src/receipt.rs", "README.md"],
    );
    let wording = at("", 0, Relation::Direct, "Keep the receipt order");
    let scenario = stream.scenario(
        &intent,
        "Keep the receipt order",
        ScenarioKind::Primary,
        vec![wording],
    );
    stream.route(
        &scenario,
        Decision::Recommended,
        ActionKind::RunRepositoryCommand,
        Some(cargo("cargo test -p receipts", CommandScope::Package)),
    );
    let sarif: Value =
        serde_json::from_str(&rendered(&stream.whole(), &["--format", "sarif"])).unwrap();
    let locations: Vec<(&str, u64)> = sarif["runs"][0]["results"][0]["locations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let p = &l["physicalLocation"];
            (
                p["artifactLocation"]["uri"].as_str().unwrap(),
                p["region"]["startLine"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(locations, [("src/receipt.rs", 1), ("README.md", 1)]);
}

#[test]
fn github_messages_end_each_sentence_with_one_full_stop() {
    let mut s = Stream::default();
    let intent = s.intent("Refuse expired tokens.", &[], &[]);
    let mut data = common::scenario_data(
        &intent,
        "Expired token is refused.",
        ScenarioKind::Failure,
        vec![at("src/auth.rs", 3, Relation::Direct, "x")],
    );
    data.proof_gap = Some("No changed test shows the refusal; state the expected result.".into());
    let sc = s.push_scenario(data);
    s.route(&sc, Decision::Required, ActionKind::ReviewScenario, None);
    let out = rendered(&s.whole(), &["--format", "github"]);
    let first = out.lines().next().unwrap();
    assert!(!first.contains(".."), "{first}");
    assert!(
        first.ends_with("Proof gap: No changed test shows the refusal; state the expected result."),
        "{first}"
    );
    assert!(
        first.contains("Expired token is refused (intent: Refuse expired tokens)."),
        "{first}"
    );
}
