//! The repository working tree, read-only: build files read once and hashed, never a
//! path outside the root, never a file inside a nested repository.

use crate::path::is_executable;
use qa_records::envelope::Src;
use qa_records::exit::{failure, Exit};
use qa_records::hash;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

/// Build files larger than this are not build files qa-route reads.
const MAX_BUILD_FILE: u64 = 1 << 20;

/// A build file's text and the SHA-256 of its bytes.
#[derive(Debug)]
pub struct BuildFile {
    pub text: String,
    pub sha256: String,
}

/// The working tree under one root. Paths are repository-relative, `/`-separated, with
/// `""` for the root itself.
pub struct Tree {
    root: PathBuf,
    cache: RefCell<HashMap<String, Option<Rc<BuildFile>>>>,
    /// Resolved paths and nested-repository answers: every scenario asks again about the
    /// same few build files and directories, and each answer costs system calls.
    resolved: RefCell<HashMap<String, Option<PathBuf>>>,
    nested: RefCell<HashMap<String, bool>>,
    /// Build files parsed as JSON (package.json): every scenario asks again.
    json: RefCell<HashMap<String, Option<Rc<serde_json::Value>>>>,
    /// Directory listings, by repository-relative directory.
    listed: RefCell<HashMap<String, Vec<(String, std::fs::FileType)>>>,
    /// The root's npm workspace and the build files read for it: every discovery asks
    /// again, twice.
    pub(crate) workspace: RefCell<Option<(Rc<crate::node::workspace::Workspace>, Src)>>,
}

impl Tree {
    /// Opens `root`; a missing directory is exit 66.
    pub fn open(root: &Path) -> anyhow::Result<Tree> {
        let root = root
            .canonicalize()
            .map_err(|e| failure(Exit::NoInput, format!("repository {}: {e}", root.display())))?;
        if !root.is_dir() {
            return Err(failure(
                Exit::NoInput,
                format!("repository {} is not a directory", root.display()),
            ));
        }
        Ok(Tree {
            root,
            cache: RefCell::new(HashMap::new()),
            resolved: RefCell::new(HashMap::new()),
            nested: RefCell::new(HashMap::new()),
            listed: RefCell::new(HashMap::new()),
            json: RefCell::new(HashMap::new()),
            workspace: RefCell::new(None),
        })
    }

