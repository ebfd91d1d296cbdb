//! Changed files: git diffs turned into `file` payloads with hunks, hashes and roles.

use crate::records::{Delta, FileData, Hunk, HunkLine, Limits, Op, Status};
use crate::{paths, roles};
use anyhow::Context as _;
use git2::{
    Delta as GitDelta, Diff, DiffFindOptions, DiffOptions, FileMode, ObjectType, Oid, Patch,
    Repository, Tree,
};
use qa_records::hash::sha256_hex;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What a diff produces, one item at a time.
pub enum Change {
    File(Box<FileData>),
    /// A path left out (a nested repository), and why.
    Skipped {
        path: String,
        /// The path's raw bytes: where it sorts.
        raw: Vec<u8>,
        delta: Delta,
        message: String,
        /// Info for a path that is not ours to read (a nested repository); a warning for
        /// a changed file of ours that could not be shown.
        severity: qa_records::diag::Severity,
    },
}

/// Which deltas a pass handles. Passes run side by side: only added, deleted and renamed
/// paths need rename detection, the costly part of a large diff, so the paths modified in
/// place need not wait for it; and those can be shared out among several passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Modified in place (content or type): of those, the `lane`-th and every `lanes`-th
    /// after it, in diff order.
    InPlace { lane: usize, lanes: usize },
    /// Added, deleted, renamed or copied.
    Moved,
}

impl Part {
    fn handles(self, status: Status) -> bool {
        let moved = matches!(
            status,
            Status::Added | Status::Deleted | Status::Renamed | Status::Copied
        );
        moved == (self == Part::Moved)
    }

    /// Whether the `nth` path of this part's kind (counting from 0) is this pass's.
    fn takes(self, nth: usize) -> bool {
        match self {
            Part::InPlace { lane, lanes } => nth % lanes == lane,
            Part::Moved => true,
        }
    }
}

/// Where the new side of a diff lives.
#[derive(Clone, Copy)]
enum NewSide<'a> {
    Tree,
    Workdir(&'a Path),
}

fn diff_options(worktree: bool) -> DiffOptions {
    let mut opts = DiffOptions::new();
    // Zero context: hunks are exactly the changed regions, with exact line numbers.
    // The indent heuristic places an ambiguous hunk where git shows it: a method added
    // before another that opens the same way (`@Test`) is the whole new method, not the
    // old one's first line.
    opts.context_lines(0)
        .interhunk_lines(0)
        .indent_heuristic(true)
        .include_typechange(true);
    if worktree {
        opts.include_untracked(true)
            .recurse_untracked_dirs(true)
            .show_untracked_content(true);
    }
    opts
}

/// Rename detection as `git diff -M` does it: 50% similarity, whitespace significant.
/// One pass: libgit2 scores an identical blob 100, so exact renames still win their
/// pairing; a second, exact-only pass over the same diff trips libgit2's internal
/// `delta_is_split` assertion when a pure rename sits beside a similar deletion.
fn detect_renames(diff: &mut Diff, worktree: bool) -> anyhow::Result<()> {
    let mut find = DiffFindOptions::new();
    find.renames(true)
        .for_untracked(worktree)
        .rename_threshold(50)
        .rename_limit(1000)
        .dont_ignore_whitespace(true);
    diff.find_similar(Some(&mut find))
        .context("detecting renames")?;
    Ok(())
}

/// Diffs `old` against `new` (both trees) and passes each change of `part` to `emit`.
pub fn between_trees(
    repo: &Repository,
    old: &Tree,
    new: &Tree,
    part: Part,
    limits: Limits,
    emit: &mut dyn FnMut(Change) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut diff = repo
        .diff_tree_to_tree(Some(old), Some(new), Some(&mut diff_options(false)))
        .context("diffing the range")?;
    if part == Part::Moved {
        detect_renames(&mut diff, false)?;
    }
    let pass = Pass {
        side: NewSide::Tree,
        delta: Delta::Branch,
        part,
        limits,
    };
    changes(repo, &diff, &pass, &mut Nested::none(), emit)
}

