//! qa-profile's flags, help text and man-page sections.

use clap::{CommandFactory, Parser};
use qa_cli::{after_help, Example};
use qa_records::Exit;
use std::path::PathBuf;

/// Validate a QA host profile and print its normalized form.
///
/// qa-profile reads a YAML host profile (YAML 1.2 core schema: `yes` is a string,
/// unquoted `1.60` is the number 1.6, duplicate keys are an error) and checks every rule
/// of the format: required sections, declared environment kinds, http(s) URLs, the
/// production rules (a restricted test account, local evidence, full capture, write
/// signatures), the deployed-build source, the Playwright floor, status names, context
/// sources and the write guard's JavaScript patterns.
///
/// The profile is read only as a regular file of at most 1 MiB (a symlink to one is
/// followed): a FIFO, a device or a larger file is refused before it is read. A pattern
/// whose repeated part repeats again (`(a+)+`, `(a|aa)*`) is a warning: a backtracking
/// matcher can take hours on a near-miss.
///
/// A valid profile is printed as 2-space-indented JSON in the file's key order, with each
/// environment's effective evidence_upload resolved and the clickup block dropped under
/// `tracker: none`; warnings go to stderr as `warning: PATH: MESSAGE`. An invalid one
/// prints `qa-profile: invalid profile: FILE` and every error as `  - PATH: MESSAGE`.
#[derive(Debug, Parser)]
#[command(name = "qa-profile", version)]
pub struct Args {
    /// The host profile to validate (YAML).
    #[arg(value_name = "PROFILE")]
    pub profile: PathBuf,

    /// Write one `profile` record (the normalized profile, the file's SHA-256 in `src`)
    /// instead of the JSON, to start or extend a pipeline.
    #[arg(long)]
    pub ndjson: bool,

    /// With --ndjson: forward the records of FILE (`-` for stdin) before the profile
    /// record. Without it, qa-profile never reads stdin.
    #[arg(long = "in", value_name = "FILE", requires = "ndjson")]
    pub input: Option<PathBuf>,
}

pub const EXAMPLES: &[Example] = &[
    Example {
        what: "Check a profile and see its normalized form",
        command: "qa-profile qa-pilot.config.yaml",
    },
    Example {
        what: "Only the errors and warnings",
        command: "qa-profile qa-pilot.config.yaml > /dev/null",
    },
    Example {
        what: "Carry the profile into the acceptance flow",
        command: "qa-profile qa-pilot.config.yaml --ndjson | qa-intent --plan plan.json --in - | qa-fetch",
    },
    Example {
        what: "Each environment's effective evidence upload",
        command: "qa-profile p.yaml | jq -r '.environments | to_entries[] | [.key, .value.evidence_upload] | @tsv'",
    },
];

pub const EXIT_STATUS: &[(Exit, &str)] = &[
    (
        Exit::Success,
        "the profile is valid (warnings may be printed)",
    ),
    (
        Exit::Fail,
        "the profile is invalid, missing, a directory, unreadable or not YAML",
    ),
    (Exit::Usage, "usage error (bad flags)"),
    (
        Exit::DataErr,
        "the profile is over 1 MiB, the --in stream is malformed, or a valid profile holds a fraction no record can carry",
    ),
    (
        Exit::NoInput,
        "the --in file does not exist, or the profile is a FIFO, device or socket",
    ),
    (Exit::Software, "internal error (a bug: please report it)"),
    (
        Exit::Interrupted,
        "SIGINT arrived (143 for SIGTERM), after writing what was finished",
    ),
];

/// The clap command, with examples and exit status after the options.
pub fn command() -> clap::Command {
    Args::command().after_help(after_help(EXAMPLES, EXIT_STATUS))
}
