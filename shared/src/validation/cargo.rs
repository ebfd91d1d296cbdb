//! Cargo: the package owning a changed file (nearest `Cargo.toml` with a `[package]`
//! name), its changed tests, its suite, and the workspace suite.

use super::{Found, Runner};
use crate::change::CommandScope;
use crate::validation::sections;
use crate::validation::targets::Targets;
use crate::validation::tree::{ancestors, join, under, Reader};

struct Package {
    dir: String,
    manifest: String,
    name: String,
}

fn owning_package(reader: &mut Reader, file: &str) -> Option<Package> {
    ancestors(file).find_map(|dir| {
        let manifest = join(dir, "Cargo.toml");
        let text = reader.read(&manifest)?;
        let name = sections::string_value(&text.text, "package", "name")?;
        Some(Package {
            dir: dir.to_string(),
            manifest,
            name,
        })
    })
}

/// The nearest directory at or above `dir` whose Cargo.toml has `[workspace]`: where
/// `cargo test -p` is run from.
fn workspace_of(reader: &mut Reader, dir: &str) -> Option<String> {
    let manifest = join(dir, "Cargo.toml");
    let found = ancestors(&manifest).find(|d| {
        reader
            .read(&join(d, "Cargo.toml"))
            .is_some_and(|m| sections::has_section(&m.text, "workspace"))
    });
    found.map(str::to_string)
}

pub fn discover(reader: &mut Reader, targets: &Targets, found: &mut Found) {
    for file in &targets.files {
        let Some(pkg) = owning_package(reader, file) else {
            continue;
        };
        let Some(name) = found.word(&pkg.name, "the package name", &pkg.manifest) else {
            continue;
        };
        let dir = workspace_of(reader, &pkg.dir).unwrap_or_else(|| pkg.dir.clone());
        let rel = under(file, &pkg.dir).unwrap_or(file);
        let tests = targets.tests_in(file);
        if rel.starts_with("src/") && rel.ends_with(".rs") {
            for test in &tests {
                if let Some(test) = found.word(test, "a changed test name", file) {
                    let run = format!("cargo test -p {name} {test}");
                    found.push(
                        Runner::Cargo,
                        run,
                        &dir,
                        CommandScope::ExactTest,
                        &pkg.manifest,
                    );
                }
            }
        }
        if let Some(stem) = rel
            .strip_prefix("tests/")
            .and_then(|r| r.strip_suffix(".rs"))
            .filter(|s| !s.contains('/'))
        {
            if let Some(stem) = found.word(stem, "a test target", file) {
                let mut run = format!("cargo test -p {name} --test {stem}");
                if let [test] = tests.as_slice() {
                    if let Some(test) = found.word(test, "a changed test name", file) {
                        run = format!("{run} {test}");
                    }
                }
                found.push(
                    Runner::Cargo,
                    run,
                    &dir,
                    CommandScope::ExactTest,
                    &pkg.manifest,
                );
            }
        }
        let run = format!("cargo test -p {name}");
        found.push(
            Runner::Cargo,
            run,
            &dir,
            CommandScope::Package,
            &pkg.manifest,
        );
    }
    if let Some(root) = reader.read("Cargo.toml") {
        let run = if sections::has_section(&root.text, "workspace") {
            "cargo test --workspace"
        } else if sections::has_section(&root.text, "package") {
            "cargo test"
        } else {
            return;
        };
        found.push(
            Runner::Cargo,
            run.into(),
            "",
            CommandScope::Suite,
            "Cargo.toml",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::tests_support::{runs, tree_with, with_tests as targets};

    const WORKSPACE: &[(&str, &str)] = &[
        ("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n"),
        ("crates/alpha/Cargo.toml", "[package]\nname = \"alpha\"\n"),
        ("crates/alpha/src/lib.rs", ""),
        ("crates/alpha/tests/login.rs", ""),
        ("crates/beta/Cargo.toml", "[package]\nname = \"beta\"\n"),
    ];

    #[test]
    fn a_changed_unit_test_in_src_runs_by_name_in_its_package() {
        let (_d, tree) = tree_with(WORKSPACE);
        let t = targets(
            &["crates/alpha/src/lib.rs"],
            &[("crates/alpha/src/lib.rs", "parses_ok")],
        );
        assert_eq!(
            runs(&tree, &t, discover),
            [
                ". cargo test -p alpha parses_ok",
                ". cargo test -p alpha",
                ". cargo test --workspace"
            ]
        );
    }

    #[test]
    fn an_integration_test_file_runs_as_its_test_target_with_its_one_changed_test() {
        let (_d, tree) = tree_with(WORKSPACE);
        let one = targets(
            &["crates/alpha/tests/login.rs"],
            &[("crates/alpha/tests/login.rs", "expired")],
        );
        assert_eq!(
            runs(&tree, &one, discover)[0],
            ". cargo test -p alpha --test login expired"
        );
        let two = targets(
            &["crates/alpha/tests/login.rs"],
            &[
                ("crates/alpha/tests/login.rs", "a"),
                ("crates/alpha/tests/login.rs", "b"),
            ],
        );
        assert_eq!(
            runs(&tree, &two, discover)[0],
            ". cargo test -p alpha --test login"
        );
    }

    #[test]
    fn a_file_outside_any_package_gets_only_the_workspace_suite() {
        let (_d, tree) = tree_with(WORKSPACE);
        let t = targets(&["docs/guide.md"], &[]);
        assert_eq!(runs(&tree, &t, discover), [". cargo test --workspace"]);
    }

    #[test]
    fn a_single_package_repository_runs_cargo_test() {
        let (_d, tree) = tree_with(&[("Cargo.toml", "[package]\nname = \"solo\"\n")]);
        let t = targets(&["src/main.rs"], &[]);
        assert_eq!(
            runs(&tree, &t, discover),
            [". cargo test -p solo", ". cargo test"]
        );
    }

    #[test]
    fn without_cargo_manifests_there_is_nothing() {
        let (_d, tree) = tree_with(&[("package.json", "{}")]);
        assert!(runs(&tree, &targets(&["src/main.rs"], &[]), discover).is_empty());
    }

    #[test]
    fn a_test_name_from_the_stream_is_quoted_as_one_word() {
        let (_d, tree) = tree_with(WORKSPACE);
        let t = targets(
            &["crates/alpha/src/lib.rs"],
            &[("crates/alpha/src/lib.rs", "a; rm x")],
        );
        assert_eq!(
            runs(&tree, &t, discover)[0],
            ". cargo test -p alpha 'a; rm x'"
        );
    }
}
