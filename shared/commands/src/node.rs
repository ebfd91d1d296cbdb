//! package.json projects: for each changed file, the package that owns it, the test runner
//! its `test` script starts (else the workspace root's), the changed tests narrowed to
//! that runner, then the package's and the root's `test` scripts; for configuration and
//! shipped files, the owning package's build, typecheck, lint and validation scripts.

mod angular;
mod checks;
mod covering;
mod manager;
mod narrowed;
mod runners;
pub(crate) mod workspace;

use super::Found;
use crate::targets::Targets;
use crate::tree::{under, Reader};
use covering::Cover;
use manager::Manager;
use narrowed::{Narrowing, Place};
use qa_records::change::CommandScope;
use runners::{Invocation, Script};
use workspace::{Owner, Package, Workspace};

pub use checks::checks;

/// The package's `test` script, read; None when it has none fit to stand behind a command.
fn test_of(found: &mut Found, pkg: &Package) -> Option<Script> {
    pkg.test_script(found)?;
    Some(runners::read(pkg.scripts(), "test"))
}

/// Changed test files that one runner of one package runs.
struct Group {
    /// The package whose `test` script names the runner.
    holder: Package,
    manager: Manager,
    /// True when the holder is a workspace member (it can be aimed at by name).
    member: bool,
    invocation: Invocation,
    files: Vec<String>,
}

/// What runs a changed file in one package.
enum Taker {
    /// This runner (the `test` script's or a sibling script's).
    Runner(Invocation),
    /// The package's `test` script starts a runner that does not take the file, and no
    /// sibling script's does.
    Refused,
    /// The package's scripts start no runner that takes the file.
    None,
}

/// The runner of `pkg` that takes `file` (relative to the package): the `test` script's
/// when a path it names covers the file; else a sibling script's whose named paths cover
/// it (the narrowest, then by name); else the `test` script's by its runner's conventions,
/// when it names no path.
fn taker(found: &mut Found, reader: &mut Reader, pkg: &Package, file: &str) -> Taker {
    let test = test_of(found, pkg)
        .and_then(|s| s.runner)
        .map(|invocation| covering::with_configured_tests(reader, &pkg.dir, invocation));
    let cover = test.as_ref().map(|t| covering::cover(t, file));
    if let (Some(test), Some(Cover::Named(_))) = (&test, cover) {
        return Taker::Runner(test.clone());
    }
    if let Some(sibling) = covering::sibling(pkg.scripts(), file) {
        return Taker::Runner(sibling);
    }
    match (test, cover) {
        (Some(test), Some(Cover::Convention)) => Taker::Runner(test),
        (Some(_), _) => Taker::Refused,
        (None, _) => Taker::None,
    }
}

/// The runner for a changed file of `owner`, as a group without files yet: the owner's
/// own (see [`taker`]), else (for a workspace member whose scripts start none) the root's,
/// whose configuration then spans the workspace.
fn runner_for(
    found: &mut Found,
    reader: &mut Reader,
    owner: Owner,
    root_manager: Option<Manager>,
    file: &str,
) -> Option<Group> {
    let group = |holder, manager, member, invocation| Group {
        holder,
        manager,
        member,
        invocation,
        files: Vec::new(),
    };
    match owner {
        Owner::Member(dir) => {
            let manager = root_manager?;
            let pkg = Package::read(reader, &dir)?;
            match taker(found, reader, &pkg, under(file, &dir).unwrap_or(file)) {
                Taker::Runner(invocation) => return Some(group(pkg, manager, true, invocation)),
                Taker::Refused => return None,
                Taker::None => {}
            }
            let root = Package::read(reader, "")?;
            let Taker::Runner(invocation) = taker(found, reader, &root, file) else {
                return None;
            };
            Some(group(root, manager, false, invocation))
        }
        Owner::Project(pkg) => {
            let manager = pkg.manager(reader.tree());
            let Taker::Runner(invocation) =
                taker(found, reader, &pkg, under(file, &pkg.dir).unwrap_or(file))
            else {
                return None;
            };
            Some(group(pkg, manager, false, invocation))
        }
    }
}

