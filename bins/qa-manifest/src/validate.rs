//! `validate`: the manifest checked by qa-intent's parser, summarized in one line.

use crate::manifest_file::ManifestFile;

/// One line for a valid manifest; an invalid or missing one is an error (exit 65 / 66)
/// carrying the parser's one-line message.
pub fn validate(file: &ManifestFile) -> anyhow::Result<String> {
    let current = file.read_existing()?;
    Ok(format!(
        "manifest {}: valid ({} flows, {} suppressions)",
        file.name(),
        current.manifest.flows.len(),
        current.manifest.suppressions.len()
    ))
}
