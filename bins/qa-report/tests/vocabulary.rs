//! Two vocabularies: the human change reports (text, markdown, report.html and the agent
//! line's `summary` sentence) speak a reviewer's words, while records, JSON, SARIF, code
//! quality and the agent line's fields keep the record names. A machine token is any
//! `enum` value of `schema/*.schema.json` made of lowercase words joined by `-`
//! (`repository-contract`, `complete-draft`, `not-run`, `review-only`): no human report
//! of a fixture flow, nor of a real change flow, may show one.

use crate::common;

use common::{at, cargo, intent_data, qa_report, ran, sample, scenario_data, Stream};
use qa_records::change::*;
use qa_records::execution::{BlockedReason, ExecutionData, ExecutionStatus};
use qa_records::Kind;
use qa_testkit::Repo;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The one enum value that is also the English adjective the neutralization marker uses
/// ("[instruction-like text removed]"): a reader is meant to see it.
const ENGLISH: &[&str] = &["instruction-like"];

/// Every machine token the schemas define, sorted.
fn machine_tokens() -> Vec<String> {
    fn walk(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (key, v) in map {
                    if key == "enum" {
                        let names = v.as_array().into_iter().flatten();
                        out.extend(names.filter_map(Value::as_str).map(str::to_string));
                    }
                    walk(v, out);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut names = Vec::new();
    for entry in std::fs::read_dir(qa_testkit::schema_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.to_string_lossy().ends_with(".schema.json") {
            let schema: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            walk(&schema, &mut names);
        }
    }
    let kebab = |n: &String| {
        let words: Vec<&str> = n.split('-').collect();
        words.len() > 1
            && words
                .iter()
                .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase()))
    };
    names.retain(|n| kebab(n) && !ENGLISH.contains(&n.as_str()));
    names.sort();
    names.dedup();
    names
}

/// The machine tokens `shown` holds as names of their own (not inside a longer name such
/// as a path or a class), each with its line.
fn machine_words(shown: &str) -> Vec<String> {
    let tokens = machine_tokens();
    let part = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-');
    let mut found = Vec::new();
    for line in shown.lines() {
        for token in &tokens {
            for (at, _) in line.match_indices(token.as_str()) {
                let before = line[..at].chars().next_back();
                let after = line[at + token.len()..].chars().next();
                if !part(before) && !part(after) {
                    found.push(format!("{token} in {line:?}"));
                }
            }
        }
    }
    found
}