    /// A reader that remembers the hash of every build file it reads.
    pub fn reader(&self) -> Reader<'_> {
        Reader {
            tree: self,
            src: Src::new(),
        }
    }

    fn full(&self, rel: &str) -> PathBuf {
        if rel.is_empty() {
            self.root.clone()
        } else {
            self.root.join(rel)
        }
    }

    /// The path inside the root that `rel` names once symlinks are resolved; None when it
    /// does not exist or resolves outside the root.
    fn inside(&self, rel: &str) -> Option<PathBuf> {
        if let Some(known) = self.resolved.borrow().get(rel) {
            return known.clone();
        }
        // The parent resolved once for all its entries; the entry itself needs one lstat
        // unless it is a symlink, which is resolved whole.
        let real = match rel.rsplit_once('/') {
            _ if rel.is_empty() => Some(self.root.clone()),
            Some((dir, name)) if !name.is_empty() && name != ".." && name != "." => self
                .inside(dir)
                .and_then(|parent| self.entry(&parent, name)),
            None if rel != ".." && rel != "." => self.entry(&self.root.clone(), rel),
            _ => None,
        };
        self.resolved
            .borrow_mut()
            .insert(rel.to_string(), real.clone());
        real
    }

    /// `name` inside the resolved directory `parent`: the joined path when it is no
    /// symlink, else its target when that lies inside the root; None when it is missing.
    fn entry(&self, parent: &Path, name: &str) -> Option<PathBuf> {
        let path = parent.join(name);
        let meta = path.symlink_metadata().ok()?;
        if !meta.file_type().is_symlink() {
            return Some(path);
        }
        path.canonicalize()
            .ok()
            .filter(|real| real.starts_with(&self.root))
    }

    fn load(&self, rel: &str) -> Option<Rc<BuildFile>> {
        if let Some(cached) = self.cache.borrow().get(rel) {
            return cached.clone();
        }
        let loaded = self.inside(rel).and_then(|real| {
            let meta = std::fs::metadata(&real).ok()?;
            if !meta.is_file() || meta.len() > MAX_BUILD_FILE {
                return None;
            }
            let bytes = std::fs::read(&real).ok()?;
            let sha256 = hash::sha256_hex(&bytes);
            let text = String::from_utf8(bytes).ok()?;
            Some(Rc::new(BuildFile { text, sha256 }))
        });
        self.cache
            .borrow_mut()
            .insert(rel.to_string(), loaded.clone());
        loaded
    }

    pub fn is_file(&self, rel: &str) -> bool {
        self.inside(rel).is_some_and(|p| p.is_file())
    }

    /// True when `rel` (a plain relative path) names an existing entry, following
    /// symlinks wherever they lead: only existence is asked, nothing is read, so a
    /// `node_modules` linked from a shared store counts as installed.
    pub fn exists(&self, rel: &str) -> bool {
        is_relative_inside(rel) && self.root.join(rel).exists()
    }

    /// True when `rel` itself is a symbolic link: a build file that is one is not read
    /// for what it runs.
    pub fn is_symlink(&self, rel: &str) -> bool {
        is_relative_inside(rel)
            && self
                .root
                .join(rel)
                .symlink_metadata()
                .is_ok_and(|m| m.file_type().is_symlink())
    }

    /// True for a regular file inside the root with an execute bit set.
    pub fn is_executable(&self, rel: &str) -> bool {
        self.inside(rel).is_some_and(|p| is_executable(&p))
    }

    /// True when `dir` (below the root) holds a `.git` entry: another repository.
    pub fn is_nested_repo(&self, dir: &str) -> bool {
        if dir.is_empty() {
            return false;
        }
        if let Some(&known) = self.nested.borrow().get(dir) {
            return known;
        }
        let nested = self.full(dir).join(".git").symlink_metadata().is_ok();
        self.nested.borrow_mut().insert(dir.to_string(), nested);
        nested
    }

    /// The nested repository a file lies in, if any.
    pub fn nested_repo_of(&self, file: &str) -> Option<String> {
        let mut dirs: Vec<&str> = ancestors(file).collect();
        // Outermost first, so the reported repository is the one actually entered.
        dirs.reverse();
        dirs.into_iter()
            .find(|dir| self.is_nested_repo(dir))
            .map(str::to_string)
    }

    /// The regular files directly in `dir`, sorted, as repository-relative paths;
    /// symlinks left out.
    pub fn files(&self, dir: &str) -> Vec<String> {
        self.entries(dir, |t| t.is_file())
    }

    /// The entries of `dir` whose type passes `keep`, sorted, `.git` left out. A listing
    /// is read once: every scenario's discovery lists the same few directories.
    fn entries(&self, dir: &str, keep: fn(&std::fs::FileType) -> bool) -> Vec<String> {
        if !self.listed.borrow().contains_key(dir) {
            let listing = self.list(dir);
            self.listed.borrow_mut().insert(dir.to_string(), listing);
        }
        let listed = self.listed.borrow();
        listed[dir]
            .iter()
            .filter(|(_, t)| keep(t))
            .map(|(name, _)| join(dir, name))
            .collect()
    }

    fn list(&self, dir: &str) -> Vec<(String, std::fs::FileType)> {
        let Some(real) = self.inside(dir) else {
            return Vec::new();
        };
        let Ok(entries) = std::fs::read_dir(real) else {
            return Vec::new();
        };
        let mut listing: Vec<(String, std::fs::FileType)> = entries
            .filter_map(Result::ok)
            .filter_map(|e| Some((e.file_name().into_string().ok()?, e.file_type().ok()?)))
            .filter(|(name, _)| name != ".git")
            .collect();
        listing.sort_by(|a, b| a.0.cmp(&b.0));
        listing
    }

    /// The subdirectories of `dir`, sorted; symlinks, `.git` and nested repositories left
    /// out.
    pub fn subdirs(&self, dir: &str) -> Vec<String> {
        let mut subs = self.entries(dir, |t| t.is_dir());
        subs.retain(|sub| !self.is_nested_repo(sub));
        subs
    }
}

/// Reads build files for one route and keeps `file:<path>` -> SHA-256 of each one read.
pub struct Reader<'t> {
    tree: &'t Tree,
    src: Src,
}

impl<'t> Reader<'t> {
    /// The file's text, if it is a readable UTF-8 file inside the root.
    pub fn read(&mut self, rel: &str) -> Option<Rc<BuildFile>> {
        let file = self.tree.load(rel)?;
        self.src.insert(format!("file:{rel}"), file.sha256.clone());
        Some(file)
    }

    /// The file parsed as JSON, parsed once per run; None when it is unreadable or not
    /// JSON. Its hash is kept like any file read.
    pub fn json(&mut self, rel: &str) -> Option<Rc<serde_json::Value>> {
        let file = self.read(rel)?;
        let mut cache = self.tree.json.borrow_mut();
        cache
            .entry(rel.to_string())
            .or_insert_with(|| serde_json::from_str(&file.text).ok().map(Rc::new))
            .clone()
    }

    pub fn tree(&self) -> &'t Tree {
        self.tree
    }

    /// The repository-relative paths read so far, sorted.
    pub fn read_paths(&self) -> Vec<&str> {
        self.src
            .keys()
            .filter_map(|k| k.strip_prefix("file:"))
            .collect()
    }

    /// Counts as read here what another reader of the same tree read (`read`, its
    /// hashes): the same files give the same hashes, whichever reader loads them.
    pub fn note(&mut self, read: &Src) {
        self.src
            .extend(read.iter().map(|(k, v)| (k.clone(), v.clone())));
    }

    /// The hashes of everything read.
    pub fn into_src(self) -> Src {
        self.src
    }
}

