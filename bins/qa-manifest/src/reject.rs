//! `reject ID --reason TEXT`: a suppression, so the next qa-intent run no longer writes the
//! scenario and the same false positive never returns.

use crate::accept::empty;
use crate::edit::Section;
use crate::manifest_file::ManifestFile;
use crate::proposal;
use crate::stream::{evidence_files, Stream};

/// What `reject` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejected {
    /// A suppression was appended.
    Added,
    /// A suppression of the manifest already silences this scenario (its reason).
    Already(String),
}

/// Appends a suppression of the scenario `id` (creating the manifest when there is none).
pub fn reject(
    file: &ManifestFile,
    stream: &Stream,
    id: &str,
    reason: &str,
) -> anyhow::Result<Rejected> {
    let (_, scenario) = stream.scenario(id)?;
    let suppression = proposal::suppression_of(scenario, reason)?;
    let editing = file.edit()?;
    let current = editing.read()?.unwrap_or_else(empty);
    let files = evidence_files(scenario);
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    if let Some(existing) = current.manifest.suppression_for(&scenario.title, &files) {
        return Ok(Rejected::Already(existing.reason.clone()));
    }
    let mut suppressions = current.manifest.suppressions.clone();
    suppressions.push(suppression);
    editing.append(
        &current,
        Section::Suppressions,
        &proposal::suppression_lines(&suppressions[suppressions.len() - 1]),
        (&current.manifest.flows, &suppressions),
    )?;
    Ok(Rejected::Added)
}
