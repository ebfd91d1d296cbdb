//! The command line every stage shares: clap parsing with the documented usage exit code,
//! the permission flags (`PipelineFlags`), the help text's EXAMPLES and EXIT STATUS
//! sections, `--version` naming the git commit built from (`version`, set by build.rs),
//! and man pages rendered from the same commands (`man`, feature `man`).
//!
//! It may use qa-records (exit codes) and clap; it must not depend on any other qapipe
//! library nor on a stage.

#[cfg(feature = "man")]
pub mod man;
pub mod version;

use clap::{ArgMatches, Command, FromArgMatches};
use qa_records::exit::Exit;
use std::fmt::Write as _;

/// One example for --help and the man page.
pub struct Example {
    pub what: &'static str,
    pub command: &'static str,
}

/// The text clap shows after the options: examples, then exit status.
pub fn after_help(examples: &[Example], exits: &[(Exit, &str)]) -> String {
    let mut s = String::from("Examples:\n");
    for ex in examples {
        let _ = writeln!(s, "  # {}\n  {}\n", ex.what, ex.command);
    }
    s.push_str("Exit status:\n");
    for (exit, meaning) in qa_records::exit::documented(exits) {
        let _ = writeln!(s, "  {:>3}  {}", exit.code(), meaning);
    }
    s
}

/// Parses the process arguments with `command`. Help and version print to stdout and end
/// with 0; any other parse error prints clap's message and ends with 64 (usage). The
/// version shown names the git commit the binary was built from.
pub fn parse<T: FromArgMatches>(command: Command) -> Result<T, std::process::ExitCode> {
    let matches: ArgMatches = match with_commit(command).try_get_matches() {
        Ok(m) => m,
        Err(e) => return Err(report(e)),
    };
    T::from_arg_matches(&matches).map_err(report)
}

/// `command` with `--version` showing `0.1.0 (abc1234 2026-12-01)`; man pages, rendered
/// from the plain command, keep the bare version so they do not change with every commit.
fn with_commit(command: Command) -> Command {
    match command.get_version() {
        // Built once per process: clap keeps the version for the command's lifetime.
        Some(version) => {
            let line: &'static str = Box::leak(crate::version::line(version).into_boxed_str());
            command.version(line)
        }
        None => command,
    }
}

fn report(e: clap::Error) -> std::process::ExitCode {
    use clap::error::ErrorKind;
    let _ = e.print();
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => Exit::Success.into(),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => Exit::Usage.into(),
        _ => Exit::Usage.into(),
    }
}

/// The permission flags that mean the same on every stage that takes them (docs/DESIGN.md,
/// "Permission flags"). A stage that needs none of them still accepts them,
/// so one flag set can be passed to the whole pipeline; `#[command(flatten)]` it.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PipelineFlags {
    /// Allow network access (only stages that fetch use it).
    #[arg(long)]
    pub allow_network: bool,

    /// Allow calling tools of an MCP server (only qa-check uses it).
    #[arg(long)]
    pub allow_tool_calls: bool,

    /// Allow running the routed repository command (only qa-check --exec uses it).
    #[arg(long)]
    pub allow_exec: bool,

    /// Time limit in seconds for whatever the stage waits on.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<u64>,

    /// Name of the environment variable holding a bearer token (never stored).
    #[arg(long, value_name = "NAME")]
    pub auth_env: Option<String>,
}
