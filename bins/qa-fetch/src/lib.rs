//! qa-fetch: captures acceptance targets (content manifests of files and directories,
//! URL responses) and, with `--verify`, captures them again after the checks.

pub mod build;
pub mod capture;
pub mod cli;
pub mod events;
pub mod exclusion;
pub mod http;
pub mod manifest;
pub mod root;
pub mod verify;

use qa_records::exit::{failure, Exit};
use std::time::Duration;

/// The `by` value of every record this stage writes.
pub const BY: &str = concat!("qa-fetch/", env!("CARGO_PKG_VERSION"));

/// The request timeout without `--timeout`.
pub const DEFAULT_TIMEOUT_SECS: u64 = 30;
/// The longest `--timeout` accepted.
pub const MAX_TIMEOUT_SECS: u64 = 300;

/// The request timeout `--timeout` asks for; outside 1..=300 seconds is a usage error.
pub fn timeout(flag: Option<u64>) -> anyhow::Result<Duration> {
    match flag.unwrap_or(DEFAULT_TIMEOUT_SECS) {
        secs @ 1..=MAX_TIMEOUT_SECS => Ok(Duration::from_secs(secs)),
        secs => Err(failure(
            Exit::Usage,
            format!("--timeout {secs}: must be 1 to {MAX_TIMEOUT_SECS} seconds"),
        )),
    }
}

/// The capturer the flags describe: the repository root must be a directory (exit 66),
/// the token variable of `--auth-env` must be set (exit 64), and URLs are fetched only
/// with `--allow-network`.
pub fn capturer(args: &cli::Args) -> anyhow::Result<capture::Capturer> {
    let flags = &args.pipeline;
    let timeout = timeout(flags.timeout)?;
    let bearer = flags
        .auth_env
        .as_deref()
        .map(qa_records::secret::Secret::from_env)
        .transpose()?;
    if !args.repo.is_dir() {
        return Err(failure(
            Exit::NoInput,
            format!("--repo {}: not a directory", args.repo.display()),
        ));
    }
    let http = flags
        .allow_network
        .then(|| http::Http::new(timeout, bearer));
    Ok(capture::Capturer::new(args.repo.clone(), http))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timeout_defaults_to_30_seconds() {
        assert_eq!(timeout(None).unwrap(), Duration::from_secs(30));
        assert_eq!(timeout(Some(300)).unwrap(), Duration::from_secs(300));
    }

    #[test]
    fn a_timeout_of_zero_or_over_five_minutes_is_a_usage_error() {
        for secs in [0, 301] {
            let err = timeout(Some(secs)).unwrap_err();
            assert_eq!(qa_records::exit::exit_of(&err), Exit::Usage);
        }
    }
}
