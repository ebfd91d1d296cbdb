//! qa-fetch's flags, help text and man-page sections.

use clap::{CommandFactory, Parser};
use qa_cli::{after_help, Example};
use qa_records::Exit;
use std::path::PathBuf;

/// Capture acceptance targets, and verify them again after the checks.
///
/// qa-fetch forwards every record it reads as it arrives. For each `target.spec` it writes
/// one `target` record with the target's captured identity, and an `event` record with
/// the time it took. A file or directory target (a path under --repo) is identified by a content
/// manifest: every file's path, size and SHA-256, and the SHA-256 of the canonical JSON
/// of that list. `.git`, `.qa`, `node_modules`, `vendor`, `.env*` and private-key files
/// (`*.pem`, `*.key`, `*.p12`, `*.pfx`, `id_rsa*`, `id_dsa*`, `id_ecdsa*`, `id_ed25519*`,
/// `*.keystore`, `*.jks`) are left out and listed as excluded. Symlinks and special files
/// (FIFOs, sockets, devices) are never followed or opened: the capture fails, naming the
/// path. Limits: 4 MiB per file, 32 MiB in all, 10,000 files and 10,000 directories; a
/// target over one fails, naming the limit and the path.
///
/// A URL target is fetched only with --allow-network (else it is `blocked`): one GET, no
/// proxy, redirects rejected, a 1 MiB body limit, the --timeout; recorded are the status,
/// the body's SHA-256, ETag and X-Build-Id. With --auth-env NAME the request carries
/// `Authorization: Bearer $NAME` (a value starting or ending with a space is refused: a
/// server would read it trimmed); the token never appears in a record or message, as sent,
/// trimmed or percent-encoded. The
/// plan's buildId is copied as the operator's label, never attested. A URL target that an
/// mcp check of the stream talks to as its endpoint is never fetched (Streamable HTTP
/// reserves GET there for an event stream): its origin's `/` identifies it instead, so URL
/// targets are captured once the input ends. An event-stream response is recorded by its
/// status and headers, its body never read.
///
/// With --verify, qa-fetch instead waits for the end of its input, then captures every
/// `target` again, hashes the plan file (its recorded path, from the current directory)
/// and every criterion's source file (under --repo), and writes one `target.verify`
/// record for each: `same: false` when anything changed, which makes the run stale.
///
/// SIGINT or SIGTERM abandons a request or regex match in flight at once; every target
/// not captured yet is written with status `cancelled`, then a cancel event.
#[derive(Debug, Parser)]
#[command(name = "qa-fetch", version)]
pub struct Args {
    /// Read records from FILE instead of stdin (`-` is stdin).
    #[arg(long = "in", value_name = "FILE", default_value = "-")]
    pub input: PathBuf,

    /// The project root every file and directory target and source path is under.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub repo: PathBuf,

    /// Capture the recorded targets, plan and sources again and compare.
    #[arg(long)]
    pub verify: bool,

    /// Also read the deployed build of this profile environment (its sha_source; needs a
    /// `profile` record in the stream, from `qa-profile --ndjson`, and --allow-network):
    /// a `build` record that --verify reads again. A sha_source regex sees the body's first
    /// 64 KiB and must finish within the --timeout, else the build is failed (unverified).
    #[arg(long, value_name = "NAME")]
    pub env: Option<String>,

    /// The permission flags every stage accepts: --allow-network fetches URL targets,
    /// --timeout bounds each request (default 30, at most 300 seconds), --auth-env names
    /// the bearer token's variable.
    #[command(flatten)]
    pub pipeline: qa_cli::PipelineFlags,
}

pub const EXAMPLES: &[Example] = &[
    Example {
        what: "Capture the plan's target",
        command: "qa-intent --plan .qa-acceptance.json | qa-fetch",
    },
    Example {
        what: "The whole acceptance flow, recapturing after the checks",
        command: "qa-intent --plan .qa-acceptance.json | qa-fetch --allow-network | qa-route --allow-network | qa-check --allow-network | qa-fetch --verify --allow-network | qa-trace | qa-report",
    },
    Example {
        what: "A URL target behind a bearer token",
        command: "QA_TOKEN=... qa-intent --plan plan.json | qa-fetch --allow-network --auth-env QA_TOKEN",
    },
];

pub const EXIT_STATUS: &[(Exit, &str)] = &[
    (
        Exit::Success,
        "records written (a failed or blocked capture and a changed target are records, not errors)",
    ),
    (
        Exit::Usage,
        "usage error (bad flags, --timeout out of range, the --auth-env variable unset, empty, or its value starting or ending with a space)",
    ),
    (Exit::DataErr, "malformed input records"),
    (Exit::NoInput, "the --in file or the --repo directory does not exist"),
    (Exit::Software, "internal error (a bug: please report it)"),
    (
        Exit::Interrupted,
        "cancelled by SIGINT, after writing what was finished and the rest as cancelled",
    ),
    (
        Exit::Terminated,
        "cancelled by SIGTERM, after writing what was finished and the rest as cancelled",
    ),
];

/// The clap command, with examples and exit status after the options.
pub fn command() -> clap::Command {
    Args::command().after_help(after_help(EXAMPLES, EXIT_STATUS))
}
