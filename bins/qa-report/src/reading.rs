//! One pass over a stream: each line verified, counted toward its flow's stages and read
//! into the report models (which one renders is known only at the end: a plan anywhere
//! makes it an acceptance stream), holding what the reports show, not the stream.

use crate::acceptance::model::{Acceptance, Builder as AcceptanceBuilder};
use crate::flow::Stages;
use crate::model::{Builder as ChangeBuilder, Report};
use crate::out::Saved;
use crate::verify::{Summary, Verifier};
use qa_records::exit::{failure, Exit};
use qa_records::ndjson::{self, Accept, LineReader, ReadError};
use qa_records::{Envelope, Kind};
use std::io::BufRead;
use std::path::Path;
use std::time::Duration;

/// The most bytes a stream may hold (4 GiB): far above any flow's stream, low enough that
/// an endless input (`/dev/zero` with newlines, `yes`) stops.
pub const MAX_STREAM: u64 = 4 << 30;

/// How long `--verify` keeps reading after SIGINT or SIGTERM: not at all, as it then
/// stops without a verdict.
pub const GRACE: Duration = Duration::ZERO;

/// How long a report (of either flow) keeps reading after SIGINT or SIGTERM for what the
/// upstream stages finish: longer than their own [`qa_records::cancel::GRACE`], as the
/// last stage reads longest, so what each stage before it wrote within its grace reaches
/// the cancelled report.
pub const REPORT_GRACE: Duration = Duration::from_secs(2);

/// The stream qa-report reads, through the stages' shared reader: stdin or `--in FILE` (a
/// pipe or a regular file, never a device, socket or directory), each line and the whole
/// stream bounded; SIGINT or SIGTERM end even a read that blocks (an idle FIFO).
pub struct Input {
    /// Names the input in messages: `stdin` or the path.
    pub source: String,
    lines: LineReader<Box<dyn BufRead>, Saved>,
}

impl Input {
    /// Opens `path` (`-` is stdin; a missing file is exit 66, a directory, device or socket
    /// exit 65), to be read until `grace` after a signal. `saved`, the report folder's copy
    /// of the stream, gets every byte as it is read.
    pub fn open(path: &Path, grace: Duration, saved: Option<Saved>) -> anyhow::Result<Input> {
        let (source, input) = ndjson::open_accepting(path, Accept::Pipes)?;
        let lines = LineReader::new(input)
            .cancellable_after(grace)
            .with_total(MAX_STREAM)
            .copying_into(saved);
        Ok(Input { source, lines })
    }

    /// The saved stream, taken back.
    pub fn take_saved(&mut self) -> Option<Saved> {
        self.lines.take_copy()
    }
}

/// What one pass found.
pub struct Pass {
    pub summary: Summary,
    pub stages: Stages,
    /// The change report, or why its records do not fit their contract.
    pub change: anyhow::Result<Report>,
    /// The acceptance report, or why its records do not fit their contract.
    pub acceptance: anyhow::Result<Acceptance>,
    /// The signal (130 or 143) that arrived while the stream was read, if any.
    pub interrupted: Option<Exit>,
}

/// Which models a pass reads records into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Models {
    /// Only verify (`--verify`).
    None,
    /// Both reports, as a stream's flow decides at its end.
    Both,
}

/// A model being read, and the first record that did not fit it (reported only if the
/// stream turns out to be of its flow).
struct Fed<B> {
    builder: B,
    failed: Option<anyhow::Error>,
}

impl<B: Default> Fed<B> {
    fn new() -> Self {
        Fed {
            builder: B::default(),
            failed: None,
        }
    }

    fn feed(&mut self, take: impl FnOnce(&mut B) -> anyhow::Result<()>) {
        if self.failed.is_none() {
            if let Err(e) = take(&mut self.builder) {
                self.failed = Some(e);
            }
        }
    }

    fn finish<T>(self, finish: impl FnOnce(B) -> T) -> anyhow::Result<T> {
        match self.failed {
            Some(e) => Err(e),
            None => Ok(finish(self.builder)),
        }
    }
}

/// True for the kinds whose data a report reads as a tree (the flow's stages and a plan's
/// run name included). Any other kind's canonical data is left as text: only hashed, or
/// read from the text (the behavior graph).
fn builds(kind: &str) -> bool {
    Kind::parse(kind).is_some_and(|k| {
        crate::model::RENDERED.contains(&k) || crate::acceptance::model::READ.contains(&k)
    })
}

/// Reads `input` to its end (or until a signal ends it), calling `on_record` with each
/// record that parsed. Models stop reading at the first problem: a broken stream is not
/// rendered. A stream over [`MAX_STREAM`] or a failed read is an error naming the input.
pub fn pass(
    input: &mut Input,
    max_problems: usize,
    models: Models,
    mut on_record: impl FnMut(&Envelope) -> anyhow::Result<()>,
) -> anyhow::Result<Pass> {
    let source = input.source.clone();
    let mut verifier = Verifier::new(max_problems);
    let mut stages = Stages::default();
    let mut change: Fed<ChangeBuilder> = Fed::new();
    let mut acceptance: Fed<AcceptanceBuilder> = Fed::new();
    let mut interrupted = None;
    loop {
        match input.lines.next_line() {
            None => break,
            Some(Ok((line, raw))) => {
                let reads = |kind: &str| models == Models::Both && builds(kind);
                let Some((envelope, text)) = verifier.line(line, raw, reads) else {
                    continue;
                };
                on_record(&envelope)?;
                stages.take(&envelope);
                if models == Models::Both && verifier.problem_count() == 0 {
                    change.feed(|b| b.take(&source, line, &envelope, text));
                    acceptance.feed(|b| b.take(&source, line, raw, &envelope));
                }
            }
            Some(Err(ReadError::TooLong { line, .. })) => {
                verifier.too_long(line);
                break;
            }
            Some(Err(ReadError::StreamTooLong { max })) => {
                return Err(failure(
                    Exit::DataErr,
                    format!(
                        "{source} holds more than {} GiB of records: refused",
                        max >> 30
                    ),
                ))
            }
            Some(Err(ReadError::Io(e))) => match ndjson::cancelled(&e) {
                Some(signal) => {
                    interrupted = Some(signal);
                    break;
                }
                None => return Err(anyhow::Error::new(e).context(format!("reading {source}"))),
            },
            Some(Err(ReadError::Copy(e))) => return Err(e.into()),
        }
    }
    Ok(Pass {
        summary: verifier.finish(),
        stages,
        change: change.finish(ChangeBuilder::finish),
        acceptance: acceptance.finish(AcceptanceBuilder::finish),
        // A signal during the grace period counts even when the stream then ended.
        interrupted: interrupted.or_else(qa_records::cancel::requested),
    })
}
