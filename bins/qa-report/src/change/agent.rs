//! The agent line: one JSON object of at most 4,096 bytes including its newline. Route
//! ids and action contracts come first, right after them what `qa-check --exec` did,
//! then the range, counts and the pointer to the full report; titles and evidence are
//! added only while they fit, and `truncated` says when the byte budget left anything
//! out (a title shortened to its bound ends with `…`; capped evidence is counted in
//! `evidence_more`).

use crate::model::{label, Counts, ExecutionView, Report};
use qa_records::execution::TestCounts;
use serde::Serialize;
use std::path::Path;

/// The line's limit in bytes, newline included.
pub const MAX_BYTES: usize = 4096;

/// Names this line's shape.
pub const FORMAT: &str = "qapipe.agent/v1";

/// Longest title kept in detail, in characters.
const TITLE_CHARS: usize = 120;

/// Evidence locations kept per scenario in detail.
const EVIDENCE_ITEMS: usize = 3;

const HINT_NO_OUT: &str =
    "pass --out DIR to write the full report; its report.json has every field";
const HINT_LONG_PATH: &str =
    "the --out path is too long for this line; read report.json in the --out folder";

#[derive(Serialize)]
struct Line<'a> {
    format: &'static str,
    /// The flow's stages without records: the report is incomplete, not a pass.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    missing_stages: &'a [&'static str],
    /// The signal that cut the stream: the report is cancelled, not a pass.
    #[serde(skip_serializing_if = "Option::is_none")]
    cancelled: Option<&'static str>,
    /// Why the range holds no change: nothing was analysed, which is not "nothing to test".
    #[serde(skip_serializing_if = "Option::is_none")]
    empty_range: Option<&'a str>,
    routes: Vec<Route<'a>>,
    executions: Vec<Execution<'a>>,
    range: Option<Range<'a>>,
    counts: Counts,
    summary: &'a str,
    neutralized: u64,
    truncated: bool,
    report: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<&'static str>,
    detail: Vec<Detail<'a>>,
}

/// A scenario's route: what an agent may do next, and with whose approval.
#[derive(Serialize)]
struct Route<'a> {
    scenario: &'a str,
    decision: String,
    action: String,
    approval: &'a str,
    run: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dir: Option<&'a str>,
    /// The command holds instruction-like text: withheld from the agent (`run` is null)
    /// rather than rewritten, since an edited command is not the routed one; the human
    /// report shows it as written.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    run_withheld: bool,
    /// What the command needs that is not there ("needs `pytest` on PATH: activate the
    /// project's virtual environment"): `run` is still the command to run once it is met.
    #[serde(skip_serializing_if = "Option::is_none")]
    needs: Option<&'a str>,
}

/// What `qa-check --exec` did with a route's command.
#[derive(Serialize)]
struct Execution<'a> {
    scenario: Option<&'a str>,
    /// Null when withheld (see `Route::run_withheld`).
    command: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    command_withheld: bool,
    status: String,
    exit_code: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    blocked: Option<String>,
    /// The parts of the repository the command changed (`head`, `branch`, `index`,
    /// `worktree`, `git`); empty when unchanged or not run.
    changed: Vec<&'static str>,
    /// The tests the runner reported; null when they were not counted.
    tests: Option<TestCounts>,
    /// The changed tests the command names that did not run.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    changed_not_run: Vec<&'a str>,
}

impl<'a> Execution<'a> {
    fn of(view: &'a ExecutionView) -> Execution<'a> {
        let d = &view.data;
        let withheld = d.command.as_deref().is_some_and(instruction_like);
        Execution {
            scenario: d.subject.as_deref(),
            command: d.command.as_deref().filter(|_| !withheld),
            command_withheld: withheld,
            status: label(&d.status),
            exit_code: d.exit_code,
            blocked: d.blocked.map(|b| label(&b)),
            changed: view.changed_parts(),
            tests: d.tests,
            changed_not_run: d
                .changed_tests
                .iter()
                .filter(|t| !t.ran)
                .map(|t| t.name.as_str())
                .collect(),
        }
    }
}

#[derive(Serialize)]
struct Range<'a> {
    base: &'a str,
    head: &'a str,
    merge_base: &'a str,
    mode: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    base_ref: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    head_ref: Option<&'a str>,
}

