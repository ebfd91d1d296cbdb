//! A saved change-flow stream: the intents, scenarios, routes, traces and graph flow nodes
//! a correction can name, and how an id (or a unique prefix of one) names them.

use std::collections::HashMap;
use std::io::{self, BufRead};

use qa_records::change::{IntentData, RouteData, ScenarioData, TraceData};
use qa_records::exit::{failure, Exit};
use qa_records::ndjson::{data_of, forward_each};
use qa_records::output::RecordWriter;
use qa_records::Kind;
use serde::Deserialize;

/// The shortest id prefix accepted: 48 bits, unique in any stream a person saves.
pub const MIN_PREFIX: usize = 12;

/// The records of a saved stream a correction can use, in stream order.
#[derive(Debug, Default)]
pub struct Stream {
    /// How messages name the stream (`stdin` or the path).
    pub source: String,
    pub intents: Vec<(String, IntentData)>,
    pub scenarios: Vec<(String, ScenarioData)>,
    /// Routes by subject (scenario id).
    pub routes: HashMap<String, (String, RouteData)>,
    /// Traces by subject (scenario id).
    pub traces: HashMap<String, TraceData>,
    /// `node` records of kind `flow` (the behaviour graph).
    pub flow_nodes: Vec<(String, FlowNode)>,
    /// Every other record id, so an id of the wrong kind is named as such.
    pub others: Vec<(String, String)>,
}

/// What this command reads of a graph `node` record of kind `flow`. The node payload
/// belongs to the graph; only these fields are read and all but `kind` are optional.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct FlowNode {
    #[serde(default)]
    pub name: String,
    /// Where the node was found: its evidence files anchor the flow.
    #[serde(default)]
    pub evidence: Vec<NodeEvidence>,
    #[serde(default)]
    pub symbols: Vec<String>,
    #[serde(default)]
    pub criticality: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct NodeEvidence {
    #[serde(default)]
    pub file: Option<String>,
    /// Set when the evidence is the manifest itself, which anchors nothing.
    #[serde(default)]
    pub manifest: Option<String>,
}

/// The record an id resolved to.
#[derive(Debug, Clone, Copy)]
pub enum Subject<'a> {
    Scenario(&'a str, &'a ScenarioData),
    Intent(&'a str, &'a IntentData),
    FlowNode(&'a str, &'a FlowNode),
}

impl Stream {
    /// Reads a whole stream; malformed lines stop with exit 65 naming the line.
    pub fn read(source: &str, input: impl BufRead) -> anyhow::Result<Stream> {
        let mut stream = Stream {
            source: source.to_string(),
            ..Stream::default()
        };
        // Nothing is forwarded: the shared reader only checks and numbers the lines.
        let mut sink = RecordWriter::new(io::sink());
        forward_each(source, input, &mut sink, |line, envelope| {
            match envelope.known_kind() {
                Some(Kind::Intent) => {
                    let data = data_of(source, line, &envelope)?;
                    stream.intents.push((envelope.id, data));
                }
                Some(Kind::Scenario) => {
                    let data = data_of(source, line, &envelope)?;
                    stream.scenarios.push((envelope.id, data));
                }
                Some(Kind::Route) => {
                    // Check routes (acceptance flow) have another shape: only scenario
                    // routes are read, and only when they parse as such.
                    if let Ok(route) = RouteData::deserialize(&envelope.data) {
                        stream
                            .routes
                            .insert(route.subject.clone(), (envelope.id, route));
                    }
                }
                Some(Kind::Trace) => {
                    let trace: TraceData = data_of(source, line, &envelope)?;
                    stream.traces.insert(trace.subject.clone(), trace);
                }
                _ if envelope.kind == "node" && envelope.data["kind"] == "flow" => {
                    let node = data_of(source, line, &envelope)?;
                    stream.flow_nodes.push((envelope.id, node));
                }
                _ => stream.others.push((envelope.id, envelope.kind)),
            }
            Ok(())
        })?;
        Ok(stream)
    }

