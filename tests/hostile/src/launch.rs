//! One stage run: its own process group, stdin and stdout from files (or a pipe), stderr
//! collected, an optional signal after a delay, and a kill at [`BOUND`].

use std::ffi::OsString;
use std::fs::File;
use std::io::Read;
use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long any run may take before it is killed and the case fails (generous: the
/// contract is "bounded", and the machine is a loaded 2-core box).
pub const BOUND: Duration = Duration::from_secs(10);

/// A stage run being prepared.
pub struct Launch {
    program: PathBuf,
    args: Vec<OsString>,
    dir: Option<PathBuf>,
    stdin: Option<PathBuf>,
    stdout: Option<PathBuf>,
    signal: Option<(Duration, libc::c_int)>,
}

/// What a run left.
#[derive(Debug)]
pub struct Outcome {
    /// The exit code; None when a signal ended the process (or it was killed at the bound).
    pub code: Option<i32>,
    /// The signal that ended the process, if one did.
    pub signal: Option<i32>,
    /// Killed at [`BOUND`].
    pub timed_out: bool,
    pub elapsed: Duration,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Launch {
    pub fn new(program: PathBuf) -> Launch {
        Launch {
            program,
            args: Vec::new(),
            dir: None,
            stdin: None,
            stdout: None,
            signal: None,
        }
    }

    pub fn args<S: Into<OsString>>(mut self, args: impl IntoIterator<Item = S>) -> Launch {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    pub fn dir(mut self, dir: impl Into<PathBuf>) -> Launch {
        self.dir = Some(dir.into());
        self
    }

    /// Stdin read from `path` (`/dev/zero`, a file); else `/dev/null`.
    pub fn stdin(mut self, path: impl Into<PathBuf>) -> Launch {
        self.stdin = Some(path.into());
        self
    }

    /// Stdout written to `path` (`/dev/full`); else a pipe the harness reads.
    pub fn stdout(mut self, path: impl Into<PathBuf>) -> Launch {
        self.stdout = Some(path.into());
        self
    }

    /// Sends `signal` (`libc::SIGINT`, `libc::SIGTERM`) after `delay` if still running.
    pub fn signal_after(mut self, delay: Duration, signal: libc::c_int) -> Launch {
        self.signal = Some((delay, signal));
        self
    }

    /// Runs to its end, or to [`BOUND`] where the whole group is killed.
    pub fn run(self) -> Outcome {
        // A test run started in the background inherits SIGINT ignored: give the stage
        // default handling, as a shell's foreground job has (GNU env execs, same pid).
        let mut command = Command::new("env");
        command
            .arg("--default-signal=INT,TERM")
            .arg(&self.program)
            .args(&self.args)
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE")
            .env("NO_COLOR", "1")
            .process_group(0)
            .stderr(Stdio::piped());
        if let Some(dir) = &self.dir {
            command.current_dir(dir);
        }
        command.stdin(match &self.stdin {
            Some(path) => Stdio::from(File::open(path).expect("opening the stdin file")),
            None => Stdio::null(),
        });
        command.stdout(match &self.stdout {
            Some(path) => Stdio::from(
                File::options()
                    .write(true)
                    .open(path)
                    .expect("opening the stdout file"),
            ),
            None => Stdio::piped(),
        });
        let start = Instant::now();
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("starting {}: {e}", self.program.display()));
        let pid = child.id() as libc::pid_t;
        let stdout = child.stdout.take().map(reader);
        let stderr = reader(child.stderr.take().expect("stderr is piped"));
        let mut signalled = false;
        let mut timed_out = false;
        let status = loop {
            if let Some(status) = child.try_wait().expect("waiting for the stage") {
                break status;
            }
            let elapsed = start.elapsed();
            if let Some((delay, signal)) = self.signal {
                if !signalled && elapsed >= delay {
                    // SAFETY: kill(2) on our own child's pid, which try_wait has not reaped.
                    unsafe { libc::kill(pid, signal) };
                    signalled = true;
                }
            }
            if elapsed >= BOUND {
                timed_out = true;
                // SAFETY: the child's own process group (process_group(0) above).
                unsafe { libc::kill(-pid, libc::SIGKILL) };
                break child.wait().expect("waiting for the killed stage");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let elapsed = start.elapsed();
        Outcome {
            code: status.code(),
            signal: status.signal(),
            timed_out,
            elapsed,
            stdout: stdout
                .map(|r| r.join().expect("the stdout reader"))
                .unwrap_or_default(),
            stderr: String::from_utf8_lossy(&stderr.join().expect("the stderr reader"))
                .into_owned(),
        }
    }
}

/// Runs every launch at once (each bounded by [`BOUND`], so a case that hangs in every
/// stage costs one bound, not nine) and returns their outcomes in order.
pub fn run_all(launches: Vec<Launch>) -> Vec<Outcome> {
    std::thread::scope(|scope| {
        let runs: Vec<_> = launches
            .into_iter()
            .map(|launch| scope.spawn(move || launch.run()))
            .collect();
        runs.into_iter()
            .map(|run| run.join().expect("a launch thread"))
            .collect()
    })
}

/// Reads a pipe to its end on a thread, keeping at most 64 MiB.
fn reader(pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.take(64 << 20).read_to_end(&mut bytes);
        bytes
    })
}
