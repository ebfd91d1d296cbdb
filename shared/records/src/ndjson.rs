//! Reading NDJSON streams: numbered lines, a line-size limit, `\r\n`, blank lines; inputs
//! read on a thread of their own so that a stage waiting for them still stops on a signal.

use crate::envelope::{Envelope, EnvelopeError};
use crate::exit::{failure, Exit, Failure};
use crate::kind::Kind;
use crate::output::RecordWriter;
use serde_json::value::RawValue;
use std::fmt;
use std::io::{self, BufRead, Read};
use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::time::Duration;

/// The default limit on one line's bytes (16 MiB): far above any record qapipe writes,
/// low enough that a runaway input (`/dev/zero` has no newline) cannot exhaust memory.
pub const DEFAULT_MAX_LINE: usize = 16 << 20;

/// Why a line could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The line (1-based) is longer than the limit. The reader stops there; asked for the
    /// next line, it first skips the rest of this one.
    TooLong { line: u64, max: usize },
    /// The input holds more than the whole-stream limit (see [`LineReader::with_total`]);
    /// reading ends there.
    StreamTooLong { max: u64 },
    /// A failed read; a cancelled one (see [`LineReader::cancellable`]) carries the
    /// signal's [`Failure`], which [`cancelled`] finds.
    Io(io::Error),
    /// Writing the copy of what was read failed (see [`LineReader::copying_into`]).
    Copy(io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::TooLong { line, max } => {
                write!(f, "line {line}: longer than the {max}-byte line limit")
            }
            ReadError::StreamTooLong { max } => {
                write!(f, "longer than the {max}-byte stream limit")
            }
            ReadError::Io(e) => write!(f, "reading: {e}"),
            ReadError::Copy(e) => write!(f, "copying what was read: {e}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// The exit a cancelled read asks for (130 or 143), if `e` is one.
pub fn cancelled(e: &io::Error) -> Option<Exit> {
    e.get_ref()?.downcast_ref::<Failure>().map(|f| f.exit)
}

fn cancelled_read(exit: Exit) -> io::Error {
    io::Error::other(Failure {
        exit,
        message: format!("cancelled by {}", crate::cancel::signal_name(exit)),
    })
}

/// Reads lines one at a time, each at most `max` bytes, numbering them from 1.
/// Trailing `\r` is dropped and blank lines are skipped (but counted). Every byte read can
/// also go to a copy `C` as it is read ([`LineReader::copying_into`]).
pub struct LineReader<R, C = io::Sink> {
    inner: R,
    max: usize,
    number: u64,
    buf: Vec<u8>,
    /// The rest of an overlong line is still to be skipped.
    skipping: bool,
    /// After a signal, how long reading goes on (None: it is not cancellable).
    grace: Option<Duration>,
    /// The most bytes the whole input may hold, and how many were read.
    max_total: u64,
    total: u64,
    copy: Option<C>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(inner: R) -> Self {
        Self::with_limit(inner, DEFAULT_MAX_LINE)
    }

    pub fn with_limit(inner: R, max: usize) -> Self {
        LineReader {
            inner,
            max,
            number: 0,
            buf: Vec::new(),
            skipping: false,
            grace: None,
            max_total: u64::MAX,
            total: 0,
            copy: None,
        }
    }
}

impl<R: BufRead, C: io::Write> LineReader<R, C> {
    /// Stops reading once a signal's grace period is over ([`crate::cancel::overdue`]):
    /// checked before every read, and whenever an [`Input`] has waited a tick for bytes.
    /// The error is [`ReadError::Io`] carrying the signal's exit ([`cancelled`]).
    pub fn cancellable(self) -> Self {
        self.cancellable_after(crate::cancel::GRACE)
    }

    /// [`LineReader::cancellable`] with a grace period of its own: for a stage that
    /// documents why it needs another than [`crate::cancel::GRACE`].
    pub fn cancellable_after(mut self, grace: Duration) -> Self {
        self.grace = Some(grace);
        self
    }

    /// Limits the whole input to `max` bytes (blank lines and line ends included): an
    /// endless input of short or blank lines stops with [`ReadError::StreamTooLong`].
    pub fn with_total(mut self, max: u64) -> Self {
        self.max_total = max;
        self
    }

    /// Writes every byte read, as read, to `copy` (if any): blank lines, `\r` and an
    /// overlong line's bytes too. Taken back with [`LineReader::take_copy`].
    pub fn copying_into<D: io::Write>(self, copy: Option<D>) -> LineReader<R, D> {
        LineReader {
            inner: self.inner,
            max: self.max,
            number: self.number,
            buf: self.buf,
            skipping: self.skipping,
            grace: self.grace,
            max_total: self.max_total,
            total: self.total,
            copy,
        }
    }

    /// The copy of what was read, taken back (see [`LineReader::copying_into`]).
    pub fn take_copy(&mut self) -> Option<C> {
        self.copy.take()
    }

    /// The number of the last line read (blank ones included).
    pub fn line(&self) -> u64 {
        self.number
    }

    /// The next non-blank line and its number, or None at the end of input.
    pub fn next_line(&mut self) -> Option<Result<(u64, &[u8]), ReadError>> {
        loop {
            match self.read_one() {
                Ok(false) => return None,
                Ok(true) => {}
                Err(e) => return Some(Err(e)),
            }
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
            if !self.buf.iter().all(u8::is_ascii_whitespace) {
                return Some(Ok((self.number, &self.buf)));
            }
        }
    }

    /// Skips to the end of the overlong line read last.
    fn skip_rest(&mut self) -> Result<(), ReadError> {
        while self.skipping {
            let available = fill(&mut self.inner, self.grace)?;
            if available.is_empty() {
                self.skipping = false;
                break;
            }
            let (used, done) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            };
            taken(&mut self.copy, &mut self.total, &available[..used])?;
            self.inner.consume(used);
            self.skipping = !done;
            self.within_total()?;
        }
        Ok(())
    }

    /// Reads one raw line into `buf`; false at the end of input. A line over the limit is
    /// an error as soon as the limit is passed: an input without newlines is not read on.
    fn read_one(&mut self) -> Result<bool, ReadError> {
        self.buf.clear();
        self.within_total()?;
        self.skip_rest()?;
        let mut any = false;
        loop {
            let max = self.max;
            let held = self.buf.len();
            let available = fill(&mut self.inner, self.grace)?;
            if available.is_empty() {
                if !any {
                    return Ok(false);
                }
                break;
            }
            any = true;
            let (chunk, used, done) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..i], i + 1, true),
                None => (available, available.len(), false),
            };
            if held + chunk.len() > max {
                taken(&mut self.copy, &mut self.total, &available[..used])?;
                self.inner.consume(used);
                self.buf.clear();
                self.skipping = !done;
                self.number += 1;
                self.within_total()?;
                return Err(ReadError::TooLong {
                    line: self.number,
                    max,
                });
            }
            self.buf.extend_from_slice(chunk);
            taken(&mut self.copy, &mut self.total, &available[..used])?;
            self.inner.consume(used);
            self.within_total()?;
            if done {
                break;
            }
        }
        self.number += 1;
        Ok(true)
    }

    /// An error once more bytes were read than the whole input may hold.
    fn within_total(&self) -> Result<(), ReadError> {
        if self.total > self.max_total {
            return Err(ReadError::StreamTooLong {
                max: self.max_total,
            });
        }
        Ok(())
    }
}

