//! The repository's git fingerprint around an executed command: HEAD, branch, index
//! entries, every tracked-modified or untracked-not-ignored path hashed by mode and
//! content, and the git directory's internals (config, hooks, info, refs, stash), within
//! bounds; and what differs between two fingerprints. Files are read, never run: nothing
//! the repository's git config names is executed here.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use git2::{ErrorCode, Repository, StatusOptions};
use qa_records::execution::{Bound, Changed, GitState, MAX_CHANGED_PATHS};
use qa_records::hash::hex;
use sha2::{Digest, Sha256};

/// How much of a dirty worktree a fingerprint hashes before it says what it left out.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub paths: usize,
    pub bytes: u64,
}

impl Default for Limits {
    /// 10,000 dirty paths and 64 MiB of their content.
    fn default() -> Limits {
        Limits {
            paths: 10_000,
            bytes: 64 << 20,
        }
    }
}

/// One side of a command: the repository as git sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint {
    pub head: Option<String>,
    pub branch: Option<String>,
    pub index_sha256: String,
    /// Each dirty path and what it holds: `<mode> <sha256>`, or `absent`.
    pub paths: BTreeMap<String, String>,
    pub unobserved: Option<Bound>,
    /// Each git-directory internal (`config`, `hooks/pre-commit`, `refs/tags/v1`, ...) and
    /// what it holds.
    pub internals: BTreeMap<String, String>,
    /// True when more internals exist than [`MAX_INTERNALS`] and some went unread.
    pub internals_unobserved: bool,
}

/// The most git-directory entries a fingerprint reads (refs of a large repository
/// included).
pub const MAX_INTERNALS: usize = 100_000;

/// The parts of the git directory a command must not change: what git runs (config,
/// hooks), what it reads as its own excludes and attributes (info), every ref (loose
/// here, packed ones from `packed-refs`) and the stash's entries.
const INTERNALS: &[&str] = &["config", "hooks", "info", "refs", "logs/refs/stash"];

/// The largest loose ref file read as a ref (an object id or `ref: <name>`).
const MAX_REF: u64 = 4096;

/// What two fingerprints disagree on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    pub changed: Changed,
    /// Every worktree path whose state differs, in path order.
    pub paths: Vec<String>,
    /// Every git-directory internal that was added, removed or changed, in name order.
    pub internals: Vec<String>,
}

impl Difference {
    /// The first [`MAX_CHANGED_PATHS`] changed paths, for the record.
    pub fn listed(&self) -> Vec<String> {
        self.paths.iter().take(MAX_CHANGED_PATHS).cloned().collect()
    }
}

impl Fingerprint {
    /// Reads the fingerprint of the repository at `root`, opened afresh so nothing cached
    /// from an earlier read hides what a command did.
    pub fn take(root: &Path, limits: Limits) -> Result<Fingerprint> {
        let repo = Repository::open(root).with_context(|| format!("opening {}", root.display()))?;
        let (head, branch) = head_and_branch(&repo)?;
        let index_sha256 = index_sha256(&repo)?;
        let (paths, unobserved) = dirty_paths(&repo, limits)?;
        let (internals, internals_unobserved) = internals(repo.commondir())?;
        Ok(Fingerprint {
            head,
            branch,
            index_sha256,
            paths,
            unobserved,
            internals,
            internals_unobserved,
        })
    }

    /// The summary an execution record keeps.
    pub fn state(&self) -> GitState {
        let mut hasher = Sha256::new();
        for (path, held) in &self.paths {
            hasher.update(path.as_bytes());
            hasher.update([0]);
            hasher.update(held.as_bytes());
            hasher.update([b'\n']);
        }
        GitState {
            head: self.head.clone(),
            branch: self.branch.clone(),
            index_sha256: self.index_sha256.clone(),
            dirty_paths: self.paths.len() as u64,
            worktree_sha256: hex(&hasher.finalize()),
            unobserved: self.unobserved,
        }
    }

    /// What changed from `self` to `after`. A path dirty on both sides with the same
    /// content is baseline, not a change.
    pub fn compare(&self, after: &Fingerprint) -> Difference {
        let mut paths: Vec<String> = self
            .paths
            .iter()
            .filter(|(path, held)| after.paths.get(*path) != Some(*held))
            .map(|(path, _)| path.clone())
            .collect();
        paths.extend(
            after
                .paths
                .keys()
                .filter(|path| !self.paths.contains_key(*path))
                .cloned(),
        );
        paths.sort();
        let mut internals: Vec<String> = self
            .internals
            .iter()
            .filter(|(name, held)| after.internals.get(*name) != Some(*held))
            .map(|(name, _)| name.clone())
            .chain(
                after
                    .internals
                    .keys()
                    .filter(|name| !self.internals.contains_key(*name))
                    .cloned(),
            )
            .collect();
        internals.sort();
        Difference {
            changed: Changed {
                head: self.head != after.head,
                branch: self.branch != after.branch,
                index: self.index_sha256 != after.index_sha256,
                worktree: !paths.is_empty(),
                git: !internals.is_empty(),
            },
            paths,
            internals,
        }
    }
}

