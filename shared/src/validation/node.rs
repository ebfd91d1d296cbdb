//! package.json projects: the package manager, workspace packages, changed jest/vitest
//! test files, package and root `test` scripts.

use super::{Found, Runner};
use crate::change::CommandScope;
use crate::validation::targets::Targets;
use crate::validation::tree::{ancestors, base_name, join, under, Reader, Tree};
use regex::Regex;
use serde_json::Value;
use std::sync::OnceLock;

/// npm's placeholder for a package without tests.
const PLACEHOLDER: &str = "echo \"Error: no test specified\" && exit 1";

/// How deep a `**` workspace pattern looks.
const MAX_GLOB_DEPTH: usize = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Manager {
    Npm,
    Pnpm,
    Yarn,
    Bun,
}

impl Manager {
    fn runner(self) -> Runner {
        match self {
            Manager::Npm => Runner::Npm,
            Manager::Pnpm => Runner::Pnpm,
            Manager::Yarn => Runner::Yarn,
            Manager::Bun => Runner::Bun,
        }
    }

    /// The root `test` script.
    fn suite(self) -> &'static str {
        match self {
            Manager::Npm => "npm test",
            Manager::Pnpm => "pnpm test",
            Manager::Yarn => "yarn test",
            Manager::Bun => "bun run test",
        }
    }

    /// One test file through the `test` script, run from the package directory.
    fn file(self, path: &str) -> String {
        match self {
            Manager::Npm => format!("npm test -- {path}"),
            Manager::Pnpm => format!("pnpm test -- {path}"),
            Manager::Yarn => format!("yarn test {path}"),
            Manager::Bun => format!("bun run test {path}"),
        }
    }

    /// A workspace package's `test` script, run from the workspace root.
    fn member(self, name: &str) -> String {
        match self {
            Manager::Npm => format!("npm test -w {name}"),
            Manager::Pnpm => format!("pnpm --filter {name} test"),
            Manager::Yarn => format!("yarn workspace {name} test"),
            Manager::Bun => format!("bun run --filter {name} test"),
        }
    }
}

/// A directory with a package.json.
struct Package {
    dir: String,
    manifest: String,
    json: Value,
}

impl Package {
    fn read(reader: &mut Reader, dir: &str) -> Option<Package> {
        let manifest = join(dir, "package.json");
        let file = reader.read(&manifest)?;
        let json = serde_json::from_str(&file.text).ok()?;
        Some(Package {
            dir: dir.to_string(),
            manifest,
            json,
        })
    }

    /// The `test` script when it is a real one and fit to stand behind a command.
    fn test_script(&self, found: &mut Found) -> Option<String> {
        let script = self.json.get("scripts")?.get("test")?.as_str()?;
        if script.trim() == PLACEHOLDER
            || !found.accept(script, "the `test` script", &self.manifest)
        {
            return None;
        }
        Some(script.to_string())
    }

