//! A Cargo package's targets as cargo resolves them: `[lib]`, `[[bin]]` and `[[test]]`
//! entries, `autobins`/`autotests` discovery (`src/main.rs`, `src/bin/*.rs`,
//! `tests/*.rs`, `tests/*/main.rs`) and each target's `required-features`.

use crate::tree::{join, Reader};
use serde::Deserialize;
use std::collections::BTreeMap;

/// What a target is built as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TargetKind {
    Lib,
    Bin,
    /// An integration test target (`tests/`).
    Test,
}

impl TargetKind {
    /// The `cargo test` flag that selects one target of this kind.
    pub fn flag(self) -> &'static str {
        match self {
            TargetKind::Lib => "--lib",
            TargetKind::Bin => "--bin",
            TargetKind::Test => "--test",
        }
    }

    /// The kind as `cargo metadata` names it.
    pub fn metadata_name(self) -> &'static str {
        match self {
            TargetKind::Lib => "lib",
            TargetKind::Bin => "bin",
            TargetKind::Test => "test",
        }
    }
}

/// One target of a package.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Target {
    pub kind: TargetKind,
    pub name: String,
    /// The crate root, repository-relative.
    pub root: String,
    pub required_features: Vec<String>,
}

/// A package and its targets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    pub name: String,
    /// Repository-relative directory of its Cargo.toml (`""` for the root).
    pub dir: String,
    pub manifest: String,
    pub targets: Vec<Target>,
}

/// The parts of a Cargo.toml that decide its targets.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
struct Manifest {
    package: Option<PackageSection>,
    lib: Option<TargetSection>,
    #[serde(default)]
    bin: Vec<TargetSection>,
    #[serde(default)]
    test: Vec<TargetSection>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
struct PackageSection {
    /// A string, or `{ workspace = true }` for an inherited one (which a package name
    /// never is: cargo refuses it).
    name: Option<toml::Value>,
    autobins: Option<bool>,
    autotests: Option<bool>,
    /// `autolib = false` turns `src/lib.rs` discovery off (cargo 1.83).
    autolib: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
struct TargetSection {
    name: Option<String>,
    path: Option<String>,
    #[serde(default)]
    required_features: Vec<String>,
    test: Option<bool>,
}

impl Package {
    /// Reads the package whose Cargo.toml sits in `dir`; None when there is none, it has
    /// no `[package]` with a name, or it is not valid TOML.
    pub fn read(reader: &mut Reader, dir: &str) -> Option<Package> {
        let manifest = join(dir, "Cargo.toml");
        let text = reader.read(&manifest)?;
        let parsed: Manifest = toml::from_str(&text.text).ok()?;
        let section = parsed.package.as_ref()?;
        let name = section.name.as_ref()?.as_str()?.to_string();
        let mut package = Package {
            name,
            dir: dir.to_string(),
            manifest,
            targets: Vec::new(),
        };
        package.targets = package.resolve(reader, &parsed);
        Some(package)
    }

    /// The crate name of the library: the package name with `-` as `_`, unless renamed.
    pub fn lib(&self) -> Option<&Target> {
        self.targets.iter().find(|t| t.kind == TargetKind::Lib)
    }

