//! The stream qa-report reads: stdin or `--in FILE` (a pipe or a regular file, never a
//! device, socket or directory), read on a helper thread so SIGINT or SIGTERM ends even a
//! read that blocks (an idle FIFO), with each line and the whole stream bounded.

use crate::out::Saved;
use qa_shared::exit::{failure, Exit};
use std::io;
use std::os::unix::fs::FileTypeExt as _;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The most bytes one line may hold (16 MiB, as every stage reads).
pub const MAX_LINE: usize = qa_shared::ndjson::DEFAULT_MAX_LINE;

/// The most bytes a stream may hold (4 GiB): far above any flow's stream, low enough that
/// an endless input (`/dev/zero` with newlines, `yes`) stops.
pub const MAX_STREAM: u64 = 4 << 30;

/// How much the reader thread hands over at a time.
const CHUNK: usize = 64 << 10;

/// Chunks in flight between the reader thread and the report.
const IN_FLIGHT: usize = 16;

/// How often a waiting read looks for a signal.
const POLL: Duration = Duration::from_millis(25);

/// What the next call to [`Input::next_line`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Next<'a> {
    /// A non-blank line (without its `\n` or `\r\n`) and its 1-based number.
    Line(u64, &'a [u8]),
    /// Line `n` is longer than [`MAX_LINE`]: reading stops there.
    TooLong(u64),
    /// The end of the stream, or a signal ended reading (see [`Input::interrupted`]).
    End,
}

enum Chunk {
    Data(Vec<u8>),
    End,
    Failed(anyhow::Error),
}

/// A record stream being read, line by line.
pub struct Input {
    /// Names the input in messages: `stdin` or the path.
    pub source: String,
    rx: Receiver<Chunk>,
    chunk: Vec<u8>,
    at: usize,
    line: Vec<u8>,
    /// True when `line` was handed out and is cleared at the next call.
    returned: bool,
    number: u64,
    total: u64,
    done: bool,
    /// After a signal, how long to keep reading what upstream stages finish.
    grace: Duration,
    signal: Option<(Exit, Instant)>,
    /// Where the stream is saved as read, for the --out folder.
    saved: Option<Saved>,
}