/// Diffs `old` against the working tree (index, unstaged and untracked files).
pub fn against_worktree(
    repo: &Repository,
    old: &Tree,
    delta: Delta,
    part: Part,
    limits: Limits,
    emit: &mut dyn FnMut(Change) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let workdir = repo
        .workdir()
        .context("--worktree needs a repository with a working tree (this one is bare)")?;
    let mut diff = repo
        .diff_tree_to_workdir_with_index(Some(old), Some(&mut diff_options(true)))
        .context("diffing the working tree")?;
    if part == Part::Moved {
        detect_renames(&mut diff, true)?;
    }
    let pass = Pass {
        side: NewSide::Workdir(workdir),
        delta,
        part,
        limits,
    };
    changes(repo, &diff, &pass, &mut Nested::under(workdir), emit)
}

/// One pass over a diff: where the new side lives, which delta and part it reports.
struct Pass<'a> {
    side: NewSide<'a>,
    delta: Delta,
    part: Part,
    limits: Limits,
}

fn changes(
    repo: &Repository,
    diff: &Diff,
    pass: &Pass,
    nested: &mut Nested,
    emit: &mut dyn FnMut(Change) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut nth = 0;
    for index in 0..diff.deltas().len() {
        let Some(delta) = diff.get_delta(index) else {
            continue;
        };
        let Some(status) = status_of(delta.status()) else {
            continue;
        };
        if !pass.part.handles(status) {
            continue;
        }
        nth += 1;
        if !pass.part.takes(nth - 1) {
            continue;
        }
        let raw = delta
            .new_file()
            .path_bytes()
            .or(delta.old_file().path_bytes())
            .unwrap_or_default();
        let shown = paths::shown(raw);
        let path = shown.text.clone();
        let skipped = |message: String| Change::Skipped {
            path: path.clone(),
            raw: raw.to_vec(),
            delta: pass.delta,
            message,
            severity: qa_records::diag::Severity::Info,
        };
        if delta.new_file().mode() == FileMode::Commit
            || delta.old_file().mode() == FileMode::Commit
        {
            emit(skipped(format!(
                "{path} is a nested repository (gitlink); it is a separate repository and was not entered"
            )))?;
            continue;
        }
        if let Some(repo_dir) = nested.containing(&path) {
            emit(skipped(format!(
                "{repo_dir} holds its own .git: it is a separate repository, so {path} was not entered"
            )))?;
            continue;
        }
        let patch = Patch::from_diff(diff, index).with_context(|| format!("diffing {path}"))?;
        let file = file_data(repo, patch.as_ref(), &delta, status, &shown, raw, pass)
            .with_context(|| format!("reading {path}"))?;
        emit(Change::File(Box::new(file)))?;
    }
    Ok(())
}

fn file_data(
    repo: &Repository,
    patch: Option<&Patch>,
    delta: &git2::DiffDelta,
    status: Status,
    shown: &paths::Shown,
    raw: &[u8],
    pass: &Pass,
) -> anyhow::Result<FileData> {
    use std::os::unix::ffi::OsStrExt as _;
    let path = shown.text.as_str();
    let binary = patch.is_some_and(|p| p.delta().flags().is_binary()) || delta.flags().is_binary();
    let old_id = delta.old_file().id();
    // Blobs are borrowed, not copied; a working-tree file is read once.
    let (new_blob, new_file) = match (status, pass.side) {
        (Status::Deleted, _) => (None, None),
        (_, NewSide::Tree) => (Some(repo.find_blob(delta.new_file().id())?), None),
        (_, NewSide::Workdir(root)) => (
            None,
            read_worktree_file(&root.join(std::ffi::OsStr::from_bytes(raw)))?,
        ),
    };
    let new_content: Option<&[u8]> = new_blob
        .as_ref()
        .map(|b| b.content())
        .or(new_file.as_deref());
    // A deleted file's role comes from what it was.
    let old_blob = match new_content {
        None if !old_id.is_zero() => repo.find_blob(old_id).ok(),
        _ => None,
    };
    let old_content = old_blob.as_ref().map(|b| b.content());
    let new_oid = match (new_content, delta.new_file().id()) {
        (None, _) => None,
        (Some(_), id) if !id.is_zero() => Some(id.to_string()),
        (Some(bytes), _) => Some(Oid::hash_object(ObjectType::Blob, bytes)?.to_string()),
    };
    let role = roles::classify(path, new_content.or(old_content), binary);
    let old_path = match status {
        Status::Renamed | Status::Copied => Some(paths::shown(
            delta.old_file().path_bytes().unwrap_or_default(),
        )),
        _ => None,
    };
    let mut file = FileData {
        path: path.to_string(),
        path_bytes: shown.hex.clone(),
        old_path_bytes: old_path.as_ref().and_then(|p| p.hex.clone()),
        old_path: old_path.map(|p| p.text),
        status,
        role,
        binary,
        added: 0,
        removed: 0,
        old_oid: (!old_id.is_zero()).then(|| old_id.to_string()),
        new_oid,
        sha256: new_content.map(sha256_hex),
        delta: pass.delta,
        hunks: Vec::new(),
        hunk_count: 0,
        truncated: false,
    };
    if let (Some(patch), false) = (patch, binary) {
        read_hunks(patch, pass.limits, &mut file)?;
    }
    Ok(file)
}

