//! Cargo manifests of a tree: each package's library target and the crates its code may
//! name (path dependencies under their key or `package =` rename, workspace
//! dependencies, `[patch]` paths), for resolving `use other_crate::...`.

use crate::tree::{normalize, parent, Snapshot};
use qa_records::code_pattern;
use regex::Regex;
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// The packages of a tree's Cargo.toml files, by directory.
#[derive(Debug, Default)]
pub struct Crates {
    packages: BTreeMap<String, Package>,
}

/// One package: its library and the crates its code may name.
#[derive(Debug, Default)]
struct Package {
    /// The library's root file (`src/lib.rs`, or `[lib] path`), when the tree has it.
    lib: Option<String>,
    /// Crate name as code writes it (`shop_core`) -> the package directory it names.
    externs: BTreeMap<String, String>,
}

impl Crates {
    pub fn read(snapshot: &Snapshot) -> Crates {
        let manifests: BTreeMap<String, Manifest> = snapshot
            .named("Cargo.toml")
            .filter_map(|path| {
                let text = snapshot.text(path)?;
                Some((parent(path).to_string(), Manifest::parse(&text)))
            })
            .collect();
        let lib_of = |dir: &str| -> Option<String> {
            let manifest = manifests.get(dir)?;
            manifest.package.as_ref()?;
            let file = normalize(dir, manifest.lib_path.as_deref().unwrap_or("src/lib.rs"))?;
            snapshot.has(&file).then_some(file)
        };
        let mut packages = BTreeMap::new();
        for (dir, manifest) in &manifests {
            let Some(own_name) = manifest.lib_name() else {
                continue;
            };
            let mut externs = BTreeMap::new();
            // Binaries, tests and examples of a package use its library by its name.
            externs.insert(own_name, dir.clone());
            let root = workspace_root(&manifests, dir);
            for dep in &manifest.dependencies {
                let Some((target, rename)) = dependency_dir(&manifests, dir, root, dep) else {
                    continue;
                };
                // A renamed dependency goes by its key; any other by its library's name.
                let name = match rename {
                    true => Some(code_name(&dep.key)),
                    false => manifests.get(&target).and_then(Manifest::lib_name),
                };
                if let Some(name) = name {
                    externs.insert(name, target);
                }
            }
            packages.insert(
                dir.clone(),
                Package {
                    lib: lib_of(dir),
                    externs,
                },
            );
        }
        // Only a library can be named: drop names of packages without one.
        let libs: BTreeMap<String, Option<String>> = packages
            .iter()
            .map(|(dir, p)| (dir.clone(), p.lib.clone()))
            .collect();
        for package in packages.values_mut() {
            package
                .externs
                .retain(|_, target| libs.get(target).is_some_and(Option::is_some));
        }
        Crates { packages }
    }

    /// The library root file of the crate `name` as the code of `from` may name it.
    pub fn library(&self, from: &str, name: &str) -> Option<&str> {
        let package = self.holding(from)?;
        let target = package.externs.get(name)?;
        self.packages.get(target)?.lib.as_deref()
    }

    /// The package whose directory is nearest above `file`.
    fn holding(&self, file: &str) -> Option<&Package> {
        let mut dir = parent(file);
        loop {
            if let Some(package) = self.packages.get(dir) {
                return Some(package);
            }
            if dir.is_empty() {
                return None;
            }
            dir = parent(dir);
        }
    }
}

/// A crate or dependency name as code writes it.
fn code_name(name: &str) -> String {
    name.replace('-', "_")
}

/// The nearest manifest at or above `dir` declaring `[workspace]`.
fn workspace_root<'m>(manifests: &'m BTreeMap<String, Manifest>, dir: &'m str) -> Option<&'m str> {
    let mut at = dir;
    loop {
        if manifests.get(at).is_some_and(|m| m.workspace) {
            return Some(at);
        }
        if at.is_empty() {
            return None;
        }
        at = parent(at);
    }
}

