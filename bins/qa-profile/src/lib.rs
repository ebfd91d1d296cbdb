//! qa-profile: validates a QA host profile (YAML) against the format's rules and writes its
//! normalized form, as JSON or as one `profile` record that later stages read instead of
//! reparsing YAML.

pub mod backtracking;
pub mod cli;
pub mod findings;
pub mod jsregex;
pub mod jsvalue;
pub mod normalize;
pub mod rules;
pub mod vocab;
pub mod yaml;

use std::io::Write;
use std::path::Path;

use anyhow::Context as _;
use qa_records::envelope::Src;
use qa_records::exit::{failure, Exit};
use qa_records::hash::sha256_hex;
use qa_records::output::RecordWriter;
use qa_records::{Kind, Record};
use serde_json::Value;

pub use findings::{Finding, Findings};

/// The producer named in every record's `by`.
pub const BY: &str = concat!("qa-profile/", env!("CARGO_PKG_VERSION"));

/// The `src` key holding the SHA-256 of the profile file's bytes.
pub const SRC_KEY: &str = "profile.sha256";

/// A profile checked: what was found and, when it is valid, its normalized form.
#[derive(Debug, Clone)]
pub struct Checked {
    pub findings: Findings,
    pub normalized: Option<Value>,
}

/// Validates a parsed profile. `profile_dir` is the profile file's folder (for paths on
/// disk); None skips those checks.
pub fn check(profile: &Value, profile_dir: Option<&Path>) -> Checked {
    let findings = rules::check(profile, profile_dir);
    let normalized = findings.is_valid().then(|| normalize::normalize(profile));
    Checked {
        findings,
        normalized,
    }
}

/// Reads and validates the profile at `path`. A file that cannot be read or parsed is an
/// error (exit 1); an invalid profile is a [`Checked`] without a normalized form.
pub fn check_file(path: &Path) -> anyhow::Result<(yaml::Loaded, Checked)> {
    let loaded = yaml::load(path)?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let checked = check(&loaded.value, Some(dir));
    Ok((loaded, checked))
}

/// The `profile` record for a valid profile: its normalized form, resting on the file's
/// bytes.
pub fn record(bytes: &[u8], normalized: &Value) -> anyhow::Result<Record> {
    let src = Src::from([(SRC_KEY.to_string(), sha256_hex(bytes))]);
    Record::new(Kind::Profile, BY, vec![], src, normalized).map_err(|e| {
        // Hashed data carries no floats (docs/DESIGN.md): say where, and how to keep it.
        failure(
            Exit::DataErr,
            format!("{e:#}: a record cannot carry it; quote the value in the profile"),
        )
    })
}

/// Writes the outcome: the normalized JSON (or record) on stdout and warnings on stderr
/// when valid; the header and every error on stderr when not.
pub fn report(
    path: &Path,
    checked: &Checked,
    stdout: &mut impl Write,
    stderr: &mut impl Write,
) -> anyhow::Result<Exit> {
    let Some(normalized) = &checked.normalized else {
        writeln!(stderr, "qa-profile: invalid profile: {}", path.display())?;
        for error in &checked.findings.errors {
            writeln!(stderr, "  - {error}")?;
        }
        return Ok(Exit::Fail);
    };
    for warning in &checked.findings.warnings {
        writeln!(stderr, "warning: {warning}")?;
    }
    serde_json::to_writer_pretty(&mut *stdout, normalized).context("writing the profile")?;
    writeln!(stdout).context("writing the profile")?;
    Ok(Exit::Success)
}

/// `--ndjson`: forwards `input` (a stream started upstream) then writes the profile
/// record; warnings still go to stderr. An invalid profile writes no records.
pub fn report_ndjson<W: Write>(
    path: &Path,
    loaded: &yaml::Loaded,
    checked: &Checked,
    input: Option<(String, Box<dyn std::io::BufRead>)>,
    out: &mut RecordWriter<W>,
    stderr: &mut impl Write,
) -> anyhow::Result<Exit> {
    let Some(normalized) = &checked.normalized else {
        return report(path, checked, &mut std::io::sink(), stderr);
    };
    let record = record(&loaded.bytes, normalized)?;
    for warning in &checked.findings.warnings {
        writeln!(stderr, "warning: {warning}")?;
    }
    if let Some((source, reader)) = input {
        qa_records::ndjson::forward(&source, reader, out)?;
    }
    out.write(&record)?;
    Ok(Exit::Success)
}
