//! package.json files and workspaces: a package's name and scripts, the workspace members
//! a root declares (`workspaces`, pnpm-workspace.yaml), and which package owns a file.

use super::super::Found;
use super::manager::Manager;
use crate::tree::{ancestors, base_name, join, under, Reader, Tree};
use serde_json::{Map, Value};
use std::rc::Rc;

/// npm's placeholder for a package without tests.
const PLACEHOLDER: &str = "echo \"Error: no test specified\" && exit 1";

/// How deep a `**` workspace pattern looks.
const MAX_GLOB_DEPTH: usize = 4;

/// A directory with a package.json.
pub struct Package {
    pub dir: String,
    pub manifest: String,
    json: std::rc::Rc<Value>,
}

impl Package {
    pub fn read(reader: &mut Reader, dir: &str) -> Option<Package> {
        let manifest = join(dir, "package.json");
        let json = reader.json(&manifest)?;
        Some(Package {
            dir: dir.to_string(),
            manifest,
            json,
        })
    }

    /// The declared `name`.
    pub fn name(&self) -> Option<&str> {
        self.json.get("name").and_then(Value::as_str)
    }

    /// The `scripts` object (empty when there is none).
    pub fn scripts(&self) -> &Map<String, Value> {
        static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
        self.json
            .get("scripts")
            .and_then(Value::as_object)
            .unwrap_or_else(|| EMPTY.get_or_init(Map::new))
    }

    /// The version range the package declares for `name` (dependencies, then
    /// devDependencies).
    pub fn dependency(&self, name: &str) -> Option<&str> {
        ["dependencies", "devDependencies"]
            .iter()
            .find_map(|k| self.json.get(*k)?.get(name)?.as_str())
    }

    /// The `test` script when it is a real one and fit to stand behind a command.
    pub fn test_script(&self, found: &mut Found) -> Option<&str> {
        let script = self.scripts().get("test")?.as_str()?;
        if script.trim() == PLACEHOLDER
            || !found.accept(script, "the `test` script", &self.manifest)
        {
            return None;
        }
        Some(script)
    }

    pub fn manager(&self, tree: &Tree) -> Manager {
        Manager::of(&self.json, &self.dir, tree)
    }

    /// Workspace patterns: `workspaces` (array, or yarn's `{packages: [...]}`), else
    /// pnpm-workspace.yaml's `packages:` list.
    fn workspace_patterns(&self, reader: &mut Reader) -> Vec<String> {
        let listed = match self.json.get("workspaces") {
            Some(Value::Array(items)) => Some(items),
            Some(Value::Object(obj)) => obj.get("packages").and_then(Value::as_array),
            _ => None,
        };
        if let Some(items) = listed {
            return items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect();
        }
        reader
            .read(&join(&self.dir, "pnpm-workspace.yaml"))
            .map(|f| pnpm_packages(&f.text))
            .unwrap_or_default()
    }
}

/// Where a changed file belongs.
pub enum Owner {
    /// A package the root's workspace declares (its directory).
    Member(String),
    /// The nearest package.json that is no member: a project of its own (or the root).
    Project(Package),
}

/// The root package.json and the workspace member directories it declares.
pub struct Workspace {
    pub root: Option<Package>,
    pub members: Vec<String>,
}

impl Workspace {
    /// The tree's workspace, read once per tree: the build files read for it are counted
    /// as `reader`'s each time.
    pub fn read(reader: &mut Reader) -> Rc<Workspace> {
        let tree = reader.tree();
        if let Some((workspace, read)) = tree.workspace.borrow().as_ref() {
            reader.note(read);
            return workspace.clone();
        }
        // A reader of its own, so that what is kept is what reading the workspace read.
        let mut own = tree.reader();
        let workspace = Rc::new(Workspace::read_once(&mut own));
        let read = own.into_src();
        reader.note(&read);
        *tree.workspace.borrow_mut() = Some((workspace.clone(), read));
        workspace
    }

    fn read_once(reader: &mut Reader) -> Workspace {
        let root = Package::read(reader, "");
        let members = match &root {
            Some(root) => members(reader, root),
            None => Vec::new(),
        };
        Workspace { root, members }
    }

    /// The package owning `file`: the deepest member holding it, else the nearest
    /// package.json above it; None outside any package.
    pub fn owner(&self, reader: &mut Reader, file: &str) -> Option<Owner> {
        let member = self
            .members
            .iter()
            .filter(|dir| under(file, dir).is_some())
            .max_by_key(|dir| dir.len());
        if let (Some(dir), Some(_)) = (member, &self.root) {
            return Some(Owner::Member(dir.clone()));
        }
        ancestors(file)
            .find_map(|dir| Package::read(reader, dir))
            .map(Owner::Project)
    }
}

