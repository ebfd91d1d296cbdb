//! The package manager of a package.json project and the command shapes it gives: the
//! `test` script, a workspace member's script, and a package binary run without a download.

use super::super::Runner;
use crate::tree::{join, Tree};
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Manager {
    Npm,
    Pnpm,
    Yarn,
    Bun,
}

impl Manager {
    /// The manager of the project at `dir` whose package.json is `json`: `packageManager`,
    /// else a lockfile, else npm.
    pub fn of(json: &Value, dir: &str, tree: &Tree) -> Manager {
        let declared = json
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
        let has = |name: &str| tree.is_file(&join(dir, name));
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

    pub fn runner(self) -> Runner {
        match self {
            Manager::Npm => Runner::Npm,
            Manager::Pnpm => Runner::Pnpm,
            Manager::Yarn => Runner::Yarn,
            Manager::Bun => Runner::Bun,
        }
    }

    /// The `test` script of the package in the command's directory.
    pub fn suite(self) -> &'static str {
        match self {
            Manager::Npm => "npm test",
            Manager::Pnpm => "pnpm test",
            Manager::Yarn => "yarn test",
            Manager::Bun => "bun run test",
        }
    }

    /// The `test` script of the package in the command's directory with `args` handed to
    /// the program it starts (npm needs `--` before them; the others pass them on).
    pub fn test_with(self, args: &str) -> String {
        match self {
            Manager::Npm => format!("npm test -- {args}"),
            Manager::Pnpm => format!("pnpm test {args}"),
            Manager::Yarn => format!("yarn test {args}"),
            Manager::Bun => format!("bun run test {args}"),
        }
    }

    /// A workspace member's `test` script, run from the workspace root.
    pub fn member(self, name: &str) -> String {
        match self {
            Manager::Npm => format!("npm test -w {name}"),
            Manager::Pnpm => format!("pnpm --filter {name} test"),
            Manager::Yarn => format!("yarn workspace {name} test"),
            Manager::Bun => format!("bun run --filter {name} test"),
        }
    }

    /// The script `name` of the package in the command's directory.
    pub fn script(self, name: &str) -> String {
        match self {
            Manager::Npm => format!("npm run {name}"),
            Manager::Pnpm => format!("pnpm run {name}"),
            Manager::Yarn => format!("yarn run {name}"),
            Manager::Bun => format!("bun run {name}"),
        }
    }

    /// A workspace member's script `script`, run from the workspace root.
    pub fn member_script(self, member: &str, script: &str) -> String {
        match self {
            Manager::Npm => format!("npm run {script} -w {member}"),
            Manager::Pnpm => format!("pnpm --filter {member} run {script}"),
            Manager::Yarn => format!("yarn workspace {member} run {script}"),
            Manager::Bun => format!("bun run --filter {member} {script}"),
        }
    }

    /// `args` (a package binary and its arguments) run from the directory of the package
    /// that depends on it. npx gets `--no`: without a TTY it would otherwise download and
    /// run whatever the registry serves under that name when the project is not installed.
    pub fn exec(self, args: &str) -> String {
        match self {
            Manager::Npm => format!("npx --no {args}"),
            Manager::Pnpm => format!("pnpm exec {args}"),
            Manager::Yarn => format!("yarn {args}"),
            Manager::Bun => format!("bun run {args}"),
        }
    }

    /// A workspace member's package binary run from the workspace root, for the managers
    /// that can aim at a member by name (npm's and bun's run from the member's directory).
    pub fn member_exec(self, name: &str, args: &str) -> Option<String> {
        match self {
            Manager::Pnpm => Some(format!("pnpm --filter {name} exec {args}")),
            Manager::Yarn => Some(format!("yarn workspace {name} {args}")),
            Manager::Npm | Manager::Bun => None,
        }
    }

    /// `node args` through the manager, so that the program the route needs on PATH is the
    /// manager's; None for bun, which can stand without node.
    pub fn node(self, member: Option<&str>, args: &str) -> Option<String> {
        match (self, member) {
            // npm is a node program: where npm starts, node does.
            (Manager::Npm, None) => Some(format!("node {args}")),
            (Manager::Pnpm, None) => Some(format!("pnpm exec node {args}")),
            (Manager::Pnpm, Some(name)) => Some(format!("pnpm --filter {name} exec node {args}")),
            (Manager::Yarn, None) => Some(format!("yarn node {args}")),
            (Manager::Yarn, Some(name)) => Some(format!("yarn workspace {name} node {args}")),
            (Manager::Npm, Some(_)) | (Manager::Bun, _) => None,
        }
    }

    /// True when the manager has a form that aims at a workspace member from the root.
    pub fn aims_at_members(self) -> bool {
        matches!(self, Manager::Pnpm | Manager::Yarn)
    }
}
