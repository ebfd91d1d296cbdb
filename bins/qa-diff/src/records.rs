//! The `data` payloads qa-diff writes: `range`, `commit` and `file`.

use crate::base::Base;
use crate::roles::Role;
use git2::Oid;
use serde::{Serialize, Serializer};

/// Serializes an oid as its hex string.
pub fn oid_hex<S: Serializer>(oid: &Oid, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(oid)
}

/// Committed range or working tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Committed,
    Worktree,
}

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

#[derive(Debug, Serialize)]
pub struct CommitData {
    pub oid: String,
    pub parents: Vec<String>,
    pub merge: bool,
    pub subject: String,
    pub body: String,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub scope: Option<String>,
    pub breaking: bool,
    pub tickets: Vec<String>,
    /// Paths this commit changed against its first parent (old and new path of a
    /// rename); empty for merges, whose content arrives through the merged commits.
    pub files: Vec<String>,
}

/// How a path changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Added,
    Modified,
    Deleted,
    Renamed,
    Copied,
    Typechange,
}

/// Which comparison a file record belongs to (branch records are written first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Delta {
    /// Merge base against head (or the working tree).
    Branch,
    /// HEAD against the working tree: the task being edited now.
    Current,
}

/// Added or removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Op {
    #[serde(rename = "+")]
    Add,
    #[serde(rename = "-")]
    Remove,
}

// The file payload types below are written with `Record::new_sorted`: their fields are
// declared in code-point order of their serialized names, so they serialize canonically
// as they are (debug builds check it).

#[derive(Debug, Serialize)]
pub struct HunkLine {
    /// Head line number for `+`, base line number for `-`.
    pub line: u32,
    pub op: Op,
    pub text: String,
}

#[derive(Debug, Serialize)]
pub struct Hunk {
    pub lines: Vec<HunkLine>,
    pub new_lines: u32,
    pub new_start: u32,
    pub old_lines: u32,
    pub old_start: u32,
}

#[derive(Debug, Serialize)]
pub struct FileData {
    pub added: usize,
    pub binary: bool,
    pub delta: Delta,
    /// Hunks in the whole diff of this file, kept or not.
    pub hunk_count: usize,
    pub hunks: Vec<Hunk>,
    pub new_oid: Option<String>,
    pub old_oid: Option<String>,
    pub old_path: Option<String>,
    pub path: String,
    pub removed: usize,
    pub role: Role,
    /// SHA-256 of the new content; None when deleted.
    pub sha256: Option<String>,
    pub status: Status,
    /// True when a limit cut the hunks or their text short.
    pub truncated: bool,
}