/// HEAD's commit (None when unborn) and the branch it is on (None when detached).
fn head_and_branch(repo: &Repository) -> Result<(Option<String>, Option<String>)> {
    let symbolic = repo.find_reference("HEAD").context("reading HEAD")?;
    let branch = symbolic.symbolic_target_bytes().map(|name| {
        let name = String::from_utf8_lossy(name);
        name.strip_prefix("refs/heads/")
            .unwrap_or(&name)
            .to_string()
    });
    let head = match repo.head() {
        Ok(reference) => reference.target().map(|oid| oid.to_string()),
        Err(e) if matches!(e.code(), ErrorCode::UnbornBranch | ErrorCode::NotFound) => None,
        Err(e) => return Err(e).context("resolving HEAD"),
    };
    Ok((head, branch))
}

/// SHA-256 of the index entries. Stat data is left out: `git status` alone may rewrite
/// the index file to refresh it, which is not a change to what is staged.
fn index_sha256(repo: &Repository) -> Result<String> {
    let index = repo.index().context("reading the index")?;
    let mut hasher = Sha256::new();
    for entry in index.iter() {
        hasher.update(&entry.path);
        hasher.update([0]);
        hasher.update(entry.mode.to_be_bytes());
        hasher.update(entry.id.as_bytes());
        // The stage (0 normal, 1-3 a conflict side) lives in bits 12-13 of the flags.
        hasher.update([((entry.flags >> 12) & 3) as u8]);
    }
    Ok(hex(&hasher.finalize()))
}

/// Every tracked-modified or untracked-not-ignored path with its mode and content hash,
/// and the bound that stopped hashing early, if one did.
fn dirty_paths(
    repo: &Repository,
    limits: Limits,
) -> Result<(BTreeMap<String, String>, Option<Bound>)> {
    let workdir = repo
        .workdir()
        .context("the repository is bare: it has no worktree to run a command in")?;
    let mut options = StatusOptions::new();
    options
        .include_untracked(true)
        .recurse_untracked_dirs(true)
        .include_ignored(false)
        .include_unmodified(false)
        .renames_head_to_index(false)
        .renames_index_to_workdir(false);
    let statuses = repo
        .statuses(Some(&mut options))
        .context("reading the worktree status")?;
    let mut paths = BTreeMap::new();
    let mut bytes = 0u64;
    for entry in statuses.iter() {
        if paths.len() == limits.paths {
            return Ok((paths, Some(Bound::Paths)));
        }
        let path = String::from_utf8_lossy(entry.path_bytes()).into_owned();
        let full = workdir.join(&path);
        let size = std::fs::symlink_metadata(&full).map_or(0, |m| m.len());
        if bytes + size > limits.bytes {
            return Ok((paths, Some(Bound::Bytes)));
        }
        bytes += size;
        let held = held(&full).with_context(|| format!("hashing {path}"))?;
        paths.insert(path, held);
    }
    Ok((paths, None))
}

/// The git directory's internals under `common` (the directory a linked worktree shares
/// with its main one) by name, each with what it holds; and whether [`MAX_INTERNALS`]
/// stopped the reading. Links are not followed: a link is its target's text. A ref is
/// what it names, loose or packed alike, so `git pack-refs` changes nothing here.
fn internals(common: &Path) -> Result<(BTreeMap<String, String>, bool)> {
    let mut found = BTreeMap::new();
    let mut pending: Vec<String> = INTERNALS.iter().map(|s| s.to_string()).collect();
    while let Some(name) = pending.pop() {
        if found.len() >= MAX_INTERNALS {
            return Ok((found, true));
        }
        let full = common.join(&name);
        let meta = std::fs::symlink_metadata(&full).ok();
        if meta.as_ref().is_some_and(|m| m.is_dir()) {
            let entries = std::fs::read_dir(&full)
                .with_context(|| format!("listing the git directory's {name}"))?;
            for entry in entries {
                let entry = entry.with_context(|| format!("listing the git directory's {name}"))?;
                let child = entry.file_name().to_string_lossy().into_owned();
                pending.push(format!("{name}/{child}"));
            }
            continue;
        }
        let loose_ref =
            name.starts_with("refs/") && meta.is_some_and(|m| m.is_file() && m.len() <= MAX_REF);
        let held = match loose_ref {
            true => std::fs::read_to_string(&full)
                .map(|text| format!("ref {}", text.trim()))
                .or_else(|_| held(&full)),
            false => held(&full),
        }
        .with_context(|| format!("hashing the git directory's {name}"))?;
        if held != "absent" {
            found.insert(name, held);
        }
    }
    let truncated = packed_refs(&common.join("packed-refs"), &mut found)?;
    Ok((found, truncated))
}

