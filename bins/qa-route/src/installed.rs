//! What a routed command needs installed beyond its runner: a package.json script's tool
//! from `node_modules/.bin` (jest, vitest, mocha, ...), pytest and the packages of a
//! repository with a virtualenv convention, a JDK for the Gradle wrapper; and whether
//! the working tree shows it absent. Only file presence is looked at: nothing is run.

use crate::commands::wrapper::{
    command_program, in_node_bin, script_program, NODE_TOOLS, NOT_TOOLS,
};
use crate::commands::{Candidate, Runner};
use crate::tree::{join, parent, shown, Reader};
use serde_json::Value;

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
    let present = in_node_bin(reader, &package, program);
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
