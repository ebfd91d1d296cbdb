//! The filter stage: forward every record, keep intents, scenarios, targets and check
//! specs, and at the end of input append one route per scenario, one per check, the
//! diagnostics, and the capability receipts (change-flow streams only).

use crate::action::{action, Outcome};
use crate::added::{Added, FileLines};
use crate::capability::{self, IntentQuality, Observed};
use crate::checks::{Checks, Permissions};
use crate::commands;
use crate::discovered::Discovered;
use crate::path::SearchPath;
use crate::routing;
use crate::targets::{IntentFiles, Skipped, Targets};
use crate::tree::Tree;
use crate::BY;
use qa_records::acceptance::{CheckSpecData, TargetSpec};
use qa_records::change::{
    CapabilityData, Command, CommandPurpose, CommandScope, Decision, IntentData, RangeView,
    RouteData, ScenarioData, Unmet, UnmetKind,
};
use qa_records::diag::{Diag, Severity};
use qa_records::envelope::Src;
use qa_records::graph::{Impact, NodeData, Support};
use qa_records::ndjson::{data_of_text, forward_each_text_unread, Line};
use qa_records::output::RecordWriter;
use qa_records::{Kind, Record};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::PathBuf;

const STAGE: &str = "qa-route";

/// What to route against.
pub struct Options {
    /// The repository working tree whose build files declare the commands.
    pub repo: PathBuf,
    /// The permission flags given: they decide whether a check is runnable or blocked.
    pub permissions: Permissions,
}

/// What the analysis keeps of the stream.
#[derive(Default)]
struct Kept {
    intents: HashMap<String, IntentFiles>,
    qualities: Vec<IntentQuality>,
    scenarios: Vec<(String, ScenarioData)>,
    behavior_graph: bool,
    /// Adapter and support of each directly changed graph node.
    graph_support: Vec<(String, Support)>,
    /// Graph nodes that are routes, endpoints or commands.
    reached_entrypoints: usize,
    checks: Checks,
    /// The lines the change wrote, by file: which changed tests are new.
    added: Added,
}

/// A diagnostic to append, with the scenarios it is about.
struct Note {
    severity: Severity,
    message: String,
    subjects: Vec<String>,
}

/// Programs not there, each keeping a command from being routed: one diagnostic each,
/// naming the first command skipped.
struct MissingRunner {
    /// `pytest is not on PATH`, `vitest is not installed in node_modules/.bin`.
    runner: String,
    first: String,
    more: usize,
    subjects: Vec<String>,
}

#[derive(Default)]
struct Notes {
    notes: Vec<Note>,
    missing: Vec<MissingRunner>,
}

impl Notes {
    fn add(&mut self, severity: Severity, message: String, subject: &str) {
        match self.notes.iter_mut().find(|n| n.message == message) {
            Some(note) => push_unique(&mut note.subjects, subject),
            None => self.notes.push(Note {
                severity,
                message,
                subjects: vec![subject.to_string()],
            }),
        }
    }

    fn missing(&mut self, runner: &str, run: &str, subject: &str) {
        match self.missing.iter_mut().find(|m| m.runner == runner) {
            Some(m) => {
                if m.first != run {
                    m.more += 1;
                }
                push_unique(&mut m.subjects, subject);
            }
            None => self.missing.push(MissingRunner {
                runner: runner.to_string(),
                first: run.to_string(),
                more: 0,
                subjects: vec![subject.to_string()],
            }),
        }
    }

    fn into_diags(self) -> Vec<(Diag, Vec<String>)> {
        let missing = self.missing.into_iter().map(|m| {
            let more = match m.more {
                0 => String::new(),
                1 => " and 1 more command".to_string(),
                n => format!(" and {n} more commands"),
            };
            Note {
                severity: Severity::Warning,
                message: format!("{}; skipped `{}`{more}", m.runner, m.first),
                subjects: m.subjects,
            }
        });
        self.notes
            .into_iter()
            .chain(missing)
            .map(|note| {
                let mut diag = Diag::new(note.severity, STAGE, note.message);
                diag.subjects = note.subjects.clone();
                (diag, note.subjects)
            })
            .collect()
    }
}

fn push_unique(list: &mut Vec<String>, item: &str) {
    if !list.iter().any(|s| s == item) {
        list.push(item.to_string());
    }
}