/// The entries of the `packages:` list of a pnpm-workspace.yaml.
pub fn pnpm_packages(text: &str) -> Vec<String> {
    let mut patterns = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if !line.starts_with([' ', '\t', '-']) {
            inside = trimmed == "packages:";
            continue;
        }
        if let Some(item) = trimmed.strip_prefix('-').filter(|_| inside) {
            let item = item.trim();
            let item = item.split(" #").next().unwrap_or(item).trim();
            patterns.push(item.trim_matches(|c| c == '"' || c == '\'').to_string());
        }
    }
    patterns
}

/// True when `name` matches a segment pattern with `*` wildcards.
pub fn segment_matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            let Some(rest) = name.strip_prefix(head) else {
                return false;
            };
            if tail.is_empty() {
                return true;
            }
            (0..=rest.len())
                .filter(|i| rest.is_char_boundary(*i))
                .any(|i| segment_matches(tail, &rest[i..]))
        }
    }
}

/// The directories under `base` matching `segments` (`*` within a segment, `**` for any
/// depth up to a limit), skipping node_modules and nested repositories.
fn expand(tree: &Tree, base: &str, segments: &[&str], depth: usize, out: &mut Vec<String>) {
    let Some((first, rest)) = segments.split_first() else {
        out.push(base.to_string());
        return;
    };
    if *first == "**" {
        expand(tree, base, rest, depth, out);
        if depth < MAX_GLOB_DEPTH {
            for sub in tree.subdirs(base) {
                if base_name(&sub) != "node_modules" {
                    expand(tree, &sub, segments, depth + 1, out);
                }
            }
        }
        return;
    }
    for sub in tree.subdirs(base) {
        let name = base_name(&sub);
        if name != "node_modules" && segment_matches(first, name) {
            expand(tree, &sub, rest, depth, out);
        }
    }
}

/// The workspace package directories of `root`, sorted.
fn members(reader: &mut Reader, root: &Package) -> Vec<String> {
    let tree = reader.tree();
    let mut included = Vec::new();
    let mut excluded = Vec::new();
    for pattern in root.workspace_patterns(reader) {
        let (negated, pattern) = match pattern.strip_prefix('!') {
            Some(p) => (true, p),
            None => (false, pattern.as_str()),
        };
        let pattern = pattern.trim_start_matches("./").trim_end_matches('/');
        let segments: Vec<&str> = pattern.split('/').filter(|s| !s.is_empty()).collect();
        if segments.contains(&"..") {
            continue;
        }
        let target = if negated {
            &mut excluded
        } else {
            &mut included
        };
        expand(tree, &root.dir, &segments, 0, target);
    }
    included.retain(|dir| !excluded.contains(dir) && tree.is_file(&join(dir, "package.json")));
    included.sort();
    included.dedup();
    included
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pnpm workspace with two members, `packages/a` and `packages/b`.
    fn pnpm_workspace() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(
            root.join("package.json"),
            r#"{"name":"root","private":true}"#,
        )
        .unwrap();
        std::fs::write(
            root.join("pnpm-workspace.yaml"),
            "packages:\n  - packages/*\n",
        )
        .unwrap();
        for m in ["a", "b"] {
            let d = root.join("packages").join(m);
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join("package.json"), format!(r#"{{"name":"{m}"}}"#)).unwrap();
        }
        dir
    }

    #[test]
    fn a_workspace_read_again_has_its_members_and_its_build_files_counted_as_read() {
        let dir = pnpm_workspace();
        let tree = Tree::open(dir.path()).unwrap();
        for _ in 0..2 {
            let mut reader = tree.reader();
            let workspace = Workspace::read(&mut reader);
            assert_eq!(workspace.members, ["packages/a", "packages/b"]);
            assert_eq!(reader.read_paths(), ["package.json", "pnpm-workspace.yaml"]);
        }
    }

    #[test]
    fn a_tree_without_a_root_package_has_no_workspace_and_reads_nothing() {
        let dir = pnpm_workspace();
        std::fs::remove_file(dir.path().join("package.json")).unwrap();
        let tree = Tree::open(dir.path()).unwrap();
        for _ in 0..2 {
            let mut reader = tree.reader();
            let workspace = Workspace::read(&mut reader);
            assert!(workspace.root.is_none() && workspace.members.is_empty());
            assert!(reader.read_paths().is_empty());
        }
    }

    #[test]
    fn pnpm_workspace_lists_are_read_until_the_next_key() {
        let text = "packages:\n  - apps/*\n  - 'libs/**' # all\ncatalog:\n  - not-this\n";
        assert_eq!(pnpm_packages(text), ["apps/*", "libs/**"]);
    }

    #[test]
    fn star_matches_within_a_segment_only_where_the_pattern_allows() {
        assert!(segment_matches("app-*", "app-web"));
        assert!(segment_matches("*", "x"));
        assert!(!segment_matches("app-*", "lib-web"));
        assert!(!segment_matches("web", "web2"));
    }
}