#[derive(Serialize)]
struct Detail<'a> {
    scenario: &'a str,
    /// Shortened to a bounded length, ending with `…` when it was.
    title: String,
    evidence: Vec<String>,
    /// Located evidence beyond the first few, counted (the full report lists it).
    #[serde(skip_serializing_if = "is_zero")]
    evidence_more: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn size(line: &Line<'_>) -> usize {
    serde_json::to_vec(line)
        .expect("the agent line is plain JSON")
        .len()
}

/// The agent line, newline included. `full_report` is the report.json written under
/// --out, if any.
pub fn render(report: &Report, full_report: Option<&Path>) -> String {
    let budget = MAX_BYTES - 1;
    let mut line = Line {
        format: FORMAT,
        routes: Vec::new(),
        executions: Vec::new(),
        range: report.range.as_ref().map(|r| Range {
            base: &r.base.oid,
            head: &r.head.oid,
            merge_base: &r.merge_base,
            mode: label(&r.mode),
            base_ref: Some(&r.base.name),
            head_ref: Some(&r.head.name),
        }),
        counts: report.counts,
        summary: &report.summary,
        missing_stages: &report.missing_stages,
        cancelled: report.cancelled,
        empty_range: report.empty_range.as_deref(),
        neutralized: report.neutralized,
        truncated: false,
        report: full_report.map(|p| p.display().to_string()),
        hint: full_report.is_none().then_some(HINT_NO_OUT),
        detail: Vec::new(),
    };
    // The frame must fit before anything is added: shed ref names, then the range,
    // then the report path (every other frame field is bounded).
    if size(&line) > budget {
        if let Some(range) = &mut line.range {
            range.base_ref = None;
            range.head_ref = None;
        }
        line.truncated = true;
    }
    if size(&line) > budget {
        line.range = None;
    }
    if size(&line) > budget {
        line.report = None;
        line.hint = Some(HINT_LONG_PATH);
    }
    // Executions are few (one per qa-check --exec run) and say what already happened:
    // they are added before the routes claim the space.
    for execution in &report.executions {
        line.executions.push(Execution::of(execution));
        if size(&line) > budget {
            line.executions.pop();
            line.truncated = true;
            break;
        }
    }
    let order = report.by_decision();
    let routed = order
        .iter()
        .filter_map(|(_, s)| s.route.as_ref().map(|r| (*s, r)));
    for (scenario, route) in routed {
        let command = route.data.command.as_ref().map(|c| c.run.as_str());
        let withheld = command.is_some_and(instruction_like);
        line.routes.push(Route {
            scenario: &scenario.id,
            decision: label(&route.data.decision),
            action: label(&route.data.action.kind),
            approval: &route.data.action.approval,
            run: command.filter(|_| !withheld),
            dir: route.data.command.as_ref().map(|c| c.dir.as_str()),
            run_withheld: withheld,
            needs: route
                .data
                .command
                .as_ref()
                .and_then(|c| c.unmet.as_ref())
                .map(|u| u.precondition.as_str()),
        });
        if size(&line) > budget {
            line.routes.pop();
            line.truncated = true;
            break;
        }
    }
    if !line.truncated {
        for (_, s) in &order {
            let locations = s.locations();
            // A shortened title or capped evidence is said on the entry itself:
            // `truncated` is only for what the byte budget left out.
            let mut title: String = s.data.title.chars().take(TITLE_CHARS).collect();
            if title.len() < s.data.title.len() {
                title.push('…');
            }
            line.detail.push(Detail {
                scenario: &s.id,
                title,
                evidence: locations
                    .iter()
                    .take(EVIDENCE_ITEMS)
                    .map(|(file, n)| format!("{file}:{n}"))
                    .collect(),
                evidence_more: locations.len().saturating_sub(EVIDENCE_ITEMS),
            });
            if size(&line) > budget {
                line.detail.pop();
                line.truncated = true;
                break;
            }
        }
    }
    let mut out = serde_json::to_string(&line).expect("the agent line is plain JSON");
    out.push('\n');
    out
}

/// True when the boundary would replace part of `command`: an agent is not handed it.
fn instruction_like(command: &str) -> bool {
    qa_records::untrusted::neutralize(command).1 > 0
}
