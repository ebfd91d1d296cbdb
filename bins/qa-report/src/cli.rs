//! qa-report's flags, help text and man-page sections.

use clap::{CommandFactory, Parser};
use qa_shared::cli::{after_help, Example};
use qa_shared::Exit;
use std::path::PathBuf;

/// Verify a qapipe NDJSON stream: envelopes, ids and the provenance chain.
///
/// With --verify, qa-report reads every record, checks its envelope (kind, v, id, by,
/// from, src, data), recomputes its id from the canonical JSON of {kind, v, from, src,
/// data}, and checks that every id named in `from` appeared earlier in the stream. It
/// prints a one-line summary on stderr (records per kind, problems) and writes nothing
/// on stdout.
#[derive(Debug, Parser)]
#[command(name = "qa-report", version)]
pub struct Args {
    /// Check every record's envelope, id and provenance chain.
    #[arg(long)]
    pub verify: bool,

    /// Read records from FILE instead of stdin (`-` is stdin).
    #[arg(long = "in", value_name = "FILE", default_value = "-")]
    pub input: PathBuf,

    /// How many problems to list before only counting them.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub max_problems: usize,
}

pub const EXAMPLES: &[Example] = &[
    Example {
        what: "Verify what qa-diff emits for the current branch",
        command: "qa-diff | qa-report --verify",
    },
    Example {
        what: "Verify a saved stream",
        command: "qa-report --verify --in run.ndjson",
    },
];

pub const EXIT_STATUS: &[(Exit, &str)] = &[
    (Exit::Success, "the stream verified cleanly"),
    (Exit::Usage, "usage error (bad flags, or no job given)"),
    (
        Exit::DataErr,
        "the stream has problems: malformed lines, wrong ids, broken `from` chains",
    ),
    (Exit::NoInput, "the --in file does not exist"),
    (Exit::Software, "internal error (a bug: please report it)"),
];

/// The clap command, with examples and exit status after the options.
pub fn command() -> clap::Command {
    Args::command().after_help(after_help(EXAMPLES, EXIT_STATUS))
}