/// The directory of the package a dependency of the manifest in `dir` names, and
/// whether it is renamed: by its `path`, the workspace's entry for `workspace = true`,
/// or the workspace's `[patch]` path. A registry or git dependency is outside the tree.
fn dependency_dir(
    manifests: &BTreeMap<String, Manifest>,
    dir: &str,
    root: Option<&str>,
    dep: &Dependency,
) -> Option<(String, bool)> {
    let root_manifest = root.and_then(|r| Some((r, manifests.get(r)?)));
    let (base, declared) = match (&dep.path, dep.workspace) {
        (Some(path), _) => (
            dir,
            Dependency {
                path: Some(path.clone()),
                ..dep.clone()
            },
        ),
        (None, true) => {
            let (root, manifest) = root_manifest?;
            let shared = manifest
                .workspace_dependencies
                .iter()
                .find(|d| d.key == dep.key)?;
            let package = dep.package.clone().or_else(|| shared.package.clone());
            (
                root,
                Dependency {
                    package,
                    ..shared.clone()
                },
            )
        }
        (None, false) => {
            let (root, manifest) = root_manifest?;
            let name = dep.package.as_deref().unwrap_or(&dep.key);
            let patch = manifest.patches.iter().find(|p| p.key == name)?;
            (
                root,
                Dependency {
                    package: dep.package.clone(),
                    ..patch.clone()
                },
            )
        }
    };
    let target = normalize(base, declared.path.as_deref()?)?;
    manifests.get(&target)?.package.as_ref()?;
    Some((target, declared.package.is_some()))
}

/// What resolution needs of one Cargo.toml.
#[derive(Debug, Default)]
struct Manifest {
    /// `[package] name`.
    package: Option<String>,
    /// `[lib] name` and `path`.
    lib_name: Option<String>,
    lib_path: Option<String>,
    /// True when it declares `[workspace]`.
    workspace: bool,
    /// Every dependency table (`dependencies`, `dev-`, `build-`, per target).
    dependencies: Vec<Dependency>,
    workspace_dependencies: Vec<Dependency>,
    /// `[patch.<registry>]` entries.
    patches: Vec<Dependency>,
}

/// One dependency entry.
#[derive(Debug, Default, Clone)]
struct Dependency {
    key: String,
    path: Option<String>,
    /// The real package name of a renamed dependency.
    package: Option<String>,
    workspace: bool,
}

/// Which list of a manifest a table's entries go to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Table {
    Package,
    Lib,
    Dependencies,
    WorkspaceDependencies,
    Patch,
    Other,
}

static INLINE_PATH: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r#"\bpath\s*=\s*["']([^"']*)["']"#));
static INLINE_PACKAGE: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r#"\bpackage\s*=\s*["']([^"']*)["']"#));
static INLINE_WORKSPACE: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r"\bworkspace\s*=\s*true\b"));

impl Manifest {
    /// The library name as code writes it: `[lib] name`, else the package name.
    fn lib_name(&self) -> Option<String> {
        let name = self.lib_name.as_ref().or(self.package.as_ref())?;
        Some(code_name(name))
    }

    /// Reads the tables resolution needs, line by line: keys with string values, inline
    /// tables, and `[dependencies.name]` sub-tables. Multi-line values are passed over.
    fn parse(text: &str) -> Manifest {
        let mut manifest = Manifest::default();
        let mut table = Table::Other;
        // A `[dependencies.name]` sub-table: the entry its keys fill.
        let mut entry: Option<String> = None;
        for line in text.lines() {
            let line = line.trim();
            if line.starts_with('[') {
                let header = line.trim_start_matches('[');
                let header = header.split(']').next().unwrap_or(header);
                let segments = key_segments(header);
                if segments.first().is_some_and(|s| s == "workspace") {
                    manifest.workspace = true;
                }
                (table, entry) = classify(&segments);
                if let Some(key) = &entry {
                    manifest.list(table).push(Dependency {
                        key: key.clone(),
                        ..Dependency::default()
                    });
                }
                continue;
            }
            let Some((key, value)) = line.split_once('=') else {
                continue;
            };
            let key = key_segments(key.trim());
            let value = value.trim();
            match (table, &entry) {
                (Table::Package, _) if key == ["name"] => manifest.package = string(value),
                (Table::Lib, _) if key == ["name"] => manifest.lib_name = string(value),
                (Table::Lib, _) if key == ["path"] => manifest.lib_path = string(value),
                (Table::Package | Table::Lib | Table::Other, _) => {}
                (_, Some(_)) => {
                    if let Some(dep) = manifest.list(table).last_mut() {
                        dep.set(&key.join("."), value);
                    }
                }
                (_, None) => match key.as_slice() {
                    // `name = "1"` or `name = { path = "..." }`.
                    [name] => {
                        let mut dep = Dependency {
                            key: name.clone(),
                            ..Dependency::default()
                        };
                        if value.starts_with('{') {
                            dep.path = INLINE_PATH.captures(value).map(|c| c[1].to_string());
                            dep.package = INLINE_PACKAGE.captures(value).map(|c| c[1].to_string());
                            dep.workspace = INLINE_WORKSPACE.is_match(value);
                        }
                        manifest.list(table).push(dep);
                    }
                    // Dotted keys: `name.path = "..."`.
                    [name, field] => {
                        let list = manifest.list(table);
                        if !list.iter().any(|d| &d.key == name) {
                            list.push(Dependency {
                                key: name.clone(),
                                ..Dependency::default()
                            });
                        }
                        if let Some(dep) = list.iter_mut().find(|d| &d.key == name) {
                            dep.set(field, value);
                        }
                    }
                    _ => {}
                },
            }
        }
        manifest
    }