    /// The package manager: `packageManager`, else a lockfile, else npm.
    fn manager(&self, tree: &Tree) -> Manager {
        let declared = self
            .json
            .get("packageManager")
            .and_then(Value::as_str)
            .and_then(|s| s.split('@').next());
        match declared {
            Some("pnpm") => return Manager::Pnpm,
            Some("yarn") => return Manager::Yarn,
            Some("bun") => return Manager::Bun,
            Some("npm") => return Manager::Npm,
            _ => {}
        }
        let has = |name: &str| tree.is_file(&join(&self.dir, name));
        // pnpm-workspace.yaml is pnpm's own file: a workspace declared there is pnpm's.
        if has("pnpm-lock.yaml") || has("pnpm-workspace.yaml") {
            Manager::Pnpm
        } else if has("yarn.lock") {
            Manager::Yarn
        } else if has("bun.lockb") || has("bun.lock") {
            Manager::Bun
        } else {
            Manager::Npm
        }
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

#[cfg(test)]
mod manager_tests {
    use super::*;
    use crate::validation::tests_support::{runs, tree_with, with_tests as targets};

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
        let got = runs(
            &tree,
            &targets(&["packages/cart/src/total.ts"], &[]),
            discover,
        );
        assert!(
            got.iter()
                .any(|r| r.contains("pnpm --filter @shop/cart test")),
            "{got:?}"
        );
        assert!(!got.iter().any(|r| r.contains("npm test -w")), "{got:?}");
    }
}

/// The entries of the `packages:` list of a pnpm-workspace.yaml.
fn pnpm_packages(text: &str) -> Vec<String> {
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
fn segment_matches(pattern: &str, name: &str) -> bool {
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

/// True when a `test` script runs jest or vitest, which take a test file argument.
fn takes_test_files(script: &str) -> bool {
    static RUNNER: OnceLock<Regex> = OnceLock::new();
    RUNNER
        .get_or_init(|| Regex::new(r"(^|[\s/;&|(])(jest|vitest)(\s|$|;|&|\|)").expect("valid"))
        .is_match(script)
}

/// True for `*.test.*` / `*.spec.*` script files and files under `__tests__/`.
fn is_test_file(path: &str) -> bool {
    static NAME: OnceLock<Regex> = OnceLock::new();
    let name = NAME.get_or_init(|| {
        Regex::new(r"\.(test|spec)\.(js|jsx|ts|tsx|mjs|cjs|mts|cts)$").expect("valid")
    });
    name.is_match(base_name(path))
        || (path.split('/').any(|s| s == "__tests__")
            && [".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs"]
                .iter()
                .any(|ext| path.ends_with(ext)))
}

/// `npm test -- <file>` (and its kin) when `pkg`'s script takes test files.
fn test_file(found: &mut Found, pkg: &Package, manager: Manager, script: &str, file: &str) {
    if !is_test_file(file) || !takes_test_files(script) {
        return;
    }
    let rel = under(file, &pkg.dir).unwrap_or(file);
    if let Some(path) = found.word(rel, "a changed test path", file) {
        let run = manager.file(&path);
        found.push(
            manager.runner(),
            run,
            &pkg.dir,
            CommandScope::ExactTest,
            &pkg.manifest,
        );
    }
}

pub fn discover(reader: &mut Reader, targets: &Targets, found: &mut Found) {
    let root = Package::read(reader, "");
    let workspace = match &root {
        Some(root) => members(reader, root),
        None => Vec::new(),
    };
    let root_manager = root.as_ref().map(|r| r.manager(reader.tree()));
    for file in &targets.files {
        let member = workspace
            .iter()
            .filter(|dir| under(file, dir).is_some())
            .max_by_key(|dir| dir.len());
        if let (Some(dir), Some(manager)) = (member, root_manager) {
            let Some(pkg) = Package::read(reader, dir) else {
                continue;
            };
            let Some(script) = pkg.test_script(found) else {
                continue;
            };
            test_file(found, &pkg, manager, &script, file);
            let Some(name) = pkg.json.get("name").and_then(Value::as_str) else {
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
            continue;
        }
        // Not a workspace member: the nearest package.json is its own project.
        let Some(pkg) = ancestors(file).find_map(|dir| Package::read(reader, dir)) else {
            continue;
        };
        let manager = pkg.manager(reader.tree());
        let Some(script) = pkg.test_script(found) else {
            continue;
        };
        test_file(found, &pkg, manager, &script, file);
        if !pkg.dir.is_empty() {
            let run = manager.suite().to_string();
            found.push(
                manager.runner(),
                run,
                &pkg.dir,
                CommandScope::Package,
                &pkg.manifest,
            );
        }
    }
    if let (Some(root), Some(manager)) = (&root, root_manager) {
        if root.test_script(found).is_some() {
            let run = manager.suite().to_string();
            found.push(
                manager.runner(),
                run,
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
    use crate::validation::tests_support::{files, runs, tree_with};

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
        (
            "packages/api/package.json",
            r#"{"name":"api","scripts":{"test":"node --test"}}"#,
        ),
        (
            "packages/skip/package.json",
            r#"{"name":"skip","scripts":{"test":"jest"}}"#,
        ),
    ];

    #[test]
    fn a_changed_vitest_file_in_a_pnpm_workspace_runs_alone_then_by_filter() {
        let (_d, tree) = tree_with(PNPM_WORKSPACE);
        let t = files(&["packages/web/src/login.test.ts"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [
                "packages/web pnpm test -- src/login.test.ts",
                ". pnpm --filter @acme/web test",
                ". pnpm test"
            ]
        );
    }

    #[test]
    fn a_script_that_is_not_jest_or_vitest_gets_no_file_command() {
        let (_d, tree) = tree_with(PNPM_WORKSPACE);
        let t = files(&["packages/api/src/login.test.ts"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [". pnpm --filter api test", ". pnpm test"]
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
                "packages/skip npm test -- a.test.js",
                "packages/skip npm test",
                ". pnpm test"
            ]
        );
    }

    #[test]
    fn npm_workspaces_use_dash_w_and_package_manager_wins_over_lockfiles() {
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
        ]);
        let t = files(&["apps/site/__tests__/nav.js"]);
        assert_eq!(
            runs(&tree, &t, discover),
            [
                "apps/site npm test -- __tests__/nav.js",
                ". npm test -w site",
                ". npm test"
            ]
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
        let (_d, tree) = tree_with(&[("package.json", r#"{"scripts":{"test":"jest\nrm -rf ~"}}"#)]);
        let mut found = Found::default();
        discover(&mut tree.reader(), &files(&["index.js"]), &mut found);
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
            let (_d, tree) = tree_with(&[
                ("package.json", r#"{"scripts":{"test":"mocha"}}"#),
                (lock, ""),
            ]);
            assert_eq!(
                runs(&tree, &files(&["a.js"]), discover),
                [format!(". {suite}")]
            );
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

    #[test]
    fn test_files_are_recognised_by_name_or_folder() {
        assert!(is_test_file("src/a.spec.tsx"));
        assert!(is_test_file("src/__tests__/a.js"));
        assert!(!is_test_file("src/testing.ts"));
        assert!(!is_test_file("src/__tests__/fixture.json"));
        assert!(takes_test_files("NODE_ENV=test jest --ci"));
        assert!(takes_test_files("vitest"));
        assert!(!takes_test_files("jesting"));
        assert!(!takes_test_files("node --test"));
    }
}
