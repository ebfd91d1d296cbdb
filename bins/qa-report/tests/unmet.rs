//! A command whose runner is missing stays in "Run this" as the command to run, with what
//! it needs in words, in every format; the same command with its runner on PATH shows no
//! precondition (the control).

use crate::common;

use common::{at, cargo, pos, rendered, Stream};
use qa_records::change::{
    ActionKind, CommandScope, Decision, Relation, ScenarioKind, Unmet, UnmetKind,
};
use serde_json::Value;

const NEEDS: &str = "needs `pytest` on PATH: activate the project's virtual environment";
const RUN: &str = "pytest tests/test_login.py::test_expired_session";

/// A stream with one required scenario routed to [`RUN`], its runner missing or not.
fn stream(missing: bool) -> Vec<u8> {
    let mut s = Stream::default();
    s.range();
    let intent = s.intent("Refuse expired sessions", &[], &["shop/login.py"]);
    let scenario = s.scenario(
        &intent,
        "Expired session is refused",
        ScenarioKind::Failure,
        vec![at(
            "shop/login.py",
            3,
            Relation::Direct,
            "if session.expired:",
        )],
    );
    let mut command = cargo(RUN, CommandScope::ExactTest);
    command.runner = "pytest".into();
    command.declared_in = "pyproject.toml".into();
    command.unmet = missing.then(|| Unmet {
        program: "pytest".into(),
        kind: UnmetKind::Runner,
        precondition: NEEDS.into(),
    });
    s.route(
        &scenario,
        Decision::Required,
        ActionKind::RunRepositoryCommand,
        Some(command),
    );
    s.whole()
}

/// The "2. Run this" section of a human report.
fn run_section(out: &str) -> &str {
    let start = pos(out, "2. Run this");
    let end = pos(out, "3. What a person must check");
    &out[start..end]
}

#[test]
fn text_lists_the_command_with_what_it_needs_first() {
    let out = rendered(&stream(true), &[]);
    let section = run_section(&out);
    // Plain text writes names without their back quotes.
    pos(
        section,
        &format!("run: {RUN}\n      first: {}\n", NEEDS.replace('`', "")),
    );
    let control = rendered(&stream(false), &[]);
    assert!(!run_section(&control).contains("first:"), "{control}");
    pos(run_section(&control), &format!("run: {RUN}\n"));
}

#[test]
fn markdown_lists_the_command_with_what_it_needs_first() {
    let out = rendered(&stream(true), &["--format", "markdown"]);
    let section = run_section(&out);
    pos(
        section,
        &format!("`{RUN}`<br>first: needs `pytest` on PATH"),
    );
    let control = rendered(&stream(false), &["--format", "markdown"]);
    assert!(!run_section(&control).contains("first:"), "{control}");
}

/// The report.html `qa-report --out DIR` writes for `input`.
fn page(input: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    rendered(input, &["--out", out.to_str().unwrap()]);
    std::fs::read_to_string(out.join("report.html")).unwrap()
}

#[test]
fn html_lists_the_command_with_what_it_needs_first() {
    let out = page(&stream(true));
    let section = run_section(&out);
    pos(
        section,
        "<strong>first:</strong> needs <code>pytest</code> on PATH",
    );
    let control = page(&stream(false));
    assert!(!run_section(&control).contains("first:"), "{control}");
}

fn route_command(json: &Value) -> &Value {
    &json["intents"][0]["scenarios"][0]["route"]["command"]
}

#[test]
fn json_keeps_the_command_with_its_unmet_precondition() {
    let out: Value = serde_json::from_str(&rendered(&stream(true), &["--format", "json"])).unwrap();
    let command = route_command(&out);
    assert_eq!(command["run"], RUN, "{out:#}");
    assert_eq!(command["unmet"]["precondition"], NEEDS);
    let control: Value =
        serde_json::from_str(&rendered(&stream(false), &["--format", "json"])).unwrap();
    assert_eq!(route_command(&control)["run"], RUN, "{control:#}");
    assert_eq!(route_command(&control).get("unmet"), None);
}

#[test]
fn the_agent_line_keeps_run_and_says_what_it_needs() {
    let out: Value =
        serde_json::from_str(&rendered(&stream(true), &["--format", "agent"])).unwrap();
    let route = &out["routes"][0];
    assert_eq!(route["run"], RUN, "{out:#}");
    assert_eq!(route["action"], "run-repository-command");
    assert_eq!(route["needs"], NEEDS);
    let control: Value =
        serde_json::from_str(&rendered(&stream(false), &["--format", "agent"])).unwrap();
    assert_eq!(control["routes"][0]["run"], RUN);
    assert_eq!(control["routes"][0].get("needs"), None);
}
