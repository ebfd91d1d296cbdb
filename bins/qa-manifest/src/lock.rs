//! One writer of the manifest at a time: an advisory lock on the manifest's directory,
//! waited for a bounded time, so two corrections at once both land.

use std::fs::{File, TryLockError};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use qa_records::exit::{failure, Exit};

/// How long a writer waits for another writer's lock before it gives up (exit 69).
pub const WAIT: Duration = Duration::from_secs(10);

/// How often a waiting writer tries again.
const POLL: Duration = Duration::from_millis(20);

/// The lock, held until dropped (and released by the system if the process dies).
#[derive(Debug)]
pub struct Lock {
    _held: File,
}

/// Locks `dir` (created when missing) for editing the manifest called `name`: waits up to
/// [`WAIT`] while another writer holds it, then refuses with exit 69, or with 130 / 143
/// when a signal arrives meanwhile.
pub fn lock(dir: &Path, name: &str) -> anyhow::Result<Lock> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let held = handle(dir)?;
    let started = Instant::now();
    loop {
        match held.try_lock() {
            Ok(()) => return Ok(Lock { _held: held }),
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(e)) => {
                return Err(failure(
                    Exit::Unavailable,
                    format!("cannot lock {} to edit {name}: {e}", dir.display()),
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
                    dir.display(),
                    WAIT.as_secs()
                ),
            ));
        }
        std::thread::sleep(POLL);
    }
}

/// What is locked: the directory itself, so no lock file is left in the repository.
#[cfg(unix)]
fn handle(dir: &Path) -> anyhow::Result<File> {
    File::open(dir).with_context(|| format!("opening {} to lock it", dir.display()))
}

/// Where a directory cannot be opened as a file, a lock file inside it.
#[cfg(not(unix))]
fn handle(dir: &Path) -> anyhow::Result<File> {
    let path = dir.join(".manifest.lock");
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("opening {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_directory_is_locked_at_once_and_released_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let first = lock(dir.path(), "m.yaml").unwrap();
        drop(first);
        let started = Instant::now();
        lock(dir.path(), "m.yaml").unwrap();
        assert!(started.elapsed() < WAIT);
    }

    #[test]
    fn the_help_states_the_wait() {
        let help = crate::cli::command().render_long_help().to_string();
        assert!(help.contains(&format!("{} s", WAIT.as_secs())), "{help}");
    }

    #[test]
    fn a_missing_directory_is_created_to_be_locked() {
        let dir = tempfile::tempdir().unwrap();
        let qa = dir.path().join(".qa");
        lock(&qa, "m.yaml").unwrap();
        assert!(qa.is_dir());
    }
}
