//! What every test process of a run shares (nextest runs each test in a process of its
//! own): a helper server, or files made once. The first test that needs it starts or makes
//! it, under a file lock so two tests never do it twice, and the others find it. A server
//! ends itself (after an idle period, or when its run is over), so no test waits for it.

use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// How old a run's made folder is before a later run removes it.
const STALE: Duration = Duration::from_secs(3600);

/// The folder `base/name/RUN` once `make` has filled it, made by the first test of this
/// test run that asks and found by the others: RUN is nextest's run id (one process per
/// test) or this process (`cargo test`: one process per binary). Made under the lock file
/// `base/name/.lock` into an emptied folder and marked done only once `make` returns, so a
/// test that panicked while making leaves the next one to make it again; folders of
/// earlier runs older than an hour are removed.
pub fn made(base: &Path, name: &str, make: impl FnOnce(&Path)) -> PathBuf {
    let run =
        std::env::var("NEXTEST_RUN_ID").unwrap_or_else(|_| format!("pid-{}", std::process::id()));
    let group = base.join(name);
    let dir = group.join(run);
    let done = dir.join(".done");
    if done.exists() {
        return dir;
    }
    std::fs::create_dir_all(&group).unwrap_or_else(|e| panic!("creating {name}'s folder: {e}"));
    let lock = std::fs::File::create(group.join(".lock"))
        .unwrap_or_else(|e| panic!("{name}'s lock file: {e}"));
    lock.lock()
        .unwrap_or_else(|e| panic!("locking {name}'s lock file: {e}"));
    if done.exists() {
        return dir;
    }
    let stale = SystemTime::now() - STALE;
    for old in std::fs::read_dir(&group).into_iter().flatten().flatten() {
        let modified = old.metadata().and_then(|m| m.modified());
        if old.path().is_dir() && modified.is_ok_and(|m| m < stale) {
            let _ = std::fs::remove_dir_all(old.path());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("creating {name}'s folder: {e}"));
    make(&dir);
    std::fs::write(&done, "").unwrap_or_else(|e| panic!("marking {name} made: {e}"));
    dir
}

/// How long a starting server gets to become reachable.
const START_TIME: Duration = Duration::from_secs(30);

/// What `reach` finds of the running server, starting `server` first when it finds
/// nothing: under the lock file `lock`, looked for again once the lock is held (another
/// test may have started it meanwhile), then in its own process group with its stdio
/// closed, waited for until `reach` finds it. `what` names the server in failures.
pub fn reach_or_start<T>(
    lock: &Path,
    reach: impl Fn() -> Option<T>,
    mut server: Command,
    what: &str,
) -> T {
    if let Some(found) = reach() {
        return found;
    }
    let lock = std::fs::File::create(lock).unwrap_or_else(|e| panic!("{what}'s lock file: {e}"));
    lock.lock()
        .unwrap_or_else(|e| panic!("locking {what}'s lock file: {e}"));
    if let Some(found) = reach() {
        return found;
    }
    let mut child = server
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap_or_else(|e| panic!("starting {what}: {e}"));
    let started = Instant::now();
    loop {
        if let Some(found) = reach() {
            // Reaped by a thread of its own: the server outlives no test run for long.
            std::thread::spawn(move || child.wait());
            return found;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("{what} exited before it was ready ({status}): run it by hand to see why");
        }
        assert!(
            started.elapsed() < START_TIME,
            "{what} was not ready within {} s",
            START_TIME.as_secs()
        );
        std::thread::sleep(Duration::from_millis(25));
    }
}

#[cfg(test)]
mod tests {
    use super::made;
    use std::cell::Cell;

    #[test]
    fn a_folder_made_once_is_found_by_the_next_ask_without_making_it_again() {
        let base = tempfile::tempdir().unwrap();
        let makes = Cell::new(0);
        let make = |dir: &std::path::Path| {
            makes.set(makes.get() + 1);
            std::fs::write(dir.join("made"), "x").unwrap();
        };
        let first = made(base.path(), "thing", make);
        let second = made(base.path(), "thing", make);
        assert_eq!(first, second);
        assert_eq!(makes.get(), 1);
        assert_eq!(std::fs::read_to_string(first.join("made")).unwrap(), "x");
        // The control: another name is made for itself.
        made(base.path(), "other", make);
        assert_eq!(makes.get(), 2);
    }

    #[test]
    fn a_make_that_panicked_leaves_the_next_ask_to_make_it_again() {
        let base = tempfile::tempdir().unwrap();
        let failed = std::panic::catch_unwind(|| {
            made(base.path(), "thing", |dir| {
                std::fs::write(dir.join("half"), "x").unwrap();
                panic!("the make failed");
            })
        });
        assert!(failed.is_err());
        let dir = made(base.path(), "thing", |dir| {
            std::fs::write(dir.join("made"), "y").unwrap()
        });
        assert!(dir.join("made").exists());
        assert!(!dir.join("half").exists(), "made into an emptied folder");
    }
}