/// Adds the refs `packed-refs` names that no loose ref overrides; true when
/// [`MAX_INTERNALS`] stopped the reading.
fn packed_refs(file: &Path, found: &mut BTreeMap<String, String>) -> Result<bool> {
    use std::io::BufRead as _;
    let file = match std::fs::File::open(file) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e).context("reading the git directory's packed-refs"),
    };
    for line in std::io::BufReader::new(file).lines() {
        let line = line.context("reading the git directory's packed-refs")?;
        // `# pack-refs with: ...` and `^<peeled id>` lines follow from the refs themselves.
        let Some((oid, name)) = line
            .split_once(' ')
            .filter(|_| !line.starts_with(['#', '^']))
        else {
            continue;
        };
        if found.len() >= MAX_INTERNALS {
            return Ok(true);
        }
        found
            .entry(name.to_string())
            .or_insert_with(|| format!("ref {oid}"));
    }
    Ok(false)
}

/// What `path` holds: `<git mode> <sha256>` of a file's bytes or a link's target,
/// `directory` for a nested repository or submodule, `absent` when deleted.
fn held(path: &Path) -> Result<String> {
    use std::os::unix::fs::PermissionsExt as _;
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok("absent".to_string()),
        Err(e) => return Err(e.into()),
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        let target = std::fs::read_link(path)?;
        let mut hasher = Sha256::new();
        hasher.update(target.as_os_str().as_encoded_bytes());
        return Ok(format!("120000 {}", hex(&hasher.finalize())));
    }
    if kind.is_dir() {
        return Ok("directory".to_string());
    }
    let mode = if meta.permissions().mode() & 0o111 != 0 {
        "100755"
    } else {
        "100644"
    };
    let mut hasher = Sha256::new();
    let mut file = std::fs::File::open(path)?;
    std::io::copy(&mut file, &mut Hashing(&mut hasher))?;
    Ok(format!("{mode} {}", hex(&hasher.finalize())))
}

/// A hasher as an `io::Write`, so `io::copy` streams a file into it (sha2 0.11's hasher is
/// none).
struct Hashing<'h>(&'h mut Sha256);

impl std::io::Write for Hashing<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn git(dir: &Path, args: &[&str]) {
        let ok = Command::new("git")
            .current_dir(dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", dir)
            .output()
            .unwrap();
        assert!(
            ok.status.success(),
            "{}",
            String::from_utf8_lossy(&ok.stderr)
        );
    }

