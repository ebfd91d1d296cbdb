//! The built qa-report started on a pipe or FIFO, a real signal sent to it, and its
//! ending waited for within a bound.

use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Generous: the requirement is "within one second" of the signal (two for a report's
/// grace period), on a busy machine.
pub const BOUND: Duration = Duration::from_secs(5);

/// qa-report with `args` and `stdin`, its stdout and stderr piped.
pub fn spawn(args: &[&str], stdin: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_qa-report"))
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Sends `name` (`-INT`, `-TERM`) to `child` with kill(1).
pub fn signal(child: &Child, name: &str) {
    let sent = Command::new("kill")
        .args([name, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

/// The child's output once it exits within `bound`; otherwise it is killed and the test
/// fails.
pub fn finished_within(mut child: Child, bound: Duration) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > bound {
            let _ = child.kill();
            let _ = child.wait();
            panic!("qa-report still ran {bound:?} after it should have stopped");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Writes `bytes` to `writer` (the child's input, left open and silent), waits `settle`
/// for the child to read them and block, sends it each of `signals`, and returns its
/// output once it ended within [`BOUND`].
pub fn cut_after(
    child: Child,
    writer: &mut impl std::io::Write,
    bytes: &[u8],
    settle: Duration,
    signals: &[&str],
) -> Output {
    writer.write_all(bytes).unwrap();
    writer.flush().unwrap();
    std::thread::sleep(settle);
    for name in signals {
        signal(&child, name);
    }
    finished_within(child, BOUND)
}