/// What a reader sees of a page: its text, without the style sheet and the markup (class
/// names and ids are the page's own machinery).
fn visible(page: &str) -> String {
    let body = match (page.find("<style>"), page.find("</style>")) {
        (Some(open), Some(close)) => format!("{}{}", &page[..open], &page[close..]),
        _ => page.to_string(),
    };
    let mut out = String::with_capacity(body.len());
    let mut in_tag = false;
    for c in body.chars() {
        match c {
            '<' => in_tag = true,
            // A tag ends a word: `<td>a</td><td>b</td>` reads "a b".
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// The three human formats of `input` and the agent line's summary, by name; each must
/// have been written.
fn human_reports(input: &[u8]) -> Vec<(&'static str, String)> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let text = stdout(qa_report(input, &["--out", out.to_str().unwrap()]));
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    let markdown = stdout(qa_report(input, &["--format", "markdown"]));
    let agent: Value = serde_json::from_str(&stdout(qa_report(input, &["--format", "agent"])))
        .expect("the agent line is JSON");
    let summary = agent["summary"].as_str().unwrap().to_string();
    vec![
        ("text", text),
        ("markdown", markdown),
        ("html", visible(&page)),
        ("agent summary", summary),
    ]
}

fn stdout(out: std::process::Output) -> String {
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        !text.trim().is_empty(),
        "no report: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// The fixture flows: the sample change, with each kind of execution, every record value
/// a human report names, a change without intents and a scenario nothing routes.
fn fixtures() -> Vec<(&'static str, Vec<u8>)> {
    let mut passed = sample();
    let scenario = passed.expired_refused.clone();
    passed.stream.execution(
        &scenario,
        ran("cargo test -p auth", ExecutionStatus::Passed, Some(0)),
    );
    let mut no_intents = Stream::default();
    no_intents.range();
    no_intents.commit(&"1".repeat(40), "docs: fix a typo");
    let mut unrouted = Stream::default();
    let intent = unrouted.intent("Refuse expired session tokens", &[], &["src/auth.rs"]);
    unrouted.scenario(&intent, "Expired token", ScenarioKind::Failure, vec![]);
    vec![
        ("sample", sample().stream.whole()),
        ("sample with a passing execution", passed.stream.whole()),
        ("every value", every_value().whole()),
        ("no intents", no_intents.whole()),
        ("not routed", unrouted.whole()),
    ]
}

/// The sample, plus an intent of every other focus and authority, a scenario of every
/// route action, trace state and command scope, every capability name, status and
/// depth, and executions that ended every way.
fn every_value() -> Stream {
    let mut s = sample().stream;
    let others = [
        (Focus::AnalysisRule, Authority::RepositoryContract),
        (Focus::RepositoryWorkflow, Authority::TeamPolicy),
        (Focus::Command, Authority::Inference),
        (Focus::Configuration, Authority::Inference),
        (Focus::Verification, Authority::RepositoryContract),
        (Focus::Cleanup, Authority::Inference),
    ];
    let mut intents = Vec::new();
    for (n, (focus, authority)) in others.into_iter().enumerate() {
        let mut data = intent_data(&format!("Intent {n}"), &[], &["lint/rule.yml"]);
        (data.focus, data.authority) = (focus, authority);
        data.confidence = [Confidence::Low, Confidence::Medium][n % 2];
        data.review_required = true;
        intents.push(s.push(Kind::Intent, vec![], data));
    }
    let routes = [
        (
            ActionKind::DefineCommand,
            TraceState::Traceable,
            ExecutionState::Passed,
        ),
        (
            ActionKind::RunCheck,
            TraceState::ReviewOnly,
            ExecutionState::Blocked,
        ),
        (
            ActionKind::ReviewScenario,
            TraceState::Partial,
            ExecutionState::Failed,
        ),
    ];
    for (action, state, execution) in routes {
        let mut data = scenario_data(
            &intents[0],
            &format!("Rule {action:?}"),
            ScenarioKind::StateTransition,
            vec![at("lint/rule.yml", 2, Relation::Supporting, "deny: all")],
        );
        data.priority = Priority::Recommended;
        let id = s.push_scenario(data);
        s.route(&id, Decision::ReviewOnly, action, None);
        s.trace_as(&id, state, execution);
    }
    let exact = s.scenario(
        &intents[1],
        "The workflow runs the changed test",
        ScenarioKind::Primary,
        vec![at("ci.yml", 4, Relation::Direct, "run: make test")],
    );
    let mut command = cargo("cargo test -p ci -- exact", CommandScope::ExactTest);
    command.purpose = CommandPurpose::Typecheck;
    s.route(
        &exact,
        Decision::Required,
        ActionKind::RunRepositoryCommand,
        Some(command),
    );
    s.trace_as(&exact, TraceState::Traceable, ExecutionState::NotRun);
    let names = [
        CapabilityName::ChangeIntent,
        CapabilityName::BehaviorImpact,
        CapabilityName::ScenarioRouting,
        CapabilityName::RepositoryValidation,
        CapabilityName::AutomationDrafting,
    ];
    let statuses = [
        (CapabilityStatus::Available, Depth::Deep),
        (CapabilityStatus::Limited, Depth::Structural),
        (CapabilityStatus::Generic, Depth::Generic),
        (CapabilityStatus::Unavailable, Depth::None),
        (CapabilityStatus::NotApplicable, Depth::None),
    ];
    for (name, (status, depth)) in names.into_iter().zip(statuses) {
        let gap = Some("a gap".to_string());
        let data = CapabilityData {
            name,
            status,
            depth,
            gap,
        };
        s.push(Kind::Capability, vec![], data);
    }
    for status in [
        ExecutionStatus::Failed,
        ExecutionStatus::RepositoryChanged,
        ExecutionStatus::TimedOut,
        ExecutionStatus::Cancelled,
    ] {
        s.execution(&exact, ran("cargo test -p ci -- exact", status, Some(1)));
    }
    for reason in [
        BlockedReason::ExecNotAllowed,
        BlockedReason::NotACommandRoute,
        BlockedReason::RunnerMissing,
        BlockedReason::NotDiscovered,
    ] {
        s.execution(&exact, ExecutionData::blocked(reason, "refused", 300));
    }
    s
}

/// Every machine token the human reports of `input` show, by format.
fn found_in(input: &[u8]) -> Vec<String> {
    human_reports(input)
        .into_iter()
        .flat_map(|(format, shown)| {
            machine_words(&shown)
                .into_iter()
                .map(move |w| format!("{format}: {w}"))
        })
        .collect()
}

#[test]
fn the_schemas_name_the_machine_tokens_the_check_looks_for() {
    let tokens = machine_tokens();
    for token in [
        "repository-contract",
        "complete-draft",
        "not-run",
        "review-only",
        "run-repository-command",
        "automation-drafting",
    ] {
        assert!(tokens.iter().any(|t| t == token), "{token} in {tokens:?}");
    }
    assert!(
        !tokens.iter().any(|t| t == "instruction-like"),
        "{tokens:?}"
    );
}

#[test]
fn the_check_fails_on_a_report_with_one_machine_word_put_back() {
    let reports = human_reports(&sample().stream.whole());
    let (_, text) = &reports[0];
    assert_eq!(machine_words(text), Vec::<String>::new());
    let put_back = text.replacen("review only", "review-only", 1);
    assert_ne!(&put_back, text, "the sample says \"review only\"");
    let found = machine_words(&put_back);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("review-only in "), "{found:?}");
}

#[test]
fn a_page_s_class_names_are_not_what_a_reader_sees_but_its_text_is() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    qa_report(&sample().stream.whole(), &["--out", out.to_str().unwrap()]);
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(page.contains("p-review-only"), "the markup keeps the name");
    assert_eq!(machine_words(&visible(&page)), Vec::<String>::new());
    let put_back = page.replacen(">review only<", ">review-only<", 1);
    assert_eq!(machine_words(&visible(&put_back)).len(), 1);
}

#[test]
fn no_human_report_of_a_fixture_flow_shows_a_machine_token() {
    for (name, input) in fixtures() {
        let found = found_in(&input);
        assert!(found.is_empty(), "{name}:\n{}", found.join("\n"));
    }
}

#[test]
fn the_every_value_fixture_holds_the_machine_tokens_the_reports_translate() {
    // The check above means something only if the records carried the tokens.
    let json = stdout(qa_report(&every_value().whole(), &["--format", "json"]));
    for token in [
        "repository-contract",
        "team-policy",
        "analysis-rule",
        "define-command",
        "review-only",
        "state-transition",
        "exact-test",
        "not-applicable",
        "not-run",
        "repository-changed",
        "timed-out",
        "exec-not-allowed",
    ] {
        assert!(json.contains(&format!("\"{token}\"")), "{token}");
    }
}

#[test]
fn the_agent_line_keeps_record_names_in_its_fields() {
    let line = stdout(qa_report(&sample().stream.whole(), &["--format", "agent"]));
    let agent: Value = serde_json::from_str(&line).unwrap();
    let decisions: Vec<&str> = agent["routes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["decision"].as_str().unwrap())
        .collect();
    assert!(decisions.contains(&"review-only"), "{decisions:?}");
    assert!(
        agent["summary"].as_str().unwrap().contains("1 review only"),
        "{line}"
    );
}

/// The real `PATH` entry holding `program`.
fn on_path(program: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{program} is not on PATH"))
}

/// A small repository whose `make test` passes, with a fix to the cart on `feature`.
fn cart_repository() -> Repo {
    let mut r = Repo::new();
    // Shell builtins only: the recipe needs nothing on PATH but make.
    r.write("Makefile", "test:\n\t@test -f src/cart.js && echo ok\n");
    r.write(
        "src/cart.js",
        "export const total = (items) => items.length;\n",
    );
    r.commit("feat: count the items");
    r.branch("feature");
    r.write(
        "src/cart.js",
        "export const total = (items, fee) => {\n  if (fee < 0) throw new Error('fee');\n  return items.length + fee;\n};\n",
    );
    r.commit("fix(cart): add the delivery fee to the total");
    r
}

/// The whole change flow over `repo` through the built binaries, `qa-check --exec
/// --allow-exec` running its routed command, with only `tools` on PATH.
fn flow_with_execution(repo: &Repo, tools: &Path) -> Vec<u8> {
    let root = repo.path().to_str().unwrap();
    repo.pipe(
        tools.as_os_str(),
        &[
            ("qa-diff", &["--repo", root, "--base", "main"][..]),
            ("qa-intent", &["--repo", root][..]),
            ("qa-route", &["--repo", root][..]),
            ("qa-trace", &[][..]),
            ("qa-check", &["--exec", "--allow-exec", "--repo", root][..]),
        ],
    )
}

#[test]
fn a_real_change_flow_after_a_passing_execution_reads_in_a_reviewers_words() {
    let repo = cart_repository();
    let tools = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(on_path("make"), tools.path().join("make")).unwrap();
    let stream = flow_with_execution(&repo, tools.path());
    let records = qa_testkit::parse(&stream);
    let executions = qa_testkit::of_kind(&records, "execution");
    assert_eq!(
        executions.len(),
        1,
        "qa-check --exec ran the routed command"
    );
    assert_eq!(executions[0]["data"]["status"], "passed");
    let found = found_in(&stream);
    assert!(found.is_empty(), "{}", found.join("\n"));
    let reports = human_reports(&stream);
    let (_, text) = &reports[0];
    assert!(text.contains("ran: passed"), "{text}");
    assert!(!text.contains("not run yet"), "{text}");
}
