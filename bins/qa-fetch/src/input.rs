//! The record input, read on its own thread: a signal handler that only sets a flag does
//! not end a read waiting on a quiet pipe or terminal, so the stage waits on a channel
//! instead and looks at the flag while it waits.

use std::io::{self, BufRead, Read};
use std::path::Path;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How often a waiting read looks for a signal.
const POLL: Duration = Duration::from_millis(50);
const CHUNK: usize = 64 * 1024;
/// How long the input is still read after a signal (the stages before finish what they
/// were writing): short enough that the stage ends within a second of the signal.
const GRACE: Duration = Duration::from_millis(750);

/// The error a read returns once SIGINT or SIGTERM arrived.
#[derive(Debug)]
pub struct Cancelled;

impl std::fmt::Display for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("cancelled by a signal")
    }
}

impl std::error::Error for Cancelled {}

/// A `BufRead` over chunks a reader thread sends.
pub struct Input {
    chunks: Receiver<io::Result<Vec<u8>>>,
    buf: Vec<u8>,
    pos: usize,
    ended: bool,
    /// When a signal came: how long reading may go on.
    grace: Option<Instant>,
}

/// Opens `path` like `qa_shared::ndjson::open` (`-` is stdin; a missing file is exit 66)
/// and returns its name for messages and the reader.
pub fn open(path: &Path) -> anyhow::Result<(String, Input)> {
    let (opened_tx, opened_rx) = mpsc::channel();
    let (chunks_tx, chunks_rx) = mpsc::sync_channel(8);
    let owned = path.to_path_buf();
    std::thread::spawn(move || {
        let mut input = match qa_shared::ndjson::open(&owned) {
            Ok((name, input)) => {
                let _ = opened_tx.send(Ok(name));
                input
            }
            Err(e) => {
                let _ = opened_tx.send(Err(e));
                return;
            }
        };
        loop {
            let mut chunk = vec![0u8; CHUNK];
            match input.read(&mut chunk) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    let _ = chunks_tx.send(Err(e));
                    return;
                }
                Ok(n) => {
                    chunk.truncate(n);
                    // An empty chunk is the end of input; a closed channel, a stage done.
                    if chunks_tx.send(Ok(chunk)).is_err() || n == 0 {
                        return;
                    }
                }
            }
        }
    });
    let input = |chunks| Input {
        chunks,
        buf: Vec::new(),
        pos: 0,
        ended: false,
        grace: None,
    };
    // Opening a FIFO waits for a writer: a signal ends the wait with an input already at
    // its end (the stage then writes its cancel event), the blocked thread left behind.
    loop {
        match opened_rx.recv_timeout(POLL) {
            Ok(name) => return Ok((name?, input(chunks_rx))),
            Err(RecvTimeoutError::Timeout) if qa_shared::cancel::requested().is_some() => {
                return Ok((shown(path), input(mpsc::sync_channel(0).1)));
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                anyhow::bail!("the input thread ended before opening the input")
            }
        }
    }
}

/// How messages name the input at `path`, as `qa_shared::ndjson::open` does.
fn shown(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "stdin".to_string()
    } else {
        path.display().to_string()
    }
}

impl BufRead for Input {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos == self.buf.len() && !self.ended {
            // After a signal, upstream stages still write what they finished: keep reading
            // until the input ends, for a bounded grace period.
            if qa_shared::cancel::requested().is_some() {
                let until = *self.grace.get_or_insert_with(|| Instant::now() + GRACE);
                if Instant::now() >= until {
                    return Err(io::Error::other(Cancelled));
                }
            }
            match self.chunks.recv_timeout(POLL) {
                Ok(Ok(chunk)) => {
                    self.ended = chunk.is_empty();
                    self.buf = chunk;
                    self.pos = 0;
                }
                Ok(Err(e)) => return Err(e),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => self.ended = true,
            }
        }
        Ok(&self.buf[self.pos..])
    }

    fn consume(&mut self, amount: usize) {
        self.pos = (self.pos + amount).min(self.buf.len());
    }
}

impl Read for Input {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

/// True when `err` is a read ended by a signal, or a signal is pending: either way the
/// stage stops as cancelled rather than failed.
pub fn was_cancelled(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .and_then(|e| e.get_ref())
            .is_some_and(|inner| inner.is::<Cancelled>())
    }) || qa_shared::cancel::requested().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_whole_through_the_thread() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.ndjson");
        let text = "x".repeat(3 * CHUNK + 7);
        std::fs::write(&path, &text).unwrap();
        let (name, mut input) = open(&path).unwrap();
        assert_eq!(name, path.display().to_string());
        let mut read = String::new();
        input.read_to_string(&mut read).unwrap();
        assert_eq!(read, text);
    }

    #[test]
    fn a_missing_file_is_exit_66() {
        let err = open(Path::new("/nonexistent/in.ndjson")).err().unwrap();
        assert_eq!(qa_shared::exit::exit_of(&err), qa_shared::Exit::NoInput);
    }
}
