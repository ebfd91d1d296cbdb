//! The report formats, and the one entry that renders a report in any of them.

use crate::change::{agent, codequality, github, json, sarif};
use crate::forge::Forge;
use crate::layers::Diagnostics;
use crate::model::Report;
use crate::{html, markdown, text};
use anyhow::Context as _;
use std::io::Write;
use std::path::Path;

/// What qa-report writes on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The terminal report: what changed and what to test, what to run, what a person
    /// must check.
    Text,
    /// The same for a pull-request comment.
    Markdown,
    /// One pretty-printed JSON object with everything nested by id.
    Json,
    /// SARIF 2.1.0 for code scanning.
    Sarif,
    /// GitHub workflow commands (annotations).
    Github,
    /// GitLab Code Quality (Code Climate JSON) for merge requests.
    Codequality,
    /// One JSON line of at most 4,096 bytes for an agent.
    Agent,
}

/// `report` in `format`, its human formats listing the `shown` diagnostics.
/// `full_report` is the report.json written under --out, for the agent line to point at.
pub fn render(
    report: &Report,
    format: Format,
    shown: Diagnostics,
    full_report: Option<&Path>,
) -> String {
    match format {
        Format::Text => text::render(report, shown),
        Format::Markdown => markdown::render(report, shown),
        Format::Json => json::render(report),
        Format::Sarif => sarif::render(report),
        Format::Github => github::render(report),
        Format::Codequality => codequality::render(report),
        Format::Agent => agent::render(report, full_report),
    }
}

/// The file names written under --out besides records.ndjson, SHA256SUMS and report.html.
pub const REPORT_JSON: &str = "report.json";
pub const REPORT_MD: &str = "report.md";
pub const REPORT_SARIF: &str = "report.sarif";

/// Writes `report` in `format` to `out`; with `saved` (the stream saved for --out),
/// first puts the report folder in place, whose report.json the agent line names.
pub fn change_report(
    report: &Report,
    format: Format,
    shown: Diagnostics,
    saved: Option<crate::out::Saved>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let full_report = saved.as_ref().map(|s| s.dir.join(REPORT_JSON));
    if let Some(saved) = saved {
        saved.keep(
            None,
            &[
                (REPORT_JSON, &|w| json::write(report, w)),
                (REPORT_MD, &|w| {
                    w.write_all(markdown::render(report, shown).as_bytes())
                }),
                (REPORT_SARIF, &|w| {
                    w.write_all(sarif::render(report).as_bytes())
                }),
                (html::REPORT_HTML, &|w| {
                    let forge = Forge::from_process();
                    w.write_all(html::render(report, forge.as_ref(), shown).as_bytes())
                }),
            ],
            &[],
        )?;
    }
    let written = match format {
        // The largest format goes out as it is serialized.
        Format::Json => json::write(report, out),
        _ => out.write_all(render(report, format, shown, full_report.as_deref()).as_bytes()),
    };
    written
        .and_then(|()| out.flush())
        .context("writing the report to stdout")
}
