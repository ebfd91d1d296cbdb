//! qa-mcp's flags, help text and man-page sections.

use clap::{CommandFactory, Parser};
use qa_cli::{after_help, Example};
use qa_records::Exit;
use std::path::PathBuf;

/// Serve qapipe's change and acceptance flows to coding agents over MCP (stdio).
///
/// qa-mcp is a Model Context Protocol server (JSON-RPC over stdin and stdout, protocol
/// 2025-11-25) that an agent's client starts as a command. It has no analysis of its own:
/// each tool runs the same stage binaries as pipelines/changes.sh and
/// pipelines/acceptance.sh, each stage a process (and process group) of its own, and reads
/// the stream between qa-trace and qa-report to report progress. The stages are found
/// next to qa-mcp's own executable, else on PATH; --bin-dir DIR names the one folder to
/// take them from.
///
/// Tools (each with an input schema, an output schema and annotations):
/// change_report {repo, base?, head?, worktree?} runs qa-diff | qa-intent | qa-route |
/// qa-trace | qa-report --format agent --out REPO/.qa/mcp/RUN-ID and returns the agent
/// payload; explain {id}, accept {id}, reject {id, reason} run qa-manifest on the last
/// change report's stream (accept and reject edit REPO/.qa/manifest.yaml); run_check
/// {scenario?} runs qa-check --exec on that stream; acceptance {plan, repo, shard?} runs
/// the acceptance flow on a plan inside REPO, whose run folder qa-report makes under
/// REPO/.qa/acceptance; status and cancel show and stop the active run (one at a time).
/// A client that sends a progressToken gets progress notifications (records so far, the
/// stage writing them).
///
/// A repository is data: change_report's repo must be a git work tree, and a symlink at
/// .qa, .qa/mcp or .qa/mcp/.gitignore (or .qa/acceptance, for qa-report) is refused with
/// nothing written, never followed. A line that is not JSON gets a JSON-RPC parse error
/// (-32700), a request before initialize an error (-32002), and the session goes on.
///
/// Capabilities come only from these flags, given by the person who starts the server:
/// --allow-network, --allow-tool-calls, --allow-exec, --timeout and --auth-env are passed
/// to the stages exactly as pipelines/acceptance.sh passes them, and no tool argument can
/// add one. A capability the server lacks is not an error: the tool runs with the guard in
/// place (the check or command is recorded as blocked, never a pass) and its result lists
/// it under `refused`, naming the flag the person must add to qa-mcp's command line.
///
/// Every result names its run folder and that folder's SHA256SUMS, so a claim can be
/// checked against the files. Text taken from the repository (scenario titles, explain
/// output, stage error lines) passes the untrusted-text boundary: instruction-like spans
/// become "[instruction-like text removed]" and are counted (`neutralized`). A tool that
/// cannot run (a stage's usage, input or internal error, no change report yet, a run
/// already active) returns isError with one line.
///
/// Cancelling (the cancel tool, the client's notifications/cancelled, or SIGINT/SIGTERM
/// to qa-mcp) sends SIGTERM to the stages' process groups: they write what they finished
/// and their cancelled records (a stage still running 10 s later gets SIGKILL). qa-report then writes a report marked cancelled
/// from what it read (acceptance runs and change reports alike); a check (run_check)
/// keeps qa-report running on what qa-check finished.
#[derive(Debug, Parser)]
#[command(name = "qa-mcp", version)]
pub struct Args {
    /// Take the stage binaries (qa-diff, qa-intent, ...) from DIR only.
    #[arg(long, value_name = "DIR")]
    pub bin_dir: Option<PathBuf>,

    /// The permission flags the stages get; no tool call can add one.
    #[command(flatten)]
    pub pipeline: qa_cli::PipelineFlags,

    /// An installed Playwright module (`.../playwright-core/index.mjs`) for the browser
    /// checks of acceptance plans (qa-check --browser-module); without it they are
    /// unverified. qa-mcp never installs one.
    #[arg(long, value_name = "PATH")]
    pub browser_module: Option<PathBuf>,

    /// The Chromium executable browser checks launch (qa-check --browser; Chromium's headless
    /// shell works too) [default: chromium on PATH].
    #[arg(long, value_name = "PATH")]
    pub browser: Option<PathBuf>,
}

pub const EXAMPLES: &[Example] = &[
    Example {
        what: "Register with an MCP client (the command it starts), analysis only",
        command: "qa-mcp",
    },
    Example {
        what: "Let acceptance plans reach URLs and run_check run the routed command",
        command: "qa-mcp --allow-network --allow-exec --timeout 120",
    },
    Example {
        what: "A bearer token for acceptance HTTP checks, read from the environment",
        command: "QA_TOKEN=... qa-mcp --allow-network --auth-env QA_TOKEN",
    },
    Example {
        what: "Stages from a build folder instead of PATH",
        command: "qa-mcp --bin-dir target/release",
    },
];

pub const EXIT_STATUS: &[(Exit, &str)] = &[
    (Exit::Success, "the client closed the session (stdin ended)"),
    (
        Exit::Usage,
        "usage error: bad flags, --bin-dir not a folder, or an --auth-env NAME that is not a variable name or not set",
    ),
    (
        Exit::NoInput,
        "a stage binary was found neither in --bin-dir, next to qa-mcp, nor on PATH",
    ),
    (Exit::Software, "internal error (a bug: please report it)"),
    (
        Exit::Interrupted,
        "SIGINT: the active run was cancelled first (143 for SIGTERM)",
    ),
];

/// The clap command, with examples and exit status after the options.
pub fn command() -> clap::Command {
    Args::command().after_help(after_help(EXAMPLES, EXIT_STATUS))
}
