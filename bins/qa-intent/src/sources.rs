//! The base and head text of each changed source file, read from git objects by the blob
//! ids qa-diff recorded (a worktree file from disk, checked against its recorded id).

use std::path::Path;

use git2::{ObjectType, Oid, Repository};
use qa_records::change::FileData;

/// Largest version of a file that is parsed: bigger ones are generated or vendored.
pub const MAX_BYTES: usize = 1 << 20;

/// The two versions of one changed file; `None` where the side does not exist, is binary,
/// is too big, or cannot be read.
#[derive(Debug, Default, Clone)]
pub struct Versions {
    pub base: Option<String>,
    pub head: Option<String>,
}

/// Maps pack files in small windows, a few at a time. The graph and the syntax trees read
/// thousands of blobs scattered over the pack once each, so large windows only keep pages
/// no read comes back to (2 MB of resident memory on a 74 MB pack), at no measurable cost
/// in time. Call it once, before any repository is opened.
pub fn small_pack_windows() {
    // SAFETY: libgit2's global options must not change while another thread runs a git
    // operation; the caller runs this before any repository is opened or thread started.
    let set = unsafe {
        git2::opts::set_mwindow_size(256 << 10)
            .and_then(|()| git2::opts::set_mwindow_mapped_limit(1 << 20))
    };
    // The defaults still work; only memory is at stake.
    let _ = set;
}

/// Reads the versions of `file` from `repo` (opened by the caller, one per thread).
pub fn versions(repo: &Repository, root: &Path, file: &FileData) -> Versions {
    if file.binary {
        return Versions::default();
    }
    Versions {
        base: file.old_oid.as_deref().and_then(|oid| blob(repo, oid)),
        head: file
            .new_oid
            .as_deref()
            .and_then(|oid| blob(repo, oid).or_else(|| worktree(root, &file.path, oid))),
    }
}

/// The head version alone, for a pass that needs no base.
pub fn head(repo: &Repository, root: &Path, file: &FileData) -> Option<String> {
    if file.binary {
        return None;
    }
    let oid = file.new_oid.as_deref()?;
    blob(repo, oid).or_else(|| worktree(root, &file.path, oid))
}

/// The base version alone, for a pass that needs no head.
pub fn base(repo: &Repository, file: &FileData) -> Option<String> {
    if file.binary {
        return None;
    }
    file.old_oid.as_deref().and_then(|oid| blob(repo, oid))
}

fn blob(repo: &Repository, oid: &str) -> Option<String> {
    let oid = Oid::from_str(oid).ok()?;
    let blob = repo.find_blob(oid).ok()?;
    text(blob.content())
}

/// A working-tree file that is not in the object database yet: read only a regular file
/// inside the repository whose content still hashes to the id qa-diff recorded.
fn worktree(root: &Path, path: &str, oid: &str) -> Option<String> {
    if path.split('/').any(|part| part == ".." || part.is_empty()) {
        return None;
    }
    let full = root.join(path);
    let meta = std::fs::symlink_metadata(&full).ok()?;
    if !meta.file_type().is_file() || meta.len() > MAX_BYTES as u64 {
        return None;
    }
    let bytes = std::fs::read(&full).ok()?;
    let id = Oid::hash_object(ObjectType::Blob, &bytes).ok()?;
    (id.to_string() == oid).then_some(())?;
    text(&bytes)
}

fn text(bytes: &[u8]) -> Option<String> {
    if bytes.len() > MAX_BYTES {
        return None;
    }
    String::from_utf8(bytes.to_vec()).ok()
}
