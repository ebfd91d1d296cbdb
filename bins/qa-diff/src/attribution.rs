//! Which range commit added each line of a file that several commits of the range changed,
//! so later stages can tell one commit's work from another's in a file both touched.
//!
//! Not git blame: blame walks the whole range for every file, 27 times git's time on a
//! 320-commit history. Instead each commit that touched a shared file is diffed for that
//! file alone, and a net added line is credited to the newest commit that added a line
//! with the same text. Work is bounded by the commits that touched the file, and capped.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use git2::{Oid, Patch, Repository};
use qa_shared::change::{Delta, FileData, Op, Role, Status};

use crate::commits::Touch;

/// Most per-commit file diffs in one run; files past it keep no attribution (a fallback
/// later stages already handle), so the cap bounds cost without changing what is right.
const MAX_DIFFS: usize = 128;

/// Per-path commit touches of the range, and the attribution budget left.
pub struct Attribution {
    /// Non-merge range commits that changed each path (with its blobs), oldest first.
    touches: HashMap<String, Vec<(Oid, Oid, Oid)>>,
    budget: usize,
}

impl Default for Attribution {
    fn default() -> Self {
        Attribution {
            touches: HashMap::new(),
            budget: MAX_DIFFS,
        }
    }
}

impl Attribution {
    /// Notes the paths one walked commit changed (merges bring none).
    pub fn saw(&mut self, oid: Oid, touches: Vec<Touch>) {
        for t in touches {
            self.touches
                .entry(t.path)
                .or_default()
                .push((oid, t.old, t.new));
        }
    }

    /// Fills `commit` on the added lines of `file` when several commits changed it. A file
    /// past the budget, or whose history cannot be read, is left as it is.
    pub fn attribute(&mut self, repo: &Repository, file: &mut FileData) {
        // Only files whose lines can be behaviour evidence later are worth the diffs.
        let bears = matches!(
            file.role,
            Role::Product | Role::Command | Role::AnalysisRule
        );
        if file.delta != Delta::Branch || file.binary || file.status == Status::Deleted || !bears {
            return;
        }
        let Some(commits) = self.touches.get(&file.path).filter(|c| c.len() >= 2) else {
            return;
        };
        if commits.len() > self.budget {
            self.budget = 0;
            return;
        }
        self.budget -= commits.len();
        // Newest first: a line re-added later belongs to the later commit.
        let added: Vec<(Oid, Added)> = commits
            .iter()
            .rev()
            .filter_map(|&(oid, old, new)| Some((oid, added_lines(repo, old, new, &file.path)?)))
            .collect();
        for line in file.hunks.iter_mut().flat_map(|h| h.lines.iter_mut()) {
            if line.op == Op::Add {
                line.commit = added
                    .iter()
                    .find(|(_, lines)| lines.has(&line.text))
                    .map(|(oid, _)| oid.to_string());
            }
        }
    }
}

/// The lines one commit added to a file.
enum Added {
    /// It created the file: every line it has is the commit's, unless a later one re-added it.
    All,
    Lines(HashSet<String>),
}

impl Added {
    fn has(&self, text: &str) -> bool {
        match self {
            Added::All => true,
            Added::Lines(lines) => lines.contains(text),
        }
    }
}

/// The lines a commit added to `path`: the diff of its `old` and `new` blobs (`old` zero
/// when the commit created the file).
fn added_lines(repo: &Repository, old: Oid, new: Oid, path: &str) -> Option<Added> {
    if old.is_zero() {
        return Some(Added::All);
    }
    let new = repo.find_blob(new).ok()?;
    let old = repo.find_blob(old).ok()?;
    let mut opts = git2::DiffOptions::new();
    opts.context_lines(0);
    let path = Some(Path::new(path));
    let patch = Patch::from_blobs(&old, path, &new, path, Some(&mut opts)).ok()?;
    let mut out = HashSet::new();
    for h in 0..patch.num_hunks() {
        for l in 0..patch.num_lines_in_hunk(h).ok()? {
            let line = patch.line_in_hunk(h, l).ok()?;
            if line.origin() == '+' {
                let content = line.content();
                let content = content.strip_suffix(b"\n").unwrap_or(content);
                out.insert(String::from_utf8_lossy(content).into_owned());
            }
        }
    }
    Some(Added::Lines(out))
}
