//! `init`: a starter `.qa/manifest.yaml` from a saved stream, one flow per graph flow node
//! (else per intent), for a person to review before it is committed.

use crate::edit::{self, Section};
use crate::manifest_file::{exists, ManifestFile};
use crate::proposal;
use crate::stream::Stream;

const HEADER: &str = "\
# .qa/manifest.yaml: the team's reviewed QA policy (schema/manifest.schema.json).
# Written by `qa-manifest init` from a saved run. REVIEW IT BEFORE COMMITTING: keep only
# the flows the team protects, set each criticality, and write the expected outcomes.
# qa-intent treats every flow here as team policy and its scenarios as golden.
version: 1
";

/// Writes the starter manifest; refuses (exit 64) when one exists. Returns the number of
/// flows written.
pub fn init(file: &ManifestFile, stream: &Stream) -> anyhow::Result<usize> {
    let editing = file.edit()?;
    if editing.exists() {
        return Err(exists(&file.path));
    }
    let text = starter(stream)?;
    let mut flows = 0;
    editing.write(&text, true, |written| {
        flows = written.flows.len();
        Ok(())
    })?;
    Ok(flows)
}

/// The starter text: the header, `version: 1`, and one flow per flow node, else per
/// behaviour intent, never with invented expected outcomes.
pub fn starter(stream: &Stream) -> anyhow::Result<String> {
    let mut flows = Vec::new();
    if stream.flow_nodes.is_empty() {
        for (id, intent) in stream.intents.iter().filter(|(_, i)| !i.cleanup) {
            let critical = stream
                .scenarios_of(id)
                .any(|s| s.priority == qa_records::change::Priority::Critical);
            if !intent.files.is_empty() {
                flows.push(proposal::starter_flow(
                    &intent.title,
                    critical,
                    &intent.files,
                    &[],
                )?);
            }
        }
    } else {
        for (_, node) in &stream.flow_nodes {
            let files = proposal::node_files(node);
            if !files.is_empty() || !node.symbols.is_empty() {
                let critical = node.criticality.as_deref() == Some("critical");
                flows.push(proposal::starter_flow(
                    &node.name,
                    critical,
                    &files,
                    &node.symbols,
                )?);
            }
        }
    }
    let mut text = HEADER.to_string();
    if flows.is_empty() {
        text.push_str("flows: []\nsuppressions: []\n");
        return Ok(text);
    }
    let mut named: Vec<qa_team_manifest::Flow> = Vec::new();
    for mut flow in flows {
        flow.name = proposal::unique_name(&flow.name, &named);
        text = edit::append(&text, Section::Flows, &proposal::flow_lines(&flow, true))?;
        named.push(flow);
    }
    text.push_str("suppressions: []\n");
    Ok(text)
}
