//! qa-intent's flags, help text and man-page sections.

use clap::{CommandFactory, Parser};
use qa_shared::cli::{after_help, Example};
use qa_shared::Exit;
use std::path::PathBuf;

/// Derive change intents and QA scenarios from a qa-diff stream.
///
/// qa-intent forwards every record it reads, then adds one `intent` record per
/// behaviour-bearing change, each followed by its `scenario` records. Commits join into
/// one intent only on a shared ticket or a shared product, command or analysis-rule file,
/// re-split around one anchor commit; docs, style, ci, test, build, chore and release
/// commits never become product intents; cleanup-shaped commits stay in provenance with
/// no scenarios. Without usable commit text (`wip`, the working tree) files are grouped by
/// specific path and symbol vocabulary, at low confidence. Scenarios (primary, failure,
/// boundary, state-transition) carry located evidence (`file:line`) and an explicit proof
/// gap when no changed line shows an observable outcome. A reviewed `.qa/manifest.yaml`
/// turns matching flows into team policy and suppresses known false positives.
///
/// Nothing is executed and nothing is written but stdout.
#[derive(Debug, Parser)]
#[command(name = "qa-intent", version)]
pub struct Args {
    /// Read records from FILE instead of stdin (`-` is stdin).
    #[arg(long = "in", value_name = "FILE", default_value = "-")]
    pub input: PathBuf,

    /// The repository whose `.qa/manifest.yaml` holds team policy.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub repo: PathBuf,

    /// Read team policy from FILE instead of DIR/.qa/manifest.yaml (which is optional).
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,

    /// The permission flags every stage accepts; this stage needs none of them.
    #[command(flatten)]
    pub pipeline: qa_shared::cli::PipelineFlags,
}

pub const EXAMPLES: &[Example] = &[
    Example {
        what: "Intents and scenarios of the current branch",
        command: "qa-diff | qa-intent",
    },
    Example {
        what: "Only the scenarios, as JSON data",
        command: "qa-diff | qa-intent | jq -c 'select(.kind == \"scenario\") | .data'",
    },
    Example {
        what: "Another repository, with its team manifest",
        command: "qa-diff --repo ../shop | qa-intent --repo ../shop",
    },
];

pub const EXIT_STATUS: &[(Exit, &str)] = &[
    (Exit::Success, "records written"),
    (Exit::Usage, "usage error (bad flags)"),
    (
        Exit::DataErr,
        "malformed input records or an invalid manifest",
    ),
    (Exit::NoInput, "the --in or --manifest file does not exist"),
    (Exit::Software, "internal error (a bug: please report it)"),
];

/// The clap command, with examples and exit status after the options.
pub fn command() -> clap::Command {
    Args::command().after_help(after_help(EXAMPLES, EXIT_STATUS))
}
