//! Cargo: the package owning a changed file, the target and module the file is compiled
//! into (as cargo resolves its targets), its changed tests, the package suite, and the
//! workspace suite.

pub mod modules;
pub mod package;

use super::{Found, Runner};
use crate::sections;
use crate::targets::{KnownTest, Targets};
use crate::tree::{ancestors, join, Reader};
use modules::{inline_modules, place, Placed};
use package::{workspace_members, Package, TargetKind};
use qa_records::change::CommandScope;

/// The nearest package at or above `file`'s directory.
fn owning_package(reader: &mut Reader, file: &str) -> Option<Package> {
    ancestors(file).find_map(|dir| Package::read(reader, dir))
}

/// Where `cargo test -p` runs for `package`: the nearest directory above it whose
/// Cargo.toml has a `[workspace]` listing it as a member, else the package's own.
fn run_dir(reader: &mut Reader, package: &Package) -> String {
    let manifest = join(&package.dir, "Cargo.toml");
    let root = ancestors(&manifest).find(|d| {
        reader
            .read(&join(d, "Cargo.toml"))
            .is_some_and(|m| sections::has_section(&m.text, "workspace"))
    });
    match root {
        Some(root) => match workspace_members(reader, root) {
            Some(members) if members.contains(&package.dir) => root.to_string(),
            _ => package.dir.clone(),
        },
        None => package.dir.clone(),
    }
}

/// The libtest filter for the changed tests of one file at `placed`: the module path,
/// the inline modules around the tests, and the test's name when it is the only one.
/// None when the filter would select the whole target.
fn filter(
    reader: &mut Reader,
    placed: &Placed,
    file: &str,
    tests: &[&KnownTest],
) -> Option<String> {
    let mut path = placed.module.clone();
    if !tests.is_empty() {
        let text = reader
            .read(file)
            .map(|f| f.text.clone())
            .unwrap_or_default();
        let chains: Vec<Vec<String>> = tests
            .iter()
            .map(|t| inline_modules(&text, t.line))
            .collect();
        // The inline modules every changed test shares.
        let shared = chains[0]
            .iter()
            .enumerate()
            .take_while(|(i, m)| chains.iter().all(|c| c.get(*i) == Some(m)))
            .count();
        path.extend(chains[0][..shared].iter().cloned());
        if let [test] = tests {
            path.push(test.ident.clone());
            return Some(path.join("::"));
        }
    }
    (!path.is_empty()).then(|| format!("{}::", path.join("::")))
}

/// Each changed test's full libtest name (its module path, inline modules and name): with
/// `--exact`, these select exactly the changed tests.
fn exact_names(
    reader: &mut Reader,
    placed: &Placed,
    file: &str,
    tests: &[&KnownTest],
) -> Vec<String> {
    let text = reader
        .read(file)
        .map(|f| f.text.clone())
        .unwrap_or_default();
    tests
        .iter()
        .map(|t| {
            let mut path = placed.module.clone();
            path.extend(inline_modules(&text, t.line));
            path.push(t.ident.clone());
            path.join("::")
        })
        .collect()
}

/// The most changed tests of one file named one by one (more run by their module).
const MAX_EXACT: usize = 20;

/// True when the file holds tests of its own: `#[test]`-like attributes or a
/// `#[cfg(test)]` module.
fn has_tests(reader: &mut Reader, file: &str) -> bool {
    reader.read(file).is_some_and(|f| {
        f.text.contains("#[cfg(test)]") || f.text.contains("#[test]") || f.text.contains("::test]")
    })
}

/// Prose the tests of a package do not read: a change to it is not theirs to validate.
fn is_documentation(file: &str) -> bool {
    let name = file.rsplit('/').next().unwrap_or(file);
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    matches!(ext, "md" | "rst" | "adoc")
        || name.starts_with("LICENSE")
        || name.starts_with("CHANGELOG")
}

