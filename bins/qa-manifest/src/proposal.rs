//! What a record of the stream proposes to the manifest: a flow (name, criticality, the
//! files and symbols that anchor it, its expected outcomes) or a suppression, and how
//! either is written as manifest lines.

use qa_records::change::{IntentData, Priority, ScenarioData};
use qa_records::exit::{failure, Exit};
use qa_records::untrusted::neutralize;
use qa_team_manifest::{Criticality, Flow, Glob, Suppression};

use crate::edit::Line;
use crate::stream::{evidence_files, FlowNode, Stream, Subject};

/// The flow `subject` proposes, named from its title (not yet unique in the manifest).
pub fn flow_of(stream: &Stream, subject: Subject<'_>) -> anyhow::Result<Flow> {
    let (title, critical, paths, symbols, expected) = match subject {
        Subject::Scenario(_, scenario) => (
            scenario.title.clone(),
            scenario.priority == Priority::Critical,
            product_evidence_files(stream, scenario),
            Vec::new(),
            scenario.assertions.clone(),
        ),
        Subject::Intent(id, intent) => {
            let scenarios: Vec<&ScenarioData> = stream.scenarios_of(id).collect();
            let mut paths = union(scenarios.iter().map(|s| product_evidence_files(stream, s)));
            if paths.is_empty() {
                // No located product evidence: the intent's own product files anchor it.
                let tests = test_files(intent);
                paths = intent
                    .files
                    .iter()
                    .filter(|f| !tests.contains(f))
                    .cloned()
                    .collect();
            }
            (
                intent.title.clone(),
                scenarios.iter().any(|s| s.priority == Priority::Critical),
                paths,
                Vec::new(),
                union(scenarios.iter().map(|s| s.assertions.clone())),
            )
        }
        Subject::FlowNode(_, node) => (
            node.name.clone(),
            node.criticality.as_deref() == Some("critical"),
            node_files(node),
            node.symbols.clone(),
            Vec::new(),
        ),
    };
    if paths.is_empty() && symbols.is_empty() {
        return Err(failure(
            Exit::DataErr,
            format!(
                "{} has no located evidence (no changed file or symbol), so no change could anchor a flow: write this flow by hand",
                subject.id()
            ),
        ));
    }
    Ok(Flow {
        name: prose(&title),
        criticality: if critical {
            Criticality::Critical
        } else {
            Criticality::Normal
        },
        paths: globs(&paths)?,
        symbols,
        expected: expected
            .iter()
            .map(|e| prose(e))
            .filter(|e| !e.trim().is_empty())
            .collect(),
        forbidden: Vec::new(),
    })
}

/// The files of a scenario's located evidence that are not its intent's tests: a flow is
/// anchored in the product it covers, since a test file several intents share would make
/// every one of them team policy (qa-intent anchors flows the same way).
fn product_evidence_files(stream: &Stream, scenario: &ScenarioData) -> Vec<String> {
    let tests = stream
        .intent(&scenario.intent)
        .map(test_files)
        .unwrap_or_default();
    evidence_files(scenario)
        .into_iter()
        .filter(|f| !tests.contains(&f))
        .collect()
}

/// The files holding the tests an intent's changed tests (its contracts) live in.
fn test_files(intent: &IntentData) -> Vec<&String> {
    intent.contracts.iter().map(|c| &c.file).collect()
}

/// The flow a graph flow node or an intent proposes for a starter manifest: anchored in
/// its files, with no expected outcome (a person writes those).
pub fn starter_flow(
    name: &str,
    critical: bool,
    files: &[String],
    symbols: &[String],
) -> anyhow::Result<Flow> {
    Ok(Flow {
        name: prose(name),
        criticality: if critical {
            Criticality::Critical
        } else {
            Criticality::Normal
        },
        paths: globs(files)?,
        symbols: symbols.to_vec(),
        expected: Vec::new(),
        forbidden: Vec::new(),
    })
}

