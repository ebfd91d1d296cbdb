//! What a routed command needs installed beyond its runner: a package.json script's tool
//! from `node_modules/.bin` (jest, vitest, mocha, ...), pytest and the packages of a
//! repository with a virtualenv convention, a JDK for the Gradle wrapper; and whether
//! the working tree shows it absent. Only file presence is looked at: nothing is run.

use crate::commands::{Candidate, Runner};
use crate::tree::{join, parent, shown, Reader};
use serde_json::Value;

/// Test and build tools that package.json scripts start from `node_modules/.bin`, for a
/// program the package does not declare itself (its bin name differs from its package,
/// or a dependency brings it).
const NODE_TOOLS: &[&str] = &[
    "astro",
    "ava",
    "c8",
    "cross-env",
    "cypress",
    "eslint",
    "expo",
    "jasmine",
    "jest",
    "karma",
    "lerna",
    "mocha",
    "next",
    "ng",
    "nuxt",
    "nx",
    "nyc",
    "playwright",
    "react-scripts",
    "rollup",
    "tap",
    "ts-node",
    "tsc",
    "tsup",
    "tsx",
    "turbo",
    "uvu",
    "vite",
    "vitest",
    "vue-cli-service",
    "webpack",
];

/// Programs that are never a package's installed tool: package managers, runtimes and
/// shell words.
const NOT_TOOLS: &[&str] = &[
    "npm", "pnpm", "yarn", "bun", "npx", "node", "deno", "sh", "bash", "env", "exec", "make",
    "echo", "exit", "true", "false", "cd", "test",
];

/// Files that say a Python repository installs its packages into a virtualenv.
const PYTHON_LOCKS: &[&str] = &[
    "uv.lock",
    "poetry.lock",
    "pdm.lock",
    "Pipfile.lock",
    "Pipfile",
    "requirements.txt",
    "requirements-dev.txt",
];

/// Virtualenv directories a repository keeps beside its code.
const VENVS: &[&str] = &[".venv", "venv"];

/// What a command needs installed, and whether it is seen missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    /// What, shown in the precondition's parentheses: `node_modules/.bin/jest`.
    pub needs: String,
    /// One clause for the route's reason when the working tree shows it absent.
    pub absent: Option<String>,
}

/// The program a package.json script starts: its first word after `VAR=value`
/// assignments, or the program `npx` runs; None for an empty script.
pub fn script_program(script: &str) -> Option<&str> {
    let mut words = script
        .split(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|' | '(' | ')'))
        .map(|w| w.trim_matches(|c| c == '"' || c == '\''))
        .filter(|w| !w.is_empty())
        .skip_while(|w| w.contains('=') && !w.starts_with('='));
    let first = words.next()?;
    if first == "npx" {
        words.find(|w| !w.starts_with('-'))
    } else {
        Some(first)
    }
}

/// The tool a command line runs itself through its package manager (`npx --no jest
/// ...`, `pnpm --filter web exec vitest run ...`), or None when it runs a script.
pub fn command_program(run: &str) -> Option<&str> {
    let mut words = run.split_whitespace().map(|w| w.trim_matches('\''));
    match words.next()? {
        "npx" | "bunx" => words.find(|w| !w.starts_with('-')),
        "npm" | "pnpm" | "yarn" | "bun" => {
            words.by_ref().find(|w| *w == "exec")?;
            words.find(|w| !w.starts_with('-'))
        }
        _ => None,
    }
}

/// What `command` needs installed beyond its runner, read from the repository through
/// `reader`; None when it needs nothing qa-route can name.
pub fn needed(command: &Candidate, reader: &mut Reader) -> Option<Installed> {
    match command.runner {
        Runner::Npm | Runner::Pnpm | Runner::Yarn | Runner::Bun => node(command, reader),
        Runner::Pytest => python(command, reader),
        Runner::Gradlew => Some(Installed {
            needs: "a JDK for `./gradlew`, which fetches Gradle and the build's dependencies"
                .into(),
            absent: None,
        }),
        _ => None,
    }
}

/// The tool from `node_modules/.bin` the command runs (itself, or through the declaring
/// package's script: `test`, or the build, lint or validation it runs), looked for in that package's directory and the repository
/// root.
fn node(command: &Candidate, reader: &mut Reader) -> Option<Installed> {
    if !command.declared_in.ends_with("package.json") {
        return None;
    }
    let package = parent(&command.declared_in).to_string();
    let manifest: Value = serde_json::from_str(&reader.read(&command.declared_in)?.text).ok()?;
    let name = command.script.as_deref().unwrap_or("test");
    let script = || manifest.get("scripts")?.get(name)?.as_str();
    let program = command_program(&command.run).or_else(|| script().and_then(script_program))?;
    if program.contains('/') || NOT_TOOLS.contains(&program) {
        return None;
    }
    let bin = format!("node_modules/.bin/{program}");
    let mut dirs = vec![package.clone()];
    if !package.is_empty() {
        dirs.push(String::new());
    }
    let tree = reader.tree();
    let present = dirs.iter().any(|dir| tree.is_file(&join(dir, &bin)));
    let declared = |json: &Value| {
        ["dependencies", "devDependencies", "optionalDependencies"]
            .iter()
            .any(|key| json.get(key).and_then(|d| d.get(program)).is_some())
    };
    let known = present
        || NODE_TOOLS.contains(&program)
        || declared(&manifest)
        || (!package.is_empty()
            && reader
                .read("package.json")
                .and_then(|f| serde_json::from_str::<Value>(&f.text).ok())
                .is_some_and(|root| declared(&root)));
    if !known {
        return None;
    }
    let place = if package.is_empty() {
        bin.clone()
    } else {
        format!("{bin} in `{}` or the repository root", shown(&package))
    };
    Some(Installed {
        absent: (!present).then(|| format!("its dependencies are not installed (no {place})")),
        needs: place,
    })
}

/// pytest and the project's packages, when the repository keeps a virtualenv beside it
/// or a file that pins what one holds.
fn python(command: &Candidate, reader: &mut Reader) -> Option<Installed> {
    let tree = reader.tree();
    let dir = command.dir.as_str();
    if let Some(venv) = VENVS
        .iter()
        .map(|v| join(dir, v))
        .find(|v| tree.is_file(&join(v, "pyvenv.cfg")))
    {
        return Some(Installed {
            needs: format!("pytest and the project's packages in `{venv}`"),
            absent: None,
        });
    }
    let lock = PYTHON_LOCKS
        .iter()
        .map(|l| join(dir, l))
        .find(|l| tree.is_file(l))?;
    Some(Installed {
        needs: format!("pytest and the packages `{lock}` names, in a virtualenv"),
        absent: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_program_is_the_first_word_after_assignments() {
        assert_eq!(script_program("jest --ci"), Some("jest"));
        assert_eq!(script_program("NODE_ENV=test vitest run"), Some("vitest"));
        assert_eq!(script_program("npx --yes mocha test/"), Some("mocha"));
        assert_eq!(script_program("\"jest\" && eslint ."), Some("jest"));
        assert_eq!(script_program("pnpm -r test"), Some("pnpm"));
        assert_eq!(script_program(""), None);
    }

    #[test]
    fn a_command_that_execs_a_tool_names_it_and_a_script_run_does_not() {
        assert_eq!(command_program("npx --no jest a.test.js"), Some("jest"));
        assert_eq!(
            command_program("pnpm --filter @shop/web exec vitest run src/a.test.ts"),
            Some("vitest")
        );
        assert_eq!(command_program("npm test -- a.test.js"), None);
        assert_eq!(command_program("pnpm --filter web test"), None);
    }
}