/// Counts `bytes` as read and writes them to the copy, if any.
fn taken<C: io::Write>(
    copy: &mut Option<C>,
    total: &mut u64,
    bytes: &[u8],
) -> Result<(), ReadError> {
    *total += bytes.len() as u64;
    match copy {
        Some(copy) => copy.write_all(bytes).map_err(ReadError::Copy),
        None => Ok(()),
    }
}

/// The bytes available next in `inner` (empty at the end of input): retried while
/// interrupted, unless cancellable (`grace` is Some) and a signal is overdue.
fn fill<R: BufRead>(inner: &mut R, grace: Option<Duration>) -> Result<&[u8], ReadError> {
    loop {
        if let Some(grace) = grace {
            if let Some(exit) = crate::cancel::overdue_after(grace) {
                return Err(ReadError::Io(cancelled_read(exit)));
            }
        }
        match inner.fill_buf() {
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ReadError::Io(e)),
        }
    }
    // Borrowed again outside the loop (the borrow checker cannot see that the checked
    // call above returned Ok); a buffered reader answers from its buffer.
    inner.fill_buf().map_err(ReadError::Io)
}

/// How long an [`Input`] waits for bytes before it lets its reader look at the signal flag.
const TICK: Duration = Duration::from_millis(50);
/// Bytes per read of an [`Input`]'s thread, and how many reads it may run ahead.
const CHUNK: usize = 64 << 10;
const AHEAD: usize = 16;

/// A record input read on a thread of its own (a pipe, a FIFO, a terminal: anything that
/// can block), so that waiting for it never blocks the stage: while no bytes come,
/// `fill_buf` returns `ErrorKind::Interrupted` every [`TICK`], which std's readers retry
/// and a cancellable [`LineReader`] takes to look at the signal flag. Opening happens on
/// the thread too (opening a FIFO waits for its writer). When the stage ends, the thread
/// is left blocked where it is.
pub struct Input {
    chunks: Receiver<io::Result<Vec<u8>>>,
    chunk: Vec<u8>,
    at: usize,
    ended: bool,
}

