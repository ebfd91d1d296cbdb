//! `accept ID`: a scenario, an intent or a graph flow node becomes a manifest flow, so the
//! next qa-intent run makes that work `team-policy` and its scenarios `golden`.

use crate::edit::Section;
use crate::manifest_file::{Current, ManifestFile};
use crate::proposal;
use crate::stream::Stream;

/// What `accept` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Accepted {
    /// A new flow with this name was appended.
    Added(String),
    /// A flow of the manifest already anchors the same files and symbols: nothing changed.
    Already(String),
}

/// Appends the flow `id` proposes to the manifest (creating the file when there is none).
pub fn accept(file: &ManifestFile, stream: &Stream, id: &str) -> anyhow::Result<Accepted> {
    let subject = stream.resolve(id)?;
    let mut flow = proposal::flow_of(stream, subject)?;
    // Under the lock, the manifest as it is now: another writer may just have changed it.
    let editing = file.edit()?;
    let current = editing.read()?.unwrap_or_else(empty);
    let paths: Vec<&str> = flow.paths.iter().map(|g| g.as_str()).collect();
    let symbols: Vec<&str> = flow.symbols.iter().map(String::as_str).collect();
    // qa-intent takes the first flow a change anchors: another one would change nothing.
    if let Some(existing) = current.manifest.flow_for(&paths, &symbols) {
        return Ok(Accepted::Already(existing.name.clone()));
    }
    flow.name = proposal::unique_name(&flow.name, &current.manifest.flows);
    let mut flows = current.manifest.flows.clone();
    flows.push(flow.clone());
    editing.append(
        &current,
        Section::Flows,
        &proposal::flow_lines(&flow, false),
        (&flows, &current.manifest.suppressions),
    )?;
    Ok(Accepted::Added(flow.name))
}

/// The manifest a first correction starts from when the repository has none.
pub fn empty() -> Current {
    Current {
        text: "version: 1\n".to_string(),
        manifest: qa_team_manifest::parse(b"version: 1\n", "(new manifest)")
            .expect("`version: 1` is a valid manifest"),
    }
}
