//! The `data` payloads qa-diff writes: `range`, `commit` and `file`.

use crate::base::Base;
use git2::Oid;
use serde::{Serialize, Serializer};

/// Serializes an oid as its hex string.
pub fn oid_hex<S: Serializer>(oid: &Oid, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(oid)
}

pub use qa_records::change::Mode;

#[derive(Debug, Serialize)]
pub struct Head {
    #[serde(rename = "ref")]
    pub name: String,
    #[serde(serialize_with = "oid_hex")]
    pub oid: Oid,
    /// The checked-out branch, when `ref` is HEAD on a branch.
    pub branch: Option<String>,
}

/// Per-file limits on what hunks keep; past either, the file is marked `truncated`.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Limits {
    pub max_hunks: usize,
    pub max_bytes: usize,
}

#[derive(Debug, Serialize)]
pub struct RangeData {
    pub base: Base,
    pub head: Head,
    #[serde(serialize_with = "oid_hex")]
    pub merge_base: Oid,
    pub mode: Mode,
    pub limits: Limits,
}

pub use qa_records::change::CommitData;

pub use qa_records::change::{Delta, FileData, Hunk, HunkLine, Op, Status};