impl Input {
    /// Starts the thread that opens the input with `open` and reads it.
    pub fn spawn<R: Read>(open: impl FnOnce() -> io::Result<R> + Send + 'static) -> Input {
        let (sender, chunks) = sync_channel(AHEAD);
        let pump = move || {
            let mut source = match open() {
                Ok(source) => source,
                Err(e) => {
                    let _ = sender.send(Err(e));
                    return;
                }
            };
            loop {
                let mut chunk = vec![0; CHUNK];
                match source.read(&mut chunk) {
                    Ok(0) => return,
                    Ok(n) => {
                        chunk.truncate(n);
                        // The stage stopped reading: nothing left to do.
                        if sender.send(Ok(chunk)).is_err() {
                            return;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        let _ = sender.send(Err(e));
                        return;
                    }
                }
            }
        };
        // Without a thread (none can be started) the input is read where it is asked for.
        let (direct_sender, direct) = sync_channel(1);
        if std::thread::Builder::new()
            .name("input".into())
            .spawn(pump)
            .is_err()
        {
            let _ = direct_sender.send(Err(io::Error::other("cannot start the input thread")));
            return Input::over(direct);
        }
        Input::over(chunks)
    }

    fn over(chunks: Receiver<io::Result<Vec<u8>>>) -> Input {
        Input {
            chunks,
            chunk: Vec::new(),
            at: 0,
            ended: false,
        }
    }
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Input {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.at >= self.chunk.len() && !self.ended {
            match self.chunks.recv_timeout(TICK) {
                Ok(Ok(chunk)) => {
                    self.chunk = chunk;
                    self.at = 0;
                }
                Ok(Err(e)) => {
                    self.ended = true;
                    return Err(e);
                }
                Err(RecvTimeoutError::Timeout) => return Err(io::ErrorKind::Interrupted.into()),
                Err(RecvTimeoutError::Disconnected) => self.ended = true,
            }
        }
        Ok(&self.chunk[self.at.min(self.chunk.len())..])
    }

    fn consume(&mut self, amount: usize) {
        self.at += amount;
    }
}

/// Stdin, when it is a regular file (`< file`): read directly, it never blocks.
fn stdin_file() -> Option<std::fs::File> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd as _;
        let file = std::fs::File::from(io::stdin().as_fd().try_clone_to_owned().ok()?);
        file.metadata().ok()?.is_file().then_some(file)
    }
    #[cfg(not(unix))]
    None
}

/// What a record input named on the command line may be, besides a regular file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Accept {
    /// Anything that reads: a pipe, a FIFO, a device (bounded by the line limit).
    Any,
    /// A pipe or a FIFO: a device or a socket is refused (exit 65) before it is read.
    Pipes,
}

/// Opens a record input named on the command line: `-` is stdin. Returns the name to use
/// in messages (`stdin` or the path) and a buffered reader. A missing file is exit 66, a
/// directory exit 65. Anything but a regular file (a pipe, a FIFO, a device) is read as
/// an [`Input`], so that waiting for it can be cancelled.
pub fn open(path: &Path) -> anyhow::Result<(String, Box<dyn BufRead>)> {
    open_accepting(path, Accept::Any)
}

/// [`open`], refusing what `accept` does not allow (stdin is taken as it is).
pub fn open_accepting(path: &Path, accept: Accept) -> anyhow::Result<(String, Box<dyn BufRead>)> {
    if path.as_os_str() == "-" {
        let input: Box<dyn BufRead> = match stdin_file() {
            Some(file) => Box::new(io::BufReader::with_capacity(CHUNK, file)),
            None => Box::new(Input::spawn(|| Ok(io::stdin()))),
        };
        return Ok(("stdin".to_string(), input));
    }
    let name = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| {
        let exit = if e.kind() == io::ErrorKind::NotFound {
            Exit::NoInput
        } else {
            Exit::DataErr
        };
        failure(exit, format!("{name}: {e}"))
    })?;
    if meta.is_dir() {
        return Err(failure(
            Exit::DataErr,
            format!("{name} is a directory, not a record file"),
        ));
    }
    if let (Accept::Pipes, Some(what)) = (accept, special(&meta)) {
        return Err(failure(
            Exit::DataErr,
            format!("{name} is {what}, not a record file (a regular file or a pipe)"),
        ));
    }
    if !meta.is_file() {
        let path = path.to_path_buf();
        return Ok((
            name,
            Box::new(Input::spawn(move || std::fs::File::open(path))),
        ));
    }
    let file =
        std::fs::File::open(path).map_err(|e| failure(Exit::DataErr, format!("{name}: {e}")))?;
    Ok((name, Box::new(io::BufReader::with_capacity(CHUNK, file))))
}

