//! Reading NDJSON streams: numbered lines, a line-size limit, `\r\n`, blank lines.

use crate::envelope::{Envelope, EnvelopeError};
use crate::exit::{failure, Exit};
use crate::output::RecordWriter;
use std::fmt;
use std::io::{self, BufRead};
use std::path::Path;

/// The default limit on one line's bytes (16 MiB): far above any record qapipe writes,
/// low enough that a runaway input cannot exhaust memory.
pub const DEFAULT_MAX_LINE: usize = 16 << 20;

/// Why a line could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The line (1-based) is longer than the limit; the reader skipped to its end.
    TooLong {
        line: u64,
        max: usize,
    },
    Io(io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::TooLong { line, max } => {
                write!(f, "line {line}: longer than the {max}-byte line limit")
            }
            ReadError::Io(e) => write!(f, "reading: {e}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads lines one at a time, each at most `max` bytes, numbering them from 1.
/// Trailing `\r` is dropped and blank lines are skipped (but counted).
pub struct LineReader<R> {
    inner: R,
    max: usize,
    number: u64,
    buf: Vec<u8>,
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
        }
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

    /// Reads one raw line into `buf`; false at the end of input.
    fn read_one(&mut self) -> Result<bool, ReadError> {
        self.buf.clear();
        let mut too_long = false;
        let mut any = false;
        loop {
            let available = match self.inner.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(ReadError::Io(e)),
            };
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
            if !too_long {
                if self.buf.len() + chunk.len() > self.max {
                    too_long = true;
                    self.buf.clear();
                } else {
                    self.buf.extend_from_slice(chunk);
                }
            }
            self.inner.consume(used);
            if done {
                break;
            }
        }
        self.number += 1;
        if too_long {
            return Err(ReadError::TooLong {
                line: self.number,
                max: self.max,
            });
        }
        Ok(true)
    }
}

/// Opens a record input named on the command line: `-` is stdin. Returns the name to use
/// in messages (`stdin` or the path) and a buffered reader. A missing file is exit 66.
pub fn open(path: &Path) -> anyhow::Result<(String, Box<dyn BufRead>)> {
    if path.as_os_str() == "-" {
        return Ok(("stdin".to_string(), Box::new(io::stdin().lock())));
    }
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| {
        let exit = if e.kind() == io::ErrorKind::NotFound {
            Exit::NoInput
        } else {
            Exit::DataErr
        };
        failure(exit, format!("{name}: {e}"))
    })?;
    if file.metadata().map(|m| m.is_dir()).unwrap_or(false) {
        return Err(failure(
            Exit::DataErr,
            format!("{name} is a directory, not a record file"),
        ));
    }
    Ok((name, Box::new(io::BufReader::new(file))))
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
    forward_each(source, input, out, |_, _| Ok(()))
}

/// [`forward`], handing each checked envelope and its line number to `visit` after the
/// line is written: the way a filter stage collects what its analysis needs. An error
/// from `visit` stops the stream there (records already forwarded stay written).
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
    let mut reader = LineReader::new(input);
    let mut count = 0;
    while let Some(item) = reader.next_line() {
        let (line, bytes) = match item {
            Ok(ok) => ok,
            Err(ReadError::Io(e)) => {
                return Err(anyhow::Error::new(e).context(format!("reading {source}")))
            }
            Err(e @ ReadError::TooLong { .. }) => {
                return Err(failure(Exit::DataErr, format!("{source} {e}")))
            }
        };
        let envelope = parse_envelope(source, line, bytes)?;
        out.forward(bytes)?;
        count += 1;
        visit(line, envelope, out)?;
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

/// Parses a line as an envelope; the error names the input and line and exits 65.
pub fn parse_envelope(source: &str, line: u64, bytes: &[u8]) -> anyhow::Result<Envelope> {
    Envelope::parse(bytes)
        .map_err(|e: EnvelopeError| failure(Exit::DataErr, format!("{source} line {line}: {e}")))
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
    fn a_line_exactly_at_the_limit_is_accepted() {
        assert_eq!(lines(b"12345\n", 5), vec![Ok((1, "12345".into()))]);
    }

    fn forwarded(input: &[u8]) -> (anyhow::Result<u64>, Vec<u8>) {
        let mut buf = Vec::new();
        let mut out = RecordWriter::new(&mut buf);
        let result = forward("up.ndjson", input, &mut out);
        out.finish().unwrap();
        (result, buf)
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
