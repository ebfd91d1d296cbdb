//! The JSON report: one pretty-printed object (two-space indent) with the range, the
//! intents with their scenarios and each scenario's route, trace, drafts and executions
//! nested under it, capabilities, diagnostics and the neutralization count.

use crate::model::Report;
use serde::Serialize;

/// Names this document's shape, so a reader can tell versions apart.
pub const FORMAT: &str = "qapipe.change-report/v1";

#[derive(Serialize)]
struct Document<'a> {
    format: &'static str,
    /// `complete`, `incomplete` (stages left no records), `cancelled` (a signal cut the
    /// stream; `cancelled` names it) or `empty-range` (HEAD is its base or behind it;
    /// `empty_range` says which).
    status: &'static str,
    #[serde(flatten)]
    report: &'a Report,
}

/// The report as one JSON object, ending with a newline.
pub fn render(report: &Report) -> String {
    let mut s = serde_json::to_string_pretty(&Document {
        format: FORMAT,
        status: status(report),
        report,
    })
    .expect("a report holds only strings, integers and enums");
    s.push('\n');
    s
}

/// [`render`], written to `out` as it is serialized.
pub fn write(report: &Report, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    serde_json::to_writer_pretty(
        &mut *out,
        &Document {
            format: FORMAT,
            status: status(report),
            report,
        },
    )?;
    out.write_all(b"\n")
}

/// How far the report's flow got.
pub fn status(report: &Report) -> &'static str {
    if report.cancelled.is_some() {
        "cancelled"
    } else if !report.missing_stages.is_empty() {
        "incomplete"
    } else if report.empty_range.is_some() {
        "empty-range"
    } else {
        "complete"
    }
}