/// True when `path` is a plain repository-relative path: no root, no `..`, no `.`, no
/// empty or backslash-bearing segment.
pub fn is_relative_inside(path: &str) -> bool {
    !path.is_empty()
        && !path.contains('\\')
        && !path.contains('\0')
        && path.split('/').all(|seg| !seg.is_empty())
        && Path::new(path)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

/// `dir/name`, with `""` as the root.
pub fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// The directory holding `path` (`""` for the root).
pub fn parent(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

/// The last segment of `path`.
pub fn base_name(path: &str) -> &str {
    path.rfind('/').map_or(path, |i| &path[i + 1..])
}

/// `path` relative to `dir` when it lies under it.
pub fn under<'p>(path: &'p str, dir: &str) -> Option<&'p str> {
    if dir.is_empty() {
        return Some(path);
    }
    path.strip_prefix(dir)?.strip_prefix('/')
}

/// The directories holding `file`, nearest first, ending with the root `""`.
pub fn ancestors(file: &str) -> impl Iterator<Item = &str> {
    let mut next = Some(parent(file));
    std::iter::from_fn(move || {
        let dir = next?;
        next = (!dir.is_empty()).then(|| parent(dir));
        Some(dir)
    })
}

/// How a directory is shown in a command: `.` for the root.
pub fn shown(dir: &str) -> &str {
    if dir.is_empty() {
        "."
    } else {
        dir
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A tree holding `files` (path, text) in a temp dir.
    pub(crate) fn tree_with(files: &[(&str, &str)]) -> (tempfile::TempDir, Tree) {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, text).unwrap();
        }
        let tree = Tree::open(dir.path()).unwrap();
        (dir, tree)
    }

    #[test]
    fn ancestors_run_from_the_nearest_directory_to_the_root() {
        assert_eq!(ancestors("a/b/c.rs").collect::<Vec<_>>(), ["a/b", "a", ""]);
        assert_eq!(ancestors("top.rs").collect::<Vec<_>>(), [""]);
    }

    #[test]
    fn only_plain_relative_paths_are_inside() {
        assert!(is_relative_inside("src/lib.rs"));
        for bad in ["", "/etc/passwd", "../x", "a/../b", "./a", "a//b", "a\\b"] {
            assert!(!is_relative_inside(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_read_is_hashed_under_its_path() {
        let (_dir, tree) = tree_with(&[("Cargo.toml", "[package]\n")]);
        let mut reader = tree.reader();
        let file = reader.read("Cargo.toml").unwrap();
        assert_eq!(file.text, "[package]\n");
        let src = reader.into_src();
        assert_eq!(src["file:Cargo.toml"], hash::sha256_hex(b"[package]\n"));
    }

    #[test]
    fn a_missing_file_is_not_recorded() {
        let (_dir, tree) = tree_with(&[]);
        let mut reader = tree.reader();
        assert!(reader.read("Cargo.toml").is_none());
        assert!(reader.into_src().is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_leading_outside_the_root_is_not_read() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("Cargo.toml"), "[package]\n").unwrap();
        let (dir, tree) = tree_with(&[("inside.toml", "[package]\n")]);
        std::os::unix::fs::symlink(
            outside.path().join("Cargo.toml"),
            dir.path().join("Cargo.toml"),
        )
        .unwrap();
        std::os::unix::fs::symlink("inside.toml", dir.path().join("link.toml")).unwrap();
        let mut reader = tree.reader();
        assert!(reader.read("Cargo.toml").is_none());
        assert!(reader.read("link.toml").is_some());
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_symlink_leading_outside_the_root_is_not_entered() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir(outside.path().join("pkg")).unwrap();
        std::fs::write(outside.path().join("pkg/Cargo.toml"), "[package]\n").unwrap();
        let (dir, tree) = tree_with(&[("real/Cargo.toml", "[package]\n")]);
        std::os::unix::fs::symlink(outside.path().join("pkg"), dir.path().join("out")).unwrap();
        std::os::unix::fs::symlink("real", dir.path().join("alias")).unwrap();
        let mut reader = tree.reader();
        assert!(reader.read("out/Cargo.toml").is_none());
        assert!(!tree.is_file("out/Cargo.toml"));
        assert!(tree.files("out").is_empty());
        assert!(reader.read("alias/Cargo.toml").is_some());
        assert!(
            reader.read("real/../real/Cargo.toml").is_none(),
            "no `..` segment"
        );
    }

    #[test]
    fn a_directory_with_git_below_the_root_is_a_nested_repository() {
        let (dir, tree) = tree_with(&[("vendor/lib/Cargo.toml", ""), ("src/a.rs", "")]);
        std::fs::create_dir(dir.path().join("vendor/lib/.git")).unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        assert_eq!(
            tree.nested_repo_of("vendor/lib/src/x.rs").as_deref(),
            Some("vendor/lib")
        );
        assert_eq!(tree.nested_repo_of("src/a.rs"), None);
        assert_eq!(tree.subdirs("vendor"), Vec::<String>::new());
        assert_eq!(tree.subdirs(""), ["src", "vendor"]);
    }

    #[test]
    fn a_missing_root_is_exit_66() {
        let dir = tempfile::tempdir().unwrap();
        let err = Tree::open(&dir.path().join("gone")).err().unwrap();
        assert_eq!(qa_records::exit::exit_of(&err), Exit::NoInput);
    }
}