/// The suppression that silences exactly this scenario: its whole title (qa-intent
/// matches a case-insensitive substring) and its evidence files.
pub fn suppression_of(scenario: &ScenarioData, reason: &str) -> anyhow::Result<Suppression> {
    if reason.trim().is_empty() {
        return Err(failure(
            Exit::Usage,
            "--reason must say why the scenario is not worth routing",
        ));
    }
    Ok(Suppression {
        // Verbatim, not neutralized: it must match the title qa-intent writes.
        scenario: scenario.title.clone(),
        paths: globs(&evidence_files(scenario))?,
        reason: reason.trim().to_string(),
    })
}

/// `name`, or `name (2)`, `name (3)`, ...: the first not taken by a flow of the manifest.
pub fn unique_name(name: &str, taken: &[Flow]) -> String {
    let base = if name.trim().is_empty() {
        "accepted flow".to_string()
    } else {
        name.trim().to_string()
    };
    let free = |candidate: &str| !taken.iter().any(|f| f.name == candidate);
    if free(&base) {
        return base;
    }
    (2..)
        .map(|n| format!("{base} ({n})"))
        .find(|candidate| free(candidate))
        .expect("an unbounded sequence of names has a free one")
}

/// The manifest lines of `flow`; `placeholder` adds a commented `expected` line for the
/// reviewer instead of inventing outcomes.
pub fn flow_lines(flow: &Flow, placeholder: bool) -> Vec<Line> {
    let mut lines = vec![
        Line::Text("name", flow.name.clone()),
        Line::Plain(
            "criticality",
            criticality_name(flow.criticality).to_string(),
        ),
    ];
    if !flow.paths.is_empty() {
        lines.push(Line::List(
            "paths",
            flow.paths.iter().map(|g| g.as_str().to_string()).collect(),
        ));
    }
    if !flow.symbols.is_empty() {
        lines.push(Line::List("symbols", flow.symbols.clone()));
    }
    if !flow.expected.is_empty() {
        lines.push(Line::List("expected", flow.expected.clone()));
    }
    if placeholder {
        lines.push(Line::Comment(
            "expected: [\"...\"]  # what a person must observe: write it, or delete this line"
                .into(),
        ));
    }
    lines
}

/// The manifest lines of `suppression`.
pub fn suppression_lines(suppression: &Suppression) -> Vec<Line> {
    let mut lines = vec![Line::Text("scenario", suppression.scenario.clone())];
    if !suppression.paths.is_empty() {
        lines.push(Line::List(
            "paths",
            suppression
                .paths
                .iter()
                .map(|g| g.as_str().to_string())
                .collect(),
        ));
    }
    lines.push(Line::Text("reason", suppression.reason.clone()));
    lines
}

fn criticality_name(c: Criticality) -> &'static str {
    match c {
        Criticality::Critical => "critical",
        Criticality::High => "high",
        Criticality::Normal => "normal",
        Criticality::Low => "low",
    }
}

/// Repository-relative files as exact-path globs; a path the glob syntax cannot state
/// exactly is refused rather than widened.
fn globs(paths: &[String]) -> anyhow::Result<Vec<Glob>> {
    paths
        .iter()
        .map(|p| {
            if p.contains(['*', '?']) {
                return Err(failure(
                    Exit::DataErr,
                    format!("the path {p:?} holds a glob character, so a manifest glob cannot name only it: write this entry by hand"),
                ));
            }
            Glob::new(p).map_err(|e| failure(Exit::DataErr, format!("the path {p:?} cannot be a manifest glob: {e}")))
        })
        .collect()
}

/// Text from the repository (titles, assertions) as a person will review it in the
/// manifest: instruction-like spans neutralized.
fn prose(text: &str) -> String {
    neutralize(text).0.into_owned()
}

/// Every item of `lists`, first occurrence kept, in order.
fn union(lists: impl Iterator<Item = Vec<String>>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in lists.flatten() {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// The repository files a flow node's evidence names.
pub fn node_files(node: &FlowNode) -> Vec<String> {
    union(
        node.evidence
            .iter()
            .filter(|e| e.manifest.is_none())
            .map(|e| e.file.iter().cloned().collect()),
    )
}