    /// `rel` (relative to the package) as a repository path, `..` applied; a path that
    /// climbs out of the repository stays unresolved and names no file.
    fn path(&self, rel: &str) -> String {
        let mut parts: Vec<&str> = self.dir.split('/').filter(|p| !p.is_empty()).collect();
        for part in rel.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    if parts.pop().is_none() {
                        return join(&self.dir, rel);
                    }
                }
                part => parts.push(part),
            }
        }
        parts.join("/")
    }

    fn resolve(&self, reader: &mut Reader, m: &Manifest) -> Vec<Target> {
        let tree = reader.tree();
        let section = m.package.as_ref();
        let auto = |flag: Option<Option<bool>>| flag.flatten().unwrap_or(true);
        let mut targets = Vec::new();
        // The library: `[lib]` or `src/lib.rs`.
        let lib_path = m
            .lib
            .as_ref()
            .and_then(|l| l.path.clone())
            .map(|p| self.path(&p))
            .or_else(|| {
                let default = self.path("src/lib.rs");
                (auto(section.map(|s| s.autolib)) && tree.is_file(&default)).then_some(default)
            });
        if let Some(root) = lib_path {
            let name = m
                .lib
                .as_ref()
                .and_then(|l| l.name.clone())
                .unwrap_or_else(|| self.name.replace('-', "_"));
            let features = m
                .lib
                .as_ref()
                .map(|l| l.required_features.clone())
                .unwrap_or_default();
            if m.lib.as_ref().and_then(|l| l.test) != Some(false) {
                targets.push(Target {
                    kind: TargetKind::Lib,
                    name,
                    root,
                    required_features: features,
                });
            }
        }
        // Binaries: explicit ones, then discovered ones not already named or pathed.
        let mut discovered = Vec::new();
        if auto(section.map(|s| s.autobins)) {
            if tree.is_file(&self.path("src/main.rs")) {
                discovered.push((self.name.clone(), self.path("src/main.rs")));
            }
            discovered.extend(self.discover(reader, "src/bin"));
        }
        targets.extend(self.merge(
            TargetKind::Bin,
            &m.bin,
            discovered,
            |name| ["src/bin/{}.rs", "src/bin/{}/main.rs"].map(|p| p.replace("{}", name)),
            reader,
        ));
        let mut discovered = Vec::new();
        if auto(section.map(|s| s.autotests)) {
            discovered.extend(self.discover(reader, "tests"));
        }
        targets.extend(self.merge(
            TargetKind::Test,
            &m.test,
            discovered,
            |name| ["tests/{}.rs", "tests/{}/main.rs"].map(|p| p.replace("{}", name)),
            reader,
        ));
        targets
    }

    /// `dir/*.rs` and `dir/*/main.rs` of the package, as (target name, root).
    fn discover(&self, reader: &mut Reader, dir: &str) -> Vec<(String, String)> {
        let tree = reader.tree();
        let dir = self.path(dir);
        let mut found: BTreeMap<String, String> = BTreeMap::new();
        for file in tree.files(&dir) {
            let name = file.rsplit('/').next().unwrap_or(&file);
            if let Some(stem) = name.strip_suffix(".rs") {
                found.insert(stem.to_string(), file.clone());
            }
        }
        for sub in tree.subdirs(&dir) {
            let main = join(&sub, "main.rs");
            if tree.is_file(&main) {
                let name = sub.rsplit('/').next().unwrap_or(&sub).to_string();
                found.entry(name).or_insert(main);
            }
        }
        found.into_iter().collect()
    }

    /// Explicit targets (name required; path defaulting by cargo's rules) and the
    /// discovered ones no explicit target replaces (same name or same root).
    fn merge<const N: usize>(
        &self,
        kind: TargetKind,
        explicit: &[TargetSection],
        discovered: Vec<(String, String)>,
        defaults: impl Fn(&str) -> [String; N],
        reader: &mut Reader,
    ) -> Vec<Target> {
        let tree = reader.tree();
        let mut out: Vec<Target> = Vec::new();
        for section in explicit {
            let Some(name) = section.name.clone() else {
                continue;
            };
            let root = match &section.path {
                Some(path) => Some(self.path(path)),
                None => defaults(&name)
                    .iter()
                    .map(|p| self.path(p))
                    .find(|p| tree.is_file(p))
                    // `[[bin]] name = <package>` without a path is `src/main.rs`.
                    .or_else(|| {
                        (kind == TargetKind::Bin && name == self.name)
                            .then(|| self.path("src/main.rs"))
                    }),
            };
            let Some(root) = root else { continue };
            if section.test == Some(false) {
                // Not built by `cargo test`: never routed, and it still replaces the
                // discovered target of the same root.
                out.push(Target {
                    kind,
                    name: String::new(),
                    root,
                    required_features: Vec::new(),
                });
                continue;
            }
            out.push(Target {
                kind,
                name,
                root,
                required_features: section.required_features.clone(),
            });
        }
        for (name, root) in discovered {
            if out.iter().any(|t| t.name == name || t.root == root) {
                continue;
            }
            out.push(Target {
                kind,
                name,
                root,
                required_features: Vec::new(),
            });
        }
        out.retain(|t| !t.name.is_empty());
        out.sort();
        out
    }
}

/// The members of the workspace whose root manifest is `root_dir/Cargo.toml`: `members`
/// globs (`*` within one path segment) minus `exclude`, plus the root when it is a
/// package.
pub fn workspace_members(reader: &mut Reader, root_dir: &str) -> Option<Vec<String>> {
    #[derive(Deserialize)]
    struct Root {
        workspace: Option<Workspace>,
    }
    #[derive(Deserialize)]
    struct Workspace {
        #[serde(default)]
        members: Vec<String>,
        #[serde(default)]
        exclude: Vec<String>,
    }
    let text = reader.read(&join(root_dir, "Cargo.toml"))?;
    let workspace = toml::from_str::<Root>(&text.text).ok()?.workspace?;
    let tree = reader.tree();
    // The root is a member when it is a package itself.
    let mut dirs = Vec::new();
    if crate::sections::has_section(&text.text, "package") {
        dirs.push(root_dir.to_string());
    }
    for pattern in &workspace.members {
        let mut matched = vec![root_dir.to_string()];
        for segment in pattern.trim_end_matches('/').split('/') {
            matched = matched
                .iter()
                .flat_map(|dir| {
                    if segment.contains('*') {
                        tree.subdirs(dir)
                            .into_iter()
                            .filter(|sub| glob(segment, sub.rsplit('/').next().unwrap_or(sub)))
                            .collect()
                    } else if segment == "." {
                        vec![dir.clone()]
                    } else {
                        vec![join(dir, segment)]
                    }
                })
                .collect();
        }
        dirs.extend(matched);
    }
    let excluded: Vec<String> = workspace
        .exclude
        .iter()
        .map(|e| join(root_dir, e.trim_end_matches('/')))
        .collect();
    dirs.retain(|d| !excluded.contains(d) && reader.tree().is_file(&join(d, "Cargo.toml")));
    dirs.sort();
    dirs.dedup();
    Some(dirs)
}

