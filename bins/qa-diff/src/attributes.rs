//! Whether any git attributes can apply to the paths of a commit range.
//!
//! libgit2 looks up a file's diff driver (the `diff` attribute) for each side of every
//! patch: it resolves the file's real path in the working tree, then stats the
//! `.gitattributes` of every directory up to the root, each time, about a tenth of
//! qa-diff's time on a large range. In a repository opened without its working tree the
//! lookup reads only the index and the repository, global and system attribute files.
//! When no attribute file exists anywhere a lookup could read, every lookup finds nothing
//! either way (the default driver), so the range's patches are the same bytes read
//! through either handle; any doubt keeps the working-tree handle.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::ErrorKind;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use git2::{ConfigLevel, Oid, Repository};

use crate::commits;

/// True when no attribute can apply to a path changed between `base` and `head`: no
/// `.gitattributes` in the index, no system, global (`core.attributesFile` or the XDG
/// file) or repository (`info/attributes`) attribute file, and, in the working tree, no
/// `.gitattributes` in any directory above a changed path, nor a symbolic link on the way
/// (libgit2 follows links to the real directory). Errors answer false.
///
/// # Safety
/// Reads libgit2's search paths, process globals libgit2 reads and writes without
/// synchronization: no thread may change them meanwhile (qa-diff never does).
pub unsafe fn none_apply(repo: &Repository, base: Oid, head: Oid) -> bool {
    // SAFETY: forwarded to the caller.
    let outside = unsafe { outside_tree_absent(repo) };
    outside
        && index_has_none(repo).unwrap_or(false)
        && worktree_has_none(repo, base, head).unwrap_or(false)
}

/// No system, global or repository attribute file, wherever libgit2 would look for one.
unsafe fn outside_tree_absent(repo: &Repository) -> bool {
    let Ok(config) = repo.config() else {
        return false;
    };
    if config.get_entry("core.attributesfile").is_ok() {
        return false;
    }
    let in_search_path = |level: ConfigLevel, name: &str| -> bool {
        // SAFETY: forwarded to the caller.
        let Ok(dirs) = (unsafe { git2::opts::get_search_path(level) }) else {
            return true;
        };
        dirs.as_bytes()
            .split(|&b| b == b':')
            .filter(|dir| !dir.is_empty())
            .any(|dir| !absent(&Path::new(OsStr::from_bytes(dir)).join(name)))
    };
    !in_search_path(ConfigLevel::System, "gitattributes")
        && !in_search_path(ConfigLevel::XDG, "attributes")
        && absent(&repo.commondir().join("info").join("attributes"))
}

/// Nothing at `path`, not even a dangling link; any error but "not found" is doubt.
fn absent(path: &Path) -> bool {
    matches!(std::fs::symlink_metadata(path), Err(e) if e.kind() == ErrorKind::NotFound)
}

/// No `.gitattributes` entry anywhere in the index (a missing index has none).
fn index_has_none(repo: &Repository) -> Result<bool, git2::Error> {
    let index = match repo.index() {
        Ok(index) => index,
        Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(true),
        Err(e) => return Err(e),
    };
    let named = |path: &[u8]| path == b".gitattributes" || path.ends_with(b"/.gitattributes");
    Ok(!index.iter().any(|entry| named(&entry.path)))
}

/// In the working tree, for every path that differs between the two trees: no link at
/// the path or at a directory above it, and no `.gitattributes` in those directories.
/// A repository without a working tree has none.
fn worktree_has_none(repo: &Repository, base: Oid, head: Oid) -> Result<bool, git2::Error> {
    let Some(workdir) = repo.workdir() else {
        return Ok(true);
    };
    let (old, new) = (
        repo.find_commit(base)?.tree()?,
        repo.find_commit(head)?.tree()?,
    );
    let touches = commits::changed_files(repo, Some(&old), Some(&new))?;
    // Directory (relative, "" for the root) -> whether it is clear.
    let mut dirs: HashMap<&str, bool> = HashMap::new();
    let clear_dir = |dir: &str| -> bool {
        let at = workdir.join(dir);
        (dir.is_empty() || !is_link(&at)) && absent(&at.join(".gitattributes"))
    };
    for touch in &touches {
        // A path that is not UTF-8 reached us lossily decoded: it names another file.
        if touch.path.contains(char::REPLACEMENT_CHARACTER) || is_link(&workdir.join(&touch.path)) {
            return Ok(false);
        }
        let mut dir = touch.path.as_str();
        while !dir.is_empty() {
            dir = dir.rfind('/').map_or("", |i| &dir[..i]);
            match dirs.get(dir) {
                // Checked, with every directory above it.
                Some(true) => break,
                Some(false) => return Ok(false),
                None => {
                    let clear = clear_dir(dir);
                    dirs.insert(dir, clear);
                    if !clear {
                        return Ok(false);
                    }
                }
            }
        }
    }
    Ok(true)
}

/// A symbolic link, or doubt (an error but "not found").
fn is_link(path: &Path) -> bool {
    match std::fs::symlink_metadata(path) {
        Ok(meta) => meta.file_type().is_symlink(),
        Err(e) => e.kind() != ErrorKind::NotFound,
    }
}
