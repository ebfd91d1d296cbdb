//! `event` records: when a capture or recapture happened and how long it took (the only
//! records of this stage that carry the clock), and the cancel event.

use crate::BY;
use qa_records::acceptance::EventData;
use qa_records::envelope::Src;
use qa_records::{clock, Exit, Kind, Record};
use std::time::Instant;

/// The phase an event belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Fetch,
    Verify,
    Cancel,
}

impl Phase {
    fn as_str(self) -> &'static str {
        match self {
            Phase::Fetch => "fetch",
            Phase::Verify => "verify",
            Phase::Cancel => "cancel",
        }
    }
}

/// An event about the record `subject` (also its `from`), timed since `started`.
pub fn timed(
    phase: Phase,
    subject: &str,
    started: Instant,
    detail: String,
) -> anyhow::Result<Record> {
    let data = EventData {
        phase: phase.as_str().to_string(),
        at: clock::timestamp(),
        subject: Some(subject.to_string()),
        duration_ms: Some(u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX)),
        detail: Some(detail),
    };
    Record::new(Kind::Event, BY, vec![subject.to_string()], Src::new(), data)
}

/// The signal a cancel exit stands for.
pub fn signal_name(exit: Exit) -> &'static str {
    match exit {
        Exit::Terminated => "SIGTERM",
        _ => "SIGINT",
    }
}

/// The event saying this stage stopped on a signal (qa-report reads it as cancelled).
pub fn cancelled(exit: Exit) -> anyhow::Result<Record> {
    let signal = signal_name(exit);
    let data = EventData {
        phase: Phase::Cancel.as_str().to_string(),
        at: clock::timestamp(),
        subject: None,
        duration_ms: None,
        detail: Some(signal.to_string()),
    };
    Record::new(Kind::Event, BY, Vec::new(), Src::new(), data)
}
