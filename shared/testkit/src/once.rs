//! A helper server shared by every test process of a run (nextest runs each test in a
//! process of its own): the first test that needs it starts it, under a file lock so two
//! tests never start two, and the others find it running. The server ends itself (after
//! an idle period, or when its run is over), so no test waits for it.

use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
