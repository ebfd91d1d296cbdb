//! The exit-code table shared by every binary, and the one place errors reach the user.

use std::fmt;
use std::io;

/// The documented exit codes (see docs/DESIGN.md, "Exit codes").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Success; for qa-report, verdict pass.
    Success = 0,
    /// Verdict fail; for qa-profile, an invalid profile.
    Fail = 1,
    /// Verdict incomplete, unverified, blocked or stale.
    Incomplete = 2,
    /// The change range holds no commit (HEAD is its base, or behind it): nothing was
    /// analysed, which is neither a pass nor a failure.
    EmptyRange = 3,
    /// Bad flags.
    Usage = 64,
    /// Malformed input data (NDJSON, plan, manifest, profile).
    DataErr = 65,
    /// An input file or repository was not found.
    NoInput = 66,
    /// A needed service or tool is unavailable.
    Unavailable = 69,
    /// An internal error: a bug.
    Software = 70,
    /// An I/O error writing output or report files (disk full, closed device).
    IoErr = 74,
    /// Cancelled by SIGINT.
    Interrupted = 130,
    /// Cancelled by SIGTERM.
    Terminated = 143,
}

impl Exit {
    pub fn code(self) -> u8 {
        self as u8
    }

    /// Every code with its meaning, for --help and man pages.
    pub const TABLE: [(Exit, &'static str); 12] = [
        (Exit::Success, "success"),
        (Exit::Fail, "verdict fail"),
        (
            Exit::Incomplete,
            "verdict incomplete, unverified or blocked",
        ),
        (
            Exit::EmptyRange,
            "empty range: HEAD is its base or behind it, so there is no change to report",
        ),
        (Exit::Usage, "usage error (bad flags)"),
        (
            Exit::DataErr,
            "bad input data (malformed NDJSON, plan, manifest or profile)",
        ),
        (Exit::NoInput, "input file or repository not found"),
        (Exit::Unavailable, "a needed service or tool is unavailable"),
        (Exit::Software, "internal error (a bug: please report it)"),
        (
            Exit::IoErr,
            "I/O error writing output or report files (disk full, closed device), naming the path",
        ),
        (Exit::Interrupted, "cancelled by SIGINT"),
        (Exit::Terminated, "cancelled by SIGTERM"),
    ];

    /// The codes any binary can end with, whatever it does: a failed write, a signal.
    pub const EVERY_BINARY: [Exit; 3] = [Exit::IoErr, Exit::Interrupted, Exit::Terminated];

    /// This code's meaning in [`Exit::TABLE`].
    pub fn meaning(self) -> &'static str {
        Exit::TABLE
            .iter()
            .find(|(exit, _)| *exit == self)
            .map_or("", |(_, meaning)| meaning)
    }
}

/// A binary's documented exit codes (`exits`) completed with the [`Exit::EVERY_BINARY`]
/// codes it does not list, in code order: what --help and the man page show.
pub fn documented<'a>(exits: &[(Exit, &'a str)]) -> Vec<(Exit, &'a str)> {
    let mut all = exits.to_vec();
    for exit in Exit::EVERY_BINARY {
        if !all.iter().any(|(listed, _)| *listed == exit) {
            all.push((exit, exit.meaning()));
        }
    }
    all.sort_by_key(|(exit, _)| exit.code());
    all
}

impl From<Exit> for std::process::ExitCode {
    fn from(e: Exit) -> Self {
        std::process::ExitCode::from(e.code())
    }
}

/// An error that knows its exit code. Anywhere in an `anyhow` chain, it decides the code.
#[derive(Debug)]
pub struct Failure {
    pub exit: Exit,
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

/// An `anyhow` error carrying `exit`.
pub fn failure(exit: Exit, message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Failure {
        exit,
        message: message.into(),
    })
}

/// True when a closed pipe (`| head`) is somewhere in the chain: not an error for a filter.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// The exit code an error maps to: the first `Failure` in its chain (also one carried
/// inside an `io::Error`, as a cancelled read is); else an I/O error (a failed read or
/// write is no bug: 74); else internal error.
pub fn exit_of(err: &anyhow::Error) -> Exit {
    err.chain()
        .find_map(|cause| failure_in(cause).map(|f| f.exit))
        .or_else(|| err.chain().any(is_io).then_some(Exit::IoErr))
        .unwrap_or(Exit::Software)
}