/// Forwards `input` to `out`, then writes qa-route's records. `path` decides which
/// runners can start.
pub fn run<R: BufRead, W: Write>(
    opts: &Options,
    path: &SearchPath,
    source: &str,
    input: R,
    out: &mut RecordWriter<W>,
) -> anyhow::Result<()> {
    let tree = Tree::open(&opts.repo)?;
    let mut kept = Kept::default();
    // Each record's data is read from its text into the type it is kept as: built as a
    // `Value` first, the file records (every changed line, read for the added ones) cost
    // more than the routing. Edges and commits pass through unread: written as stages
    // write them, not even their envelopes are built (an edge says only that a graph is
    // there).
    forward_each_text_unread(
        source,
        input,
        out,
        &[Kind::Edge, Kind::Commit],
        |line, read| {
            let (envelope, text) = match read {
                Line::Read(envelope, text) => (envelope, text),
                Line::Unread(kind) => {
                    kept.behavior_graph |= kind == Kind::Edge;
                    return Ok(());
                }
            };
            match envelope.known_kind() {
                Some(Kind::Range) => {
                    let range: RangeView = data_of_text(source, line, &envelope, text)?;
                    crate::repository::holds_head(&opts.repo, &range)?;
                }
                Some(Kind::File) => {
                    // Lenient: the added lines only order the commands, so a file record
                    // this build cannot read leaves the order as it was.
                    if let Some(file) = lenient::<FileLines>(envelope.data, text) {
                        kept.added.record(file);
                    }
                }
                Some(Kind::Intent) => {
                    let intent: IntentData = data_of_text(source, line, &envelope, text)?;
                    kept.qualities.push(IntentQuality {
                        confidence: intent.confidence,
                        located: intent
                            .lifecycle
                            .iter()
                            .any(|step| step.evidence.iter().any(|e| e.line > 0)),
                    });
                    kept.intents.insert(envelope.id, IntentFiles::from(&intent));
                }
                Some(Kind::Scenario) => {
                    let scenario: ScenarioData = data_of_text(source, line, &envelope, text)?;
                    kept.scenarios.push((envelope.id, scenario));
                }
                Some(Kind::TargetSpec) => {
                    let target: TargetSpec = data_of_text(source, line, &envelope, text)?;
                    kept.checks.target(&envelope.from, target);
                }
                Some(Kind::Profile) => {
                    // Canonical text always reads as a `Value` (`Envelope::parse_canonical`).
                    let profile = match text {
                        Some(text) => serde_json::from_str(text.get()).unwrap_or_default(),
                        None => envelope.data,
                    };
                    kept.checks.profile(&profile)
                }
                Some(Kind::CheckSpec) => {
                    let spec: CheckSpecData = data_of_text(source, line, &envelope, text)?;
                    kept.checks.spec(envelope.id, envelope.from, spec);
                }
                Some(Kind::Node) => {
                    kept.behavior_graph = true;
                    // Lenient: a node this build cannot read still shows a graph is present.
                    if let Some(node) = lenient::<NodeData>(envelope.data, text) {
                        if node.kind.is_entrypoint() {
                            kept.reached_entrypoints += 1;
                        }
                        if node.impact == Impact::Direct {
                            kept.graph_support.push((node.adapter, node.support));
                        }
                    }
                }
                Some(Kind::Edge) => kept.behavior_graph = true,
                _ => {}
            }
            Ok(())
        },
    )?;

    let mut notes = Notes::default();
    let mut observed = Observed {
        intents: std::mem::take(&mut kept.qualities),
        behavior_graph: kept.behavior_graph,
        graph_support: std::mem::take(&mut kept.graph_support),
        reached_entrypoints: kept.reached_entrypoints,
        scenarios: kept.scenarios.len(),
        ..Observed::default()
    };
    let mut discovered = Discovered::new(&tree);
    for (id, scenario) in &kept.scenarios {
        let (route, src, from) = route(
            id,
            scenario,
            &kept,
            (&tree, &mut discovered),
            path,
            &mut notes,
            &mut observed,
        );
        out.write(&Record::new(Kind::Route, BY, from, src, route)?)?;
    }
    for route in kept.checks.routes(opts.permissions) {
        let from = vec![route.subject.clone()];
        out.write(&Record::new(Kind::Route, BY, from, Src::new(), route)?)?;
    }
    for (diag, from) in notes.into_diags() {
        out.write(&diag.into_record(BY, from)?)?;
    }
    // The receipts describe the change flow's reasoning stages: an acceptance stream
    // (check specs, no scenarios) has none of them to report on.
    if kept.checks.is_empty() || !kept.scenarios.is_empty() {
        for receipt in capability::receipts(&observed) {
            out.write(&capability_record(receipt)?)?;
        }
    }
    Ok(())
}

fn capability_record(data: CapabilityData) -> anyhow::Result<Record> {
    Record::new(Kind::Capability, BY, Vec::new(), Src::new(), data)
}

