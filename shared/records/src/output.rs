//! Writing records: one buffered stdout, flushed at the end; a closed pipe ends quietly,
//! any other failed write (a full disk) is an I/O error, exit 74, naming stdout.

use crate::envelope::Record;
use crate::exit::{failure, Exit};
use std::io::{self, BufWriter, Write};

/// The error for a failed write to `target` (`stdout` or a path): a closed pipe stays an
/// `io::Error`, so `exit::run` ends quietly; anything else (a full disk, a closed device)
/// is exit 74 with one line naming `target`.
pub fn write_failed(target: &str, e: io::Error) -> anyhow::Error {
    if e.kind() == io::ErrorKind::BrokenPipe {
        anyhow::Error::new(e).context(format!("writing {target}"))
    } else {
        failure(Exit::IoErr, format!("writing {target}: {e}"))
    }
}

/// Buffered NDJSON output. A closed pipe keeps its io::Error so `exit::run` can tell it
/// (quiet success) from a real write failure (exit 74).
pub struct RecordWriter<W: Write> {
    out: BufWriter<W>,
    written: u64,
}

impl RecordWriter<io::StdoutLock<'static>> {
    /// A writer over the locked process stdout.
    pub fn stdout() -> Self {
        RecordWriter::new(io::stdout().lock())
    }
}

impl<W: Write> RecordWriter<W> {
    pub fn new(inner: W) -> Self {
        RecordWriter {
            out: BufWriter::with_capacity(64 * 1024, inner),
            written: 0,
        }
    }

    /// Writes one record as a line.
    pub fn write(&mut self, record: &Record) -> anyhow::Result<()> {
        serde_json::to_writer(&mut self.out, record)
            .map_err(io::Error::from)
            .and_then(|()| self.out.write_all(b"\n"))
            .map_err(|e| write_failed("stdout", e))?;
        self.written += 1;
        Ok(())
    }

    /// Forwards a line read upstream, unchanged but for its `\n` terminator.
    pub fn forward(&mut self, line: &[u8]) -> anyhow::Result<()> {
        self.out
            .write_all(line)
            .and_then(|()| self.out.write_all(b"\n"))
            .map_err(|e| write_failed("stdout", e))?;
        self.written += 1;
        Ok(())
    }

    /// Records written so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Sends what is buffered on now: for a stage whose records must reach the next stage
    /// as they are known (a cancelled run still shows them).
    pub fn flush(&mut self) -> anyhow::Result<()> {
        self.out.flush().map_err(|e| write_failed("stdout", e))
    }

    /// Flushes everything; call once at the end.
    pub fn finish(mut self) -> anyhow::Result<()> {
        self.out.flush().map_err(|e| write_failed("stdout", e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exit::{exit_of, is_broken_pipe};

    #[test]
    fn a_full_device_is_an_io_error_naming_stdout() {
        // The real device: every write to /dev/full fails with ENOSPC.
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let mut out = RecordWriter::new(full);
        out.forward(b"{}").unwrap();
        let err = out.finish().unwrap_err();
        assert_eq!(exit_of(&err), Exit::IoErr);
        assert!(
            err.to_string().starts_with("writing stdout: No space left"),
            "{err}"
        );
    }

    #[test]
    fn a_closed_pipe_stays_a_quiet_end() {
        let (reader, writer) = io::pipe().unwrap();
        drop(reader);
        let mut out = RecordWriter::new(writer);
        out.forward(b"{}").unwrap();
        let err = out.finish().unwrap_err();
        assert!(is_broken_pipe(&err), "{err:#}");
    }
}