/// The `Failure` that `cause` is, or that the `io::Error` it is carries.
fn failure_in<'a>(cause: &'a (dyn std::error::Error + 'static)) -> Option<&'a Failure> {
    cause.downcast_ref::<Failure>().or_else(|| {
        cause
            .downcast_ref::<io::Error>()?
            .get_ref()?
            .downcast_ref::<Failure>()
    })
}

/// True for an operating-system I/O error, bare or inside serde_json's error.
fn is_io(cause: &(dyn std::error::Error + 'static)) -> bool {
    cause.downcast_ref::<io::Error>().is_some()
        || cause
            .downcast_ref::<serde_json::Error>()
            .is_some_and(serde_json::Error::is_io)
}

/// Runs a binary's body and turns its outcome into the process exit code, printing an
/// error as one line `NAME: error: ...`. A closed stdout ends quietly with 0.
///
/// In a pipeline, SIGINT and SIGTERM reach every stage at once: a stage that died on them
/// would lose the records the stages before it are still finishing. So when stdin is not
/// a terminal the signal is noted instead ([`crate::cancel`]); the stage finishes its
/// stream (long-running stages stop starting new work) and exits 130 or 143.
pub fn run(name: &str, body: impl FnOnce() -> anyhow::Result<Exit>) -> std::process::ExitCode {
    use std::io::IsTerminal as _;
    if !io::stdin().is_terminal() {
        let _ = crate::cancel::install();
    }
    match body() {
        Ok(Exit::Success) => crate::cancel::requested().unwrap_or(Exit::Success).into(),
        Ok(exit) => exit.into(),
        Err(err) if is_broken_pipe(&err) => Exit::Success.into(),
        Err(err) => {
            let message = format!("{err:#}").replace('\n', " ");
            eprintln!("{name}: error: {message}");
            exit_of(&err).into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context as _;

    #[test]
    fn a_failure_under_context_still_decides_the_exit_code() {
        let err = Err::<(), _>(failure(Exit::NoInput, "gone"))
            .context("opening the repository")
            .unwrap_err();
        assert_eq!(exit_of(&err), Exit::NoInput);
    }

    #[test]
    fn an_io_error_reaching_the_top_is_an_io_error_not_a_bug() {
        let full = io::Error::from_raw_os_error(28);
        let err = anyhow::Error::new(full).context("writing the report to stdout");
        assert_eq!(exit_of(&err), Exit::IoErr);
        let sink: &mut [u8] = &mut [];
        let json = serde_json::to_writer(sink, &"text").unwrap_err();
        assert_eq!(exit_of(&anyhow::Error::new(json)), Exit::IoErr);
    }

    #[test]
    fn a_failure_inside_an_io_error_decides_the_exit_code() {
        let cancelled = io::Error::other(Failure {
            exit: Exit::Terminated,
            message: "cancelled by SIGTERM".into(),
        });
        let err = anyhow::Error::new(cancelled).context("reading stdin");
        assert_eq!(exit_of(&err), Exit::Terminated);
    }

    #[test]
    fn every_binary_documents_the_io_error_and_the_signals() {
        let listed = [(Exit::Success, "ok"), (Exit::Interrupted, "stopped early")];
        let codes: Vec<(u8, &str)> = documented(&listed)
            .into_iter()
            .map(|(exit, meaning)| (exit.code(), meaning))
            .collect();
        assert_eq!(
            codes,
            vec![
                (0, "ok"),
                (74, Exit::IoErr.meaning()),
                (130, "stopped early"),
                (143, "cancelled by SIGTERM")
            ]
        );
    }

    #[test]
    fn an_unclassified_error_is_an_internal_error() {
        assert_eq!(exit_of(&anyhow::anyhow!("surprise")), Exit::Software);
    }

    #[test]
    fn a_broken_pipe_under_context_is_recognised() {
        let err = anyhow::Error::new(io::Error::from(io::ErrorKind::BrokenPipe)).context("writing");
        assert!(is_broken_pipe(&err));
        assert!(!is_broken_pipe(&anyhow::anyhow!("other")));
    }
}
