//! `Tree`: a plain directory of files in a temp dir (no git), written and edited by path.

use std::path::Path;

/// A directory in a temp dir, removed when dropped.
pub struct Tree {
    dir: tempfile::TempDir,
}

impl Default for Tree {
    fn default() -> Tree {
        Tree::new()
    }
}

impl Tree {
    /// An empty directory.
    pub fn new() -> Tree {
        Tree {
            dir: tempfile::tempdir().expect("creating a temp dir"),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `content` at the relative path `rel`, creating its folders.
    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) {
        let path = self.path().join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .unwrap_or_else(|e| panic!("creating {}: {e}", parent.display()));
        }
        std::fs::write(&path, content).unwrap_or_else(|e| panic!("writing {rel}: {e}"));
    }

    /// The text at `rel`.
    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path().join(rel))
            .unwrap_or_else(|e| panic!("reading {rel}: {e}"))
    }

    /// Replaces the first `find` in `rel` by `replace`; panics when `find` is absent, so
    /// an edit cannot silently stop changing anything.
    pub fn edit(&self, rel: &str, find: &str, replace: &str) {
        let text = self.read(rel);
        assert!(text.contains(find), "fixture: {find:?} is not in {rel}");
        self.write(rel, text.replacen(find, replace, 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_written_in_new_folders_and_edited_in_place() {
        let tree = Tree::new();
        tree.write("a/b/c.txt", "one two");
        tree.edit("a/b/c.txt", "two", "three");
        assert_eq!(tree.read("a/b/c.txt"), "one three");
    }

    #[test]
    #[should_panic(expected = "fixture: \"four\" is not in c.txt")]
    fn an_edit_of_absent_text_panics() {
        let tree = Tree::new();
        tree.write("c.txt", "one");
        tree.edit("c.txt", "four", "five");
    }
}