impl Input {
    /// Starts reading `path` (`-` is stdin). Opening happens on the reader thread (opening
    /// a FIFO waits for its writer); its failure arrives with the first read.
    pub fn open(path: &Path) -> Input {
        let (tx, rx) = mpsc::sync_channel::<Chunk>(IN_FLIGHT);
        let path: PathBuf = path.to_path_buf();
        let source = source_name(&path);
        let name = source.clone();
        // Left blocked in its read when a signal ends the run: the process exits without it.
        std::thread::spawn(move || {
            let mut reader = match open_file(&path) {
                Ok(r) => r,
                Err(e) => {
                    let _ = tx.send(Chunk::Failed(e));
                    return;
                }
            };
            loop {
                let mut buf = vec![0; CHUNK];
                match reader.read(&mut buf) {
                    Ok(0) => {
                        let _ = tx.send(Chunk::End);
                        return;
                    }
                    Ok(n) => {
                        buf.truncate(n);
                        if tx.send(Chunk::Data(buf)).is_err() {
                            return;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        let error = anyhow::Error::new(e).context(format!("reading {name}"));
                        let _ = tx.send(Chunk::Failed(error));
                        return;
                    }
                }
            }
        });
        Input {
            source,
            rx,
            chunk: Vec::new(),
            at: 0,
            line: Vec::new(),
            returned: false,
            number: 0,
            total: 0,
            done: false,
            grace: Duration::ZERO,
            signal: None,
            saved: None,
        }
    }

    /// Keeps reading for `grace` after a signal (what upstream stages still finish).
    pub fn with_grace(mut self, grace: Duration) -> Input {
        self.grace = grace;
        self
    }

    /// Saves every byte read from now on into `saved`.
    pub fn save_into(&mut self, saved: Saved) {
        self.saved = Some(saved);
    }

    /// The saved stream, taken back.
    pub fn take_saved(&mut self) -> Option<Saved> {
        self.saved.take()
    }

    /// The signal noted while reading, if any: after one, [`Input::next_line`] ends the stream
    /// once the grace period is over.
    pub fn interrupted(&self) -> Option<Exit> {
        self.signal.map(|(exit, _)| exit)
    }

    /// The next line. A failure to open or read the input, or a stream over
    /// [`MAX_STREAM`], is an error naming the input.
    pub fn next_line(&mut self) -> anyhow::Result<Next<'_>> {
        // The line handed out last is done with once the next one is asked for.
        if std::mem::take(&mut self.returned) {
            self.line.clear();
        }
        loop {
            if self.done {
                return Ok(Next::End);
            }
            if self.at < self.chunk.len() {
                let rest = &self.chunk[self.at..];
                let (part, used, ended) = match rest.iter().position(|&b| b == b'\n') {
                    Some(i) => (&rest[..i], i + 1, true),
                    None => (rest, rest.len(), false),
                };
                if self.line.len() + part.len() > MAX_LINE {
                    self.done = true;
                    return Ok(Next::TooLong(self.number + 1));
                }
                self.line.extend_from_slice(part);
                self.at += used;
                if ended && self.take_line() {
                    self.returned = true;
                    return Ok(Next::Line(self.number, &self.line));
                }
                continue;
            }
            match self.receive()? {
                Some(data) => {
                    self.total += data.len() as u64;
                    if self.total > MAX_STREAM {
                        return Err(failure(
                            Exit::DataErr,
                            format!(
                                "{} holds more than {} GiB of records: refused",
                                self.source,
                                MAX_STREAM >> 30
                            ),
                        ));
                    }
                    if let Some(saved) = &mut self.saved {
                        saved.write(&data)?;
                    }
                    self.chunk = data;
                    self.at = 0;
                }
                None => {
                    self.done = true;
                    // A last line without its newline still counts.
                    if !self.line.is_empty() && self.take_line() {
                        self.returned = true;
                        return Ok(Next::Line(self.number, &self.line));
                    }
                }
            }
        }
    }

    /// Numbers the line just completed in `line`; false when it is blank (it is cleared).
    fn take_line(&mut self) -> bool {
        self.number += 1;
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        if self.line.iter().all(u8::is_ascii_whitespace) {
            self.line.clear();
            return false;
        }
        true
    }

    /// The next chunk, None at the end (or when a signal ends reading).
    fn receive(&mut self) -> anyhow::Result<Option<Vec<u8>>> {
        loop {
            if self.signal.is_none() {
                if let Some(exit) = qa_shared::cancel::requested() {
                    self.signal = Some((exit, Instant::now() + self.grace));
                }
            }
            if let Some((_, until)) = self.signal {
                if Instant::now() >= until {
                    return Ok(None);
                }
            }
            match self.rx.recv_timeout(POLL) {
                Ok(Chunk::Data(data)) => return Ok(Some(data)),
                Ok(Chunk::End) | Err(RecvTimeoutError::Disconnected) => return Ok(None),
                Ok(Chunk::Failed(e)) => return Err(e),
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }
}

/// `stdin` for `-`, else the path as given.
fn source_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "stdin".to_string()
    } else {
        path.display().to_string()
    }
}

/// Opens the input. A missing file is exit 66; a directory, device or socket is not a
/// record stream (exit 65): a record file is a regular file or a pipe.
fn open_file(path: &Path) -> anyhow::Result<Box<dyn io::BufRead>> {
    if path.as_os_str() != "-" {
        if let Ok(meta) = std::fs::metadata(path) {
            let kind = meta.file_type();
            let what = if kind.is_char_device() || kind.is_block_device() {
                Some("a device")
            } else if kind.is_socket() {
                Some("a socket")
            } else {
                None
            };
            if let Some(what) = what {
                return Err(failure(
                    Exit::DataErr,
                    format!(
                        "{} is {what}, not a record file (a regular file or a pipe)",
                        path.display()
                    ),
                ));
            }
        }
    }
    Ok(qa_shared::ndjson::open(path)?.1)
}
