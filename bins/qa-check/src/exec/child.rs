//! Running a cleared command: in its directory, in a process group of its own, under a
//! time limit and qa-check's own cancellation. Its output is counted, hashed and, on a
//! terminal, echoed to qa-check's stderr as it comes; it is never written anywhere. Only
//! the last [`TAIL_BYTES`] of each stream stay in memory, for recognising a runner that
//! was not found (`missing.rs`), and each line is read for test counts as it streams
//! (`count.rs`).

use std::io::{Read, Write as _};
use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use qa_records::hash::hex;
use qa_records::Exit;
use sha2::{Digest, Sha256};

use super::count::{Lines, Stream};
use crate::process::{group_alive, group_has_live_members, kill_group, signal_group};
use crate::waiting::CANCEL_POLL;

/// Between SIGTERM to the group and SIGKILL.
pub const KILL_GRACE: Duration = Duration::from_secs(2);

/// How much of the end of each output stream is kept in memory.
pub const TAIL_BYTES: usize = 8 * 1024;

/// How the command's process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Exited,
    TimedOut,
    Cancelled(Exit),
}

/// One output stream: bytes seen, their SHA-256, and the last [`TAIL_BYTES`] of them
/// (in memory only: a record never holds output).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub bytes: u64,
    pub sha256: String,
    pub tail: Vec<u8>,
}

/// What a run came to.
#[derive(Debug)]
pub struct Finished {
    pub ending: Ending,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub duration: Duration,
    pub stdout: Output,
    pub stderr: Output,
}

/// Runs `run` with `/bin/sh -c` in `dir`. The line is a shell-quoted command qa-route
/// wrote (`qa_commands::quote`), so a shell is what reads it as intended; it gets
/// here only after the refusal guards cleared it. `echo` copies output to our stderr;
/// `cancelled` is polled for SIGINT/SIGTERM to qa-check; `lines` reads the output for
/// test counts.
pub fn run(
    run: &str,
    dir: &Path,
    timeout: Duration,
    echo: bool,
    cancelled: impl Fn() -> Option<Exit>,
    lines: &Arc<Mutex<Lines>>,
) -> Result<Finished> {
    let mut child = Command::new("/bin/sh")
        .arg("-c")
        .arg(run)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .with_context(|| format!("starting `{run}` in {}", dir.display()))?;
    let started = Instant::now();
    let pgid = child.id();
    let (done_tx, done_rx) = mpsc::channel();
    let stdout = drain(
        child.stdout.take(),
        echo,
        (Stream::Stdout, Arc::clone(lines)),
        done_tx.clone(),
    );
    let stderr = drain(
        child.stderr.take(),
        echo,
        (Stream::Stderr, Arc::clone(lines)),
        done_tx,
    );
    let deadline = started + timeout;
    // The leader is waited for on a thread of its own, so its exit is seen at once rather
    // than at the next poll; the loop wakes every CANCEL_POLL for cancellation and the
    // deadline.
    let (exit_tx, exit_rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = exit_tx.send(child.wait());
    });
    let (ending, status) = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match exit_rx.recv_timeout(CANCEL_POLL.min(left)) {
            Ok(status) => break (Ending::Exited, status.context("waiting for the command")?),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                anyhow::bail!("the command's waiter ended without its status")
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if let Some(exit) = cancelled() {
            break (Ending::Cancelled(exit), stop(pgid, &exit_rx)?);
        }
        if Instant::now() >= deadline {
            break (Ending::TimedOut, stop(pgid, &exit_rx)?);
        }
    };
    let duration = started.elapsed();
    // Nothing the command started outlives it: what is left of its group goes too.
    if group_alive(pgid) {
        end_group(pgid);
    }
    // The pipes close when the last process holding them is gone; one that left the group
    // (setsid) could hold them open, so the wait is bounded.
    let until = Instant::now() + KILL_GRACE;
    for _ in 0..2 {
        if done_rx
            .recv_timeout(until.saturating_duration_since(Instant::now()))
            .is_err()
        {
            break;
        }
    }
    Ok(Finished {
        ending,
        exit_code: status.code(),
        signal: status.signal(),
        duration,
        stdout: finish(&stdout),
        stderr: finish(&stderr),
    })
}

