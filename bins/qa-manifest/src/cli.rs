//! qa-manifest's commands, flags, help text and man-page sections.

use clap::{CommandFactory, Parser, Subcommand};
use qa_cli::{after_help, Example};
use qa_records::Exit;
use std::path::PathBuf;

/// Turn a reviewer's correction into team policy in `.qa/manifest.yaml`.
///
/// qa-manifest reads a saved change-flow stream (`qa-diff | qa-intent | qa-route |
/// qa-trace > run.ndjson`) and edits only the manifest: it appends to the `flows:` or
/// `suppressions:` block, keeping every existing comment, key order and byte of the rest of
/// the file, and replaces the file only after qa-intent's own parser accepts the result.
///
/// Commands: `init` writes a starter manifest (one flow per graph flow node, else per
/// intent; expected outcomes left as commented placeholders) for a person to review before
/// committing it, and never overwrites one. `accept ID` makes a scenario, an intent (its
/// scenarios as one flow) or a graph flow node a manifest flow: the next qa-intent run
/// marks that work `team-policy` and its scenarios `golden`. The flow is anchored in the
/// product files of the evidence, never in a test file, which other work may share.
/// `reject ID --reason TEXT`
/// adds a suppression, so the next run no longer writes that scenario. `explain ID` prints
/// why a scenario exists: its trace, evidence, authority, proof gap and route. `validate`
/// checks the manifest.
///
/// The manifest is read as qa-intent reads it: a regular file of at most 1 MiB, never a
/// symlink (a repository could point it anywhere), a FIFO or a device. Writers take turns:
/// init, accept and reject lock the manifest's directory, read the file again under the
/// lock and replace it by rename, so corrections made at once all land; a writer waits up
/// to 10 s for another one's lock, then gives up (exit 69) without changing anything.
/// validate only reads, and never waits.
///
/// An ID is a record id (`sha256:...`) or a unique prefix of at least 12 hex digits. An id
/// the stream does not hold, or holds more than once, is refused and the manifest left
/// untouched. init, accept, reject and explain read the stream from `--in FILE`, or from
/// stdin (`--in -`, the default) when it is not a terminal.
#[derive(Debug, Parser)]
#[command(name = "qa-manifest", version)]
pub struct Args {
    /// The repository whose `.qa/manifest.yaml` is read and edited.
    #[arg(long, value_name = "DIR", default_value = ".", global = true)]
    pub repo: PathBuf,

    /// Use FILE instead of DIR/.qa/manifest.yaml.
    #[arg(long, value_name = "FILE", global = true)]
    pub manifest: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write a starter manifest from a saved stream, for review before commit.
    Init {
        #[command(flatten)]
        stream: StreamArg,
    },
    /// Make a scenario, intent or graph flow node a manifest flow (team policy).
    Accept {
        /// A scenario, intent or flow-node record id, or a unique prefix (12+ hex digits).
        #[arg(value_name = "ID")]
        id: String,
        #[command(flatten)]
        stream: StreamArg,
    },
    /// Suppress a scenario, so the next run no longer writes it.
    Reject {
        /// A scenario record id, or a unique prefix (12+ hex digits).
        #[arg(value_name = "ID")]
        id: String,
        /// Why the scenario is not worth routing (kept in the manifest).
        #[arg(long, value_name = "TEXT")]
        reason: String,
        #[command(flatten)]
        stream: StreamArg,
    },
    /// Print why a scenario exists: trace, evidence, authority, proof gap, route.
    Explain {
        /// A scenario record id, or a unique prefix (12+ hex digits).
        #[arg(value_name = "ID")]
        id: String,
        #[command(flatten)]
        stream: StreamArg,
    },
    /// Check the manifest with qa-intent's parser.
    Validate,
}

/// Where the saved stream comes from.
#[derive(Debug, Clone, clap::Args)]
pub struct StreamArg {
    /// The saved stream (`-` for stdin, the default; never read from a terminal).
    #[arg(long = "in", value_name = "FILE", default_value = "-")]
    pub input: PathBuf,
}

pub const EXAMPLES: &[Example] = &[
    Example {
        what: "Save a run, then see why a scenario exists",
        command: "qa-diff | qa-intent | qa-route | qa-trace > run.ndjson && qa-manifest explain sha256:370e419bf84f --in run.ndjson",
    },
    Example {
        what: "Make a scenario team policy (golden from the next run on)",
        command: "qa-manifest accept sha256:370e419bf84f < run.ndjson",
    },
    Example {
        what: "Silence a false positive for good",
        command: "qa-manifest reject 60e39a48659f --reason \"avatar markup is cosmetic\" --in run.ndjson",
    },
    Example {
        what: "A starter manifest for a person to review",
        command: "qa-manifest init --in run.ndjson && ${EDITOR:-vi} .qa/manifest.yaml",
    },
    Example {
        what: "Check the manifest in CI",
        command: "qa-manifest validate --repo .",
    },
];

pub const EXIT_STATUS: &[(Exit, &str)] = &[
    (
        Exit::Success,
        "done: the manifest was edited, written or is valid, or the correction was already there",
    ),
    (
        Exit::Usage,
        "usage error: bad flags, an id prefix under 12 hex digits, no stream given on a terminal, or init over an existing manifest",
    ),
    (
        Exit::DataErr,
        "an invalid manifest (the parser's one-line error, naming the key path), a manifest that is a symlink or over 1 MiB, a malformed stream, an id the stream does not hold or holds more than once, or an edit that would not parse (the file is untouched)",
    ),
    (
        Exit::NoInput,
        "the --in file, or the manifest for validate, does not exist, or the manifest is a FIFO, device or directory",
    ),
    (
        Exit::Unavailable,
        "another qa-manifest held the manifest's lock for 10 s: nothing was changed, try again",
    ),
    (Exit::Software, "internal error (a bug: please report it)"),
    (
        Exit::Interrupted,
        "SIGINT while waiting for the lock: nothing was changed (143 for SIGTERM)",
    ),
];

/// The clap command, with examples and exit status after the options.
pub fn command() -> clap::Command {
    Args::command().after_help(after_help(EXAMPLES, EXIT_STATUS))
}
