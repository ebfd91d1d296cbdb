//! One active acceptance run per project: `<repo>/.qa/acceptance.lock` holds the active
//! run's id and pid, is created exclusively, taken over only from a process that is gone,
//! and removed when the run ends.

use anyhow::Context as _;
use qa_records::exit::{failure, Exit};
use qa_records::private_dir::{self, PrivateDir};
use serde::{Deserialize, Serialize};
use std::io::{self, Read as _, Write as _};
use std::path::{Path, PathBuf};

/// The lock file's name in `<repo>/.qa`.
const NAME: &str = "acceptance.lock";

/// What the lock file says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holder {
    pub run: String,
    pub pid: u32,
}

/// The lock file of the project at `repo`.
pub fn path(repo: &Path) -> PathBuf {
    repo.join(".qa").join(NAME)
}

/// The lock's holder, if a lock file is there and readable (never through a link).
pub fn holder(repo: &Path) -> Option<Holder> {
    let qa = PrivateDir::open_existing(repo, Path::new(".qa")).ok()?;
    read_holder(&qa)
}

fn read_holder(qa: &PrivateDir) -> Option<Holder> {
    let mut text = String::new();
    qa.open_file(NAME).ok()?.read_to_string(&mut text).ok()?;
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
    qa: PrivateDir,
    path: PathBuf,
}

impl Lock {
    /// Takes the project's lock for `run`. An active holder is exit 69 naming its run and
    /// pid; a holder whose process is gone is taken over with a warning. `.qa` is made
    /// (0700) when missing; a symlink there is refused (exit 65), never followed.
    pub fn acquire(repo: &Path, run: &str) -> anyhow::Result<Lock> {
        let path = path(repo);
        let qa = PrivateDir::open(repo, Path::new(".qa"))
            .map_err(|e| unwritable(&repo.join(".qa"), e))?;
        let me = Holder {
            run: run.to_string(),
            pid: std::process::id(),
        };
        for attempt in 0..2 {
            match create(&qa, &me) {
                Ok(()) => return Ok(Lock { qa, path }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt == 0 => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => break,
                Err(e) => return Err(unwritable(&path, e)),
            }
            match read_holder(&qa) {
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
            match qa.remove_file(NAME) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(unwritable(&path, e)),
            }
        }
        // Another run took the lock between our removal and our creation.
        match read_holder(&qa) {
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
        let temp = format!("{NAME}.{}.tmp", me.pid);
        let _ = self.qa.remove_file(&temp);
        write_new(&self.qa, &temp, &me)
            .and_then(|()| self.qa.rename(&temp, NAME))
            .with_context(|| format!("updating {}", self.path.display()))
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = self.qa.remove_file(NAME);
    }
}

/// The project's .qa/ cannot hold a lock: like an --out that cannot be written, a usage
/// error naming the path; a symlink or a file in its place keeps its own exit (65).
fn unwritable(path: &Path, e: io::Error) -> anyhow::Error {
    if private_dir::is_refusal(&e) {
        return anyhow::Error::new(e);
    }
    failure(Exit::Usage, format!("{}: {e}", path.display()))
}

fn active(h: &Holder) -> anyhow::Error {
    failure(
        Exit::Unavailable,
        format!("acceptance run {} is active (pid {})", h.run, h.pid),
    )
}

/// Creates the lock with its content in one step: written to a temporary file, then
/// hard-linked to the lock's name, which fails when the lock exists (as O_EXCL would), so
/// no reader ever sees an empty lock.
fn create(qa: &PrivateDir, me: &Holder) -> io::Result<()> {
    let temp = format!("{NAME}.{}.new", me.pid);
    let _ = qa.remove_file(&temp);
    write_new(qa, &temp, me)?;
    let linked = qa.hard_link(&temp, NAME);
    let _ = qa.remove_file(&temp);
    linked
}

fn write_new(qa: &PrivateDir, name: &str, me: &Holder) -> io::Result<()> {
    let mut file = qa.create_file(name)?;
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