/// The route of one scenario, the build-file hashes it rests on, and its `from`.
fn route(
    id: &str,
    scenario: &ScenarioData,
    kept: &Kept,
    (tree, discovered): (&Tree, &mut Discovered),
    path: &SearchPath,
    notes: &mut Notes,
    observed: &mut Observed,
) -> (RouteData, Src, Vec<String>) {
    let judgment = routing::judge(scenario);
    let intent = kept.intents.get(&scenario.intent);
    let mut from = vec![id.to_string()];
    if intent.is_some() {
        from.push(scenario.intent.clone());
    } else {
        notes.add(
            Severity::Warning,
            format!(
                "scenario names intent {}, which is not earlier in the stream; routed without its files",
                scenario.intent
            ),
            id,
        );
    }
    let mut route = RouteData {
        subject: id.to_string(),
        decision: judgment.decision,
        reason: judgment.reason,
        evidence: judgment.evidence,
        action: action(Outcome::Review, scenario.priority),
        command: None,
        additional_commands: Vec::new(),
    };
    // A scenario resting on commit wording alone still runs the tests of the package
    // its intent changed: a person decides what else to verify.
    let wording_only = judgment.decision == Decision::ReviewOnly;
    if wording_only && intent.is_none_or(|i| i.files.is_empty()) {
        return (route, Src::new(), from);
    }

    let (mut targets, skipped) = Targets::of(scenario, intent, tree);
    targets.lead_with_new_tests(|file, line| kept.added.contains(file, line));
    for skip in skipped {
        let (severity, message) = match skip {
            Skipped::Outside(p) => (
                Severity::Warning,
                format!("`{p}` is not a path inside the repository; not read"),
            ),
            Skipped::Nested(p, repo) => (
                Severity::Info,
                format!(
                    "`{p}` is inside the nested repository `{repo}`; its build files are not read"
                ),
            ),
        };
        notes.add(severity, message, id);
    }
    let mut reader = tree.reader();
    let found = discovered.discover(&mut reader, &targets);
    for problem in found.problems {
        notes.add(Severity::Warning, problem, id);
    }
    let mut candidates = found.candidates;
    crate::cited::lead(
        &mut candidates,
        scenario,
        &targets,
        |file| kept.added.is_test(file),
        &mut reader,
        discovered,
    );
    if wording_only {
        candidates.retain(|c| c.scope != CommandScope::Suite);
        if candidates.is_empty() {
            return (route, Src::new(), from);
        }
    }
    let selection = commands::select(candidates, path, &mut reader);
    // With nothing that can start, the narrowest command stays the route's, with what it
    // needs: the command to run once that is met. Only the others are skipped.
    let shown = match &selection.command {
        Some(_) => None,
        None if wording_only => None,
        None => selection.missing.first(),
    };
    for (i, (c, unmet)) in selection.missing.iter().enumerate() {
        if shown.is_none() || i > 0 {
            notes.missing(&missing_words(unmet), &c.run, id);
        }
        if !observed.validation.missing_runners.contains(&unmet.program) {
            observed
                .validation
                .missing_runners
                .push(unmet.program.clone());
        }
    }
    observed.validation.looked += 1;
    if wording_only {
        let Some(command) = &selection.command else {
            return (route, Src::new(), from);
        };
        let what = match command.purpose {
            CommandPurpose::Test => "the tests",
            _ => "the checks",
        };
        route.decision = Decision::Recommended;
        route.reason = format!(
            "{}; {what} of the package it changed still run",
            route.reason.trim_end_matches(": a person decides")
        );
    }
    route.action = match (&selection.command, shown) {
        (Some(command), _) => {
            observed.validation.selected += 1;
            action(Outcome::Run(command, None), scenario.priority)
        }
        (None, Some((command, unmet))) => {
            action(Outcome::Run(command, Some(unmet)), scenario.priority)
        }
        (None, None) => {
            route.reason = format!("{}; {}", route.reason, no_command(&reader));
            action(Outcome::NoCommand(&targets.files), scenario.priority)
        }
    };
    let routed = selection.command.as_ref().or(shown.map(|(c, _)| c));
    crate::action::require_installed(&mut route, routed, &mut reader);
    route.command = match (&selection.command, shown) {
        (Some(command), _) => Some(Command {
            unmet: commands::wrapper::uninstalled(command, &mut reader),
            ..command.to_command()
        }),
        (None, Some((command, unmet))) => Some(Command {
            unmet: Some(unmet.clone()),
            ..command.to_command()
        }),
        (None, None) => None,
    };
    route.additional_commands = selection
        .additional
        .iter()
        .map(commands::Candidate::to_command)
        .collect();
    (route, reader.into_src(), from)
}

/// The data of a record read leniently: from its text where the reader kept it, else from
/// the `Value` it built; `None` when it does not read as `T`.
fn lenient<T: serde::de::DeserializeOwned>(
    data: serde_json::Value,
    text: Option<&serde_json::value::RawValue>,
) -> Option<T> {
    match text {
        Some(text) => serde_json::from_str(text.get()).ok(),
        None => serde_json::from_value(data).ok(),
    }
}

/// What keeps a command from starting, as a diagnostic says it.
fn missing_words(unmet: &Unmet) -> String {
    match unmet.kind {
        UnmetKind::Runner | UnmetKind::WrappedTool => format!("{} is not on PATH", unmet.program),
        UnmetKind::PackageTool => {
            format!("{} is not installed in node_modules/.bin", unmet.program)
        }
    }
}

/// Why no command was found, naming the build files read.
fn no_command(reader: &crate::tree::Reader) -> String {
    let read = reader.read_paths();
    match read.as_slice() {
        [] => "no build file (Cargo.toml, package.json, pyproject.toml, go.mod, pom.xml, build.gradle, Makefile) found for its files".to_string(),
        [one] => format!("`{one}` declares no validation command for its files"),
        _ if read.len() <= 4 => format!(
            "none of {} declares a validation command for its files",
            read.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")
        ),
        _ => format!(
            "none of the {} build files read ({}, ...) declares a validation command for its files",
            read.len(),
            read.iter().take(3).map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")
        ),
    }
}