    fn repo() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        git(dir.path(), &["init", "-q", "-b", "main"]);
        std::fs::write(dir.path().join("a.txt"), "a\n").unwrap();
        git(dir.path(), &["add", "-A"]);
        git(dir.path(), &["commit", "-q", "-m", "first"]);
        dir
    }

    fn take(dir: &Path) -> Fingerprint {
        Fingerprint::take(dir, Limits::default()).unwrap()
    }

    #[test]
    fn an_untouched_repository_fingerprints_the_same_twice() {
        let dir = repo();
        std::fs::write(dir.path().join("dirty.txt"), "baseline\n").unwrap();
        let before = take(dir.path());
        let after = take(dir.path());
        assert!(!before.compare(&after).changed.any());
        assert_eq!(before.paths.len(), 1);
    }

    #[test]
    fn rewriting_a_dirty_file_is_a_worktree_change_naming_it() {
        let dir = repo();
        std::fs::write(dir.path().join("dirty.txt"), "baseline\n").unwrap();
        let before = take(dir.path());
        std::fs::write(dir.path().join("dirty.txt"), "other\n").unwrap();
        let difference = before.compare(&take(dir.path()));
        assert_eq!(difference.paths, ["dirty.txt"]);
        assert!(difference.changed.worktree && !difference.changed.index);
    }

    #[test]
    fn an_ignored_file_is_not_fingerprinted() {
        let dir = repo();
        std::fs::write(dir.path().join(".git/info/exclude"), "build/\n").unwrap();
        let before = take(dir.path());
        std::fs::create_dir(dir.path().join("build")).unwrap();
        std::fs::write(dir.path().join("build/out"), "x").unwrap();
        assert!(!before.compare(&take(dir.path())).changed.any());
    }

    #[test]
    fn a_refreshed_index_with_the_same_entries_is_not_an_index_change() {
        let dir = repo();
        let before = take(dir.path());
        // `git update-index --refresh` rewrites the index file's stat data only.
        git(dir.path(), &["update-index", "--refresh"]);
        assert!(!before.compare(&take(dir.path())).changed.index);
        git(dir.path(), &["rm", "-q", "--cached", "a.txt"]);
        assert!(before.compare(&take(dir.path())).changed.index);
    }

    #[test]
    fn a_detached_head_has_no_branch_and_an_unborn_one_no_head() {
        let dir = repo();
        git(dir.path(), &["checkout", "-q", "--detach"]);
        let detached = take(dir.path());
        assert_eq!(detached.branch, None);
        assert!(detached.head.is_some());
        let unborn = tempfile::tempdir().unwrap();
        git(unborn.path(), &["init", "-q", "-b", "main"]);
        let fresh = take(unborn.path());
        assert_eq!((fresh.head, fresh.branch.as_deref()), (None, Some("main")));
    }

    #[test]
    fn past_the_path_bound_the_fingerprint_says_so_and_within_it_does_not() {
        let dir = repo();
        for i in 0..3 {
            std::fs::write(dir.path().join(format!("new{i}.txt")), "x").unwrap();
        }
        let bounded = |paths| {
            Fingerprint::take(
                dir.path(),
                Limits {
                    paths,
                    bytes: 1 << 20,
                },
            )
        };
        assert_eq!(bounded(2).unwrap().unobserved, Some(Bound::Paths));
        assert_eq!(bounded(3).unwrap().unobserved, None);
    }

    #[test]
    fn a_hook_a_config_edit_a_tag_and_a_stash_are_git_changes_naming_each() {
        let dir = repo();
        std::fs::write(dir.path().join("a.txt"), "dirty\n").unwrap();
        let before = take(dir.path());
        git(dir.path(), &["config", "core.fsmonitor", "touch planted"]);
        std::fs::write(dir.path().join(".git/hooks/pre-commit"), "#!/bin/sh\n").unwrap();
        git(dir.path(), &["tag", "v1"]);
        git(dir.path(), &["branch", "other"]);
        git(dir.path(), &["stash", "-q"]);
        let difference = before.compare(&take(dir.path()));
        assert!(difference.changed.git);
        for name in [
            "config",
            "hooks/pre-commit",
            "refs/tags/v1",
            "refs/heads/other",
            "refs/stash",
        ] {
            assert!(
                difference.internals.contains(&name.to_string()),
                "{name} not in {:?}",
                difference.internals
            );
        }
    }

    #[test]
    fn packing_refs_is_no_git_change_and_deleting_a_packed_tag_is_one() {
        let dir = repo();
        git(dir.path(), &["tag", "v1"]);
        let before = take(dir.path());
        git(dir.path(), &["pack-refs", "--all"]);
        assert!(!dir.path().join(".git/refs/tags/v1").exists());
        assert!(!before.compare(&take(dir.path())).changed.git);
        git(dir.path(), &["tag", "-d", "v1"]);
        assert_eq!(
            before.compare(&take(dir.path())).internals,
            ["refs/tags/v1"]
        );
    }

    #[test]
    fn an_untouched_git_directory_is_no_git_change() {
        let dir = repo();
        std::fs::write(dir.path().join(".git/hooks/pre-push"), "#!/bin/sh\n").unwrap();
        let before = take(dir.path());
        assert!(before.internals.contains_key("hooks/pre-push"));
        let difference = before.compare(&take(dir.path()));
        assert!(!difference.changed.git && difference.internals.is_empty());
    }

    #[test]
    fn making_a_hook_executable_is_a_git_change() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = repo();
        let hook = dir.path().join(".git/hooks/post-checkout");
        std::fs::write(&hook, "#!/bin/sh\n").unwrap();
        let before = take(dir.path());
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(
            before.compare(&take(dir.path())).internals,
            ["hooks/post-checkout"]
        );
    }

    #[test]
    fn past_the_byte_bound_the_fingerprint_says_so_and_within_it_does_not() {
        let dir = repo();
        std::fs::write(dir.path().join("big.txt"), "0123456789").unwrap();
        let bounded = |bytes| Fingerprint::take(dir.path(), Limits { paths: 10, bytes });
        assert_eq!(bounded(9).unwrap().unobserved, Some(Bound::Bytes));
        assert_eq!(bounded(10).unwrap().unobserved, None);
    }
}
