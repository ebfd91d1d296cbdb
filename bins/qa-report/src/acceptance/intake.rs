//! Reading the stream of an acceptance run while watching for SIGINT/SIGTERM: a blocking
//! read cannot be interrupted, so a reader thread hands over whole lines and the run
//! stops waiting as soon as a signal is noted, keeping what it read.

use anyhow::Context as _;
use qa_shared::Exit;
use std::io::BufRead as _;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// How often the run looks for a signal while no line arrives.
const POLL: Duration = Duration::from_millis(25);

/// What was read: the whole stream, or the lines read before a signal.
#[derive(Debug)]
pub enum Intake {
    Complete(Vec<u8>),
    Cancelled(Vec<u8>, Exit),
}

enum Chunk {
    Line(Vec<u8>),
    End,
    Failed(anyhow::Error),
}

/// Reads `input` (`-` is stdin), calling `on_line` with each line as it arrives.
pub fn read(
    input: &Path,
    mut on_line: impl FnMut(&[u8]) -> anyhow::Result<()>,
) -> anyhow::Result<Intake> {
    let (tx, rx) = mpsc::sync_channel::<Chunk>(256);
    let path: PathBuf = input.to_path_buf();
    // The thread is left blocked in its read when a signal ends the run: the process exits
    // after the partial report without waiting for it.
    std::thread::spawn(move || {
        let (source, mut reader) = match qa_shared::ndjson::open(&path) {
            Ok(opened) => opened,
            Err(e) => {
                let _ = tx.send(Chunk::Failed(e));
                return;
            }
        };
        loop {
            let mut line = Vec::new();
            match reader.read_until(b'\n', &mut line) {
                Ok(0) => {
                    let _ = tx.send(Chunk::End);
                    return;
                }
                Ok(_) => {
                    if tx.send(Chunk::Line(line)).is_err() {
                        return;
                    }
                }
                Err(e) => {
                    let _ = tx.send(Chunk::Failed(
                        anyhow::Error::new(e).context(format!("reading {source}")),
                    ));
                    return;
                }
            }
        }
    });
    let mut stream = Vec::new();
    // After a signal the upstream stages are still writing what they finished and their
    // cancelled records: keep reading until the stream ends, for a bounded grace period.
    let mut deadline: Option<(std::time::Instant, qa_shared::Exit)> = None;
    loop {
        if deadline.is_none() {
            if let Some(signal) = qa_shared::cancel::requested() {
                deadline = Some((std::time::Instant::now() + GRACE, signal));
            }
        }
        if let Some((until, signal)) = deadline {
            if std::time::Instant::now() >= until {
                return Ok(Intake::Cancelled(stream, signal));
            }
        }
        match rx.recv_timeout(POLL) {
            Ok(Chunk::Line(line)) => {
                on_line(&line).context("while reading the stream")?;
                stream.extend_from_slice(&line);
            }
            Ok(Chunk::End) | Err(RecvTimeoutError::Disconnected) => {
                return Ok(match deadline {
                    Some((_, signal)) => Intake::Cancelled(stream, signal),
                    None => Intake::Complete(stream),
                })
            }
            Ok(Chunk::Failed(e)) => return Err(e),
            Err(RecvTimeoutError::Timeout) => {}
        }
    }
}

/// How long qa-report keeps reading after a signal for what upstream stages finish.
const GRACE: std::time::Duration = std::time::Duration::from_secs(2);
