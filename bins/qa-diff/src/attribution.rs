//! Which range commit added each line of a file that several commits of the range changed
//! (git blame from head back to the merge base), so later stages can tell one commit's
//! work from another's in a file both touched.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use git2::{BlameOptions, Oid, Repository};
use qa_shared::change::{Delta, FileData, Op, Status};

/// Most files blamed in one run: blame is the costly part, and attribution only sharpens
/// evidence, it never creates it.
const MAX_FILES: usize = 256;

/// The paths each non-merge range commit changed, and how to attribute their lines.
pub struct Attribution {
    /// Paths more than one non-merge range commit changed.
    shared: HashSet<String>,
    commits: HashSet<Oid>,
    head: Oid,
    merge_base: Oid,
    blamed: usize,
}

impl Attribution {
    pub fn new(head: Oid, merge_base: Oid) -> Attribution {
        Attribution {
            shared: HashSet::new(),
            commits: HashSet::new(),
            head,
            merge_base,
            blamed: 0,
        }
    }

    /// Notes the files one walked commit changed (merges are skipped by the caller).
    pub fn saw(&mut self, oid: Oid, files: &[String], seen: &mut HashMap<String, u32>) {
        self.commits.insert(oid);
        for f in files {
            let n = seen.entry(f.clone()).or_default();
            *n += 1;
            if *n == 2 {
                self.shared.insert(f.clone());
            }
        }
    }

    /// Fills `commit` on the added lines of `file` when several commits changed it. A file
    /// git cannot blame (or one past the limit) is left as it is.
    pub fn attribute(&mut self, repo: &Repository, file: &mut FileData) {
        if file.delta != Delta::Branch
            || file.binary
            || file.status == Status::Deleted
            || !self.shared.contains(&file.path)
            || self.blamed >= MAX_FILES
        {
            return;
        }
        self.blamed += 1;
        let mut opts = BlameOptions::new();
        opts.newest_commit(self.head).oldest_commit(self.merge_base);
        let Ok(blame) = repo.blame_file(Path::new(&file.path), Some(&mut opts)) else {
            return;
        };
        for line in file.hunks.iter_mut().flat_map(|h| h.lines.iter_mut()) {
            if line.op != Op::Add {
                continue;
            }
            let by = blame
                .get_line(line.line as usize)
                .map(|h| h.final_commit_id())
                .filter(|oid| self.commits.contains(oid));
            line.commit = by.map(|oid| oid.to_string());
        }
    }
}