/// What `meta` is when it is a device or a socket: not a record file.
fn special(meta: &std::fs::Metadata) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        let kind = meta.file_type();
        if kind.is_char_device() || kind.is_block_device() {
            return Some("a device");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
    }
    let _ = meta;
    None
}

/// Copies every record of `input` to `out` unchanged but for the `\n` terminator, checking
/// each envelope on the way (unknown kinds pass; a newer version of a known kind does
/// not). The first bad line stops with exit 65, naming `source` and the line; what was
/// forwarded before it stays written. Returns the number of records forwarded.
pub fn forward<R: BufRead, W: std::io::Write>(
    source: &str,
    input: R,
    out: &mut RecordWriter<W>,
) -> anyhow::Result<u64> {
    forward_each_reading(source, input, out, |_| false, |_, _| Ok(()))
}

/// [`forward`], handing each checked envelope and its line number to `visit` after the
/// line is written: the way a filter stage collects what its analysis needs. An error
/// from `visit` stops the stream there (records already forwarded stay written). After
/// SIGINT or SIGTERM, reading goes on for [`crate::cancel::GRACE`] (what upstream stages
/// finish still arrives), then stops with exit 130 or 143 naming the last line read.
pub fn forward_each<R: BufRead, W: std::io::Write>(
    source: &str,
    input: R,
    out: &mut RecordWriter<W>,
    mut visit: impl FnMut(u64, Envelope) -> anyhow::Result<()>,
) -> anyhow::Result<u64> {
    forward_each_writing(source, input, out, |line, envelope, _| {
        visit(line, envelope)
    })
}

/// [`forward_each`] whose `visit` also gets the writer: a stage that writes its own
/// records right after the line they answer, not once the input ends.
pub fn forward_each_writing<R: BufRead, W: std::io::Write>(
    source: &str,
    input: R,
    out: &mut RecordWriter<W>,
    mut visit: impl FnMut(u64, Envelope, &mut RecordWriter<W>) -> anyhow::Result<()>,
) -> anyhow::Result<u64> {
    forward_lines(source, input, out, Data::Built, |line, read, out| {
        visit(line, envelope_of(read), out)
    })
}

/// [`forward_each`] for a stage that reads the data of some kinds only: `reads` names
/// them (by the record's `kind`), and every other envelope reaches `visit` with `data`
/// `Value::Null` ([`Envelope::parse_reading`]). Forwarded lines are the input's either way.
pub fn forward_each_reading<R: BufRead, W: std::io::Write>(
    source: &str,
    input: R,
    out: &mut RecordWriter<W>,
    reads: impl Fn(&str) -> bool,
    mut visit: impl FnMut(u64, Envelope) -> anyhow::Result<()>,
) -> anyhow::Result<u64> {
    forward_lines(
        source,
        input,
        out,
        Data::Reading(&reads),
        |line, read, _| visit(line, envelope_of(read)),
    )
}

/// [`forward_each`] for a stage that reads record data into its own types: `visit` gets
/// the data's text where it is canonical, as every stage writes it, with the envelope's
/// `data` left unbuilt (`Value::Null`); other data is built as [`forward_each`] builds
/// it, with no text ([`Envelope::parse_canonical`]). Read with [`data_of_text`], a large
/// record never becomes a `Value` tree, several times the size of its line.
pub fn forward_each_text<R: BufRead, W: std::io::Write>(
    source: &str,
    input: R,
    out: &mut RecordWriter<W>,
    mut visit: impl FnMut(u64, Envelope, Option<&RawValue>) -> anyhow::Result<()>,
) -> anyhow::Result<u64> {
    forward_lines(
        source,
        input,
        out,
        Data::Text(&[]),
        |line, read, _| match read {
            Line::Read(envelope, text) => visit(line, envelope, text),
            Line::Unread(_) => unreachable!("no kind is left unread"),
        },
    )
}

/// A line [`forward_each_text_unread`] forwarded.
// Handed to the visit once per line and never kept: boxing the envelope would cost an
// allocation per record for nothing.
#[allow(clippy::large_enum_variant)]
pub enum Line<'l> {
    /// A record read as [`forward_each_text`] reads it: its envelope and data text.
    Read(Envelope, Option<&'l RawValue>),
    /// A record of a kind the stage does not read, checked without building its
    /// envelope ([`Envelope::unread_kind`]).
    Unread(Kind),
}