/// SIGTERM to the group, SIGKILL [`KILL_GRACE`] later to whatever is left; returns the
/// leader's status, from its waiter.
fn stop(pgid: u32, exit: &mpsc::Receiver<std::io::Result<ExitStatus>>) -> Result<ExitStatus> {
    end_group(pgid);
    exit.recv()
        .context("the command's waiter ended without its status")?
        .context("waiting for the stopped command")
}

/// SIGTERM to group `pgid`, then SIGKILL once the group is empty or the grace ran out.
fn end_group(pgid: u32) {
    signal_group(pgid, libc::SIGTERM);
    let until = Instant::now() + KILL_GRACE;
    // A zombie does not count: the leader stays one until its waiter reaps it.
    while Instant::now() < until && group_has_live_members(pgid) {
        thread::sleep(Duration::from_millis(20));
    }
    kill_group(pgid);
}

/// Bytes seen, their running hash, and the last [`TAIL_BYTES`] of them.
type Tally = Arc<Mutex<(u64, Sha256, Vec<u8>)>>;

/// Reads `pipe` to its end on a thread of its own, counting and hashing every byte,
/// keeping the last [`TAIL_BYTES`], handing it to `lines` as `stream`, and echoing it to
/// stderr when `echo`; says `done` at the end.
fn drain(
    pipe: Option<impl Read + Send + 'static>,
    echo: bool,
    (stream, lines): (Stream, Arc<Mutex<Lines>>),
    done: mpsc::Sender<()>,
) -> Tally {
    let tally: Tally = Arc::new(Mutex::new((0, Sha256::new(), Vec::new())));
    let Some(mut pipe) = pipe else {
        let _ = done.send(());
        return tally;
    };
    let shared = Arc::clone(&tally);
    thread::spawn(move || {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = match pipe.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            {
                let mut tally = shared.lock().unwrap_or_else(|e| e.into_inner());
                tally.0 += n as u64;
                tally.1.update(&buf[..n]);
                keep_tail(&mut tally.2, &buf[..n]);
            }
            lines
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .feed(stream, &buf[..n]);
            if echo {
                // Echo is a courtesy: a closed stderr must not stop the count.
                let mut err = std::io::stderr().lock();
                let _ = err.write_all(&buf[..n]).and_then(|()| err.flush());
            }
        }
        let _ = done.send(());
    });
    tally
}

/// Appends `bytes` to `tail`, dropping its front past [`TAIL_BYTES`].
fn keep_tail(tail: &mut Vec<u8>, bytes: &[u8]) {
    let bytes = &bytes[bytes.len().saturating_sub(TAIL_BYTES)..];
    let over = (tail.len() + bytes.len()).saturating_sub(TAIL_BYTES);
    tail.drain(..over.min(tail.len()));
    tail.extend_from_slice(bytes);
}

fn finish(tally: &Tally) -> Output {
    let tally = tally.lock().unwrap_or_else(|e| e.into_inner());
    Output {
        bytes: tally.0,
        sha256: hex(&tally.1.clone().finalize()),
        tail: tally.2.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_keeps_only_the_last_bytes_across_reads() {
        let mut tail = Vec::new();
        keep_tail(&mut tail, &vec![b'a'; TAIL_BYTES - 2]);
        keep_tail(&mut tail, b"bcde");
        assert_eq!(tail.len(), TAIL_BYTES);
        assert!(tail.ends_with(b"aabcde"));
        keep_tail(&mut tail, &vec![b'z'; TAIL_BYTES + 5]);
        assert_eq!(tail, vec![b'z'; TAIL_BYTES]);
    }
}