/// One narrowed command per package and runner, for the changed test files that exist.
fn exact(reader: &mut Reader, targets: &Targets, workspace: &Workspace, found: &mut Found) {
    let root_manager = workspace.root.as_ref().map(|r| r.manager(reader.tree()));
    let mut groups: Vec<Group> = Vec::new();
    for file in &targets.files {
        // A deleted test is nothing to run.
        if !reader.tree().is_file(file) {
            continue;
        }
        let Some(owner) = workspace.owner(reader, file) else {
            continue;
        };
        let Some(runner) = runner_for(found, reader, owner, root_manager, file) else {
            continue;
        };
        let same =
            |g: &&mut Group| g.holder.dir == runner.holder.dir && g.invocation == runner.invocation;
        match groups.iter_mut().find(same) {
            Some(group) => group.files.push(file.clone()),
            None => groups.push(Group {
                files: vec![file.clone()],
                ..runner
            }),
        }
    }
    for group in groups {
        let holder = &group.holder;
        // A path that starts with `-` would read as an option.
        let files: Vec<String> = group
            .files
            .iter()
            .map(|f| under(f, &holder.dir).unwrap_or(f))
            .map(|f| {
                if f.starts_with('-') {
                    format!("./{f}")
                } else {
                    f.to_string()
                }
            })
            .collect();
        let files: Vec<&str> = files.iter().map(String::as_str).collect();
        let tests = match group.files.as_slice() {
            [file] => targets.tests_in(file),
            _ => Vec::new(),
        };
        let name = match holder.name() {
            Some(name) if group.member && group.manager.aims_at_members() => {
                found.word(name, "the package name", &holder.manifest)
            }
            _ => None,
        };
        let (place, dir) = match &name {
            Some(name) => (Place::Member(name), ""),
            None => (Place::Own, holder.dir.as_str()),
        };
        let narrowing = Narrowing {
            manager: group.manager,
            place,
            invocation: &group.invocation,
            files: &files,
            test: match tests.as_slice() {
                [test] => Some(test),
                _ => None,
            },
            tests: &tests,
            origin: &holder.manifest,
        };
        let Some(run) = narrowing.command(found) else {
            continue;
        };
        if run.len() > super::MAX_VALUE {
            found.problems.push(format!(
                "the narrowed command for {} changed test files in `{}` is longer than {} bytes; the package's own command stands instead",
                files.len(),
                holder.manifest,
                super::MAX_VALUE
            ));
            continue;
        }
        // A `-t` filter names the changed test; without one the changed files run whole.
        let scope = if narrowing.names_test() {
            CommandScope::ExactTest
        } else {
            CommandScope::File
        };
        found.push(group.manager.runner(), run, dir, scope, &holder.manifest);
    }
}

/// The changed spec files of each project whose `test` script is `ng test` running Jest
/// (see [`angular`]): one command per project, handing them over as path patterns.
fn angular_specs(reader: &mut Reader, targets: &Targets, workspace: &Workspace, found: &mut Found) {
    let mut groups: Vec<(Package, Vec<String>)> = Vec::new();
    for file in &targets.files {
        if !reader.tree().is_file(file) {
            continue;
        }
        let Some(Owner::Project(pkg)) = workspace.owner(reader, file) else {
            continue;
        };
        let rel = under(file, &pkg.dir).unwrap_or(file).to_string();
        if !narrowed::is_test_file(&rel, runners::TestRunner::Jest) {
            continue;
        }
        match groups.iter_mut().find(|(p, _)| p.dir == pkg.dir) {
            Some((_, files)) => files.push(rel),
            None => groups.push((pkg, vec![rel])),
        }
    }
    for (pkg, files) in groups {
        let manager = pkg.manager(reader.tree());
        if let Some(run) = angular::narrowed(reader, &pkg, manager, &files) {
            found.push(
                manager.runner(),
                run,
                &pkg.dir,
                CommandScope::File,
                &pkg.manifest,
            );
        }
    }
}

