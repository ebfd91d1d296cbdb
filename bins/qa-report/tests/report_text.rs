//! The text report: three layers in order (what changed and what to test, what to run,
//! what a person must check), most urgent first, and what it does with streams that are
//! empty, broken or carry kinds it does not render.

use crate::common;

use common::{pos, qa_report, ran, rendered, sample, Stream};
use qa_records::change::{ActionKind, Decision, Relation, ScenarioKind};
use qa_records::execution::ExecutionStatus;
use qa_records::Kind;
use serde_json::json;

fn text() -> String {
    rendered(&sample().stream.whole(), &[])
}

#[test]
fn text_is_the_default_format_with_the_three_layers_in_order() {
    let out = text();
    let map = pos(&out, "1. What changed and what to test");
    let now = pos(&out, "2. Run this");
    let manual = pos(&out, "3. What a person must check");
    let capabilities = pos(&out, "\nHow far qapipe could read this change\n");
    let warnings = pos(&out, "\nWarnings\n");
    assert!(map < now && now < manual && manual < capabilities && capabilities < warnings);
}

#[test]
fn the_intent_with_a_required_scenario_comes_first_whatever_the_stream_order() {
    let out = text();
    assert!(
        pos(&out, "Intent: Refuse expired session tokens")
            < pos(&out, "Intent: Retry failed uploads")
    );
}

#[test]
fn required_scenarios_come_before_recommended_then_review_only() {
    let out = text();
    let required = pos(&out, "[required] Expired token is refused (failure)\n");
    let recommended = pos(
        &out,
        "[recommended] Valid token still signs in (main path)\n",
    );
    let review = pos(
        &out,
        "[review only] Token expiring exactly now (edge case, downgraded)\n",
    );
    assert!(required < recommended && recommended < review, "{out}");
}

#[test]
fn intents_say_why_they_matter_then_focus_confidence_commits_and_files() {
    let out = text();
    pos(&out, "    why it matters: inferred from the diff\n");
    pos(&out, "    product behaviour, high confidence, 1 commit\n");
    pos(&out, "files: src/auth.rs, tests/auth.rs");
}

#[test]
fn scenarios_show_proof_gap_and_evidence_as_file_line() {
    let out = text();
    pos(&out, "proof gap: no changed line shows the response");
    pos(
        &out,
        "evidence: src/auth.rs:42 (changed line) if token.expired() {",
    );
    pos(&out, "evidence: commit wording (context)");
}

#[test]
fn a_routed_command_is_listed_once_with_its_folder_scope_and_what_it_covers() {
    let out = text();
    assert_eq!(out.matches("run: cargo test -p auth\n").count(), 1, "{out}");
    pos(
        &out,
        "the package's tests, in folder ., declared in Cargo.toml\n",
    );
    pos(
        &out,
        "covers: [required] Expired token is refused; [recommended] Valid token still signs in",
    );
}

#[test]
fn a_routed_command_says_what_it_checks_and_why_under_its_line() {
    let out = text();
    pos(
        &out,
        "run: cargo test -p auth\n      tests: runs the tests\n      the package's tests",
    );
}

#[test]
fn additional_commands_are_listed_once() {
    let out = text();
    assert_eq!(
        out.matches("run: cargo test --workspace").count(),
        1,
        "{out}"
    );
}

#[test]
fn manual_contracts_hold_scenarios_no_command_runs_with_their_drafts() {
    let out = text();
    let manual = &out[pos(&out, "3. What a person must check")..pos(&out, "\nHow far qapipe")];
    pos(
        manual,
        "[recommended] Upload retries after a failure: complete the draft test\n",
    );
    pos(
        manual,
        "[review only] Token expiring exactly now: read it and decide whether it matters",
    );
    pos(manual, "draft (manual): partially mapped, 1 of 3 mapped");
    pos(manual, "draft (manual): not mapped, 1 of 3 mapped");
    pos(manual, "gap: name the retry limit");
    assert!(!manual.contains("Expired token is refused"), "{manual}");
}

#[test]
fn warnings_show_and_info_diagnostics_do_not() {
    let out = text();
    pos(
        &out,
        "warning qa-route: src/upload.rs has no validation command",
    );
    assert!(!out.contains("2 commands found"), "{out}");
}

#[test]
fn info_diagnostics_are_listed_only_with_verbose() {
    let input = sample().stream.whole();
    for format in ["text", "markdown"] {
        let quiet = rendered(&input, &["--format", format]);
        assert!(!quiet.contains("2 commands found"), "{quiet}");
        let verbose = rendered(&input, &["--format", format, "--verbose"]);
        pos(&verbose, "info");
        pos(&verbose, "2 commands found");
        pos(&verbose, "src/upload.rs has no validation command");
    }
}

#[test]
fn an_execution_record_is_shown_with_the_runnable_evidence() {
    let mut s = sample();
    let scenario = s.expired_refused.clone();
    s.stream.execution(
        &scenario,
        ran("cargo test -p auth", ExecutionStatus::Passed, Some(0)),
    );
    let out = rendered(&s.stream.whole(), &[]);
    pos(
        &out,
        "Already run\n  cargo test -p auth (in .) ran: passed (tests not counted), exit 0, 1234 ms",
    );
    assert!(!text().contains("Already run"));
}

