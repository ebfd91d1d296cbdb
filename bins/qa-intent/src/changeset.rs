//! What qa-intent reads of a change stream: the range, its commits and its changed files.

use anyhow::Result;
use qa_records::change::{CommitData, Delta, FileData, RangeView, Role};
use qa_records::ndjson::data_of_text;
use qa_records::{Envelope, Kind};
use serde_json::value::RawValue;

use crate::equivalence::{self, Ahead, Verdict};

/// A record this stage reads, with its id (for `from`).
#[derive(Debug, Clone)]
pub struct Read<T> {
    pub id: String,
    pub data: T,
}

/// The change as the upstream stages described it.
#[derive(Debug, Default)]
pub struct Changeset {
    pub range: Option<Read<RangeView>>,
    /// Oldest first, as qa-diff writes them.
    pub commits: Vec<Read<CommitData>>,
    /// The branch delta: merge base against head or the working tree.
    pub files: Vec<Read<FileData>>,
    /// HEAD against the working tree (worktree mode only): the task being edited now.
    pub current: Vec<Read<FileData>>,
    /// Position of each branch-delta path in `files`: lookups happen per commit file.
    index: std::collections::HashMap<String, usize>,
    /// The repository the commits are read from, to judge a commit by its own diff.
    repo: Option<std::path::PathBuf>,
    /// The verdicts on commits' own diffs judged so far, by commit id: each is judged
    /// once, ahead on another thread ([`Changeset::judge_ahead`]) or when first asked.
    verdicts: std::sync::Mutex<std::collections::HashMap<String, Option<Verdict>>>,
    /// The files compared ahead for those verdicts, planned once the stream is read.
    ahead: std::sync::OnceLock<Ahead>,
}

impl Changeset {
    /// An empty changeset whose commits can be read from `repo`.
    pub fn in_repo(repo: &std::path::Path) -> Changeset {
        Changeset {
            repo: Some(repo.to_path_buf()),
            ..Changeset::default()
        }
    }

    /// What `commit`'s own diff does to the files the range changed that bear behaviour;
    /// `None` when its repository or the commit cannot be read.
    pub fn verdict(&self, commit: &CommitData) -> Option<Verdict> {
        let verdicts = || self.verdicts.lock().unwrap_or_else(|e| e.into_inner());
        let judged = verdicts().get(&commit.oid).copied();
        if let Some(verdict) = judged {
            return verdict;
        }
        let verdict = self.judge(commit);
        verdicts().insert(commit.oid.clone(), verdict);
        verdict
    }

    fn judge(&self, commit: &CommitData) -> Option<Verdict> {
        let git = git2::Repository::open(self.repo.as_ref()?).ok()?;
        let bears = |p: &str| self.role(p).is_some_and(bears_behaviour);
        equivalence::verdict_ahead(&git, commit, bears, self.ahead())
    }

    /// Where the files are compared ahead ([`Ahead`]): each file that bears behaviour and
    /// that only one commit of the range changed, a commit whose verdict will be asked.
    /// The range's reading of the file then holds that commit's two versions.
    pub fn ahead(&self) -> &Ahead {
        self.ahead.get_or_init(|| {
            let mut commits: std::collections::HashMap<&str, usize> = Default::default();
            for p in self.commits.iter().flat_map(|c| &c.data.files) {
                *commits.entry(p.as_str()).or_default() += 1;
            }
            let wanted = self
                .commits
                .iter()
                .filter(|c| crate::behaviour::reads_diff(&c.data, |p| self.role(p)))
                .flat_map(|c| &c.data.files)
                .filter(|p| commits.get(p.as_str()) == Some(&1))
                .filter(|p| self.role(p).is_some_and(bears_behaviour))
                .cloned()
                .collect();
            Ahead::of(wanted)
        })
    }

    /// Judges now every commit whose verdict [`crate::behaviour::classify`] will ask for.
    pub fn judge_ahead(&self) {
        for c in &self.commits {
            if crate::behaviour::reads_diff(&c.data, |p| self.role(p)) {
                self.verdict(&c.data);
            }
        }
    }

    /// True when `commit` changes only test code (see [`equivalence::tests_only`]); `None`
    /// when it cannot be read.
    pub fn tests_only(&self, commit: &CommitData) -> Option<bool> {
        let git = git2::Repository::open(self.repo.as_ref()?).ok()?;
        equivalence::tests_only(&git, commit, |p| self.role(p).is_some_and(bears_behaviour))
    }

    /// Takes the records qa-intent needs and ignores the rest; `text` is the data's own
    /// text where the reader kept it ([`qa_records::ndjson::forward_each_text`]).
    pub fn take(
        &mut self,
        source: &str,
        line: u64,
        envelope: Envelope,
        text: Option<&RawValue>,
    ) -> Result<()> {
        match envelope.known_kind() {
            Some(Kind::Range) => {
                self.range = Some(Read {
                    data: data_of_text(source, line, &envelope, text)?,
                    id: envelope.id,
                })
            }
            Some(Kind::Commit) => self.commits.push(Read {
                data: data_of_text(source, line, &envelope, text)?,
                id: envelope.id,
            }),
            Some(Kind::File) => {
                let data: FileData = data_of_text(source, line, &envelope, text)?;
                let read = Read {
                    id: envelope.id,
                    data,
                };
                match read.data.delta {
                    Delta::Branch => {
                        self.index.insert(read.data.path.clone(), self.files.len());
                        self.files.push(read);
                    }
                    Delta::Current => self.current.push(read),
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The branch-delta file record for `path`.
    pub fn file(&self, path: &str) -> Option<&Read<FileData>> {
        self.index.get(path).map(|&i| &self.files[i])
    }

    /// The role of a changed path, when the range changed it.
    pub fn role(&self, path: &str) -> Option<Role> {
        self.file(path).map(|f| f.data.role)
    }

    /// True when the stream came from `qa-diff --worktree`.
    pub fn is_worktree(&self) -> bool {
        self.range
            .as_ref()
            .is_some_and(|r| r.data.mode == qa_records::change::Mode::Worktree)
    }
}

/// Roles whose changed lines can carry behaviour (and join commits).
pub fn bears_behaviour(role: Role) -> bool {
    matches!(role, Role::Product | Role::Command | Role::AnalysisRule)
}

#[cfg(test)]
mod tests;
