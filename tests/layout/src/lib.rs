//! The dependency rules of the workspace's layout, over what `cargo metadata` says.
//!
//! Each crate's role follows from its folder: `bins/*` are stages, `shared/*` libraries
//! (but `shared/testkit`, the test fixtures, is test-only), `tests/*` test and release
//! crates (test-only). The rules:
//! - a stage depends on libraries only, never on another stage nor on a test-only crate
//!   (test-only crates only as dev-dependencies);
//! - a library depends on libraries only, never on a stage nor (except as a
//!   dev-dependency) on a test-only crate;
//! - a test-only crate may depend on anything it needs (the fuzz harness and the release
//!   packaging use the stages' library crates), and nothing but dev-dependencies and
//!   other test-only crates depends on it.
//!
//! Beside them, [`targets`] (one integration-test binary per crate, every test file
//! declared) and [`binaries`] (no list of the binaries typed by hand).
//!
//! This crate depends on no other qapipe crate: it reads the workspace as data.

pub mod binaries;
pub mod targets;

use anyhow::{bail, Context as _};
use serde_json::Value;
use std::fmt;
use std::path::Path;

/// Test-only crates that sit among the libraries in `shared/`.
pub const TEST_ONLY_LIBRARIES: &[&str] = &["qa-testkit"];

/// What a crate is, by where it sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Stage,
    Library,
    TestOnly,
}

/// How a crate depends on another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Normal,
    Build,
    Dev,
}

/// A workspace crate: its package name, folder (relative to the workspace root), role,
/// and its dependencies on other workspace crates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crate {
    pub name: String,
    pub folder: String,
    pub role: Role,
    pub uses: Vec<(String, Kind)>,
}

/// A broken rule, as one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation(pub String);

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The role of the crate in `folder`, or None when the folder is none of the three.
pub fn role_of(name: &str, folder: &str) -> Option<Role> {
    let (top, rest) = folder.split_once('/')?;
    if rest.is_empty() || rest.contains('/') {
        return None;
    }
    match top {
        "bins" => Some(Role::Stage),
        "shared" if TEST_ONLY_LIBRARIES.contains(&name) => Some(Role::TestOnly),
        "shared" => Some(Role::Library),
        "tests" => Some(Role::TestOnly),
        _ => None,
    }
}

/// The workspace's crates from `cargo metadata --format-version 1 --no-deps` output.
pub fn crates(metadata: &Value) -> anyhow::Result<Vec<Crate>> {
    let root = metadata["workspace_root"]
        .as_str()
        .context("cargo metadata: no workspace_root")?;
    let packages = metadata["packages"]
        .as_array()
        .context("cargo metadata: no packages")?;
    let names: Vec<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let mut out = Vec::new();
    for p in packages {
        let name = p["name"].as_str().context("a package without a name")?;
        let manifest = p["manifest_path"]
            .as_str()
            .with_context(|| format!("{name}: no manifest_path"))?;
        let dir = Path::new(manifest)
            .parent()
            .and_then(|d| d.strip_prefix(root).ok())
            .with_context(|| format!("{name}: {manifest} is not under {root}"))?;
        let folder = dir.to_string_lossy().into_owned();
        let Some(role) = role_of(name, &folder) else {
            bail!("{name} sits in {folder}/: every crate belongs in bins/, shared/ or tests/");
        };
        let mut uses = Vec::new();
        for d in p["dependencies"].as_array().into_iter().flatten() {
            let Some(dep) = d["name"].as_str().filter(|n| names.contains(n)) else {
                continue;
            };
            let kind = match d["kind"].as_str() {
                None => Kind::Normal,
                Some("build") => Kind::Build,
                Some("dev") => Kind::Dev,
                Some(other) => bail!("{name}: dependency {dep} of unknown kind {other}"),
            };
            uses.push((dep.to_string(), kind));
        }
        out.push(Crate {
            name: name.to_string(),
            folder,
            role,
            uses,
        });
    }
    Ok(out)
}

