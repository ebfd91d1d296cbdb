//! Reading the source blobs of a git tree without checking it out: nested repositories,
//! vendored code and oversized files are left out, and every limit hit is counted.

use anyhow::{Context as _, Result};
use git2::{ObjectType, Oid, Repository, Tree};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Extensions of the files language adapters read.
pub const SOURCE_EXTENSIONS: &[&str] = &[
    "ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts", "py", "rs", "go",
];

/// Manifests adapters read for packages, modules and declared commands.
pub const MANIFESTS: &[&str] = &["package.json", "Cargo.toml", "pyproject.toml", "go.mod"];

/// The team's reviewed policy, read for its flows.
pub const QA_MANIFEST: &str = ".qa/manifest.yaml";

/// Directories whose files are test data: recorded by blob id, never read.
pub const FIXTURE_DIRS: &[&str] = &["fixtures", "__fixtures__", "testdata"];

/// Directories whose content is someone else's code.
const VENDORED_DIRS: &[&str] = &[
    "node_modules",
    "vendor",
    "third_party",
    "third-party",
    "bower_components",
];

/// Generated lockfiles: never behaviour, often huge.
const LOCKFILES: &[&str] = &[
    "package-lock.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "bun.lockb",
    "Cargo.lock",
    "go.sum",
    "poetry.lock",
];

/// How much of a tree is read.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_file_bytes: usize,
    pub max_files: usize,
    pub max_total_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_file_bytes: 1 << 20,
            max_files: 50_000,
            max_total_bytes: 128 << 20,
        }
    }
}

/// What was left out of a tree, by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Skipped {
    /// Gitlinks (submodules) and directories holding their own `.git`.
    pub nested: usize,
    /// Vendored directories, minified bundles and lockfiles.
    pub vendored: usize,
    /// Files over the per-file limit, or not UTF-8.
    pub unreadable: usize,
    /// Files past the file-count or total-bytes limit.
    pub over_limit: usize,
}

/// One readable file of the tree.
#[derive(Debug, Clone)]
pub struct Blob {
    pub oid: String,
    pub text: Arc<str>,
}

/// Blob texts by object id, shared by the base and head reads: most blobs are in both.
#[derive(Debug, Default)]
pub struct BlobCache {
    texts: HashMap<Oid, Option<Arc<str>>>,
}

/// The readable source files and manifests of one commit's tree.
#[derive(Debug, Default)]
pub struct Snapshot {
    pub commit: String,
    pub files: BTreeMap<String, Blob>,
    /// Files under a fixture directory, to their blob id: tests use them by name, and
    /// their content only matters as identity.
    pub fixtures: BTreeMap<String, String>,
    pub skipped: Skipped,
}

impl Snapshot {
    /// Reads the tree of `commit` (a commit id or any revision git can resolve).
    pub fn read(
        repo: &Repository,
        commit: &str,
        limits: &Limits,
        cache: &mut BlobCache,
    ) -> Result<Snapshot> {
        let object = repo
            .revparse_single(commit)
            .with_context(|| format!("unknown commit `{commit}`"))?;
        let commit = object
            .peel_to_commit()
            .with_context(|| format!("`{commit}` is not a commit"))?;
        let tree = commit.tree().context("reading the commit's tree")?;
        let mut snapshot = Snapshot {
            commit: commit.id().to_string(),
            ..Snapshot::default()
        };
        let mut reader = Reader {
            repo,
            odb: repo.odb().context("opening the object database")?,
            limits,
            cache,
            total: 0,
        };
        reader.walk(&tree, "", &mut snapshot)?;
        Ok(snapshot)
    }

    /// The text of `path`, when the tree has it and it was readable.
    pub fn text(&self, path: &str) -> Option<&str> {
        self.files.get(path).map(|b| &*b.text)
    }

    /// True when `path` is a readable file of the tree.
    pub fn has(&self, path: &str) -> bool {
        self.files.contains_key(path)
    }

    /// The readable files directly inside `dir` (`""` for the root).
    pub fn files_in<'a>(&'a self, dir: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        let len = prefix.len();
        self.files_under_prefix(prefix)
            .filter(move |path| !path[len..].contains('/'))
    }

    /// The readable files under `dir`, at any depth.
    pub fn files_under<'a>(&'a self, dir: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        self.files_under_prefix(prefix)
    }

    fn files_under_prefix(&self, prefix: String) -> impl Iterator<Item = &str> + '_ {
        self.files
            .range(prefix.clone()..)
            .map(|(path, _)| path.as_str())
            .take_while(move |path| path.starts_with(&prefix))
    }

    /// Paths whose file name is `name` (manifests: `package.json`, `go.mod`, ...).
    pub fn named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.files
            .keys()
            .map(String::as_str)
            .filter(move |path| file_name(path) == name)
    }
}