/// [`forward_each_text`] for a stage that reads nothing of the records of `unread` kinds
/// but their kind: those written as every stage writes them reach `visit` as
/// [`Line::Unread`], checked as the parse checks them, without their envelope being built
/// (any other line of those kinds is read as [`forward_each_text`] reads it, so a bad one
/// fails the same way). Forwarded lines are the input's either way.
pub fn forward_each_text_unread<R: BufRead, W: std::io::Write>(
    source: &str,
    input: R,
    out: &mut RecordWriter<W>,
    unread: &[Kind],
    mut visit: impl FnMut(u64, Line) -> anyhow::Result<()>,
) -> anyhow::Result<u64> {
    forward_lines(source, input, out, Data::Text(unread), |line, read, _| {
        visit(line, read)
    })
}

/// Which record data the reading loop builds.
#[derive(Clone, Copy)]
enum Data<'r> {
    /// Every record's, as a `Value`.
    Built,
    /// The data of the kinds this accepts; `Value::Null` for any other.
    Reading(&'r dyn Fn(&str) -> bool),
    /// None where the data is canonical: its text is handed on instead. Records of the
    /// kinds listed, written as stages write them, are not read at all.
    Text(&'r [Kind]),
}

/// The envelope of a line the reading loop read, or `Line::Unread`.
fn envelope_of(line: Line) -> Envelope {
    match line {
        Line::Read(envelope, _) => envelope,
        // Only `Data::Text` with kinds to pass leaves lines unread.
        Line::Unread(_) => unreachable!("a line left unread by a loop that reads all"),
    }
}

/// The reading loop, each line parsed once.
fn forward_lines<R: BufRead, W: std::io::Write>(
    source: &str,
    input: R,
    out: &mut RecordWriter<W>,
    data: Data,
    mut visit: impl FnMut(u64, Line, &mut RecordWriter<W>) -> anyhow::Result<()>,
) -> anyhow::Result<u64> {
    let mut reader = LineReader::new(input).cancellable();
    let mut count = 0;
    while let Some(item) = reader.next_line() {
        let (line, bytes) = match item {
            Ok(ok) => ok,
            Err(ReadError::Io(e)) => {
                return Err(match cancelled(&e) {
                    Some(exit) => failure(
                        exit,
                        match reader.line() {
                            0 => format!("{source}: {e} before its first line"),
                            n => format!("{source}: {e} after line {n}"),
                        },
                    ),
                    None => anyhow::Error::new(e).context(format!("reading {source}")),
                })
            }
            // An overlong line: this reader has no stream limit and makes no copy.
            Err(e) => return Err(failure(Exit::DataErr, format!("{source} {e}"))),
        };
        let read = match data {
            Data::Text(unread) if !unread.is_empty() => Envelope::unread_kind(bytes, unread),
            _ => None,
        };
        let read = match read {
            Some(kind) => Line::Unread(kind),
            None => match data {
                Data::Built => Envelope::parse(bytes).map(|envelope| Line::Read(envelope, None)),
                Data::Reading(reads) => {
                    Envelope::parse_reading(bytes, reads).map(|envelope| Line::Read(envelope, None))
                }
                Data::Text(_) => Envelope::parse_canonical(bytes, |_| false)
                    .map(|(envelope, text)| Line::Read(envelope, text)),
            }
            .map_err(|e| bad_line(source, line, e))?,
        };
        out.forward(bytes)?;
        count += 1;
        visit(line, read, out)?;
    }
    Ok(count)
}

/// Reads `data` of a record this stage understands into `T`; a mismatch is bad input
/// (exit 65) naming the source, line and kind.
pub fn data_of<T: serde::de::DeserializeOwned>(
    source: &str,
    line: u64,
    envelope: &Envelope,
) -> anyhow::Result<T> {
    T::deserialize(&envelope.data).map_err(|e| {
        failure(
            Exit::DataErr,
            format!("{source} line {line}: `{}` record data: {e}", envelope.kind),
        )
    })
}

/// [`data_of`] for a record [`forward_each_text`] read: from the data's text where it
/// kept it, without building a `Value`. Data that does not read as `T` is judged again as
/// [`data_of`] judges it, so the error is the same whichever way the record came.
pub fn data_of_text<T: serde::de::DeserializeOwned>(
    source: &str,
    line: u64,
    envelope: &Envelope,
    text: Option<&RawValue>,
) -> anyhow::Result<T> {
    let Some(text) = text else {
        return data_of(source, line, envelope);
    };
    serde_json::from_str(text.get()).or_else(|_| {
        // Canonical text always reads as a `Value` (`Envelope::parse_canonical`).
        let data = serde_json::from_str(text.get()).unwrap_or_default();
        let built = Envelope {
            data,
            ..envelope.clone()
        };
        data_of(source, line, &built)
    })
}

/// Parses a line as an envelope; the error names the input and line and exits 65.
pub fn parse_envelope(source: &str, line: u64, bytes: &[u8]) -> anyhow::Result<Envelope> {
    Envelope::parse(bytes).map_err(|e| bad_line(source, line, e))
}

fn bad_line(source: &str, line: u64, e: EnvelopeError) -> anyhow::Error {
    failure(Exit::DataErr, format!("{source} line {line}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<Result<(u64, String), String>> {
        let mut r = LineReader::with_limit(input, max);
        let mut out = Vec::new();
        while let Some(item) = r.next_line() {
            out.push(
                item.map(|(n, b)| (n, String::from_utf8_lossy(b).into_owned()))
                    .map_err(|e| e.to_string()),
            );
        }
        out
    }

    #[test]
    fn crlf_and_blank_lines_are_handled_and_numbers_kept() {
        let got = lines(b"a\r\n\n  \r\nb\nc", 100);
        assert_eq!(
            got,
            vec![
                Ok((1, "a".into())),
                Ok((4, "b".into())),
                Ok((5, "c".into()))
            ]
        );
    }

    #[test]
    fn an_overlong_line_is_an_error_and_reading_goes_on() {
        let got = lines(b"short\n0123456789\nok\n", 5);
        assert_eq!(got[0], Ok((1, "short".into())));
        assert!(got[1].as_ref().unwrap_err().contains("line 2"));
        assert_eq!(got[2], Ok((3, "ok".into())));
    }

    #[test]
    fn an_input_without_newlines_is_refused_at_the_limit_without_reading_on() {
        // Endless, like /dev/zero: skipping to the line's end would never return.
        let endless = io::BufReader::new(io::repeat(0));
        let mut r = LineReader::with_limit(endless, 1 << 20);
        let err = r.next_line().unwrap().unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1: longer than the 1048576-byte line limit"
        );
    }

    #[test]
    fn the_default_line_limit_stops_dev_zero() {
        let zero = std::fs::File::open("/dev/zero").unwrap();
        let (result, out) = forwarded(io::BufReader::new(zero));
        let err = result.unwrap_err();
        assert_eq!(crate::exit::exit_of(&err), Exit::DataErr);
        assert_eq!(
            err.to_string(),
            "up.ndjson line 1: longer than the 16777216-byte line limit"
        );
        assert!(out.is_empty());
    }

    /// A new FIFO `records` in `dir`.
    fn fifo_in(dir: &Path) -> std::path::PathBuf {
        let fifo = dir.join("records");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        fifo
    }

    #[test]
    fn a_fifo_is_opened_without_waiting_for_its_writer() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = fifo_in(dir.path());
        // Opening a FIFO blocks until a writer opens it: `open` returns at once.
        let (name, input) = open(&fifo).unwrap();
        assert_eq!(name, fifo.display().to_string());
        let writer = std::thread::spawn(move || std::fs::write(&fifo, format!("{UNKNOWN}\n")));
        let (result, out) = forwarded(input);
        writer.join().unwrap().unwrap();
        assert_eq!(result.unwrap(), 1);
        assert_eq!(out, format!("{UNKNOWN}\n").into_bytes());
    }

    #[test]
    fn an_input_thread_hands_over_every_byte_in_order() {
        let bytes: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
        let copy = bytes.clone();
        let mut input = Input::spawn(move || Ok(io::Cursor::new(copy)));
        let mut read = Vec::new();
        input.read_to_end(&mut read).unwrap();
        assert_eq!(read, bytes);
    }

    #[test]
    fn a_missing_file_is_exit_66() {
        let err = open(Path::new("/nonexistent/in.ndjson")).err().unwrap();
        assert_eq!(crate::exit::exit_of(&err), Exit::NoInput);
    }

    #[test]
    fn a_device_is_refused_where_only_pipes_are_accepted() {
        let err = open_accepting(Path::new("/dev/zero"), Accept::Pipes)
            .err()
            .unwrap();
        assert_eq!(crate::exit::exit_of(&err), Exit::DataErr);
        assert_eq!(
            err.to_string(),
            "/dev/zero is a device, not a record file (a regular file or a pipe)"
        );
    }

    #[test]
    fn a_device_is_read_where_anything_is_accepted() {
        let (name, mut input) = open(Path::new("/dev/zero")).unwrap();
        assert_eq!(name, "/dev/zero");
        let mut some = [1u8; 16];
        input.read_exact(&mut some).unwrap();
        assert_eq!(some, [0u8; 16]);
    }

    #[test]
    fn a_fifo_is_accepted_where_only_pipes_are() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = fifo_in(dir.path());
        let (_, input) = open_accepting(&fifo, Accept::Pipes).unwrap();
        let writer = std::thread::spawn(move || std::fs::write(&fifo, "a\n"));
        let mut lines = LineReader::new(input);
        assert_eq!(lines.next_line().unwrap().unwrap(), (1, &b"a"[..]));
        assert!(lines.next_line().is_none());
        writer.join().unwrap().unwrap();
    }

    #[test]
    fn endless_blank_lines_stop_at_the_stream_limit() {
        // Like `tr '\0' '\n' < /dev/zero`: no line is ever returned, yet reading stops.
        let endless = io::BufReader::new(io::repeat(b'\n'));
        let mut r = LineReader::new(endless).with_total(1 << 20);
        let err = r.next_line().unwrap().unwrap_err();
        assert_eq!(err.to_string(), "longer than the 1048576-byte stream limit");
    }

    #[test]
    fn a_stream_exactly_at_the_stream_limit_is_read_whole() {
        let mut r = LineReader::new(&b"ab\ncd\n"[..]).with_total(6);
        assert_eq!(r.next_line().unwrap().unwrap(), (1, &b"ab"[..]));
        assert_eq!(r.next_line().unwrap().unwrap(), (2, &b"cd"[..]));
        assert!(r.next_line().is_none());
        let mut over = LineReader::new(&b"ab\ncd\n"[..]).with_total(5);
        assert_eq!(over.next_line().unwrap().unwrap(), (1, &b"ab"[..]));
        assert!(matches!(
            over.next_line(),
            Some(Err(ReadError::StreamTooLong { max: 5 }))
        ));
    }

    #[test]
    fn every_byte_read_is_copied_as_read() {
        let input = b"a\r\n\n  \n0123456789\nb";
        let mut r = LineReader::with_limit(&input[..], 5).copying_into(Some(Vec::new()));
        while let Some(item) = r.next_line() {
            let _ = item;
        }
        assert_eq!(r.take_copy().unwrap(), input);
        assert!(r.take_copy().is_none());
    }

    #[test]
    fn a_failed_copy_stops_reading() {
        let mut r = LineReader::new(&b"a\n"[..]).copying_into(Some(FullDisk));
        assert!(matches!(r.next_line(), Some(Err(ReadError::Copy(_)))));
    }

    /// A copy whose every write fails, as on a full disk.
    struct FullDisk;

    impl io::Write for FullDisk {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::StorageFull.into())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_line_exactly_at_the_limit_is_accepted() {
        assert_eq!(lines(b"12345\n", 5), vec![Ok((1, "12345".into()))]);
    }

    fn forwarded(input: impl BufRead) -> (anyhow::Result<u64>, Vec<u8>) {
        let mut buf = Vec::new();
        let mut out = RecordWriter::new(&mut buf);
        let result = forward("up.ndjson", input, &mut out);
        out.finish().unwrap();
        (result, buf)
    }

    /// The kinds and envelopes `forward_each_text_unread` hands on, and what it wrote.
    fn forwarded_unread(input: &[u8]) -> (anyhow::Result<Vec<String>>, Vec<u8>) {
        let mut buf = Vec::new();
        let mut out = RecordWriter::new(&mut buf);
        let mut seen = Vec::new();
        let result =
            forward_each_text_unread("up.ndjson", input, &mut out, &[Kind::Edge], |_, read| {
                seen.push(match read {
                    Line::Read(envelope, _) => format!("read {}", envelope.kind),
                    Line::Unread(kind) => format!("unread {}", kind.as_str()),
                });
                Ok(())
            });
        out.finish().unwrap();
        (result.map(|_| seen), buf)
    }

    fn edge_line(data: &str) -> String {
        format!(
            r#"{{"kind":"edge","v":1,"id":"sha256:{}","by":"x","from":[],"src":{{}},"data":{data}}}"#,
            "0".repeat(64)
        )
    }

    #[test]
    fn records_left_unread_are_forwarded_byte_for_byte_and_others_read() {
        let edge = edge_line(r#"{"a":1}"#);
        let spaced = edge_line(r#"{"a": 1}"#);
        let input = format!("{edge}\n{UNKNOWN}\n{spaced}\n");
        let (seen, out) = forwarded_unread(input.as_bytes());
        // A line with a space in its data is no stage's: read, as before.
        assert_eq!(seen.unwrap(), ["unread edge", "read x-note", "read edge"]);
        assert_eq!(out, input.into_bytes());
    }

    #[test]
    fn a_bad_line_of_a_kind_left_unread_fails_as_the_reading_loop_fails() {
        let input = format!("{}\n{}\n", edge_line(r#"{"a":1}"#), edge_line(r#"{"a":1"#));
        let (result, out) = forwarded_unread(input.as_bytes());
        let err = result.unwrap_err();
        // The same error, exit code and output as the loop that reads every line.
        let (expected, plain) = forwarded(input.as_bytes());
        assert_eq!(err.to_string(), expected.unwrap_err().to_string());
        assert!(err.to_string().starts_with("up.ndjson line 2: "), "{err}");
        assert_eq!(crate::exit::exit_of(&err), Exit::DataErr);
        assert_eq!(out, plain);
        assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 1);
    }

    const UNKNOWN: &str = r#"{"kind":"x-note",  "v":9,"id":"sha256:0000000000000000000000000000000000000000000000000000000000000000","by":"x","from":[],"src":{},"data":{"b":1, "a":2}}"#;

    #[test]
    fn forwarding_keeps_unknown_kinds_byte_for_byte() {
        let input = format!("{UNKNOWN}\r\n\n{UNKNOWN}\n");
        let (result, out) = forwarded(input.as_bytes());
        assert_eq!(result.unwrap(), 2);
        assert_eq!(out, format!("{UNKNOWN}\n{UNKNOWN}\n").into_bytes());
    }

    #[test]
    fn forwarding_stops_at_a_bad_line_keeping_what_came_before() {
        let input = format!("{UNKNOWN}\n{{broken\n{UNKNOWN}\n");
        let (result, out) = forwarded(input.as_bytes());
        let err = result.unwrap_err();
        assert_eq!(crate::exit::exit_of(&err), Exit::DataErr);
        assert!(
            err.to_string()
                .starts_with("up.ndjson line 2: not valid JSON"),
            "{err}"
        );
        assert_eq!(out, format!("{UNKNOWN}\n").into_bytes());
    }

    /// The envelopes and data texts `forward_each_text` hands on for `input`.
    fn forwarded_text(input: &str) -> Vec<(Envelope, Option<String>)> {
        let mut out = RecordWriter::new(Vec::new());
        let mut seen = Vec::new();
        forward_each_text(
            "up.ndjson",
            input.as_bytes(),
            &mut out,
            |_, envelope, text| {
                seen.push((envelope, text.map(|t| t.get().to_string())));
                Ok(())
            },
        )
        .unwrap();
        seen
    }

    fn with_data(data: &str) -> String {
        UNKNOWN.replace(r#"{"b":1, "a":2}"#, data)
    }

    #[test]
    fn text_forwarding_hands_canonical_data_on_as_text_unbuilt() {
        let seen = forwarded_text(&with_data(r#"{"a":2,"b":[1]}"#));
        assert_eq!(seen[0].1.as_deref(), Some(r#"{"a":2,"b":[1]}"#));
        assert_eq!(seen[0].0.data, serde_json::Value::Null);
    }

    #[test]
    fn text_forwarding_builds_data_that_is_not_canonical() {
        let seen = forwarded_text(UNKNOWN);
        assert_eq!(seen[0].1, None);
        assert_eq!(seen[0].0.data, serde_json::json!({"a": 2, "b": 1}));
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Pair {
        a: u32,
        b: Vec<u32>,
    }

    /// `data_of_text` and `data_of` on the same line, read each way.
    fn both_ways(data: &str) -> (anyhow::Result<Pair>, anyhow::Result<Pair>) {
        let line = with_data(data);
        let (envelope, text) = forwarded_text(&line).remove(0);
        let text = text.map(|t| RawValue::from_string(t).unwrap());
        let from_text = data_of_text(source(), 3, &envelope, text.as_deref());
        let built = parse_envelope(source(), 3, line.as_bytes()).unwrap();
        (from_text, data_of(source(), 3, &built))
    }

    fn source() -> &'static str {
        "up.ndjson"
    }

    #[test]
    fn data_read_from_text_is_the_data_read_from_its_value() {
        let (from_text, from_value) = both_ways(r#"{"a":2,"b":[1,3]}"#);
        assert_eq!(
            from_text.unwrap(),
            Pair {
                a: 2,
                b: vec![1, 3]
            }
        );
        assert_eq!(
            from_value.unwrap(),
            Pair {
                a: 2,
                b: vec![1, 3]
            }
        );
    }

    #[test]
    fn data_of_the_wrong_shape_read_from_text_fails_as_from_its_value() {
        let (from_text, from_value) = both_ways(r#"{"a":"two","b":[1]}"#);
        let (from_text, from_value) = (from_text.unwrap_err(), from_value.unwrap_err());
        assert_eq!(from_text.to_string(), from_value.to_string());
        assert!(
            from_text
                .to_string()
                .starts_with("up.ndjson line 3: `x-note` record data: invalid type"),
            "{from_text}"
        );
        assert_eq!(crate::exit::exit_of(&from_text), Exit::DataErr);
    }

    #[test]
    fn envelope_errors_name_source_and_line() {
        let err = parse_envelope("stdin", 7, b"{not json").unwrap_err();
        assert!(
            err.to_string().starts_with("stdin line 7: not valid JSON"),
            "{err}"
        );
        assert_eq!(crate::exit::exit_of(&err), Exit::DataErr);
    }
}
