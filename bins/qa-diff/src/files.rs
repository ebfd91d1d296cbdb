//! File records: diff passes on threads of their own, merged back into path order.
//!
//! The in-place passes (modified paths, shared out between two passes for a commit range)
//! and the moved pass (added, deleted and renamed paths, which need rename detection) each
//! produce records in path order; the merge interleaves them so the output is the same as
//! one sorted pass, whatever the timing.

use crate::changes::{self, Change, Part};
use crate::paths;
use crate::records::{Delta, Limits};
use crate::BY;
use anyhow::Context as _;
use git2::{Oid, Repository};
use qa_records::diag::Diag;
use qa_records::envelope::Src;
use qa_records::{Kind, Record};
use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;

/// Where a record sorts: branch delta before current delta, then by path (its raw bytes,
/// the order git's diff gives).
type Key = (Delta, Vec<u8>);

/// What to diff.
#[derive(Clone)]
pub struct Job {
    pub git_dir: PathBuf,
    /// Open the repository without its working tree (no attributes apply).
    pub bare: bool,
    pub merge_base: Oid,
    pub head: Oid,
    pub worktree: bool,
    pub limits: Limits,
}

/// One running pass: its records, and its thread's outcome.
type Lane = (Receiver<(Key, Change)>, JoinHandle<anyhow::Result<()>>);

/// The running passes.
pub struct Passes {
    lanes: Vec<Lane>,
}

/// How many passes share the paths modified in place of a commit range: their patches are
/// most of qa-diff's work. A working-tree diff is read once, by one pass.
const IN_PLACE_LANES: usize = 2;

/// Starts the passes; they run while the caller writes the commits.
pub fn start(job: &Job) -> Passes {
    let lanes = if job.worktree { 1 } else { IN_PLACE_LANES };
    let parts = (0..lanes)
        .map(|lane| Part::InPlace { lane, lanes })
        .chain([Part::Moved]);
    let lanes = parts
        .map(|part| {
            // Bounded: a pass stays at most this many records ahead of the writer.
            let (sender, receiver) = sync_channel(32);
            let job = job.clone();
            let handle = std::thread::spawn(move || pass(&job, part, &sender));
            (receiver, handle)
        })
        .collect();
    Passes { lanes }
}

impl Passes {
    /// Hands every record to `write`, in (delta, path) order.
    pub fn drain(self, write: &mut dyn FnMut(Change) -> anyhow::Result<()>) -> anyhow::Result<()> {
        let (receivers, handles): (Vec<_>, Vec<_>) = self.lanes.into_iter().unzip();
        let written = merge(&receivers, write);
        // Dropping the receivers unblocks a pass waiting to send after a write failed.
        drop(receivers);
        let mut outcome = written;
        for handle in handles {
            let done = handle
                .join()
                .map_err(|_| anyhow::anyhow!("a diff thread panicked"))
                .and_then(|r| r);
            if outcome.is_ok() {
                outcome = done;
            }
        }
        outcome
    }
}

fn merge(
    receivers: &[Receiver<(Key, Change)>],
    write: &mut dyn FnMut(Change) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut heads: Vec<Option<(Key, Change)>> = receivers.iter().map(|r| r.recv().ok()).collect();
    loop {
        let next = heads
            .iter()
            .enumerate()
            .filter_map(|(i, h)| h.as_ref().map(|(key, _)| (key, i)))
            .min()
            .map(|(_, i)| i);
        let Some(i) = next else {
            return Ok(());
        };
        let (_, change) = heads[i].take().expect("chosen head is present");
        write(change)?;
        heads[i] = receivers[i].recv().ok();
    }
}

fn pass(job: &Job, part: Part, sender: &SyncSender<(Key, Change)>) -> anyhow::Result<()> {
    let repo = match job.bare {
        true => Repository::open_bare(&job.git_dir).or_else(|_| Repository::open(&job.git_dir)),
        false => Repository::open(&job.git_dir),
    }
    .context("reopening the repository")?;
    let base_tree = repo.find_commit(job.merge_base)?.tree()?;
    let mut emit = |change: Change| -> anyhow::Result<()> {
        let key = match &change {
            Change::File(file) => (
                file.delta,
                paths::raw(&file.path, file.path_bytes.as_deref()),
            ),
            Change::Skipped { raw, delta, .. } => (*delta, raw.clone()),
        };
        // A closed receiver means the writer stopped (a closed pipe): stop quietly.
        sender
            .send((key, change))
            .map_err(|_| anyhow::Error::new(std::io::Error::from(std::io::ErrorKind::BrokenPipe)))
    };
    if job.worktree {
        changes::against_worktree(
            &repo,
            &base_tree,
            Delta::Branch,
            part,
            job.limits,
            &mut emit,
        )?;
        let head_tree = repo.find_commit(job.head)?.tree()?;
        changes::against_worktree(
            &repo,
            &head_tree,
            Delta::Current,
            part,
            job.limits,
            &mut emit,
        )
    } else {
        let head_tree = repo.find_commit(job.head)?.tree()?;
        changes::between_trees(&repo, &base_tree, &head_tree, part, job.limits, &mut emit)
    }
}

/// The record of a change: a `file`, or a `diag` for a path that was skipped.
pub fn record(change: Change, from: &[String]) -> anyhow::Result<Record> {
    match change {
        Change::File(file) => {
            let mut src = Src::new();
            if let Some(oid) = &file.new_oid {
                src.insert("git.blob".into(), oid.clone());
            }
            if let Some(oid) = &file.old_oid {
                src.insert("git.blob.old".into(), oid.clone());
            }
            if let Some(sha) = &file.sha256 {
                src.insert("sha256".into(), sha.clone());
            }
            Record::new_sorted(Kind::File, BY, from.to_vec(), src, &file)
        }
        Change::Skipped {
            message, severity, ..
        } => Diag::new(severity, "qa-diff", message).into_record(BY, from.to_vec()),
    }
}
