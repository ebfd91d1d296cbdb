//! The workspace as the tests see it: its root and its binaries, one per folder of
//! `bins/` (the one list of binaries: the Makefile, the installer and the packaging tests
//! all read that folder).

use std::path::{Path, PathBuf};

/// The workspace root (testkit lives in `shared/testkit`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("shared/testkit lives inside the workspace")
        .to_path_buf()
}

/// Every binary qapipe ships, sorted: the names of the folders under `bins/`.
pub fn binaries() -> Vec<String> {
    binaries_in(&root())
}

/// The names of the folders under `ROOT/bins/`, sorted.
pub fn binaries_in(root: &Path) -> Vec<String> {
    let dir = root.join("bins");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .filter_map(|e| {
            let e = e.ok()?;
            e.file_type().ok()?.is_dir().then_some(())?;
            e.file_name().into_string().ok()
        })
        .collect();
    names.sort();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_binaries_are_the_folders_of_bins() {
        let names = binaries();
        assert!(names.contains(&"qa-diff".to_string()), "{names:?}");
        assert!(names.contains(&"qa-mcp".to_string()), "{names:?}");
        assert!(names.iter().all(|n| n.starts_with("qa-")), "{names:?}");
    }

    #[test]
    fn a_file_in_bins_is_not_a_binary() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("bins/qa-b")).unwrap();
        std::fs::create_dir_all(dir.path().join("bins/qa-a")).unwrap();
        std::fs::write(dir.path().join("bins/README"), "").unwrap();
        assert_eq!(binaries_in(dir.path()), ["qa-a", "qa-b"]);
    }
}
