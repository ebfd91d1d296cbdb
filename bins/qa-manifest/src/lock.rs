//! One writer of the manifest at a time: an advisory lock on the manifest's directory,
//! waited for a bounded time, so two corrections at once both land.

use std::fs::{File, TryLockError};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use qa_records::exit::{failure, Exit};
use qa_records::private_dir::PrivateDir;

/// How long a writer waits for another writer's lock before it gives up (exit 69).
pub const WAIT: Duration = Duration::from_secs(10);

/// How often a waiting writer tries again.
const POLL: Duration = Duration::from_millis(20);

/// The lock, held until dropped (and released by the system if the process dies).
#[derive(Debug)]
pub struct Lock {
    _held: File,
}

/// Locks `dir` (opened by the caller, never through a symlink below the repository) for
/// editing the manifest called `name`: waits up to [`WAIT`] while another writer holds it,
/// then refuses with exit 69, or with 130 / 143 when a signal arrives meanwhile. The
/// folder itself is locked, so no lock file is left in the repository.
pub fn lock(dir: &PrivateDir, name: &str) -> anyhow::Result<Lock> {
    let held = dir
        .reopen_file()
        .with_context(|| format!("opening {} to lock it", dir.path().display()))?;
    let started = Instant::now();
    loop {
        match held.try_lock() {
            Ok(()) => return Ok(Lock { _held: held }),
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(e)) => {
                return Err(failure(
                    Exit::Unavailable,
                    format!("cannot lock {} to edit {name}: {e}", dir.path().display()),
                ))
            }
        }
        if let Some(signal) = qa_records::cancel::requested() {
            return Err(failure(
                signal,
                format!("cancelled while waiting to edit {name}: nothing was changed"),
            ));
        }
        if started.elapsed() >= WAIT {
            return Err(failure(
                Exit::Unavailable,
                format!(
                    "another qa-manifest is editing {name} ({} stayed locked for {} s): nothing was changed, try again",
                    dir.path().display(),
                    WAIT.as_secs()
                ),
            ));
        }
        std::thread::sleep(POLL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn a_free_directory_is_locked_at_once_and_released_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let folder = PrivateDir::open(dir.path(), Path::new("")).unwrap();
        let first = lock(&folder, "m.yaml").unwrap();
        drop(first);
        let started = Instant::now();
        lock(&folder, "m.yaml").unwrap();
        assert!(started.elapsed() < WAIT);
    }

    #[test]
    fn the_help_states_the_wait() {
        let help = crate::cli::command().render_long_help().to_string();
        assert!(help.contains(&format!("{} s", WAIT.as_secs())), "{help}");
    }

    #[test]
    fn a_held_lock_makes_a_second_writer_wait() {
        let dir = tempfile::tempdir().unwrap();
        let folder = PrivateDir::open(dir.path(), Path::new("")).unwrap();
        let held = lock(&folder, "m.yaml").unwrap();
        let other = PrivateDir::open(dir.path(), Path::new(""))
            .unwrap()
            .reopen_file()
            .unwrap();
        assert!(matches!(other.try_lock(), Err(TryLockError::WouldBlock)));
        drop(held);
        assert!(other.try_lock().is_ok());
    }
}
