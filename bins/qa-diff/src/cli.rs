//! qa-diff's flags, help text and man-page sections.

use clap::{CommandFactory, Parser};
use qa_cli::{after_help, Example};
use qa_records::Exit;
use std::path::PathBuf;

/// Describe a git commit range as verifiable NDJSON records.
///
/// qa-diff resolves the base of the change (explicit --base, pull-request CI variables,
/// git config, else the nearest long-lived branch, else the root commit), then writes one
/// `range` record saying which source chose the base and why, one `commit` record per
/// commit in base..head, and one `file` record per path changed between the merge base and
/// head (or the working tree), with status, rename source, blob ids, SHA-256, hunks with
/// base and head line numbers, and the file's source role. It reads the repository through
/// libgit2 and never writes to it. Nested repositories are never entered.
///
/// Base sources, in order: --base; QA_BASE_REF, GITHUB_BASE_REF,
/// CI_MERGE_REQUEST_TARGET_BRANCH_NAME, BITBUCKET_PR_DESTINATION_BRANCH,
/// BUILDKITE_PULL_REQUEST_BASE_BRANCH, CHANGE_TARGET, SYSTEM_PULLREQUEST_TARGETBRANCH (a
/// value that does not resolve is skipped with a `diag` record); git config
/// branch.<current>.qa-base, then qa.base; the nearest of each remote's HEAD, develop,
/// development, dev, main, master and trunk (local and remote) by commit distance; the
/// root commit.
#[derive(Debug, Parser)]
#[command(name = "qa-diff", version)]
pub struct Args {
    /// The repository to read (a path inside it is enough).
    #[arg(long, value_name = "PATH", default_value = ".")]
    pub repo: PathBuf,

    /// The base of the change: a branch, tag or commit. Default: resolved (see above).
    #[arg(long, value_name = "REF")]
    pub base: Option<String>,

    /// The head of the change.
    #[arg(long, value_name = "REF", default_value = "HEAD")]
    pub head: String,

    /// Diff the merge base against the working tree (staged, unstaged and untracked, not
    /// ignored files), and add the current delta (HEAD against the working tree).
    #[arg(long, conflicts_with = "head")]
    pub worktree: bool,

    /// Forward the records of FILE (`-` for stdin) before qa-diff's own, so a stream
    /// started upstream carries on. Without it, qa-diff never reads stdin.
    #[arg(long = "in", value_name = "FILE")]
    pub input: Option<PathBuf>,

    /// Keep at most N hunks per file; past it the file is marked `truncated`.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_hunks: usize,

    /// Keep at most N bytes of changed-line text per file; past it the file is marked
    /// `truncated`. Added and removed counts always cover the whole file.
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 20)]
    pub max_bytes: usize,
}

pub const EXAMPLES: &[Example] = &[
    Example {
        what: "The current branch against its resolved base, checked end to end",
        command: "qa-diff | qa-report --verify",
    },
    Example {
        what: "An explicit range in another repository",
        command: "qa-diff --repo ../service --base origin/main --head feature/login",
    },
    Example {
        what: "Work in progress: committed, staged, unstaged and untracked changes",
        command: "qa-diff --worktree > change.ndjson",
    },
    Example {
        what: "Per-file added/removed counts with jq",
        command: "qa-diff | jq -r 'select(.kind==\"file\") | [.data.added, .data.removed, .data.path] | @tsv'",
    },
];

pub const EXIT_STATUS: &[(Exit, &str)] = &[
    (
        Exit::Success,
        "the range was written (also when stdout closed early)",
    ),
    (Exit::Usage, "usage error (bad flags)"),
    (
        Exit::DataErr,
        "the repository cannot be diffed as asked (no merge base)",
    ),
    (
        Exit::NoInput,
        "the repository, a ref or the --in file does not exist (the message names the ref and its source)",
    ),
    (Exit::Software, "internal error (a bug: please report it)"),
];

/// The clap command, with examples and exit status after the options.
pub fn command() -> clap::Command {
    Args::command().after_help(after_help(EXAMPLES, EXIT_STATUS))
}