    fn list(&mut self, table: Table) -> &mut Vec<Dependency> {
        match table {
            Table::WorkspaceDependencies => &mut self.workspace_dependencies,
            Table::Patch => &mut self.patches,
            _ => &mut self.dependencies,
        }
    }
}

impl Dependency {
    fn set(&mut self, field: &str, value: &str) {
        match field {
            "path" => self.path = string(value),
            "package" => self.package = string(value),
            "workspace" => self.workspace = value.starts_with("true"),
            _ => {}
        }
    }
}

/// The table a header's segments name, and the dependency a sub-table header names.
fn classify(segments: &[String]) -> (Table, Option<String>) {
    let is_dependencies = |s: &str| {
        matches!(
            s,
            "dependencies"
                | "dev-dependencies"
                | "build-dependencies"
                | "dev_dependencies"
                | "build_dependencies"
        )
    };
    let names: Vec<&str> = segments.iter().map(String::as_str).collect();
    match names.as_slice() {
        ["package"] => (Table::Package, None),
        ["lib"] => (Table::Lib, None),
        ["workspace", "dependencies"] => (Table::WorkspaceDependencies, None),
        ["workspace", "dependencies", name] => {
            (Table::WorkspaceDependencies, Some(name.to_string()))
        }
        ["patch", _] => (Table::Patch, None),
        ["patch", _, name] => (Table::Patch, Some(name.to_string())),
        [table] | ["target", _, table] if is_dependencies(table) => (Table::Dependencies, None),
        [table, name] | ["target", _, table, name] if is_dependencies(table) => {
            (Table::Dependencies, Some(name.to_string()))
        }
        _ => (Table::Other, None),
    }
}

/// The parts of a dotted TOML key, unquoted (`target.'cfg(unix)'.dependencies`).
fn key_segments(key: &str) -> Vec<String> {
    let mut segments = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    for c in key.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => current.push(c),
            (None, '"' | '\'') => quote = Some(c),
            (None, '.') => segments.push(std::mem::take(&mut current)),
            (None, c) if c.is_whitespace() => {}
            (None, c) => current.push(c),
        }
    }
    segments.push(current);
    segments
}

/// A TOML basic or literal string value.
fn string(value: &str) -> Option<String> {
    let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let rest = &value[1..];
    Some(rest[..rest.find(quote)?].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependency_tables_inline_dotted_and_sub_tables_are_read() {
        let manifest = Manifest::parse(
            "[package]\nname = \"shop-app\"\n\n[lib]\nname = \"shop\"\n\n[dependencies]\nserde = \"1\"\nmoney = { path = \"../core\", package = \"shop-core\" }\nutil.workspace = true\n\n[target.'cfg(unix)'.dev-dependencies]\nfixtures = { path = \"../fixtures\" }\n\n[dependencies.db]\npath = \"../db\"\n",
        );
        assert_eq!(manifest.package.as_deref(), Some("shop-app"));
        assert_eq!(manifest.lib_name().as_deref(), Some("shop"));
        let deps: Vec<(&str, Option<&str>, Option<&str>, bool)> = manifest
            .dependencies
            .iter()
            .map(|d| {
                (
                    d.key.as_str(),
                    d.path.as_deref(),
                    d.package.as_deref(),
                    d.workspace,
                )
            })
            .collect();
        assert_eq!(
            deps,
            [
                ("serde", None, None, false),
                ("money", Some("../core"), Some("shop-core"), false),
                ("util", None, None, true),
                ("fixtures", Some("../fixtures"), None, false),
                ("db", Some("../db"), None, false),
            ]
        );
    }

    #[test]
    fn workspace_dependencies_and_patches_are_their_own_lists() {
        let manifest = Manifest::parse(
            "[workspace]\nmembers = [\n  \"crates/*\",\n]\n\n[workspace.dependencies]\nutil = { path = \"crates/util\" }\n\n[patch.crates-io]\nlog = { path = \"forks/log\" }\n",
        );
        assert!(manifest.workspace);
        assert!(manifest.package.is_none());
        assert_eq!(manifest.workspace_dependencies[0].key, "util");
        assert_eq!(manifest.patches[0].path.as_deref(), Some("forks/log"));
        assert!(manifest.dependencies.is_empty());
    }
}
