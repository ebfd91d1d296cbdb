//! One active acceptance run per project: `<repo>/.qa/acceptance.lock` holds the active
//! run's id and pid, is created exclusively, taken over only from a process that is gone,
//! and removed when the run ends.

use anyhow::Context as _;
use qa_records::exit::{failure, Exit};
use serde::{Deserialize, Serialize};
use std::fs::{self, DirBuilder, OpenOptions};
use std::io::{self, Write as _};
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};

/// What the lock file says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holder {
    pub run: String,
    pub pid: u32,
}

/// The lock file of the project at `repo`.
pub fn path(repo: &Path) -> PathBuf {
    repo.join(".qa").join("acceptance.lock")
}

/// The lock's holder, if a lock file is there and readable.
pub fn holder(repo: &Path) -> Option<Holder> {
    let text = fs::read_to_string(path(repo)).ok()?;
    serde_json::from_str(&text).ok()
}

/// True while process `pid` exists: `/proc/<pid>` on Linux, else `kill -0`.
pub fn alive(pid: u32) -> bool {
    if Path::new("/proc/self").exists() {
        return Path::new("/proc").join(pid.to_string()).exists();
    }
    std::process::Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The held lock; dropping it removes the file.
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
}

impl Lock {
    /// Takes the project's lock for `run`. An active holder is exit 69 naming its run and
    /// pid; a holder whose process is gone is taken over with a warning.
    pub fn acquire(repo: &Path, run: &str) -> anyhow::Result<Lock> {
        let path = path(repo);
        let dir = path.parent().expect("the lock is inside .qa");
        DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| unwritable(dir, e))?;
        let me = Holder {
            run: run.to_string(),
            pid: std::process::id(),
        };
        for attempt in 0..2 {
            match create(&path, &me) {
                Ok(()) => return Ok(Lock { path }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt == 0 => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => break,
                Err(e) => return Err(unwritable(&path, e)),
            }
            match holder(repo) {
                Some(h) if alive(h.pid) => return Err(active(&h)),
                Some(h) => eprintln!(
                    "qa-report: warning: taking over the lock of acceptance run {} (pid {} is gone)",
                    h.run, h.pid
                ),
                None => eprintln!(
                    "qa-report: warning: taking over an unreadable lock {}",
                    path.display()
                ),
            }
            match fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(unwritable(&path, e)),
            }
        }
        // Another run took the lock between our removal and our creation.
        match holder(repo) {
            Some(h) => Err(active(&h)),
            None => Err(failure(
                Exit::Unavailable,
                format!("{} is held by another run", path.display()),
            )),
        }
    }

    /// Renames the run the lock names (once the plan, and so the full run id, is known).
    pub fn rename(&self, run: &str) -> anyhow::Result<()> {
        let me = Holder {
            run: run.to_string(),
            pid: std::process::id(),
        };
        let temp = self.path.with_extension(format!("lock.{}.tmp", me.pid));
        let _ = fs::remove_file(&temp);
        write_new(&temp, &me)
            .and_then(|()| fs::rename(&temp, &self.path))
            .with_context(|| format!("updating {}", self.path.display()))
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// The project's .qa/ cannot hold a lock: like an --out that cannot be written, a usage
/// error naming the path.
fn unwritable(path: &Path, e: io::Error) -> anyhow::Error {
    failure(Exit::Usage, format!("{}: {e}", path.display()))
}

fn active(h: &Holder) -> anyhow::Error {
    failure(
        Exit::Unavailable,
        format!("acceptance run {} is active (pid {})", h.run, h.pid),
    )
}

/// Creates the lock with its content in one step: written to a temporary file, then
/// hard-linked to `path`, which fails when `path` exists (as O_EXCL would), so no reader
/// ever sees an empty lock.
fn create(path: &Path, me: &Holder) -> io::Result<()> {
    let temp = path.with_extension(format!("lock.{}.new", me.pid));
    let _ = fs::remove_file(&temp);
    write_new(&temp, me)?;
    let linked = fs::hard_link(&temp, path);
    let _ = fs::remove_file(&temp);
    linked
}

fn write_new(path: &Path, me: &Holder) -> io::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    let text = serde_json::to_string(me).expect("a holder is plain data");
    file.write_all(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_alive_and_a_reaped_child_is_not() {
        assert!(alive(std::process::id()));
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert!(!alive(pid));
    }

    #[test]
    fn a_held_lock_is_readable_and_removed_on_drop() {
        let repo = tempfile::tempdir().unwrap();
        let lock = Lock::acquire(repo.path(), "R1").unwrap();
        assert_eq!(
            holder(repo.path()),
            Some(Holder {
                run: "R1".into(),
                pid: std::process::id()
            })
        );
        lock.rename("R1-abcdef12").unwrap();
        assert_eq!(holder(repo.path()).unwrap().run, "R1-abcdef12");
        drop(lock);
        assert!(!path(repo.path()).exists());
    }

    #[test]
    fn a_live_holder_refuses_a_second_lock_with_exit_69() {
        let repo = tempfile::tempdir().unwrap();
        let _held = Lock::acquire(repo.path(), "R1").unwrap();
        let err = Lock::acquire(repo.path(), "R2").unwrap_err();
        assert_eq!(qa_records::exit::exit_of(&err), Exit::Unavailable);
        assert_eq!(
            err.to_string(),
            format!("acceptance run R1 is active (pid {})", std::process::id())
        );
    }
}