/// Every dependency that breaks the layout's rules, one line each.
pub fn violations(crates: &[Crate]) -> Vec<Violation> {
    let role = |name: &str| crates.iter().find(|c| c.name == name).map(|c| c.role);
    let mut out = Vec::new();
    for c in crates {
        for (dep, kind) in &c.uses {
            let Some(dep_role) = role(dep) else { continue };
            let why = match (c.role, dep_role, kind) {
                (Role::TestOnly, _, _) => None,
                (_, Role::Library, _) => None,
                (Role::Stage, Role::Stage, _) => Some("a stage never uses another stage"),
                (Role::Library, Role::Stage, _) => Some("a library never uses a stage"),
                (_, Role::TestOnly, Kind::Dev) => None,
                (_, Role::TestOnly, _) => {
                    Some("a test-only crate is only ever a dev-dependency of a stage or library")
                }
            };
            if let Some(why) = why {
                out.push(Violation(format!(
                    "{} ({}) depends on {dep} ({kind:?}): {why}",
                    c.name, c.folder
                )));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn krate(name: &str, folder: &str, uses: &[(&str, Kind)]) -> Crate {
        Crate {
            name: name.into(),
            folder: folder.into(),
            role: role_of(name, folder).expect("a known folder"),
            uses: uses.iter().map(|(n, k)| (n.to_string(), *k)).collect(),
        }
    }

    fn workspace(extra: Crate) -> Vec<Crate> {
        vec![
            krate("qa-records", "shared/records", &[]),
            krate(
                "qa-testkit",
                "shared/testkit",
                &[("qa-records", Kind::Normal)],
            ),
            krate("qa-diff", "bins/qa-diff", &[("qa-records", Kind::Normal)]),
            extra,
        ]
    }

    #[test]
    fn roles_follow_the_folders() {
        assert_eq!(role_of("qa-diff", "bins/qa-diff"), Some(Role::Stage));
        assert_eq!(role_of("qa-records", "shared/records"), Some(Role::Library));
        assert_eq!(
            role_of("qa-testkit", "shared/testkit"),
            Some(Role::TestOnly)
        );
        assert_eq!(role_of("qa-fuzz", "tests/fuzz"), Some(Role::TestOnly));
        assert_eq!(role_of("qa-graph", "graph"), None);
        assert_eq!(role_of("x", "shared/a/b"), None);
    }

    #[test]
    fn a_stage_using_libraries_and_dev_testkit_is_fine() {
        let ok = krate(
            "qa-route",
            "bins/qa-route",
            &[("qa-records", Kind::Normal), ("qa-testkit", Kind::Dev)],
        );
        assert_eq!(violations(&workspace(ok)), []);
    }

    #[test]
    fn a_stage_using_another_stage_is_a_violation() {
        let bad = krate("qa-route", "bins/qa-route", &[("qa-diff", Kind::Normal)]);
        let found = violations(&workspace(bad));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].0.contains("never uses another stage"),
            "{}",
            found[0]
        );
    }

    #[test]
    fn a_stage_using_another_stage_in_its_tests_is_a_violation_too() {
        let bad = krate("qa-route", "bins/qa-route", &[("qa-diff", Kind::Dev)]);
        assert_eq!(violations(&workspace(bad)).len(), 1);
    }

    #[test]
    fn a_library_using_a_stage_is_a_violation() {
        let bad = krate("qa-graph", "shared/graph", &[("qa-diff", Kind::Normal)]);
        let found = violations(&workspace(bad));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].0.contains("never uses a stage"), "{}", found[0]);
    }

    #[test]
    fn a_library_or_stage_shipping_the_testkit_is_a_violation() {
        let bad = krate("qa-graph", "shared/graph", &[("qa-testkit", Kind::Normal)]);
        assert_eq!(violations(&workspace(bad)).len(), 1);
    }

    #[test]
    fn a_test_crate_may_use_stages() {
        let fuzz = krate(
            "qa-fuzz",
            "tests/fuzz",
            &[("qa-diff", Kind::Normal), ("qa-testkit", Kind::Normal)],
        );
        assert_eq!(violations(&workspace(fuzz)), []);
    }
}
