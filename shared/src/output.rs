//! Writing records: one buffered stdout, flushed at the end; a closed pipe ends quietly.

use crate::envelope::Record;
use anyhow::Context as _;
use std::io::{self, BufWriter, Write};

/// Buffered NDJSON output. Errors carry the io::Error so `exit::run` can tell a closed
/// pipe (quiet success) from a real write failure.
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
            .context("writing a record to stdout")?;
        self.written += 1;
        Ok(())
    }

    /// Forwards a line read upstream, unchanged but for its `\n` terminator.
    pub fn forward(&mut self, line: &[u8]) -> anyhow::Result<()> {
        self.out
            .write_all(line)
            .and_then(|()| self.out.write_all(b"\n"))
            .context("writing a record to stdout")?;
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
        self.out.flush().context("writing records to stdout")
    }

    /// Flushes everything; call once at the end.
    pub fn finish(mut self) -> anyhow::Result<()> {
        self.out.flush().context("writing records to stdout")
    }
}
