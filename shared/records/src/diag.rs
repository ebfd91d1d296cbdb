//! `diag` records: a stage's warnings and errors, carried in the stream.

use crate::envelope::{Record, Src};
use crate::kind::Kind;
use serde::Serialize;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// The `data` of a `diag` record.
#[derive(Debug, Clone, Serialize)]
pub struct Diag {
    pub severity: Severity,
    pub stage: String,
    pub message: String,
    /// Ids of the records the diagnostic is about.
    pub subjects: Vec<String>,
}

impl Diag {
    pub fn new(severity: Severity, stage: &str, message: impl Into<String>) -> Diag {
        Diag {
            severity,
            stage: stage.to_string(),
            message: message.into(),
            subjects: Vec::new(),
        }
    }

    /// The diagnostic as a record derived from `from`.
    pub fn into_record(self, by: &str, from: Vec<String>) -> anyhow::Result<Record> {
        Record::new(Kind::Diag, by, from, Src::new(), self)
    }
}