pub fn discover(reader: &mut Reader, targets: &Targets, found: &mut Found) {
    let mut packages = Vec::new();
    for file in &targets.files {
        if is_documentation(file) {
            continue;
        }
        let Some(package) = owning_package(reader, file) else {
            continue;
        };
        let Some(name) = found.word(&package.name, "the package name", &package.manifest) else {
            continue;
        };
        let dir = run_dir(reader, &package);
        let known: Vec<&KnownTest> = targets.known_in(file).collect();
        let placed = match file.ends_with(".rs") {
            true => place(reader, &package, file),
            false => Vec::new(),
        };
        for placed in placed {
            let target = placed.target;
            let exact = !known.is_empty() || target.kind == TargetKind::Test;
            if !exact && !has_tests(reader, file) {
                continue;
            }
            let mut run = format!("cargo test -p {name} {}", target.kind.flag());
            if target.kind != TargetKind::Lib {
                let Some(t) = found.word(&target.name, "a target name", &package.manifest) else {
                    continue;
                };
                run = format!("{run} {t}");
            }
            if !target.required_features.is_empty() {
                let features = target.required_features.join(",");
                let Some(f) = found.word(&features, "required features", &package.manifest) else {
                    continue;
                };
                run = format!("{run} --features {f}");
            }
            // libtest filters match substrings: only `--exact` makes test names select
            // those tests alone. Without known tests, a `module::` filter runs the
            // module's tests, a test target without one its whole file, and otherwise the
            // package's tests run.
            let scope = if known.is_empty() || known.len() > MAX_EXACT {
                let filter = filter(reader, &placed, file, &known);
                if let Some(filter) = &filter {
                    let Some(filter) = found.word(filter, "a test filter", file) else {
                        continue;
                    };
                    run = format!("{run} {filter}");
                }
                match filter {
                    Some(_) => CommandScope::Module,
                    None if target.kind == TargetKind::Test => CommandScope::File,
                    None => CommandScope::Package,
                }
            } else {
                // A test rstest expands into cases runs as `name::case_1`, ...: only its
                // name as a prefix (`name::`) selects them, and `--exact` would match
                // none, so with one such test every name is a plain filter.
                let expanded = known.iter().any(|t| t.cases);
                let names: Vec<String> = exact_names(reader, &placed, file, &known)
                    .into_iter()
                    .zip(&known)
                    .map(|(n, t)| if t.cases { format!("{n}::") } else { n })
                    .collect();
                let words: Option<Vec<String>> = names
                    .iter()
                    .map(|n| found.word(n, "a test filter", file))
                    .collect();
                let Some(words) = words else {
                    continue;
                };
                // An `#[ignore]`d test runs only when libtest is asked to include it.
                let flags: Vec<&str> = [
                    (!expanded).then_some("--exact"),
                    known
                        .iter()
                        .any(|t| t.ignored)
                        .then_some("--include-ignored"),
                ]
                .into_iter()
                .flatten()
                .collect();
                run = match (words.as_slice(), flags.is_empty()) {
                    ([one], true) => format!("{run} {one}"),
                    ([one], false) => format!("{run} {one} -- {}", flags.join(" ")),
                    (many, _) => format!(
                        "{run} -- {}",
                        [many.join(" "), flags.join(" ")].join(" ").trim_end()
                    ),
                };
                CommandScope::ExactTest
            };
            found.push(Runner::Cargo, run, &dir, scope, &package.manifest);
        }
        packages.push((format!("cargo test -p {name}"), dir, package.manifest));
    }
    // Each package's whole suite after every narrower command of the change.
    for (run, dir, manifest) in packages {
        found.push(Runner::Cargo, run, &dir, CommandScope::Package, &manifest);
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
    use crate::tests_support::{runs, scopes, tree_with, with_tests as targets};

    const WORKSPACE: &[(&str, &str)] = &[
        ("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n"),
        ("crates/alpha/Cargo.toml", "[package]\nname = \"alpha\"\n"),
        ("crates/alpha/src/lib.rs", ""),
        ("crates/alpha/tests/login.rs", ""),
        ("crates/beta/Cargo.toml", "[package]\nname = \"beta\"\n"),
    ];

    #[test]
    fn an_ignored_changed_test_is_run_with_the_ignored_tests_included() {
        let (_d, tree) = tree_with(WORKSPACE);
        let mut t = targets(
            &["crates/alpha/src/lib.rs"],
            &[("crates/alpha/src/lib.rs", "slow_case")],
        );
        t.tests[0].ignored = true;
        assert_eq!(
            runs(&tree, &t, discover)[0],
            ". cargo test -p alpha --lib slow_case -- --exact --include-ignored"
        );
    }

    #[test]
    fn a_changed_test_rstest_expands_into_cases_is_run_by_its_name_as_a_prefix() {
        let (_d, tree) = tree_with(WORKSPACE);
        let mut t = targets(
            &["crates/alpha/src/lib.rs"],
            &[("crates/alpha/src/lib.rs", "ksh_ksh")],
        );
        t.tests[0].cases = true;
        assert_eq!(
            runs(&tree, &t, discover)[0],
            ". cargo test -p alpha --lib ksh_ksh::"
        );
        // Beside a plain test, no name is matched exactly: `--exact` would run no case.
        let mut t = targets(
            &["crates/alpha/src/lib.rs"],
            &[
                ("crates/alpha/src/lib.rs", "ksh_ksh"),
                ("crates/alpha/src/lib.rs", "plain"),
            ],
        );
        t.tests[0].cases = true;
        t.tests[1].ignored = true;
        assert_eq!(
            runs(&tree, &t, discover)[0],
            ". cargo test -p alpha --lib -- ksh_ksh:: plain --include-ignored"
        );
    }

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
                ". cargo test -p alpha --lib parses_ok -- --exact",
                ". cargo test -p alpha",
                ". cargo test --workspace"
            ]
        );
        assert_eq!(
            scopes(&tree, &t, discover),
            [
                CommandScope::ExactTest,
                CommandScope::Package,
                CommandScope::Suite
            ]
        );
    }

    #[test]
    fn two_changed_tests_run_by_their_exact_names() {
        let (_d, tree) = tree_with(WORKSPACE);
        let t = targets(
            &["crates/alpha/src/lib.rs"],
            &[
                ("crates/alpha/src/lib.rs", "parses_ok"),
                ("crates/alpha/src/lib.rs", "parses_err"),
            ],
        );
        let run = &runs(&tree, &t, discover)[0];
        assert_eq!(
            run,
            ". cargo test -p alpha --lib -- parses_ok parses_err --exact"
        );
        assert_eq!(scopes(&tree, &t, discover)[0], CommandScope::ExactTest);
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
            ". cargo test -p alpha --test login expired -- --exact"
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
            ". cargo test -p alpha --test login -- a b --exact"
        );
        let none = targets(&["crates/alpha/tests/login.rs"], &[]);
        assert_eq!(
            runs(&tree, &none, discover)[0],
            ". cargo test -p alpha --test login"
        );
        assert_eq!(scopes(&tree, &none, discover)[0], CommandScope::File);
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
            ". cargo test -p alpha --lib 'a; rm x' -- --exact"
        );
    }

    const RIPGREP: &[(&str, &str)] = &[
        (
            "Cargo.toml",
            "[package]\nname = \"ripgrep\"\nautotests = false\n\n[[bin]]\nname = \"rg\"\npath = \"crates/core/main.rs\"\n\n[[test]]\nname = \"integration\"\npath = \"tests/tests.rs\"\n\n[workspace]\nmembers = [\"crates/ignore\"]\n",
        ),
        ("crates/core/main.rs", "mod flags;\n"),
        ("crates/core/flags.rs", "pub fn parse() {}\n"),
        (
            "crates/ignore/Cargo.toml",
            "[package]\nname = \"ignore\"\n\n[[test]]\nname = \"gitignore_matched\"\nrequired-features = [\"simd\"]\n",
        ),
        ("crates/ignore/src/lib.rs", "pub mod walk;\nmod plain;\n"),
        (
            "crates/ignore/src/walk.rs",
            "pub fn walk() {}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn skips_hidden() {}\n\n    #[test]\n    fn follows_links() {}\n}\n",
        ),
        ("crates/ignore/src/plain.rs", "pub fn plain() {}\n"),
        ("crates/ignore/tests/gitignore_matched.rs", "#[test]\nfn m() {}\n"),
        ("tests/tests.rs", "#[macro_use]\nmod macros;\nmod json;\n"),
        ("tests/macros.rs", ""),
        ("tests/json.rs", "rgtest!(r1234, |dir, cmd| {});\n"),
        ("tests/data/sherlock.rs", ""),
    ];

    fn known(file: &str, ident: &str, line: u32) -> Targets {
        Targets {
            files: vec![file.to_string()],
            tests: vec![KnownTest {
                file: file.to_string(),
                name: ident.to_string(),
                ident: ident.to_string(),
                line,
                ignored: false,
                cases: false,
            }],
        }
    }

    #[test]
    fn a_module_of_a_declared_integration_target_runs_that_target_filtered_by_module() {
        let (_d, tree) = tree_with(RIPGREP);
        let t = known("tests/json.rs", "r1234", 1);
        assert_eq!(
            runs(&tree, &t, discover)[0],
            ". cargo test -p ripgrep --test integration json::r1234 -- --exact"
        );
        let whole_module = targets(&["tests/json.rs"], &[]);
        assert_eq!(
            runs(&tree, &whole_module, discover)[0],
            ". cargo test -p ripgrep --test integration json::"
        );
    }

    #[test]
    fn a_file_under_tests_that_is_no_target_module_gets_the_package_only() {
        let (_d, tree) = tree_with(RIPGREP);
        let t = targets(&["tests/data/sherlock.rs"], &[]);
        assert_eq!(
            runs(&tree, &t, discover),
            [". cargo test -p ripgrep", ". cargo test --workspace"],
            "no target declares tests/data/sherlock.rs: never `--test data` or `--test sherlock`"
        );
        let t = targets(&["crates/core/flags.rs"], &[]);
        assert_eq!(
            runs(&tree, &t, discover),
            [". cargo test -p ripgrep", ". cargo test --workspace"],
            "flags.rs has no tests of its own"
        );
    }

    #[test]
    fn an_inline_test_runs_by_its_path_in_the_library() {
        let (_d, tree) = tree_with(RIPGREP);
        let t = known("crates/ignore/src/walk.rs", "skips_hidden", 8);
        assert_eq!(
            runs(&tree, &t, discover)[0],
            ". cargo test -p ignore --lib walk::tests::skips_hidden -- --exact"
        );
    }

    #[test]
    fn a_changed_module_with_tests_of_its_own_runs_them_before_the_package() {
        let (_d, tree) = tree_with(RIPGREP);
        let with_tests = targets(&["crates/ignore/src/walk.rs"], &[]);
        assert_eq!(
            runs(&tree, &with_tests, discover),
            [
                ". cargo test -p ignore --lib walk::",
                ". cargo test -p ignore",
                ". cargo test --workspace"
            ]
        );
        let without = targets(&["crates/ignore/src/plain.rs"], &[]);
        assert_eq!(
            runs(&tree, &without, discover),
            [". cargo test -p ignore", ". cargo test --workspace"]
        );
    }

    #[test]
    fn a_target_with_required_features_is_run_with_them() {
        let (_d, tree) = tree_with(RIPGREP);
        let t = targets(&["crates/ignore/tests/gitignore_matched.rs"], &[]);
        assert_eq!(
            runs(&tree, &t, discover)[0],
            ". cargo test -p ignore --test gitignore_matched --features simd"
        );
    }

    #[test]
    fn a_package_outside_the_workspace_members_runs_from_its_own_directory() {
        let (_d, tree) = tree_with(&[
            ("Cargo.toml", "[workspace]\nmembers = [\"crates/a\"]\n"),
            ("crates/a/Cargo.toml", "[package]\nname = \"a\"\n"),
            (
                "tools/b/Cargo.toml",
                "[package]\nname = \"b\"\n[workspace]\n",
            ),
            ("tools/b/src/lib.rs", ""),
        ]);
        let t = targets(&["tools/b/src/lib.rs"], &[]);
        assert_eq!(runs(&tree, &t, discover)[0], "tools/b cargo test -p b");
    }

    /// The targets cargo itself resolves for a fixture, as `kind name path` lines.
    fn cargo_metadata(dir: &std::path::Path) -> Vec<String> {
        let out = std::process::Command::new(env!("CARGO"))
            .args([
                "metadata",
                "--no-deps",
                "--offline",
                "--format-version",
                "1",
            ])
            .current_dir(dir)
            .output()
            .expect("cargo runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let root = dir.canonicalize().unwrap();
        let mut lines = Vec::new();
        for package in json["packages"].as_array().unwrap() {
            for target in package["targets"].as_array().unwrap() {
                let kind = target["kind"][0].as_str().unwrap();
                if !["lib", "bin", "test"].contains(&kind) {
                    continue;
                }
                let path = std::path::Path::new(target["src_path"].as_str().unwrap());
                let rel = path.strip_prefix(&root).unwrap().to_string_lossy();
                lines.push(format!("{kind} {} {rel}", target["name"].as_str().unwrap()));
            }
        }
        lines.sort();
        lines
    }

    #[test]
    fn targets_agree_with_cargo_metadata() {
        let files: &[(&str, &str)] = &[
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"crates/*\"]\nresolver = \"2\"\n",
            ),
            (
                "crates/tool/Cargo.toml",
                "[package]\nname = \"my-tool\"\nversion = \"0.1.0\"\nedition = \"2021\"\nautotests = false\n\n[[bin]]\nname = \"mt\"\npath = \"src/main.rs\"\n\n[[test]]\nname = \"integration\"\npath = \"tests/tests.rs\"\n",
            ),
            ("crates/tool/src/lib.rs", ""),
            ("crates/tool/src/main.rs", "fn main() {}\n"),
            ("crates/tool/src/bin/extra.rs", "fn main() {}\n"),
            ("crates/tool/tests/tests.rs", "mod json;\n"),
            ("crates/tool/tests/json.rs", ""),
            (
                "crates/lib2/Cargo.toml",
                "[package]\nname = \"lib2\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[lib]\nname = \"renamed\"\n\n[[test]]\nname = \"extra\"\npath = \"checks/extra.rs\"\n",
            ),
            ("crates/lib2/src/lib.rs", ""),
            ("crates/lib2/tests/a.rs", ""),
            ("crates/lib2/tests/b/main.rs", ""),
            ("crates/lib2/tests/b/helper.rs", ""),
            ("crates/lib2/checks/extra.rs", ""),
        ];
        let (dir, tree) = tree_with(files);
        let mut reader = tree.reader();
        let mut ours = Vec::new();
        for member in workspace_members(&mut reader, "").unwrap() {
            let package = Package::read(&mut reader, &member).unwrap();
            for t in package.targets {
                ours.push(format!("{} {} {}", t.kind.metadata_name(), t.name, t.root));
            }
        }
        ours.sort();
        assert_eq!(ours, cargo_metadata(dir.path()));
    }

    #[test]
    fn documentation_in_a_package_is_not_the_package_tests_to_validate() {
        let (_d, tree) = tree_with(RIPGREP);
        let docs = targets(&["crates/ignore/README.md"], &[]);
        assert_eq!(runs(&tree, &docs, discover), [". cargo test --workspace"]);
        let fixture = targets(&["crates/ignore/tests/data/a.gitignore"], &[]);
        assert_eq!(
            runs(&tree, &fixture, discover),
            [". cargo test -p ignore", ". cargo test --workspace"]
        );
    }
}