/// The last component of a path.
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The directory of a path (`""` at the root).
pub fn parent(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

/// `dir/name`, or `name` at the root.
pub fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// `base` joined with the relative path `rel` (`.` and `..` applied); None when it
/// climbs out of the repository.
pub fn normalize(base: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

/// True when a directory of `path` (not its file name) is a fixture directory.
pub fn in_fixture_dir(path: &str) -> bool {
    path.split('/')
        .rev()
        .skip(1)
        .any(|dir| FIXTURE_DIRS.contains(&dir))
}

/// True for files adapters read.
fn wanted(path: &str) -> bool {
    let name = file_name(path);
    if MANIFESTS.contains(&name) || path == QA_MANIFEST {
        return true;
    }
    if name.ends_with(".min.js") || LOCKFILES.contains(&name) {
        return false;
    }
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| SOURCE_EXTENSIONS.contains(&ext))
}

struct Reader<'r> {
    repo: &'r Repository,
    odb: git2::Odb<'r>,
    limits: &'r Limits,
    cache: &'r mut BlobCache,
    total: usize,
}

impl Reader<'_> {
    fn walk(&mut self, tree: &Tree, dir: &str, snapshot: &mut Snapshot) -> Result<()> {
        for entry in tree.iter() {
            let Ok(name) = entry.name() else {
                continue;
            };
            let path = join(dir, name);
            match entry.kind() {
                // A gitlink: a submodule's commit, another repository.
                Some(ObjectType::Commit) => snapshot.skipped.nested += 1,
                Some(ObjectType::Tree) => {
                    if VENDORED_DIRS.contains(&name) {
                        snapshot.skipped.vendored += 1;
                        continue;
                    }
                    let sub = self
                        .repo
                        .find_tree(entry.id())
                        .with_context(|| format!("reading tree {path}"))?;
                    // A directory with its own .git is a separate working copy.
                    if sub.get_name(".git").is_some() {
                        snapshot.skipped.nested += 1;
                        continue;
                    }
                    self.walk(&sub, &path, snapshot)?;
                }
                Some(ObjectType::Blob) => {
                    let file_name = file_name(&path);
                    if file_name.ends_with(".min.js") || LOCKFILES.contains(&file_name) {
                        snapshot.skipped.vendored += 1;
                        continue;
                    }
                    if in_fixture_dir(&path) {
                        self.record_fixture(entry.id(), &path, snapshot);
                    }
                    if wanted(&path) {
                        self.read(entry.id(), path, snapshot)?;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Fixtures count against the file limit like read files: a tree of test data must
    /// not grow the graph without bound.
    fn record_fixture(&mut self, oid: Oid, path: &str, snapshot: &mut Snapshot) {
        if snapshot.fixtures.len() >= self.limits.max_files {
            snapshot.skipped.over_limit += 1;
            return;
        }
        snapshot.fixtures.insert(path.to_string(), oid.to_string());
    }

    fn read(&mut self, oid: Oid, path: String, snapshot: &mut Snapshot) -> Result<()> {
        if snapshot.files.len() >= self.limits.max_files {
            snapshot.skipped.over_limit += 1;
            return Ok(());
        }
        let text = match self.cache.texts.get(&oid) {
            Some(text) => text.clone(),
            None => {
                let (size, _) = self
                    .odb
                    .read_header(oid)
                    .with_context(|| format!("reading {path}"))?;
                let text = if size > self.limits.max_file_bytes {
                    None
                } else {
                    let object = self
                        .odb
                        .read(oid)
                        .with_context(|| format!("reading {path}"))?;
                    std::str::from_utf8(object.data()).ok().map(Arc::from)
                };
                self.cache.texts.insert(oid, text.clone());
                text
            }
        };
        let Some(text) = text else {
            snapshot.skipped.unreadable += 1;
            return Ok(());
        };
        if self.total + text.len() > self.limits.max_total_bytes {
            snapshot.skipped.over_limit += 1;
            return Ok(());
        }
        self.total += text.len();
        snapshot.files.insert(
            path,
            Blob {
                oid: oid.to_string(),
                text,
            },
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_applies_dots_and_refuses_to_climb_out() {
        assert_eq!(
            normalize("src/pages", "../components/Button"),
            Some("src/components/Button".to_string())
        );
        assert_eq!(normalize("src", "./a/./b"), Some("src/a/b".to_string()));
        assert_eq!(normalize("src", "../../x"), None);
    }

    #[test]
    fn wanted_files_are_sources_and_manifests_not_bundles() {
        assert!(wanted("src/app.tsx"));
        assert!(wanted("pkg/package.json"));
        assert!(!wanted("dist/app.min.js"));
        assert!(!wanted("README.md"));
        assert!(wanted(".qa/manifest.yaml"));
        assert!(!wanted("docs/manifest.yaml"));
    }

    #[test]
    fn fixture_files_are_those_under_a_fixture_directory() {
        assert!(in_fixture_dir("tests/fixtures/order.json"));
        assert!(in_fixture_dir("src/__fixtures__/a/b.txt"));
        assert!(in_fixture_dir("pkg/testdata/golden.out"));
        assert!(!in_fixture_dir("src/fixtures.ts"));
        assert!(!in_fixture_dir("tests/test_orders.py"));
    }
}
