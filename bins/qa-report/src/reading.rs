//! One pass over a stream: each line verified, counted toward its flow's stages and read
//! into the report models (which one renders is known only at the end: a plan anywhere
//! makes it an acceptance stream), holding what the reports show, not the stream.

use crate::acceptance::model::{Acceptance, Builder as AcceptanceBuilder};
use crate::flow::Stages;
use crate::input::{Input, Next};
use crate::model::{Builder as ChangeBuilder, Report};
use crate::verify::{Summary, Verifier};
use qa_shared::Envelope;

/// What one pass found.
pub struct Pass {
    pub summary: Summary,
    pub stages: Stages,
    /// The change report, or why its records do not fit their contract.
    pub change: anyhow::Result<Report>,
    /// The acceptance report, or why its records do not fit their contract.
    pub acceptance: anyhow::Result<Acceptance>,
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

/// Reads `input` to its end (or until a signal ends it), calling `on_record` with each
/// record that parsed. Models stop reading at the first problem: a broken stream is not
/// rendered.
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
    loop {
        match input.next_line()? {
            Next::End => break,
            Next::TooLong(line) => {
                verifier.too_long(line);
                break;
            }
            Next::Line(line, raw) => {
                let Some(envelope) = verifier.line(line, raw) else {
                    continue;
                };
                on_record(&envelope)?;
                stages.take(&envelope);
                if models == Models::Both && verifier.problem_count() == 0 {
                    change.feed(|b| b.take(&source, line, &envelope));
                    acceptance.feed(|b| b.take(&source, line, raw, &envelope));
                }
            }
        }
    }
    Ok(Pass {
        summary: verifier.finish(),
        stages,
        change: change.finish(ChangeBuilder::finish),
        acceptance: acceptance.finish(AcceptanceBuilder::finish),
    })
}
