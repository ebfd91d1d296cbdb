//! qa-check's flags, help text and man-page sections, and the settings they validate to.

use anyhow::Result;
use clap::{CommandFactory, Parser};
use qa_shared::cli::{after_help, Example, PipelineFlags};
use qa_shared::exit::failure;
use qa_shared::Exit;
use std::path::PathBuf;
use std::time::Duration;

use crate::secret::Secret;

/// The whole-plan timeout when --timeout is not given.
pub const DEFAULT_TIMEOUT_SECS: u64 = 30;
/// The largest whole-plan timeout --timeout accepts (5 minutes).
pub const MAX_TIMEOUT_SECS: u64 = 300;

/// Run the acceptance plan's checks and write one observation per check.
///
/// qa-check forwards every record it reads, then runs each `check.spec` in plan order and
/// writes one `observation` (status pass, fail, error, unverified or cancelled, with the
/// expected and observed values and bounded evidence) and one `event` (phase `check`, with
/// its duration) per check. Verdicts are qa-report's job: qa-check exits 0 whenever it
/// wrote its observations.
///
/// A file check reads the path from the captured target manifest under --repo, re-hashes
/// it (a change since capture is an error), decodes it as UTF-8 and looks for `contains`.
/// Nothing is ever executed. An excluded or uncaptured path is unverified.
///
/// An http check needs --allow-network: a GET of the target URL's origin plus the check's
/// path (same origin only), redirects rejected (a 3xx fails), no proxy from the
/// environment, at most 1 MiB of body read (4,096 characters kept as excerpt, the SHA-256
/// of what was read), `status` compared exactly and `contains` searched in the body.
/// One deadline (--timeout, default 30 s, at most 300) bounds the whole plan; a check
/// past it is unverified. --auth-env NAME sends `Authorization: Bearer $NAME`; the value
/// is redacted from every record, excerpt and message.
///
/// A check whose route is not runnable, that was never routed, whose target was not
/// captured, or whose kind has no checker here (mcp, browser) is unverified with the
/// reason, never a pass. SIGINT or SIGTERM marks the remaining checks cancelled, writes
/// them, and exits 130 or 143.
#[derive(Debug, Parser)]
#[command(name = "qa-check", version)]
pub struct Args {
    /// Read records from FILE instead of stdin (`-` is stdin).
    #[arg(long = "in", value_name = "FILE", default_value = "-")]
    pub input: PathBuf,

    /// The project root that file targets are relative to.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub repo: PathBuf,

    /// The permission flags every stage accepts: qa-check uses --allow-network,
    /// --timeout (whole plan, seconds) and --auth-env.
    #[command(flatten)]
    pub pipeline: PipelineFlags,
}

/// What the flags come to, checked before any record is read or request sent.
#[derive(Debug)]
pub struct Settings {
    pub repo: PathBuf,
    pub allow_network: bool,
    /// The whole-plan time budget.
    pub timeout: Duration,
    /// The bearer token named by --auth-env.
    pub token: Option<Secret>,
}

impl Args {
    /// Validates the flags: --timeout within 1..=300 and an --auth-env variable that is
    /// set (usage errors, 64), an existing --repo directory (66).
    pub fn settings(&self) -> Result<Settings> {
        let secs = self.pipeline.timeout.unwrap_or(DEFAULT_TIMEOUT_SECS);
        if secs == 0 || secs > MAX_TIMEOUT_SECS {
            return Err(failure(
                Exit::Usage,
                format!("--timeout {secs}: the whole-plan timeout must be 1 to {MAX_TIMEOUT_SECS} seconds"),
            ));
        }
        let token = match &self.pipeline.auth_env {
            Some(name) => Some(Secret::from_env(name)?),
            None => None,
        };
        if !self.repo.is_dir() {
            return Err(failure(
                Exit::NoInput,
                format!("--repo {}: not a directory", self.repo.display()),
            ));
        }
        Ok(Settings {
            repo: self.repo.clone(),
            allow_network: self.pipeline.allow_network,
            timeout: Duration::from_secs(secs),
            token,
        })
    }
}

pub const EXAMPLES: &[Example] = &[
    Example {
        what: "The whole acceptance flow, with network checks allowed",
        command: "qa-intent --plan .qa-acceptance.json | qa-fetch --allow-network | qa-route --allow-network | qa-check --allow-network | qa-fetch --verify --allow-network | qa-trace | qa-report",
    },
    Example {
        what: "File checks only, against a project elsewhere",
        command: "qa-intent --plan site/.qa-acceptance.json | qa-fetch --repo site | qa-route | qa-check --repo site",
    },
    Example {
        what: "An authenticated staging server, 60 seconds for the whole plan",
        command: "STAGING_TOKEN=... qa-check --allow-network --auth-env STAGING_TOKEN --timeout 60 --in routed.ndjson",
    },
    Example {
        what: "Each check's status and reason",
        command: "qa-check --in routed.ndjson | jq -r 'select(.kind==\"observation\") | [.data.check, .data.status, .data.reason] | @tsv'",
    },
];

pub const EXIT_STATUS: &[(Exit, &str)] = &[
    (
        Exit::Success,
        "observations written (whatever their status: verdicts are qa-report's job)",
    ),
    (
        Exit::Usage,
        "usage error (bad flags, --timeout over 300, --auth-env variable not set)",
    ),
    (Exit::DataErr, "malformed input records"),
    (
        Exit::NoInput,
        "the --in file or the --repo directory does not exist",
    ),
    (Exit::Software, "internal error (a bug: please report it)"),
    (
        Exit::Interrupted,
        "cancelled by SIGINT: finished and cancelled observations written",
    ),
    (
        Exit::Terminated,
        "cancelled by SIGTERM: finished and cancelled observations written",
    ),
];

/// The clap command, with examples and exit status after the options.
pub fn command() -> clap::Command {
    Args::command().after_help(after_help(EXAMPLES, EXIT_STATUS))
}