/// `*` in a Cargo member pattern segment matches any run of characters.
fn glob(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !name.starts_with(first) || name.len() < first.len() + last.len() || !name.ends_with(last) {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests_support::tree_with;

    fn targets(files: &[(&str, &str)], dir: &str) -> Vec<(TargetKind, String, String)> {
        let (_d, tree) = tree_with(files);
        let package = Package::read(&mut tree.reader(), dir).expect("a package");
        package
            .targets
            .into_iter()
            .map(|t| (t.kind, t.name, t.root))
            .collect()
    }

    #[test]
    fn conventional_files_become_lib_bin_and_test_targets() {
        let found = targets(
            &[
                ("Cargo.toml", "[package]\nname = \"my-tool\"\n"),
                ("src/lib.rs", ""),
                ("src/main.rs", ""),
                ("src/bin/extra.rs", ""),
                ("src/bin/multi/main.rs", ""),
                ("tests/cli.rs", ""),
                ("tests/suite/main.rs", ""),
                ("tests/suite/helpers.rs", ""),
            ],
            "",
        );
        assert_eq!(
            found,
            [
                (TargetKind::Lib, "my_tool".into(), "src/lib.rs".into()),
                (TargetKind::Bin, "extra".into(), "src/bin/extra.rs".into()),
                (
                    TargetKind::Bin,
                    "multi".into(),
                    "src/bin/multi/main.rs".into()
                ),
                (TargetKind::Bin, "my-tool".into(), "src/main.rs".into()),
                (TargetKind::Test, "cli".into(), "tests/cli.rs".into()),
                (
                    TargetKind::Test,
                    "suite".into(),
                    "tests/suite/main.rs".into()
                ),
            ]
        );
    }

    #[test]
    fn autotests_false_keeps_only_the_declared_test_targets() {
        let found = targets(
            &[
                (
                    "crates/core/Cargo.toml",
                    "[package]\nname = \"grep\"\nautotests = false\n\n[[test]]\nname = \"integration\"\npath = \"tests/tests.rs\"\n",
                ),
                ("crates/core/src/main.rs", ""),
                ("crates/core/tests/tests.rs", "mod json;\n"),
                ("crates/core/tests/json.rs", ""),
            ],
            "crates/core",
        );
        let tests: Vec<_> = found
            .iter()
            .filter(|t| t.0 == TargetKind::Test)
            .map(|t| (t.1.as_str(), t.2.as_str()))
            .collect();
        assert_eq!(tests, [("integration", "crates/core/tests/tests.rs")]);
    }

    #[test]
    fn a_declared_test_replaces_the_discovered_one_of_the_same_file() {
        let found = targets(
            &[
                (
                    "Cargo.toml",
                    "[package]\nname = \"a\"\n[[test]]\nname = \"renamed\"\npath = \"tests/x.rs\"\nrequired-features = [\"net\"]\n",
                ),
                ("tests/x.rs", ""),
                ("tests/y.rs", ""),
            ],
            "",
        );
        assert_eq!(
            found,
            [
                (TargetKind::Test, "renamed".into(), "tests/x.rs".into()),
                (TargetKind::Test, "y".into(), "tests/y.rs".into()),
            ]
        );
    }

    #[test]
    fn a_target_with_test_false_is_not_a_test_target() {
        let found = targets(
            &[
                (
                    "Cargo.toml",
                    "[package]\nname = \"a\"\n[lib]\ntest = false\n[[test]]\nname = \"x\"\ntest = false\n",
                ),
                ("src/lib.rs", ""),
                ("tests/x.rs", ""),
            ],
            "",
        );
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn a_manifest_without_a_package_name_is_no_package() {
        let (_d, tree) = tree_with(&[("Cargo.toml", "[workspace]\nmembers = [\"a\"]\n")]);
        assert!(Package::read(&mut tree.reader(), "").is_none());
        let (_d, tree) = tree_with(&[("Cargo.toml", "[package\nname = \"broken\"\n")]);
        assert!(Package::read(&mut tree.reader(), "").is_none());
    }

    #[test]
    fn workspace_members_expand_globs_and_drop_excluded_and_missing_ones() {
        let (_d, tree) = tree_with(&[
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\n  \"crates/*\",\n  \"tools/gen\",\n  \"missing\",\n]\nexclude = [\"crates/old\"]\n",
            ),
            ("crates/a/Cargo.toml", "[package]\nname = \"a\"\n"),
            ("crates/old/Cargo.toml", "[package]\nname = \"old\"\n"),
            ("crates/notes/README.md", ""),
            ("tools/gen/Cargo.toml", "[package]\nname = \"gen\"\n"),
        ]);
        assert_eq!(
            workspace_members(&mut tree.reader(), "").unwrap(),
            ["crates/a", "tools/gen"]
        );
    }

    #[test]
    fn member_globs_match_within_one_segment() {
        assert!(glob("*", "alpha"));
        assert!(glob("qa-*", "qa-route"));
        assert!(!glob("qa-*", "route"));
        assert!(glob("a*c*e", "abcde"));
        assert!(!glob("a*c*e", "abde"));
    }
}
