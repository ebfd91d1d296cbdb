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

/// True for the configuration files that say where a workspace's imports go: tsconfig
/// and jsconfig files (`tsconfig.base.json` too, for `extends`) and pnpm's workspace list.
/// Kept like manifests: small, and read in both trees.
pub fn is_workspace_config(name: &str) -> bool {
    name == "pnpm-workspace.yaml"
        || ((name.starts_with("tsconfig") || name.starts_with("jsconfig"))
            && name.ends_with(".json"))
}

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

/// One readable file of the tree: its blob, whose text is read when asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blob {
    pub oid: Oid,
}

/// The blobs of one repository as its trees are read, shared by the base and head reads:
/// most blobs are in both, so each is read once. A text is shown to the adapters as it is
/// read ([`Snapshot::read`]'s `look`) and then let go, except the manifests several
/// adapters read whole; any other text is read again when asked for.
pub struct Blobs<'r> {
    odb: git2::Odb<'r>,
    known: HashMap<Oid, Known>,
}

/// What the reads of [`Blobs`] learned, kept while no handle is open.
pub struct Learned(HashMap<Oid, Known>);

/// What a read learned of one blob.
enum Known {
    /// Over the per-file limit, or not UTF-8.
    Unreadable,
    Text {
        len: usize,
        kept: Option<Arc<str>>,
    },
}

impl<'r> Blobs<'r> {
    pub fn new(repo: &'r Repository) -> Result<Blobs<'r>> {
        Ok(Blobs {
            odb: repo.odb().context("opening the object database")?,
            known: HashMap::new(),
        })
    }

    /// What the reads learned, without the handle on the object database.
    pub fn learned(self) -> Learned {
        Learned(self.known)
    }

    /// Reads on through `repo` with what earlier reads [`learned`](Blobs::learned).
    pub fn with_learned(repo: &'r Repository, learned: Learned) -> Result<Blobs<'r>> {
        Ok(Blobs {
            odb: repo.odb().context("opening the object database")?,
            known: learned.0,
        })
    }

    /// The text of a blob a tree read found readable.
    fn text(&self, oid: Oid) -> Option<Arc<str>> {
        match self.known.get(&oid) {
            Some(Known::Text {
                kept: Some(text), ..
            }) => Some(text.clone()),
            _ => {
                let object = self.odb.read(oid).ok()?;
                std::str::from_utf8(object.data()).ok().map(Arc::from)
            }
        }
    }
}

impl std::fmt::Debug for Blobs<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Blobs")
            .field("known", &self.known.len())
            .finish_non_exhaustive()
    }
}

/// The readable source files and manifests of one commit's tree.
#[derive(Debug)]
pub struct Snapshot<'b> {
    pub commit: String,
    pub files: BTreeMap<String, Blob>,
    /// Files under a fixture directory, to their blob id: tests use them by name, and
    /// their content only matters as identity.
    pub fixtures: BTreeMap<String, String>,
    pub skipped: Skipped,
    blobs: &'b Blobs<'b>,
}

impl<'b> Snapshot<'b> {
    /// Reads the tree of `commit` (a commit id or any revision git can resolve). `look`
    /// sees the path, blob and text of each file whose blob `blobs` had not read yet.
    pub fn read<'r: 'b>(
        repo: &Repository,
        commit: &str,
        limits: &Limits,
        blobs: &'b mut Blobs<'r>,
        look: &mut dyn FnMut(&str, Oid, &str),
    ) -> Result<Snapshot<'b>> {
        let object = repo
            .revparse_single(commit)
            .with_context(|| format!("unknown commit `{commit}`"))?;
        let commit = object
            .peel_to_commit()
            .with_context(|| format!("`{commit}` is not a commit"))?;
        let tree = commit.tree().context("reading the commit's tree")?;
        let mut found = Found::default();
        let mut reader = Reader {
            repo,
            limits,
            blobs: &mut *blobs,
            look,
            total: 0,
        };
        reader.walk(&tree, "", &mut found)?;
        Ok(Snapshot {
            commit: commit.id().to_string(),
            files: found.files,
            fixtures: found.fixtures,
            skipped: found.skipped,
            blobs,
        })
    }

    /// The text of `path`, when the tree has it and it was readable.
    pub fn text(&self, path: &str) -> Option<Arc<str>> {
        self.blobs.text(self.files.get(path)?.oid)
    }

    /// The blob of `path`, when the tree has it and it was readable.
    pub fn blob(&self, path: &str) -> Option<Blob> {
        self.files.get(path).copied()
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
    if MANIFESTS.contains(&name) || is_workspace_config(name) || path == QA_MANIFEST {
        return true;
    }
    if name.ends_with(".min.js") || LOCKFILES.contains(&name) {
        return false;
    }
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| SOURCE_EXTENSIONS.contains(&ext))
}

/// What one tree read collects.
#[derive(Default)]
struct Found {
    files: BTreeMap<String, Blob>,
    fixtures: BTreeMap<String, String>,
    skipped: Skipped,
}

struct Reader<'a, 'r> {
    repo: &'a Repository,
    limits: &'a Limits,
    blobs: &'a mut Blobs<'r>,
    look: &'a mut dyn FnMut(&str, Oid, &str),
    total: usize,
}