#[test]
fn a_stream_without_intents_still_renders_and_says_so() {
    let mut s = Stream::default();
    s.range();
    s.commit(&"1".repeat(40), "docs: fix a typo");
    let out = rendered(&s.whole(), &[]);
    pos(&out, "no behaviour-bearing change found");
    assert!(!out.contains("1. What changed"), "{out}");
    assert!(!text().contains("no behaviour-bearing change found"));
}

#[test]
fn a_scenario_without_a_route_is_not_routed_and_left_to_a_person() {
    let mut s = Stream::default();
    let intent = s.intent("Refuse expired session tokens", &[], &["src/auth.rs"]);
    s.scenario(
        &intent,
        "Expired token is refused",
        ScenarioKind::Failure,
        vec![],
    );
    let out = rendered(&s.whole(), &[]);
    pos(&out, "1 not routed");
    pos(
        &out,
        "[not routed] Expired token is refused: no route chose how to test it",
    );
}

#[test]
fn a_route_naming_a_missing_scenario_becomes_a_warning() {
    let mut s = Stream::default();
    let ghost = format!("sha256:{}", "e".repeat(64));
    s.route(&ghost, Decision::Required, ActionKind::ReviewScenario, None);
    // The route's `from` names the missing scenario; drop it so the chain verifies.
    let mut fixed = Stream::default();
    let data: serde_json::Value = serde_json::from_str(s.records[0].data.get()).unwrap();
    fixed.push(Kind::Route, vec![], data);
    let out = rendered(&fixed.whole(), &[]);
    pos(&out, &format!("names {ghost}, which is not in the stream"));
}

#[test]
fn unknown_kinds_are_counted_not_an_error() {
    let mut s = sample().stream;
    s.push(
        Kind::Diag,
        vec![],
        json!({"severity": "info", "stage": "x", "message": "m", "subjects": []}),
    );
    let mut r = s.records.pop().unwrap();
    r.kind = "x-team-note".into();
    let data: serde_json::Value = serde_json::from_str(r.data.get()).unwrap();
    r.id = qa_records::envelope::compute_id(&r.kind, r.v, &r.from, &r.src, &data).unwrap();
    s.records.push(r);
    let json: serde_json::Value =
        serde_json::from_str(&rendered(&s.whole(), &["--format", "json"])).unwrap();
    assert_eq!(json["records"]["x-team-note"], 1);
    assert_eq!(json["records"]["scenario"], 4);
}

#[test]
fn a_broken_stream_exits_65_with_its_problems_and_renders_nothing() {
    let mut input = sample().stream.whole();
    input.extend(b"{not json\n");
    let out = qa_report(&input, &[]);
    assert_eq!(out.status.code(), Some(65));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("qa-report: stdin line 21: not valid JSON"),
        "{err}"
    );
    assert!(err.contains("; 1 problem\n"), "{err}");
}

#[test]
fn a_scenario_whose_data_breaks_its_contract_exits_65_naming_the_line() {
    let mut s = Stream::default();
    s.push(Kind::Scenario, vec![], json!({"title": "no intent field"}));
    let out = qa_report(&s.whole(), &[]);
    assert_eq!(out.status.code(), Some(65));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("qa-report: error: stdin line 2: `scenario` record data: missing field"),
        "{err}"
    );
}

#[test]
fn evidence_without_a_line_is_not_called_a_location() {
    let mut s = Stream::default();
    let intent = s.intent("t", &[], &[]);
    let sc = s.scenario(
        &intent,
        "Only wording",
        ScenarioKind::Primary,
        vec![common::at("src/a.rs", 0, Relation::Direct, "x")],
    );
    s.route(&sc, Decision::Required, ActionKind::ReviewScenario, None);
    let out = rendered(&s.whole(), &[]);
    pos(&out, "evidence: src/a.rs (changed line) x");
    assert!(!out.contains("src/a.rs:0"), "{out}");
}

#[test]
fn a_scenario_names_the_entrypoints_its_change_reaches_and_one_without_none() {
    let mut s = Stream::default();
    let intent = s.intent("button", &[], &[]);
    let reaching = s.scenario_reaching(
        &intent,
        "the shared button submits",
        ScenarioKind::Primary,
        vec![common::at("src/Button.tsx", 3, Relation::Direct, "x")],
        &["route /checkout", "route /cart"],
    );
    s.route(
        &reaching,
        Decision::Required,
        ActionKind::ReviewScenario,
        None,
    );
    let plain = s.scenario(
        &intent,
        "the button label",
        ScenarioKind::Boundary,
        vec![common::at("src/Button.tsx", 4, Relation::Direct, "y")],
    );
    s.route(
        &plain,
        Decision::Recommended,
        ActionKind::ReviewScenario,
        None,
    );
    let out = rendered(&s.whole(), &[]);
    assert_eq!(out.matches("reaches: ").count(), 1, "{out}");
    pos(&out, "reaches: route /checkout, route /cart");
    let md = rendered(&s.whole(), &["--format", "markdown"]);
    pos(&md, "| route /checkout, route /cart |");
}
