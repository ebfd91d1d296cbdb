//! qa-report: the last stage of every flow. It verifies a stream's envelopes, ids and
//! provenance chain (`--verify`), and renders the change flow as a report in text,
//! markdown, JSON, SARIF, GitHub workflow commands or one agent line, with the report
//! files under `--out`; an acceptance stream becomes a verdict and an acceptance report.

pub mod acceptance;
pub mod change;
pub mod cli;
pub mod document;
pub mod escape;
pub mod flow;
pub mod forge;
pub mod html;
pub mod layers;
pub mod markdown;
pub mod merge;
pub mod model;
pub mod out;
pub mod phrase;
pub mod plain;
pub mod reading;
pub mod render;
pub mod text;
pub mod verify;

/// The `by` value of every record this stage writes (`verdict`, its own `event`s).
pub const BY: &str = concat!("qa-report/", env!("CARGO_PKG_VERSION"));

/// The error a run stopped by `signal` while reading `source` ends with: no report.
pub fn verdict_of_signal(signal: qa_records::Exit, source: &str) -> anyhow::Error {
    qa_records::exit::failure(
        signal,
        format!(
            "{} received while reading {source}: stopped, no report written",
            acceptance::verdict::signal_name(signal)
        ),
    )
}