    /// The scenario, intent or flow node `id` names: a whole id, or a unique prefix of at
    /// least [`MIN_PREFIX`] hex digits, with or without `sha256:`.
    pub fn resolve(&self, id: &str) -> anyhow::Result<Subject<'_>> {
        let hex = id
            .strip_prefix("sha256:")
            .unwrap_or(id)
            .to_ascii_lowercase();
        if hex.len() < MIN_PREFIX || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(failure(
                Exit::Usage,
                format!(
                    "{id:?} is not a record id or a prefix of at least {MIN_PREFIX} hex digits"
                ),
            ));
        }
        let wanted = format!("sha256:{hex}");
        let named = |record_id: &str| record_id.starts_with(&wanted);
        let mut found: Vec<Subject<'_>> = Vec::new();
        found.extend(
            self.scenarios
                .iter()
                .filter(|(i, _)| named(i))
                .map(|(i, d)| Subject::Scenario(i, d)),
        );
        found.extend(
            self.intents
                .iter()
                .filter(|(i, _)| named(i))
                .map(|(i, d)| Subject::Intent(i, d)),
        );
        found.extend(
            self.flow_nodes
                .iter()
                .filter(|(i, _)| named(i))
                .map(|(i, d)| Subject::FlowNode(i, d)),
        );
        // The same record saved twice (a stream concatenated with itself) is one subject.
        found.sort_by(|a, b| a.id().cmp(b.id()));
        found.dedup_by(|a, b| a.id() == b.id());
        match found.as_slice() {
            [one] => Ok(*one),
            [] => {
                let other = self.others.iter().find(|(i, _)| named(i));
                let message = match other {
                    Some((i, kind)) => {
                        format!("{i} is a `{kind}` record, not a scenario, intent or flow node")
                    }
                    None => format!(
                        "no scenario, intent or flow node in {} has the id {id}",
                        self.source
                    ),
                };
                Err(failure(Exit::DataErr, message))
            }
            many => Err(failure(
                Exit::DataErr,
                format!(
                    "{id} is ambiguous in {}: it starts {} record ids; give more digits",
                    self.source,
                    many.len()
                ),
            )),
        }
    }

    /// The scenario `id` names; any other kind of record is refused.
    pub fn scenario(&self, id: &str) -> anyhow::Result<(&str, &ScenarioData)> {
        match self.resolve(id)? {
            Subject::Scenario(i, d) => Ok((i, d)),
            other => Err(failure(
                Exit::DataErr,
                format!("{} is {}, not a scenario", other.id(), other.kind_name()),
            )),
        }
    }

    /// The intent record with this exact id.
    pub fn intent(&self, id: &str) -> Option<&IntentData> {
        self.intents.iter().find(|(i, _)| i == id).map(|(_, d)| d)
    }

    /// The scenarios of an intent, in stream order.
    pub fn scenarios_of<'a>(
        &'a self,
        intent_id: &'a str,
    ) -> impl Iterator<Item = &'a ScenarioData> {
        self.scenarios
            .iter()
            .filter(move |(_, s)| s.intent == intent_id)
            .map(|(_, s)| s)
    }
}

impl Subject<'_> {
    pub fn id(&self) -> &str {
        match self {
            Subject::Scenario(i, _) | Subject::Intent(i, _) | Subject::FlowNode(i, _) => i,
        }
    }

    fn kind_name(&self) -> &'static str {
        match self {
            Subject::Scenario(..) => "a scenario",
            Subject::Intent(..) => "an intent",
            Subject::FlowNode(..) => "a flow node",
        }
    }
}

/// The repository-relative files of located evidence (line > 0: a commit's wording is not
/// a file), in first-seen order.
pub fn evidence_files(scenario: &ScenarioData) -> Vec<String> {
    let mut files: Vec<String> = Vec::new();
    for e in scenario.evidence.iter().filter(|e| e.line > 0) {
        if !files.contains(&e.file) {
            files.push(e.file.clone());
        }
    }
    files
}
