//! qa-diff's readers of what a repository holds: a path's bytes, the hunks of a patch
//! between two blobs, the role of a path and its content, and a commit message.

use qa_diff::changes::read_hunks;
use qa_diff::paths;
use qa_diff::records::{FileData, Limits};
use std::os::unix::ffi::OsStrExt as _;
use std::path::Path;

/// `data` split at NUL bytes into the old content, the new content, the path and the
/// commit message.
pub fn diff(data: &[u8]) {
    let [old, new, path, message] = crate::parts::<4>(data);
    lossless(path);
    // Two paths that differ (the content taken as a second path) never show as one.
    if old != path {
        assert_ne!(
            paths::shown(old),
            paths::shown(path),
            "two paths shown as one"
        );
    }
    let parsed = qa_diff::message::parse(&String::from_utf8_lossy(message));
    assert!(!parsed.subject.contains('\n'), "a subject is one line");

    let text = String::from_utf8_lossy(path);
    let _ = qa_diff::roles::classify(&text, Some(new), false);
    let _ = qa_diff::roles::classify(&text, None, true);

    let git_path = Path::new(std::ffi::OsStr::from_bytes(path));
    let Ok(patch) = git2::Patch::from_buffers(old, Some(git_path), new, Some(git_path), None)
    else {
        return;
    };
    let limits = Limits {
        max_hunks: 3,
        max_bytes: 256,
    };
    let mut file = empty_file(&text);
    if read_hunks(&patch, limits, &mut file).is_err() {
        return;
    }
    assert!(
        file.hunks.len() <= limits.max_hunks,
        "more hunks than the limit"
    );
    let kept: usize = file
        .hunks
        .iter()
        .flat_map(|h| &h.lines)
        .map(|l| l.text.len())
        .sum();
    // Kept text is counted in raw bytes; a lossy UTF-8 decoding can only grow it by the
    // replacement characters, at most 3 bytes for each byte.
    assert!(
        kept <= 3 * limits.max_bytes,
        "kept {kept} bytes past the limit"
    );
    if file.hunks.len() < file.hunk_count {
        assert!(file.truncated, "hunks left out without `truncated`");
    }
}

/// A path's record form gives its bytes back.
fn lossless(path: &[u8]) {
    let shown = paths::shown(path);
    assert_eq!(
        paths::raw(&shown.text, shown.hex.as_deref()),
        path,
        "{shown:?} does not give its bytes back"
    );
}

/// A `file` payload with no hunks yet, as qa-diff starts one.
fn empty_file(path: &str) -> FileData {
    serde_json::from_value(serde_json::json!({
        "path": path, "status": "modified", "role": "product", "binary": false,
        "added": 0, "removed": 0, "delta": "branch", "hunks": [], "hunk_count": 0,
        "truncated": false,
    }))
    .expect("an empty file payload")
}
