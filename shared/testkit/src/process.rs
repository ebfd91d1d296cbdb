//! Processes in tests: waiting for a condition with a deadline, the pid of a process that
//! is gone (for stale lock files), and a command run in its own process group to signal.

use std::io::Read;
use std::os::unix::process::CommandExt as _;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// Polls `done` every 20 ms until it holds; panics naming `what` after `timeout`.
pub fn wait_until(what: &str, timeout: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < timeout,
            "timed out after {timeout:?} waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The pid of a process that has exited and been reaped.
pub fn dead_pid() -> u32 {
    let mut child = Command::new("true").spawn().expect("starting `true`");
    let pid = child.id();
    child.wait().expect("waiting for `true`");
    pid
}

/// Sends `signal` (`INT`, `TERM`, `KILL`) to the process group `pgid`; true when sent.
/// Spelled `kill -s SIG -- -PGID`: procps-ng's kill reads `kill -INT -PGID` as
/// `kill(-1, SIGINT)`, which signals every process the user may signal.
pub fn signal_group(signal: &str, pgid: u32) -> bool {
    assert!(pgid > 1, "not a process group of its own: {pgid}");
    Command::new("kill")
        .args(["-s", signal, "--", &format!("-{pgid}")])
        .stderr(Stdio::null())
        .status()
        .expect("running kill")
        .success()
}

/// What a process group left when all of it ended.
#[derive(Debug)]
pub struct GroupOutput {
    /// The leader's exit status.
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

/// A command started as the leader of its own process group, stdin closed, stdout and
/// stderr read to their end on threads: every process of the group that inherited them
/// holds them open, so their end means the whole group is done. Killed when dropped
/// before it ended.
pub struct Group {
    child: Child,
    outputs: Receiver<(bool, Vec<u8>)>,
    ended: bool,
}

impl Group {
    pub fn spawn(command: Command) -> Group {
        // A test run started in the background inherits SIGINT ignored, and a shell cannot
        // trap a signal ignored on entry: start the group with default handling (GNU env).
        let mut command = with_default_signals(&command);
        let mut child = command
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {command:?}: {e}"));
        let (tx, outputs) = channel();
        let pipes: [(bool, Box<dyn Read + Send>); 2] = [
            (
                true,
                Box::new(child.stdout.take().expect("stdout is piped")),
            ),
            (
                false,
                Box::new(child.stderr.take().expect("stderr is piped")),
            ),
        ];
        for (is_stdout, mut pipe) in pipes {
            let tx = tx.clone();
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                let _ = pipe.read_to_end(&mut bytes);
                let _ = tx.send((is_stdout, bytes));
            });
        }
        Group {
            child,
            outputs,
            ended: false,
        }
    }

    /// The process group id (the leader's pid).
    pub fn pgid(&self) -> u32 {
        self.child.id()
    }

    /// Sends `signal` to the whole group; true when sent.
    pub fn signal(&self, signal: &str) -> bool {
        signal_group(signal, self.pgid())
    }

    /// Waits up to `timeout` for the leader to exit and every process of the group to
    /// close its output; None (and the group killed) when it is still running then.
    pub fn wait(mut self, timeout: Duration) -> Option<GroupOutput> {
        let until = Instant::now() + timeout;
        let (mut stdout, mut stderr) = (None, None);
        while stdout.is_none() || stderr.is_none() {
            let left = until.checked_duration_since(Instant::now())?;
            let (is_stdout, bytes) = self.outputs.recv_timeout(left).ok()?;
            if is_stdout {
                stdout = Some(bytes);
            } else {
                stderr = Some(bytes);
            }
        }
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("waiting for the leader") {
                break status;
            }
            until.checked_duration_since(Instant::now())?;
            std::thread::sleep(Duration::from_millis(10));
        };
        self.ended = true;
        Some(GroupOutput {
            status,
            stdout: stdout.unwrap_or_default(),
            stderr: String::from_utf8_lossy(&stderr.unwrap_or_default()).into_owned(),
        })
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if !self.ended {
            signal_group("KILL", self.pgid());
            let _ = self.child.wait();
        }
    }
}

/// `command` run through `env --default-signal=INT,TERM`, which execs it (same pid).
fn with_default_signals(command: &Command) -> Command {
    let mut wrapped = Command::new("env");
    wrapped
        .arg("--default-signal=INT,TERM")
        .arg(command.get_program())
        .args(command.get_args());
    for (key, value) in command.get_envs() {
        match value {
            Some(value) => wrapped.env(key, value),
            None => wrapped.env_remove(key),
        };
    }
    if let Some(dir) = command.get_current_dir() {
        wrapped.current_dir(dir);
    }
    wrapped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dead_pid_has_no_process() {
        let pid = dead_pid();
        assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists());
    }

    #[test]
    fn wait_until_returns_once_the_condition_holds() {
        let mut polls = 0;
        wait_until("three polls", Duration::from_secs(5), || {
            polls += 1;
            polls == 3
        });
        assert_eq!(polls, 3);
    }

    fn shell(script: &str) -> Command {
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        command
    }

    #[test]
    fn a_group_waits_for_every_process_holding_its_output() {
        // The leader exits at once; its background child writes 100 ms later.
        let group = Group::spawn(shell("(sleep 0.1; echo late) & echo early; exit 3"));
        let output = group.wait(Duration::from_secs(5)).expect("ended");
        assert_eq!(output.status.code(), Some(3));
        assert_eq!(output.stdout, b"early\nlate\n");
    }

    #[test]
    fn a_signal_reaches_every_process_of_the_group() {
        let group = Group::spawn(shell(
            "trap 'echo got-int; exit 130' INT; while :; do sleep 0.05; done",
        ));
        std::thread::sleep(Duration::from_millis(200));
        assert!(group.signal("INT"));
        let output = group
            .wait(Duration::from_secs(5))
            .expect("ended by the signal");
        assert_eq!(output.status.code(), Some(130), "{output:?}");
        assert_eq!(output.stdout, b"got-int\n");
    }

    #[test]
    fn a_group_still_running_after_the_timeout_is_none() {
        let group = Group::spawn(shell("sleep 30"));
        assert!(group.wait(Duration::from_millis(100)).is_none());
    }

    #[test]
    #[should_panic(expected = "waiting for nothing")]
    fn wait_until_panics_after_the_timeout() {
        wait_until("nothing", Duration::from_millis(50), || false);
    }
}