pub fn discover(reader: &mut Reader, targets: &Targets, found: &mut Found) {
    let workspace = Workspace::read(reader);
    exact(reader, targets, &workspace, found);
    angular_specs(reader, targets, &workspace, found);
    let root_manager = workspace.root.as_ref().map(|r| r.manager(reader.tree()));
    for file in &targets.files {
        match workspace.owner(reader, file) {
            Some(Owner::Member(dir)) => {
                let (Some(manager), Some(pkg)) = (root_manager, Package::read(reader, &dir)) else {
                    continue;
                };
                // A script that watches never finishes: it is no validation command.
                if test_of(found, &pkg).is_none_or(|s| s.watches) {
                    continue;
                }
                let Some(name) = pkg.name() else {
                    continue;
                };
                if let Some(name) = found.word(name, "the package name", &pkg.manifest) {
                    let run = manager.member(&name);
                    found.push(
                        manager.runner(),
                        run,
                        "",
                        CommandScope::Package,
                        &pkg.manifest,
                    );
                }
            }
            // A package that is no member is its own project, run from its directory.
            Some(Owner::Project(pkg)) if !pkg.dir.is_empty() => {
                let manager = pkg.manager(reader.tree());
                if test_of(found, &pkg).is_none_or(|s| s.watches) {
                    continue;
                }
                found.push(
                    manager.runner(),
                    manager.suite().to_string(),
                    &pkg.dir,
                    CommandScope::Package,
                    &pkg.manifest,
                );
            }
            _ => {}
        }
    }
    if let (Some(root), Some(manager)) = (&workspace.root, root_manager) {
        if test_of(found, root).is_some_and(|s| !s.watches) {
            found.push(
                manager.runner(),
                manager.suite().to_string(),
                "",
                CommandScope::Suite,
                &root.manifest,
            );
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests_support::{files, runs, tree_with, with_tests};

    const PNPM_WORKSPACE: &[(&str, &str)] = &[
        (
            "package.json",
            r#"{"name":"root","private":true,"scripts":{"test":"pnpm -r test"}}"#,
        ),
        ("pnpm-lock.yaml", "lockfileVersion: '9.0'\n"),
        (
            "pnpm-workspace.yaml",
            "packages:\n  - 'packages/*'\n  - \"!packages/skip\"\n",
        ),
        (
            "packages/web/package.json",
            r#"{"name":"@acme/web","scripts":{"test":"vitest run"}}"#,
        ),
        ("packages/web/src/login.ts", ""),
        ("packages/web/src/login.test.ts", ""),
        ("packages/web/src/cart.test.ts", ""),
        ("packages/web/src/__tests__/helper.ts", ""),
        (
            "packages/api/package.json",
            r#"{"name":"api","scripts":{"test":"node --test"}}"#,
        ),
        ("packages/api/src/login.test.ts", ""),
        (
            "packages/lint/package.json",
            r#"{"name":"lint","scripts":{"test":"tsc --noEmit && node scripts/check.js"}}"#,
        ),
        ("packages/lint/src/rule.test.ts", ""),
        (
            "packages/skip/package.json",
            r#"{"name":"skip","scripts":{"test":"jest"}}"#,
        ),
        ("packages/skip/a.test.js", ""),
    ];

    /// vuejs/core's shape: the root's `test` is vitest over the whole workspace, the
    /// members declare no `test` script.
    const ROOT_VITEST: &[(&str, &str)] = &[
        (
            "package.json",
            r#"{"private":true,"packageManager":"pnpm@9.0.0","scripts":{"test":"vitest","test-unit":"vitest --project unit*"}}"#,
        ),
        ("pnpm-workspace.yaml", "packages:\n  - 'packages/*'\n"),
        ("vitest.config.ts", "export default {}\n"),
        (
            "packages/reactivity/package.json",
            r#"{"name":"@vue/reactivity"}"#,
        ),
        ("packages/reactivity/src/effect.ts", ""),
        ("packages/reactivity/__tests__/effect.spec.ts", ""),
        ("scripts/release.spec.ts", ""),
    ];

    /// A one-package project of `manager`'s lockfile whose `test` script is `script`, with
    /// `files` in it.
    fn project(lock: &str, script: &str, files: &[&str]) -> (tempfile::TempDir, crate::tree::Tree) {
        let manifest = serde_json::json!({"name": "shop", "scripts": {"test": script}}).to_string();
        let mut all: Vec<(&str, &str)> = vec![("package.json", manifest.as_str()), (lock, "")];
        all.extend(files.iter().map(|f| (*f, "")));
        tree_with(&all)
    }

    #[test]
    fn a_changed_vitest_spec_of_a_pnpm_member_runs_alone_by_filter_then_the_package_then_the_suite()
    {
        let (_d, tree) = tree_with(PNPM_WORKSPACE);
        let t = files(&["packages/web/src/login.test.ts"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [
                ". pnpm --filter @acme/web exec vitest run src/login.test.ts",
                ". pnpm --filter @acme/web test",
                ". pnpm test"
            ]
        );
    }

    #[test]
    fn a_root_vitest_runs_a_member_spec_from_the_root_when_the_member_declares_no_test() {
        let (_d, tree) = tree_with(ROOT_VITEST);
        let t = files(&[
            "packages/reactivity/src/effect.ts",
            "packages/reactivity/__tests__/effect.spec.ts",
        ]);
        assert_eq!(
            runs(&tree, &t, discover),
            [
                ". pnpm exec vitest run packages/reactivity/__tests__/effect.spec.ts",
                ". pnpm test"
            ]
        );
    }

    #[test]
    fn a_spec_outside_the_members_is_the_roots_to_run() {
        let (_d, tree) = tree_with(ROOT_VITEST);
        let t = files(&["scripts/release.spec.ts"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [
                ". pnpm exec vitest run scripts/release.spec.ts",
                ". pnpm test"
            ]
        );
    }

    #[test]
    fn a_changed_product_file_beside_a_changed_spec_gets_the_spec_command_first() {
        let (_d, tree) = tree_with(PNPM_WORKSPACE);
        let t = files(&[
            "packages/web/src/login.ts",
            "packages/web/src/login.test.ts",
        ]);
        assert_eq!(
            runs(&tree, &t, discover)[0],
            ". pnpm --filter @acme/web exec vitest run src/login.test.ts"
        );
    }

    #[test]
    fn a_changed_product_file_alone_gets_no_narrowed_command() {
        let (_d, tree) = tree_with(PNPM_WORKSPACE);
        let t = files(&["packages/web/src/login.ts"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [". pnpm --filter @acme/web test", ". pnpm test"]
        );
    }

    #[test]
    fn changed_specs_of_one_package_share_one_command() {
        let (_d, tree) = tree_with(PNPM_WORKSPACE);
        let t = files(&[
            "packages/web/src/login.test.ts",
            "packages/web/src/cart.test.ts",
        ]);
        assert_eq!(
            runs(&tree, &t, discover)[0],
            ". pnpm --filter @acme/web exec vitest run src/login.test.ts src/cart.test.ts"
        );
    }

    #[test]
    fn changed_specs_of_two_packages_get_a_command_each() {
        let (_d, tree) = tree_with(PNPM_WORKSPACE);
        let t = files(&[
            "packages/web/src/login.test.ts",
            "packages/api/src/login.test.ts",
        ]);
        let got = runs(&tree, &t, discover);
        assert_eq!(
            got[..2],
            [
                ". pnpm --filter @acme/web exec vitest run src/login.test.ts",
                ". pnpm --filter api exec node --test src/login.test.ts"
            ]
        );
    }

    #[test]
    fn a_deleted_spec_is_not_routed() {
        let (_d, tree) = tree_with(PNPM_WORKSPACE);
        let t = files(&["packages/web/src/gone.test.ts"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [". pnpm --filter @acme/web test", ". pnpm test"]
        );
    }

    #[test]
    fn a_file_vitest_does_not_collect_is_not_narrowed() {
        let (_d, tree) = tree_with(PNPM_WORKSPACE);
        let t = files(&["packages/web/src/__tests__/helper.ts"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [". pnpm --filter @acme/web test", ". pnpm test"]
        );
    }

    #[test]
    fn one_known_test_in_one_file_adds_a_literal_name_filter() {
        let (_d, tree) = tree_with(PNPM_WORKSPACE);
        let t = with_tests(
            &["packages/web/src/login.test.ts"],
            &[(
                "packages/web/src/login.test.ts",
                "rejects an expired (old) session",
            )],
        );
        assert_eq!(
            runs(&tree, &t, discover)[0],
            r". pnpm --filter @acme/web exec vitest run src/login.test.ts -t 'rejects an expired \(old\) session'"
        );
    }

    #[test]
    fn two_known_tests_add_no_name_filter() {
        let (_d, tree) = tree_with(PNPM_WORKSPACE);
        let t = with_tests(
            &["packages/web/src/login.test.ts"],
            &[
                ("packages/web/src/login.test.ts", "a"),
                ("packages/web/src/login.test.ts", "b"),
            ],
        );
        assert_eq!(
            runs(&tree, &t, discover)[0],
            ". pnpm --filter @acme/web exec vitest run src/login.test.ts"
        );
    }

    #[test]
    fn node_test_gets_no_name_filter() {
        let (_d, tree) = tree_with(PNPM_WORKSPACE);
        let t = with_tests(
            &["packages/api/src/login.test.ts"],
            &[("packages/api/src/login.test.ts", "a")],
        );
        assert_eq!(
            runs(&tree, &t, discover)[0],
            ". pnpm --filter api exec node --test src/login.test.ts"
        );
    }

    #[test]
    fn a_script_that_is_no_test_runner_gets_no_narrowed_command() {
        let (_d, tree) = tree_with(PNPM_WORKSPACE);
        let t = files(&["packages/lint/src/rule.test.ts"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [". pnpm --filter lint test", ". pnpm test"]
        );
    }

    #[test]
    fn a_watching_script_is_never_offered_and_its_runner_runs_once() {
        let (_d, tree) = tree_with(&[
            (
                "package.json",
                r#"{"workspaces":["pkgs/*"],"scripts":{"test":"vitest watch"}}"#,
            ),
            ("pnpm-lock.yaml", ""),
            (
                "pkgs/a/package.json",
                r#"{"name":"a","scripts":{"test":"jest --watch"}}"#,
            ),
            ("pkgs/a/x.test.js", ""),
        ]);
        let t = files(&["pkgs/a/x.test.js"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [". pnpm --filter a exec jest x.test.js"]
        );
    }

    #[test]
    fn a_watcher_program_offers_nothing() {
        let (_d, tree) = project(
            "package-lock.json",
            "nodemon --exec 'mocha'",
            &["test/a.test.js"],
        );
        assert!(runs(&tree, &files(&["test/a.test.js"]), discover).is_empty());
    }

    #[test]
    fn a_file_outside_any_package_gets_no_command() {
        let (_d, tree) = tree_with(&[
            (
                "web/package.json",
                r#"{"name":"web","scripts":{"test":"vitest run"}}"#,
            ),
            ("tools/a.spec.ts", ""),
        ]);
        assert!(runs(&tree, &files(&["tools/a.spec.ts"]), discover).is_empty());
    }

    #[test]
    fn a_project_that_is_no_member_does_not_borrow_the_roots_runner() {
        let (_d, tree) = tree_with(&[
            (
                "package.json",
                r#"{"workspaces":["pkgs/*","!pkgs/own"],"scripts":{"test":"vitest run"}}"#,
            ),
            ("pkgs/own/package.json", r#"{"name":"own"}"#),
            ("pkgs/own/a.test.ts", ""),
        ]);
        assert_eq!(
            runs(&tree, &files(&["pkgs/own/a.test.ts"]), discover),
            [". npm test"]
        );
    }

    #[test]
    fn a_member_without_a_name_runs_from_its_own_directory() {
        let (_d, tree) = tree_with(&[
            ("package.json", r#"{"private":true}"#),
            ("pnpm-workspace.yaml", "packages:\n  - 'pkgs/*'\n"),
            (
                "pkgs/a/package.json",
                r#"{"scripts":{"test":"vitest run"}}"#,
            ),
            ("pkgs/a/x.test.ts", ""),
        ]);
        assert_eq!(
            runs(&tree, &files(&["pkgs/a/x.test.ts"]), discover),
            ["pkgs/a pnpm exec vitest run x.test.ts"]
        );
    }

    #[test]
    fn an_npm_member_runs_its_binary_from_its_directory_without_a_download() {
        let (_d, tree) = tree_with(&[
            (
                "package.json",
                r#"{"workspaces":["apps/*"],"packageManager":"npm@10.0.0","scripts":{"test":"jest"}}"#,
            ),
            ("yarn.lock", ""),
            (
                "apps/site/package.json",
                r#"{"name":"site","scripts":{"test":"jest --ci"}}"#,
            ),
            ("apps/site/__tests__/nav.js", ""),
        ]);
        let t = files(&["apps/site/__tests__/nav.js"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [
                "apps/site npx --no jest --ci __tests__/nav.js",
                ". npm test -w site",
                ". npm test"
            ]
        );
    }

    #[test]
    fn a_yarn_member_runs_its_binary_through_yarn_workspace() {
        let (_d, tree) = tree_with(&[
            (
                "package.json",
                r#"{"workspaces":{"packages":["apps/*"]},"scripts":{"test":"jest"}}"#,
            ),
            ("yarn.lock", ""),
            (
                "apps/site/package.json",
                r#"{"name":"site","scripts":{"test":"jest"}}"#,
            ),
            ("apps/site/__tests__/nav.js", ""),
        ]);
        let t = files(&["apps/site/__tests__/nav.js"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [
                ". yarn workspace site jest __tests__/nav.js",
                ". yarn workspace site test",
                ". yarn test"
            ]
        );
    }

    #[test]
    fn each_runner_has_its_one_shot_command() {
        for (script, file, want) in [
            (
                "vitest",
                "src/a.test.ts",
                ". npx --no vitest run src/a.test.ts",
            ),
            ("jest", "src/a.test.js", ". npx --no jest src/a.test.js"),
            ("mocha", "test/a.js", ". npx --no mocha test/a.js"),
            (
                "node --test test/",
                "test/a.test.mjs",
                ". node --test test/a.test.mjs",
            ),
            (
                "playwright test",
                "e2e/a.spec.ts",
                ". npx --no playwright test e2e/a.spec.ts",
            ),
            ("ava", "test/a.js", ". npx --no ava test/a.js"),
        ] {
            let (_d, tree) = project("package-lock.json", script, &[file]);
            assert_eq!(
                runs(&tree, &files(&[file]), discover),
                [want, ". npm test"],
                "{script}"
            );
        }
    }

    #[test]
    fn each_manager_starts_the_binary_its_own_way() {
        for (lock, want) in [
            ("package-lock.json", ". npx --no vitest run a.test.ts"),
            ("pnpm-lock.yaml", ". pnpm exec vitest run a.test.ts"),
            ("yarn.lock", ". yarn vitest run a.test.ts"),
            ("bun.lock", ". bun run vitest run a.test.ts"),
        ] {
            let (_d, tree) = project(lock, "vitest run", &["a.test.ts"]);
            assert_eq!(
                runs(&tree, &files(&["a.test.ts"]), discover)[0],
                want,
                "{lock}"
            );
        }
    }

    #[test]
    fn node_test_under_bun_is_not_narrowed() {
        let (_d, tree) = project("bun.lock", "node --test", &["test/a.test.js"]);
        assert_eq!(
            runs(&tree, &files(&["test/a.test.js"]), discover),
            [". bun run test"]
        );
    }

    #[test]
    fn a_chained_test_script_is_followed_to_its_runner() {
        let (_d, tree) = tree_with(&[
            (
                "package.json",
                r#"{"scripts":{"test":"npm run lint && npm run test:unit","lint":"eslint .","test:unit":"vitest run"}}"#,
            ),
            ("src/a.test.ts", ""),
        ]);
        assert_eq!(
            runs(&tree, &files(&["src/a.test.ts"]), discover),
            [". npx --no vitest run src/a.test.ts", ". npm test"]
        );
    }

    #[test]
    fn the_scripts_environment_and_configuration_go_with_the_narrowed_run() {
        let (_d, tree) = project(
            "package-lock.json",
            "cross-env NODE_ENV=test NODE_OPTIONS='--max-old-space-size=4096 --expose-gc' jest --coverage -c jest.unit.js",
            &["src/a.test.js"],
        );
        assert_eq!(
            runs(&tree, &files(&["src/a.test.js"]), discover)[0],
            ". NODE_ENV=test NODE_OPTIONS='--max-old-space-size=4096 --expose-gc' npx --no jest -c jest.unit.js src/a.test.js"
        );
    }

    #[test]
    fn a_jest_path_with_pattern_characters_runs_by_path() {
        let (_d, tree) = project("pnpm-lock.yaml", "jest", &["app/[id]/page.test.tsx"]);
        assert_eq!(
            runs(&tree, &files(&["app/[id]/page.test.tsx"]), discover)[0],
            ". pnpm exec jest --runTestsByPath 'app/[id]/page.test.tsx'"
        );
    }

    #[test]
    fn a_test_path_that_looks_like_an_option_is_made_a_path() {
        let (_d, tree) = project("pnpm-lock.yaml", "vitest run", &["-x.test.ts"]);
        assert_eq!(
            runs(&tree, &files(&["-x.test.ts"]), discover)[0],
            ". pnpm exec vitest run ./-x.test.ts"
        );
    }

    #[test]
    fn a_negated_workspace_pattern_excludes_the_package() {
        let (_d, tree) = tree_with(PNPM_WORKSPACE);
        let t = files(&["packages/skip/a.test.js"]);
        // Not a member: it is a project of its own, run from its directory with npm.
        assert_eq!(
            runs(&tree, &t, discover),
            [
                "packages/skip npx --no jest a.test.js",
                "packages/skip npm test",
                ". pnpm test"
            ]
        );
    }

    #[test]
    fn a_pnpm_workspace_file_without_a_lockfile_means_pnpm() {
        let (_d, tree) = tree_with(&[
            (
                "package.json",
                "{\"name\":\"mono\",\"scripts\":{\"test\":\"pnpm -r test\"}}",
            ),
            ("pnpm-workspace.yaml", "packages:\n  - packages/*\n"),
            (
                "packages/cart/package.json",
                "{\"name\":\"@shop/cart\",\"scripts\":{\"test\":\"vitest run\"}}",
            ),
            ("packages/cart/src/total.ts", ""),
        ]);
        let got = runs(&tree, &files(&["packages/cart/src/total.ts"]), discover);
        assert!(
            got.iter()
                .any(|r| r.contains("pnpm --filter @shop/cart test")),
            "{got:?}"
        );
        assert!(!got.iter().any(|r| r.contains("npm test -w")), "{got:?}");
    }

    /// uptime-kuma's shape: `test` runs an opaque backend script, then Playwright; sibling
    /// scripts run node's runner on the backend tests.
    const OPAQUE_TEST: &[(&str, &str)] = &[
        (
            "package.json",
            r#"{"scripts":{
                "test":"npm run test-backend && npm run test-e2e",
                "test-backend":"node test/test-backend.mjs",
                "test-backend-22":"cross-env TEST_BACKEND=1 node --test --test-reporter=spec \"test/backend-test/**/*.js\"",
                "test-backend-20":"cross-env TEST_BACKEND=1 node --test --test-reporter=spec test/backend-test",
                "test-backend-watch":"node --test --watch test/backend-test",
                "test-e2e":"playwright test --config ./config/playwright.config.js"}}"#,
        ),
        ("package-lock.json", ""),
        (
            "config/playwright.config.js",
            "export default defineConfig({ testDir: \"../test/e2e/specs\" });\n",
        ),
        ("test/backend-test/check-translations.test.js", ""),
        ("test/backend-test/monitors/test-oracledb.js", ""),
        ("test/e2e/specs/status-page.spec.js", ""),
        ("test/other/orphan.test.js", ""),
    ];

    #[test]
    fn a_test_file_the_test_script_does_not_cover_runs_through_the_sibling_that_does() {
        let (_d, tree) = tree_with(OPAQUE_TEST);
        let t = files(&["test/backend-test/monitors/test-oracledb.js"]);
        assert_eq!(
            runs(&tree, &t, discover)[0],
            ". TEST_BACKEND=1 node --test-reporter=spec --test test/backend-test/monitors/test-oracledb.js"
        );
    }

    #[test]
    fn each_changed_test_goes_to_the_runner_whose_paths_cover_it() {
        let (_d, tree) = tree_with(OPAQUE_TEST);
        let t = files(&[
            "test/e2e/specs/status-page.spec.js",
            "test/backend-test/check-translations.test.js",
        ]);
        let got = runs(&tree, &t, discover);
        assert_eq!(
            got[..2],
            [
                ". npx --no playwright test --config ./config/playwright.config.js test/e2e/specs/status-page.spec.js",
                ". TEST_BACKEND=1 node --test-reporter=spec --test test/backend-test/check-translations.test.js"
            ]
        );
    }

    #[test]
    fn a_test_file_no_script_covers_is_not_narrowed() {
        let (_d, tree) = tree_with(OPAQUE_TEST);
        let t = files(&["test/other/orphan.test.js"]);
        assert_eq!(runs(&tree, &t, discover), [". npm test"]);
    }

    #[test]
    fn a_runner_behind_a_node_script_wrapper_is_narrowed_to_the_files_its_glob_covers() {
        let (_d, tree) = tree_with(&[
            (
                "package.json",
                r#"{"scripts":{"test":"npm run test:eslint && npm run test:mocha",
                    "test:eslint":"node bin/ssl_hotfix.js eslint lib/**/*.js",
                    "test:mocha":"node bin/ssl_hotfix.js mocha test/unit/**/*.js --timeout 30000 --exit",
                    "test:exports":"node bin/ssl_hotfix.js mocha test/module/test.js --exit"}}"#,
            ),
            ("package-lock.json", ""),
            ("test/unit/helpers/composeSignals.js", ""),
            ("test/module/test.js", ""),
        ]);
        let t = files(&["test/unit/helpers/composeSignals.js"]);
        assert_eq!(
            runs(&tree, &t, discover)[0],
            ". npx --no mocha --timeout 30000 --exit test/unit/helpers/composeSignals.js"
        );
        // The exports test is outside the `test` script's glob: its sibling runs it.
        let t = files(&["test/module/test.js"]);
        assert_eq!(
            runs(&tree, &t, discover)[0],
            ". npx --no mocha --exit test/module/test.js"
        );
    }

    #[test]
    fn the_npm_placeholder_script_is_not_a_test_command() {
        let (_d, tree) = tree_with(&[(
            "package.json",
            r#"{"scripts":{"test":"echo \"Error: no test specified\" && exit 1"}}"#,
        )]);
        assert!(runs(&tree, &files(&["index.js"]), discover).is_empty());
    }

    #[test]
    fn a_script_with_a_line_break_is_refused_with_a_problem() {
        let (_d, tree) = tree_with(&[
            ("package.json", r#"{"scripts":{"test":"jest\nrm -rf ~"}}"#),
            ("a.test.js", ""),
        ]);
        let mut found = Found::default();
        discover(&mut tree.reader(), &files(&["a.test.js"]), &mut found);
        assert!(found.candidates.is_empty());
        assert!(
            found.problems[0].contains("`package.json`"),
            "{:?}",
            found.problems
        );
    }

    #[test]
    fn lockfiles_choose_the_manager() {
        for (lock, suite) in [
            ("yarn.lock", "yarn test"),
            ("bun.lockb", "bun run test"),
            ("bun.lock", "bun run test"),
            ("package-lock.json", "npm test"),
        ] {
            let (_d, tree) = project(lock, "mocha", &[]);
            assert_eq!(
                runs(&tree, &files(&["a.js"]), discover),
                [format!(". {suite}")]
            );
        }
    }
}