/// Fills counts and hunks from a patch, keeping what the limits allow.
pub fn read_hunks(patch: &Patch, limits: Limits, file: &mut FileData) -> anyhow::Result<()> {
    let (_, added, removed) = patch.line_stats()?;
    file.added = added;
    file.removed = removed;
    file.hunk_count = patch.num_hunks();
    let mut bytes = 0usize;
    'hunks: for h in 0..patch.num_hunks() {
        if file.hunks.len() >= limits.max_hunks {
            file.truncated = true;
            break;
        }
        let (hunk, line_count) = patch.hunk(h)?;
        let mut kept = Hunk {
            old_start: hunk.old_start(),
            old_lines: hunk.old_lines(),
            new_start: hunk.new_start(),
            new_lines: hunk.new_lines(),
            lines: Vec::new(),
        };
        for l in 0..line_count {
            let line = patch.line_in_hunk(h, l)?;
            let (op, number) = match line.origin() {
                '+' => (Op::Add, line.new_lineno()),
                '-' => (Op::Remove, line.old_lineno()),
                _ => continue,
            };
            let content = line.content();
            let content = content.strip_suffix(b"\n").unwrap_or(content);
            if bytes + content.len() > limits.max_bytes {
                file.truncated = true;
                file.hunks.push(kept);
                break 'hunks;
            }
            bytes += content.len();
            kept.lines.push(HunkLine {
                commit: None,
                op,
                line: number.unwrap_or(0),
                text: String::from_utf8_lossy(content).into_owned(),
            });
        }
        file.hunks.push(kept);
    }
    Ok(())
}

/// A working-tree file's bytes as git would store them: a symlink's target, else the
/// content. None when the file is gone.
fn read_worktree_file(path: &Path) -> anyhow::Result<Option<Vec<u8>>> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    if meta.file_type().is_symlink() {
        use std::os::unix::ffi::OsStrExt;
        let target = std::fs::read_link(path)?;
        return Ok(Some(target.as_os_str().as_bytes().to_vec()));
    }
    if !meta.is_file() {
        return Ok(None);
    }
    Ok(Some(std::fs::read(path)?))
}

fn status_of(status: GitDelta) -> Option<Status> {
    Some(match status {
        GitDelta::Added | GitDelta::Untracked => Status::Added,
        GitDelta::Modified | GitDelta::Conflicted => Status::Modified,
        GitDelta::Deleted => Status::Deleted,
        GitDelta::Renamed => Status::Renamed,
        GitDelta::Copied => Status::Copied,
        GitDelta::Typechange => Status::Typechange,
        GitDelta::Unmodified | GitDelta::Ignored | GitDelta::Unreadable => return None,
    })
}

/// Finds directories below the working-tree root that hold their own `.git`.
struct Nested {
    root: Option<PathBuf>,
    known: HashMap<String, bool>,
}

impl Nested {
    fn none() -> Self {
        Nested {
            root: None,
            known: HashMap::new(),
        }
    }

    fn under(root: &Path) -> Self {
        Nested {
            root: Some(root.to_path_buf()),
            known: HashMap::new(),
        }
    }

    /// The nested repository directory `path` lies in (or is), if any.
    fn containing(&mut self, path: &str) -> Option<String> {
        let root = self.root.as_ref()?;
        let trimmed = path.trim_end_matches('/');
        let mut dirs: Vec<&str> = trimmed
            .match_indices('/')
            .map(|(i, _)| &trimmed[..i])
            .collect();
        // An untracked nested repository shows up as the directory itself.
        if path.ends_with('/') || root.join(trimmed).is_dir() {
            dirs.push(trimmed);
        }
        for dir in dirs {
            let has_git = *self
                .known
                .entry(dir.to_string())
                .or_insert_with(|| root.join(dir).join(".git").exists());
            if has_git {
                return Some(dir.to_string());
            }
        }
        None
    }
}