impl Reader<'_, '_> {
    fn walk(&mut self, tree: &Tree, dir: &str, found: &mut Found) -> Result<()> {
        for entry in tree.iter() {
            let Ok(name) = entry.name() else {
                continue;
            };
            let path = join(dir, name);
            match entry.kind() {
                // A gitlink: a submodule's commit, another repository.
                Some(ObjectType::Commit) => found.skipped.nested += 1,
                Some(ObjectType::Tree) => {
                    if VENDORED_DIRS.contains(&name) {
                        found.skipped.vendored += 1;
                        continue;
                    }
                    let sub = self
                        .repo
                        .find_tree(entry.id())
                        .with_context(|| format!("reading tree {path}"))?;
                    // A directory with its own .git is a separate working copy.
                    if sub.get_name(".git").is_some() {
                        found.skipped.nested += 1;
                        continue;
                    }
                    self.walk(&sub, &path, found)?;
                }
                Some(ObjectType::Blob) => {
                    let file_name = file_name(&path);
                    if file_name.ends_with(".min.js") || LOCKFILES.contains(&file_name) {
                        found.skipped.vendored += 1;
                        continue;
                    }
                    if in_fixture_dir(&path) {
                        self.record_fixture(entry.id(), &path, found);
                    }
                    if wanted(&path) {
                        self.read(entry.id(), path, found)?;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Fixtures count against the file limit like read files: a tree of test data must
    /// not grow the graph without bound.
    fn record_fixture(&mut self, oid: Oid, path: &str, found: &mut Found) {
        if found.fixtures.len() >= self.limits.max_files {
            found.skipped.over_limit += 1;
            return;
        }
        found.fixtures.insert(path.to_string(), oid.to_string());
    }

    fn read(&mut self, oid: Oid, path: String, found: &mut Found) -> Result<()> {
        if found.files.len() >= self.limits.max_files {
            found.skipped.over_limit += 1;
            return Ok(());
        }
        // Manifests are kept: several adapters read them whole, in both trees.
        let name = file_name(&path);
        let keep = MANIFESTS.contains(&name) || is_workspace_config(name) || path == QA_MANIFEST;
        let len = match self.blobs.known.get(&oid) {
            Some(Known::Unreadable) => None,
            Some(Known::Text { len, kept }) if kept.is_some() || !keep => Some(*len),
            // A manifest whose blob was read as another file's: read again, to keep.
            Some(Known::Text { .. }) => self.read_blob(oid, &path, true, false)?,
            None => self.read_blob(oid, &path, keep, true)?,
        };
        let Some(len) = len else {
            found.skipped.unreadable += 1;
            return Ok(());
        };
        if self.total + len > self.limits.max_total_bytes {
            found.skipped.over_limit += 1;
            return Ok(());
        }
        self.total += len;
        found.files.insert(path, Blob { oid });
        Ok(())
    }

    /// Reads a blob, shows its text to `look` when it is `new`, and remembers what it
    /// learned (the text itself to `keep` it); None when the blob is unreadable.
    fn read_blob(&mut self, oid: Oid, path: &str, keep: bool, new: bool) -> Result<Option<usize>> {
        let odb = &self.blobs.odb;
        let (size, _) = odb
            .read_header(oid)
            .with_context(|| format!("reading {path}"))?;
        let object = match size > self.limits.max_file_bytes {
            true => None,
            false => Some(odb.read(oid).with_context(|| format!("reading {path}"))?),
        };
        let text = object
            .as_ref()
            .and_then(|o| std::str::from_utf8(o.data()).ok());
        let known = match text {
            None => Known::Unreadable,
            Some(text) => {
                if new {
                    (self.look)(path, oid, text);
                }
                Known::Text {
                    len: text.len(),
                    kept: keep.then(|| Arc::from(text)),
                }
            }
        };
        let len = match known {
            Known::Unreadable => None,
            Known::Text { len, .. } => Some(len),
        };
        self.blobs.known.insert(oid, known);
        Ok(len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_blob_is_shown_once_for_both_trees_and_its_text_read_again_when_asked() {
        let mut repo = qa_testkit::Repo::new();
        repo.write("package.json", "{\"name\": \"shop\"}\n");
        repo.write("src/a.ts", "export const a = 1;\n");
        repo.write("src/b.ts", "export const b = 1;\n");
        let base = repo.commit("base");
        repo.write("src/b.ts", "export const b = 2;\n");
        let head = repo.commit("head");
        let git = Repository::open(repo.path()).unwrap();
        let mut blobs = Blobs::new(&git).unwrap();
        let limits = Limits::default();
        let mut shown = Vec::new();
        for (commit, b) in [(&head, "2"), (&base, "1")] {
            let mut look = |path: &str, _: Oid, _: &str| shown.push(path.to_string());
            let snapshot = Snapshot::read(&git, commit, &limits, &mut blobs, &mut look).unwrap();
            let b_text = format!("export const b = {b};\n");
            assert_eq!(snapshot.text("src/b.ts").as_deref(), Some(b_text.as_str()));
            assert_eq!(
                snapshot.text("package.json").as_deref(),
                Some("{\"name\": \"shop\"}\n")
            );
            assert_eq!(snapshot.text("src/c.ts"), None);
        }
        assert_eq!(shown, ["package.json", "src/a.ts", "src/b.ts", "src/b.ts"]);
    }

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
        assert!(wanted("tsconfig.json"));
        assert!(wanted("packages/a/tsconfig.build.json"));
        assert!(wanted("pnpm-workspace.yaml"));
        assert!(!wanted("packages/a/data.json"));
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
