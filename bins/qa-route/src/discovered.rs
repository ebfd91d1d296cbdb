//! Command discovery kept per set of targets: the scenarios of one intent share theirs.

use crate::commands::{self, Found};
use crate::targets::Targets;
use crate::tree::{Reader, Tree};
use qa_records::envelope::Src;

/// What discovery found for each set of targets asked so far, and the build files it
/// read for them. Discovery reads only the tree, so the same targets find the same
/// candidates and read the same files every time: a range's 46 scenarios come from a
/// few intents, and discovering again for each one cost more than the rest of routing.
pub struct Discovered<'t> {
    tree: &'t Tree,
    /// Few entries (one or two per intent): a scan costs less than hashing the targets.
    seen: Vec<(Targets, Found, Src)>,
}

impl<'t> Discovered<'t> {
    pub fn new(tree: &'t Tree) -> Discovered<'t> {
        Discovered {
            tree,
            seen: Vec::new(),
        }
    }

    /// [`commands::discover`] for `targets`, the files it reads counted as `reader`'s.
    pub fn discover(&mut self, reader: &mut Reader, targets: &Targets) -> Found {
        if let Some((_, found, read)) = self.seen.iter().find(|(t, _, _)| t == targets) {
            reader.note(read);
            return found.clone();
        }
        // A reader of its own, so that what is kept is what this discovery read.
        let mut own = self.tree.reader();
        let found = commands::discover(&mut own, targets);
        let read = own.into_src();
        reader.note(&read);
        self.seen.push((targets.clone(), found.clone(), read));
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two npm packages: a change in one discovers its commands, reading its build files.
    fn two_packages() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (pkg, runner) in [("web", "vitest run"), ("api", "jest")] {
            let root = dir.path().join(pkg);
            std::fs::create_dir_all(root.join("src")).unwrap();
            std::fs::write(
                root.join("package.json"),
                format!(r#"{{"name":"{pkg}","scripts":{{"test":"{runner}"}}}}"#),
            )
            .unwrap();
            std::fs::write(root.join("src/a.ts"), "export const a = 1;\n").unwrap();
        }
        dir
    }

    fn targets(file: &str) -> Targets {
        Targets {
            files: vec![file.to_string()],
            tests: Vec::new(),
        }
    }

    fn runs(found: &Found) -> Vec<(String, String)> {
        found
            .candidates
            .iter()
            .map(|c| (c.dir.clone(), c.run.clone()))
            .collect()
    }

    #[test]
    fn the_same_targets_find_and_read_what_a_fresh_discovery_does() {
        let dir = two_packages();
        let tree = Tree::open(dir.path()).unwrap();
        let mut discovered = Discovered::new(&tree);
        let web = targets("web/src/a.ts");
        let mut fresh = tree.reader();
        let expected = commands::discover(&mut fresh, &web);
        assert!(!expected.candidates.is_empty());
        for _ in 0..2 {
            let mut reader = tree.reader();
            let found = discovered.discover(&mut reader, &web);
            assert_eq!(runs(&found), runs(&expected));
            assert_eq!(reader.read_paths(), fresh.read_paths());
        }
        assert_eq!(discovered.seen.len(), 1);
    }

    #[test]
    fn other_targets_are_discovered_for_themselves() {
        let dir = two_packages();
        let tree = Tree::open(dir.path()).unwrap();
        let mut discovered = Discovered::new(&tree);
        let mut reader = tree.reader();
        let web = discovered.discover(&mut reader, &targets("web/src/a.ts"));
        let mut other = tree.reader();
        let api = discovered.discover(&mut other, &targets("api/src/a.ts"));
        assert_ne!(runs(&web), runs(&api));
        assert!(other.read_paths().contains(&"api/package.json"));
        assert!(!other.read_paths().contains(&"web/package.json"));
        assert_eq!(discovered.seen.len(), 2);
    }

    #[test]
    fn what_was_read_before_is_kept_beside_what_discovery_reads() {
        let dir = two_packages();
        let tree = Tree::open(dir.path()).unwrap();
        let mut discovered = Discovered::new(&tree);
        let mut reader = tree.reader();
        reader.read("api/package.json").unwrap();
        discovered.discover(&mut reader, &targets("web/src/a.ts"));
        let read = reader.read_paths();
        assert!(read.contains(&"api/package.json") && read.contains(&"web/package.json"));
    }
}
