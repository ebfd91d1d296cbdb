//! Paths under the repository root: a target or source path is resolved component by
//! component, never through a symlink, so nothing outside the root is ever read.

use std::fs::Metadata;
use std::path::{Path, PathBuf};

/// A repository-relative path that exists under the root, with its own metadata (not
/// followed: it may be a symlink or a special file, which the caller refuses).
#[derive(Debug)]
pub struct Resolved {
    pub path: PathBuf,
    pub metadata: Metadata,
}

/// The `/`-separated components of a repository-relative path, without `.` and empty
/// ones; an absolute path, a `..` or a backslash is refused with the reason.
pub fn components(value: &str) -> Result<Vec<&str>, String> {
    if value.starts_with('/') {
        return Err(format!(
            "{value:?} is absolute: paths are repository-relative"
        ));
    }
    if value.contains('\\') {
        return Err(format!("{value:?} contains a backslash: use `/`"));
    }
    let parts: Vec<&str> = value
        .split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .collect();
    if parts.contains(&"..") {
        return Err(format!("{value:?} escapes the repository with `..`"));
    }
    Ok(parts)
}

/// Finds `value` under `root`. Every component on the way must be a real directory: a
/// symlink anywhere is refused, because following it could leave the root.
pub fn resolve(root: &Path, value: &str) -> Result<Resolved, String> {
    if value.is_empty() {
        return Err("the path is empty".to_string());
    }
    let parts = components(value)?;
    let mut path = root.to_path_buf();
    let mut metadata =
        std::fs::metadata(root).map_err(|e| format!("repository root {}: {e}", root.display()))?;
    for (i, part) in parts.iter().enumerate() {
        if !metadata.is_dir() {
            return Err(format!("{} is not a directory", parts[..i].join("/")));
        }
        path.push(part);
        metadata = std::fs::symlink_metadata(&path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                format!("{value} not found")
            } else {
                format!("{}: {e}", parts[..=i].join("/"))
            }
        })?;
        if metadata.file_type().is_symlink() {
            return Err(format!(
                "{} is a symlink: not followed",
                parts[..=i].join("/")
            ));
        }
    }
    Ok(Resolved { path, metadata })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_and_empty_components_are_dropped() {
        assert_eq!(components("./a//b/.").unwrap(), vec!["a", "b"]);
        assert!(components(".").unwrap().is_empty());
    }

    #[test]
    fn escapes_absolute_paths_and_backslashes_are_refused() {
        assert!(components("a/../../etc").unwrap_err().contains("`..`"));
        assert!(components("/etc/passwd").unwrap_err().contains("absolute"));
        assert!(components("a\\b").unwrap_err().contains("backslash"));
    }

    #[test]
    fn a_path_through_a_symlinked_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.txt"), "s").unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
        let err = resolve(dir.path(), "link/secret.txt").unwrap_err();
        assert_eq!(err, "link is a symlink: not followed");
    }

    #[test]
    fn a_path_through_a_real_directory_resolves() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/a.txt"), "a").unwrap();
        let found = resolve(dir.path(), "sub/a.txt").unwrap();
        assert!(found.metadata.is_file());
        assert_eq!(found.path, dir.path().join("sub/a.txt"));
    }

    #[test]
    fn a_missing_path_is_named() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            resolve(dir.path(), "nope/x").unwrap_err(),
            "nope/x not found"
        );
    }
}
