//! The tool behind a wrapper: what a Makefile target's recipe or a package.json script
//! starts (`go`, `pytest`, `vitest`, ...), read as text and never run, and whether the
//! machine has it; with the runner itself, what a command needs that is not there.
//!
//! The build files are hostile input: a makefile that is a symbolic link is not read,
//! recipes and scripts longer than a build-file value are skipped, `$(VAR)` expansion is
//! bounded, and only one level of `make other` / `npm run other` is followed.

use crate::path::SearchPath;
use crate::tree::{ancestors, join, parent, Reader};
use crate::{Candidate, Runner, MAX_VALUE};
use qa_records::change::{Unmet, UnmetKind};
use serde_json::Value;
use std::collections::HashMap;

/// Test and build tools that package.json scripts start from `node_modules/.bin`, for a
/// program the package does not declare itself (its bin name differs from its package,
/// or a dependency brings it).
pub const NODE_TOOLS: &[&str] = &[
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
pub const NOT_TOOLS: &[&str] = &[
    "npm", "pnpm", "yarn", "bun", "npx", "node", "deno", "sh", "bash", "env", "exec", "make",
    "echo", "exit", "true", "false", "cd", "test",
];

/// Programs a recipe or script starts that must be on PATH, and are worth naming when they
/// are not: runners, language toolchains and package managers. Anything else a recipe
/// starts (`echo`, `rm`, a shell builtin, a script of the repository) is not checked.
const PATH_TOOLS: &[&str] = &[
    "bazel",
    "bun",
    "bunx",
    "bundle",
    "cargo",
    "cmake",
    "ctest",
    "composer",
    "dart",
    "deno",
    "docker",
    "dotnet",
    "elixir",
    "flutter",
    "go",
    "gotestsum",
    "gradle",
    "hatch",
    "java",
    "just",
    "mix",
    "mvn",
    "node",
    "nox",
    "npm",
    "npx",
    "pdm",
    "php",
    "phpunit",
    "pipenv",
    "pnpm",
    "poetry",
    "py.test",
    "pytest",
    "python",
    "python3",
    "rake",
    "rspec",
    "ruby",
    "rustc",
    "swift",
    "tox",
    "uv",
    "yarn",
    "zig",
];

/// Shell words that come before the program of a simple command.
const SHELL_KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "!",
    "{", "}", "time", "exec", "command", "nice", "nohup",
];

/// Makefiles make reads, in its order.
const MAKEFILES: &[&str] = &["GNUmakefile", "makefile", "Makefile"];

/// Recipe lines read per target, and `$(VAR)` expansions per line: a makefile is data.
const MAX_RECIPE_LINES: usize = 200;
const MAX_EXPANSIONS: usize = 64;

/// Where a tool a wrapper starts must be found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Home {
    /// On PATH (a script also finds it in `node_modules/.bin`).
    Path,
    /// In `node_modules/.bin` of the package or one of its ancestors.
    NodeBin,
}

/// A tool a wrapper starts, and the wrapper that starts it, in words (`the \`test\`
/// recipe of \`Makefile\``).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tool {
    pub program: String,
    pub home: Home,
    pub via: String,
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

/// The simple commands of a shell line, each as its words (quotes trimmed), split at
/// `;`, `&&`, `||`, `|`, `&` and parentheses.
fn simple_commands(line: &str) -> Vec<Vec<&str>> {
    line.split([';', '&', '|', '(', ')', '\n'])
        .map(|part| {
            part.split_whitespace()
                .map(|w| w.trim_matches(|c| c == '"' || c == '\''))
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
        })
        .filter(|words| !words.is_empty())
        .collect()
}

/// The words of a simple command from its program on: assignments, `env` and its
/// options, and shell keywords left out.
fn from_program<'a, 'w>(words: &'a [&'w str]) -> &'a [&'w str] {
    let mut at = 0;
    while let Some(word) = words.get(at) {
        let assignment = word.contains('=') && !word.starts_with(['=', '-']);
        let env_option = at > 0 && words[at - 1] == "env" && word.starts_with('-');
        if assignment || env_option || SHELL_KEYWORDS.contains(word) || *word == "env" {
            at += 1;
        } else {
            break;
        }
    }
    &words[at..]
}

/// What a program starts another level through: a make target, or a package script.
enum Next {
    Target(String),
    Script(String),
}

/// What `words` (a simple command from its program) leads to: `make X`, `npm run X`,
/// `npm test`, `yarn X`, ... (not `make -C dir` or `-f file`: another makefile).
fn next_level(words: &[&str]) -> Option<Next> {
    let (program, rest) = words.split_first()?;
    let args: Vec<&str> = rest
        .iter()
        .copied()
        .filter(|w| !w.starts_with('-'))
        .collect();
    match *program {
        "make" | "gmake" => {
            if rest
                .iter()
                .any(|w| matches!(*w, "-C" | "-f" | "--file" | "--directory"))
            {
                return None;
            }
            args.first()
                .filter(|t| !t.contains('='))
                .map(|t| Next::Target(t.to_string()))
        }
        "npm" | "pnpm" | "yarn" | "bun" => match args.as_slice() {
            ["run" | "run-script", name, ..] => Some(Next::Script(name.to_string())),
            ["test" | "t", ..] => Some(Next::Script("test".into())),
            [name, ..] if *program == "yarn" && !matches!(*name, "install" | "add" | "exec") => {
                Some(Next::Script(name.to_string()))
            }
            _ => None,
        },
        _ => None,
    }
}

/// The tool a simple command starts and where it lives, if it is one worth checking:
/// `npx X` and node tools from `node_modules/.bin`, runners and toolchains on PATH.
/// `python -m pytest` is `python`: the module is not looked for.
fn tool_of(words: &[&str], node_tool: &dyn Fn(&str) -> bool) -> Option<(String, Home)> {
    let program = *words.first()?;
    if matches!(program, "npx" | "bunx") {
        let tool = words[1..].iter().find(|w| !w.starts_with('-'))?;
        return (!tool.contains('/') && !tool.contains('@'))
            .then(|| (tool.to_string(), Home::NodeBin));
    }
    if program.contains('/') || program.contains('$') {
        return None;
    }
    if node_tool(program) && !NOT_TOOLS.contains(&program) {
        return Some((program.to_string(), Home::NodeBin));
    }
    PATH_TOOLS
        .contains(&program)
        .then(|| (program.to_string(), Home::Path))
}

/// A makefile's variables and rules, read as text.
#[derive(Default)]
struct Makefile<'t> {
    vars: HashMap<&'t str, String>,
    /// Each rule's targets, prerequisites and recipe lines.
    rules: Vec<(Vec<&'t str>, Vec<&'t str>, Vec<String>)>,
}

impl<'t> Makefile<'t> {
    fn parse(text: &'t str) -> Makefile<'t> {
        let mut file = Makefile::default();
        let mut in_rule = false;
        for line in text.lines() {
            if let Some(recipe) = line.strip_prefix('\t') {
                if in_rule {
                    if let Some((_, _, lines)) = file.rules.last_mut() {
                        if lines.len() < MAX_RECIPE_LINES && recipe.len() <= MAX_VALUE {
                            lines.push(recipe.to_string());
                        }
                    }
                }
                continue;
            }
            let trimmed = line.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            in_rule = false;
            if let Some((name, op, value)) = assignment(trimmed) {
                match op {
                    "?=" => {
                        file.vars.entry(name).or_insert_with(|| value.to_string());
                    }
                    "+=" => {
                        let v = file.vars.entry(name).or_default();
                        if !v.is_empty() {
                            v.push(' ');
                        }
                        v.push_str(value);
                    }
                    // `!=` runs a shell command: its value is not known without running it.
                    "!=" => {
                        file.vars.remove(name);
                    }
                    _ => {
                        file.vars.insert(name, value.to_string());
                    }
                }
                continue;
            }
            if line.starts_with(' ') || line.starts_with('.') {
                continue;
            }
            let Some((head, rest)) = line.split_once(':') else {
                continue;
            };
            if head.contains(['$', '%', '=']) {
                continue;
            }
            let rest = rest.strip_prefix(':').unwrap_or(rest);
            let (prereqs, inline) = match rest.split_once(';') {
                Some((p, r)) => (p, Some(r.trim())),
                None => (rest, None),
            };
            // A target-specific variable (`test: GO = go1.22`) is not a rule.
            if prereqs.contains('=') {
                continue;
            }
            let recipe: Vec<String> = inline
                .filter(|r| !r.is_empty() && r.len() <= MAX_VALUE)
                .map(|r| vec![r.to_string()])
                .unwrap_or_default();
            file.rules.push((
                head.split_whitespace().collect(),
                prereqs.split_whitespace().collect(),
                recipe,
            ));
            in_rule = true;
        }
        file
    }

    /// The rules that name `target`: its prerequisites and recipe lines, in order.
    fn rule(&self, target: &str) -> (Vec<&'t str>, Vec<&str>) {
        let mut prereqs = Vec::new();
        let mut recipe = Vec::new();
        for (targets, p, lines) in &self.rules {
            if targets.contains(&target) {
                prereqs.extend(p.iter().copied());
                recipe.extend(lines.iter().map(String::as_str));
            }
        }
        (prereqs, recipe)
    }

    /// `text` with `$(VAR)` and `${VAR}` expanded from the makefile (`$(MAKE)` is make),
    /// `$$` as `$`; a function call or an unknown variable stays as written, and a word
    /// holding one is not taken for a program. Bounded in expansions and length.
    fn expand(&self, text: &str) -> String {
        let mut out = text.to_string();
        for _ in 0..MAX_EXPANSIONS {
            let Some((at, end, name)) = next_reference(&out) else {
                break;
            };
            let value = match name {
                "MAKE" => Some("make"),
                _ => self.vars.get(name).map(String::as_str),
            };
            let Some(value) = value else {
                // Unknown: marked so it is neither expanded again nor read as a program.
                out.replace_range(at..end, "\u{1}");
                continue;
            };
            out.replace_range(at..end, value);
            if out.len() > MAX_VALUE {
                return String::new();
            }
        }
        if next_reference(&out).is_some() {
            // Past the bound: a line this makefile keeps expanding is not read.
            return String::new();
        }
        out.replace("$$", "$")
    }
}

/// The first `$(NAME)` or `${NAME}` reference in `text`: its span and name (a plain
/// variable name, not a function call).
fn next_reference(text: &str) -> Option<(usize, usize, &str)> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i + 1 < bytes.len() {
        if bytes[i] != b'$' {
            i += 1;
            continue;
        }
        if bytes[i + 1] == b'$' {
            i += 2;
            continue;
        }
        let close = match bytes[i + 1] {
            b'(' => ')',
            b'{' => '}',
            _ => {
                i += 1;
                continue;
            }
        };
        let rest = &text[i + 2..];
        let end = rest.find(close)?;
        return Some((i, i + 2 + end + 1, &rest[..end]));
    }
    None
}

/// A `NAME = value` line (also `:=`, `::=`, `?=`, `+=`, `!=`, with `export` or
/// `override` before it): its name, operator and value.
fn assignment(line: &str) -> Option<(&str, &str, &str)> {
    let line = line
        .strip_prefix("export ")
        .or_else(|| line.strip_prefix("override "))
        .unwrap_or(line)
        .trim_start();
    let eq = line.find('=')?;
    let (head, value) = (&line[..eq], line[eq + 1..].trim());
    let (name, op) = ["::", ":", "?", "+", "!"]
        .iter()
        .find_map(|p| head.strip_suffix(p).map(|n| (n, *p)))
        .map_or((head, "="), |(n, p)| {
            (
                n,
                match p {
                    "?" => "?=",
                    "+" => "+=",
                    "!" => "!=",
                    _ => ":=",
                },
            )
        });
    let name = name.trim();
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-');
    plain.then_some((name, op, value))
}

/// Which tools a wrapper starts, gathered one level deep at most.
struct Gather<'r, 't> {
    reader: &'r mut Reader<'t>,
    tools: Vec<Tool>,
}

impl Gather<'_, '_> {
    fn add(&mut self, program: String, home: Home, via: &str) {
        if !self.tools.iter().any(|t| t.program == program) {
            self.tools.push(Tool {
                program,
                home,
                via: via.to_string(),
            });
        }
    }

    /// The tools the `target` of the makefile `name` starts: its recipe's, and one level
    /// into `make other` and its prerequisites' recipes when `depth` allows.
    fn target(&mut self, file: &Makefile<'_>, name: &str, target: &str, depth: u8) {
        let (prereqs, recipe) = file.rule(target);
        let via = format!("the `{target}` recipe of `{name}`");
        // make runs the prerequisites first.
        let mut next: Vec<Next> = prereqs
            .iter()
            .map(|p| Next::Target(p.to_string()))
            .collect();
        let mut own = Vec::new();
        for line in recipe {
            let line = line.trim_start_matches(['@', '-', '+', ' ']);
            let expanded = file.expand(line);
            for words in simple_commands(&expanded) {
                let words = from_program(&words);
                if words.first().is_some_and(|w| w.contains('\u{1}')) {
                    continue;
                }
                if let Some(level) = next_level(words) {
                    next.push(level);
                }
                if let Some(tool) = tool_of(words, &|p| NODE_TOOLS.contains(&p)) {
                    own.push(tool);
                }
            }
        }
        if depth > 0 {
            for level in next.drain(..prereqs.len()) {
                if let Next::Target(t) = level {
                    self.target(file, name, &t, depth - 1);
                }
            }
        }
        for (program, home) in own {
            self.add(program, home, &via);
        }
        if depth == 0 {
            return;
        }
        for level in next {
            match level {
                Next::Target(t) if t != target => self.target(file, name, &t, depth - 1),
                Next::Target(_) => {}
                Next::Script(s) => self.script("package.json", &s, depth - 1),
            }
        }
    }

    /// The tools the script `name` of the package.json `manifest` starts, and
    /// one level into `npm run other` when `depth` allows.
    fn script(&mut self, manifest: &str, name: &str, depth: u8) {
        let Some(json) = self.reader.json(manifest) else {
            return;
        };
        let Some(script) = json
            .get("scripts")
            .and_then(|s| s.get(name))
            .and_then(Value::as_str)
            .filter(|s| s.len() <= MAX_VALUE)
        else {
            return;
        };
        let via = format!("the `{name}` script of `{manifest}`");
        let declared = |program: &str| {
            ["dependencies", "devDependencies", "optionalDependencies"]
                .iter()
                .any(|key| json.get(key).and_then(|d| d.get(program)).is_some())
        };
        let node_tool = |p: &str| NODE_TOOLS.contains(&p) || declared(p);
        let mut next = Vec::new();
        for words in simple_commands(script) {
            let words = from_program(&words);
            if let Some(level) = next_level(words) {
                next.push(level);
            }
            if let Some((program, home)) = tool_of(words, &node_tool) {
                self.add(program, home, &via);
            }
        }
        if depth == 0 {
            return;
        }
        for level in next {
            match level {
                Next::Script(s) if s != name => self.script(manifest, &s, depth - 1),
                Next::Script(_) | Next::Target(_) => {}
            }
        }
    }
}

/// The tools `candidate` starts behind its wrapper: a `make` target's recipe (following
/// `$(VAR)` assignments of the same makefile and one level of `make other` or
/// prerequisites), a package script (one level of `npm run other`), or the tool an
/// `npx`/`exec` command line runs. Empty for a command that is its runner itself.
pub fn tools(candidate: &Candidate, reader: &mut Reader) -> Vec<Tool> {
    let mut gather = Gather {
        reader,
        tools: Vec::new(),
    };
    match candidate.runner {
        Runner::Make => {
            let target = candidate.run.split_whitespace().nth(1).unwrap_or("");
            let name = candidate.declared_in.as_str();
            // make reads the first of its names that exists; a link is not followed.
            let first = MAKEFILES
                .iter()
                .find(|m| gather.reader.tree().exists(&join(&candidate.dir, m)));
            if first.is_some_and(|m| *m == name) && !gather.reader.tree().is_symlink(name) {
                if let Some(file) = gather.reader.read(name) {
                    let text = file.text.clone();
                    let makefile = Makefile::parse(&text);
                    gather.target(&makefile, name, target, 1);
                }
            }
        }
        Runner::Npm | Runner::Pnpm | Runner::Yarn | Runner::Bun
            if candidate.declared_in.ends_with("package.json") =>
        {
            if let Some(program) = command_program(&candidate.run) {
                let via = format!(
                    "`{}`",
                    candidate.run.split_whitespace().next().unwrap_or("")
                );
                if !program.contains('/') && !NOT_TOOLS.contains(&program) {
                    gather.add(program.to_string(), Home::NodeBin, &via);
                }
            } else {
                let script = candidate.script.as_deref().unwrap_or("test");
                gather.script(&candidate.declared_in, script, 1);
            }
        }
        _ => {}
    }
    gather.tools
}

/// True when `program` is in `node_modules/.bin` of `dir` or one of its ancestors, or the
/// repository installs with Yarn Plug'n'Play (no node_modules to look in).
pub fn in_node_bin(reader: &Reader, dir: &str, program: &str) -> bool {
    let tree = reader.tree();
    if tree.exists(".pnp.cjs") || tree.exists(".pnp.js") {
        return true;
    }
    let bin = format!("node_modules/.bin/{program}");
    std::iter::once(dir)
        .chain(ancestors(dir))
        .chain(std::iter::once(""))
        .any(|d| tree.exists(&join(d, &bin)))
}

/// What to do about a missing `program`, in words.
fn remedy(program: &str, home: Home, manager: Runner) -> String {
    if home == Home::NodeBin {
        let install = match manager {
            Runner::Pnpm => "pnpm install",
            Runner::Yarn => "yarn install",
            Runner::Bun => "bun install",
            _ => "npm install",
        };
        return format!("run `{install}` first");
    }
    match program {
        "pytest" | "py.test" | "python" | "python3" | "tox" | "nox" => {
            "activate the project's virtual environment".into()
        }
        "go" | "gotestsum" => "install Go".into(),
        "cargo" | "rustc" => "install Rust (rustup)".into(),
        "node" | "npm" | "npx" => "install Node.js".into(),
        "java" | "mvn" | "gradle" => "install a JDK and the build tool".into(),
        "./gradlew" => "make `./gradlew` executable".into(),
        other => format!("install `{other}`"),
    }
}

/// The precondition that keeps `candidate` from starting on this machine: its runner is
/// not on PATH (for the Gradle wrapper: not executable in the repository), or a tool its
/// wrapper starts from PATH is not there. None when it can start. A package tool missing
/// from `node_modules/.bin` is [`uninstalled`]: the command starts, and says so itself.
pub fn unmet(candidate: &Candidate, path: &SearchPath, reader: &mut Reader) -> Option<Unmet> {
    let runner = candidate.runner;
    let starts = match runner {
        Runner::Gradlew => reader
            .tree()
            .is_executable(&join(&candidate.dir, "gradlew")),
        _ => path.has(runner.program()),
    };
    if !starts {
        let program = runner.program();
        let place = if runner == Runner::Gradlew {
            "executable in the repository"
        } else {
            "on PATH"
        };
        return Some(Unmet {
            program: program.to_string(),
            kind: UnmetKind::Runner,
            precondition: format!(
                "needs `{program}` {place}: {}",
                remedy(program, Home::Path, runner)
            ),
        });
    }
    let dir = package_dir(candidate);
    let node = is_node(runner);
    tools(candidate, reader)
        .into_iter()
        .filter(|tool| tool.home == Home::Path)
        .find(|tool| !(path.has(&tool.program) || node && in_node_bin(reader, &dir, &tool.program)))
        .map(|tool| unmet_of(tool, UnmetKind::WrappedTool, "on PATH", runner))
}

/// The tool `candidate`'s package script starts from `node_modules/.bin` that is not
/// installed there (`vitest` before `npm install`), if any.
pub fn uninstalled(candidate: &Candidate, reader: &mut Reader) -> Option<Unmet> {
    let dir = package_dir(candidate);
    tools(candidate, reader)
        .into_iter()
        .filter(|tool| tool.home == Home::NodeBin)
        .find(|tool| !in_node_bin(reader, &dir, &tool.program))
        .map(|tool| {
            unmet_of(
                tool,
                UnmetKind::PackageTool,
                "in node_modules/.bin",
                candidate.runner,
            )
        })
}

fn is_node(runner: Runner) -> bool {
    matches!(
        runner,
        Runner::Npm | Runner::Pnpm | Runner::Yarn | Runner::Bun
    )
}

/// The directory whose `node_modules` a command's package tools come from.
fn package_dir(candidate: &Candidate) -> String {
    if candidate.declared_in.ends_with("package.json") {
        parent(&candidate.declared_in).to_string()
    } else {
        candidate.dir.clone()
    }
}

fn unmet_of(tool: Tool, kind: UnmetKind, place: &str, runner: Runner) -> Unmet {
    Unmet {
        precondition: format!(
            "needs `{}` {place} ({} starts it): {}",
            tool.program,
            tool.via,
            remedy(&tool.program, tool.home, runner)
        ),
        program: tool.program,
        kind,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests_support::tree_with;
    use qa_records::change::CommandScope;

    fn make(files: &[(&str, &str)], run: &str) -> Vec<(String, Home)> {
        let (_d, tree) = tree_with(files);
        let c = Candidate::new(
            Runner::Make,
            run.into(),
            "",
            CommandScope::Suite,
            "Makefile",
        );
        tools(&c, &mut tree.reader())
            .into_iter()
            .map(|t| (t.program, t.home))
            .collect()
    }

    fn programs(tools: Vec<(String, Home)>) -> Vec<String> {
        tools.into_iter().map(|(p, _)| p).collect()
    }

    #[test]
    fn a_recipe_names_the_tools_it_starts_and_not_the_shell_words() {
        let makefile = "test:\n\t@echo testing\n\tcd pkg && go test ./... | tee out.txt\n\t-pytest -q; rm -f x\n";
        assert_eq!(
            programs(make(&[("Makefile", makefile)], "make test")),
            ["go", "pytest"]
        );
    }

    #[test]
    fn a_make_variable_of_the_same_makefile_is_followed_and_an_unknown_one_is_not() {
        let makefile = "GO ?= go\nPY := python3 -m pytest\ntest:\n\t$(GO) test ./...\n\t${PY} -q\n\t$(UNKNOWN) run\n";
        assert_eq!(
            programs(make(&[("Makefile", makefile)], "make test")),
            ["go", "python3"]
        );
    }

    #[test]
    fn one_level_of_make_indirection_and_prerequisites_is_followed_and_no_more() {
        let makefile = "test: unit\n\t$(MAKE) --no-print-directory integration\nunit:\n\tgo test ./...\nintegration:\n\tpytest\n\t$(MAKE) deeper\ndeeper:\n\tcargo test\n";
        assert_eq!(
            programs(make(&[("Makefile", makefile)], "make test")),
            ["go", "pytest"]
        );
    }

    #[test]
    fn a_make_recipe_that_runs_a_package_script_names_its_tool_in_node_modules() {
        let files = [
            ("Makefile", "test:\n\tnpm run unit\n"),
            ("package.json", r#"{"scripts": {"unit": "vitest run"}}"#),
        ];
        assert_eq!(
            make(&files, "make test"),
            [
                ("npm".to_string(), Home::Path),
                ("vitest".to_string(), Home::NodeBin)
            ]
        );
    }

    #[test]
    fn a_symlinked_makefile_is_not_read() {
        let (dir, tree) = tree_with(&[("real.mk", "test:\n\tgo test ./...\n")]);
        std::os::unix::fs::symlink(dir.path().join("real.mk"), dir.path().join("Makefile"))
            .unwrap();
        let c = Candidate::new(
            Runner::Make,
            "make test".into(),
            "",
            CommandScope::Suite,
            "Makefile",
        );
        assert!(tools(&c, &mut tree.reader()).is_empty());
        // Control: the same text in a plain Makefile is read.
        assert_eq!(
            programs(make(
                &[("Makefile", "test:\n\tgo test ./...\n")],
                "make test"
            )),
            ["go"]
        );
    }

    #[test]
    fn a_recipe_line_longer_than_a_build_file_value_is_skipped() {
        let long = format!("test:\n\tgo test {}\n", "x".repeat(MAX_VALUE));
        assert!(make(&[("Makefile", &long)], "make test").is_empty());
    }

    #[test]
    fn a_variable_that_expands_into_itself_is_bounded() {
        let makefile = "A = $(A) $(A)\ntest:\n\t$(A) go\n";
        assert!(make(&[("Makefile", makefile)], "make test").is_empty());
    }

    fn script(scripts: &str, run: &str, script: Option<&str>) -> Vec<(String, Home)> {
        let manifest = format!(r#"{{"scripts": {scripts}, "devDependencies": {{"uvu": "1"}}}}"#);
        let (_d, tree) = tree_with(&[("package.json", manifest.as_str())]);
        let mut c = Candidate::new(
            Runner::Npm,
            run.into(),
            "",
            CommandScope::Package,
            "package.json",
        );
        c.script = script.map(str::to_string);
        tools(&c, &mut tree.reader())
            .into_iter()
            .map(|t| (t.program, t.home))
            .collect()
    }

    #[test]
    fn a_package_script_names_node_tools_in_node_modules_and_runners_on_path() {
        assert_eq!(
            script(
                r#"{"test": "NODE_ENV=test vitest run && go test ./..."}"#,
                "npm test",
                None
            ),
            [
                ("vitest".to_string(), Home::NodeBin),
                ("go".to_string(), Home::Path)
            ]
        );
        assert_eq!(
            script(r#"{"test": "npx --yes mocha"}"#, "npm test", None),
            [("mocha".to_string(), Home::NodeBin)]
        );
    }

    #[test]
    fn one_level_of_npm_run_is_followed_and_no_more() {
        let scripts =
            r#"{"test": "npm run unit", "unit": "uvu tests && npm run deeper", "deeper": "jest"}"#;
        assert_eq!(
            script(scripts, "npm test", None),
            [
                ("npm".to_string(), Home::Path),
                ("uvu".to_string(), Home::NodeBin)
            ]
        );
    }

    #[test]
    fn a_command_that_execs_a_tool_names_that_tool_not_the_script() {
        assert_eq!(
            script(r#"{"test": "jest"}"#, "npx --no vitest run a.test.ts", None),
            [("vitest".to_string(), Home::NodeBin)]
        );
    }

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

    fn path_with(programs: &[&str]) -> (tempfile::TempDir, SearchPath) {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        for p in programs {
            let file = dir.path().join(p);
            std::fs::write(&file, "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let path = SearchPath::new(dir.path().as_os_str());
        (dir, path)
    }

    #[test]
    fn a_make_wrapper_around_a_missing_go_is_unmet_naming_go_and_its_recipe() {
        let (_d, tree) = tree_with(&[("Makefile", "GO ?= go\ntest:\n\t$(GO) test ./...\n")]);
        let c = Candidate::new(
            Runner::Make,
            "make test".into(),
            "",
            CommandScope::Suite,
            "Makefile",
        );
        let (_p, path) = path_with(&["make"]);
        let unmet = unmet(&c, &path, &mut tree.reader()).unwrap();
        assert_eq!(unmet.kind, UnmetKind::WrappedTool);
        assert_eq!(
            unmet.precondition,
            "needs `go` on PATH (the `test` recipe of `Makefile` starts it): install Go"
        );
        // Control: with go on PATH nothing is unmet.
        let (_p, path) = path_with(&["make", "go"]);
        assert_eq!(super::unmet(&c, &path, &mut tree.reader()), None);
    }

    #[test]
    fn a_missing_runner_is_unmet_before_its_wrapper_is_read() {
        let (_d, tree) = tree_with(&[("pyproject.toml", "")]);
        let c = Candidate::new(
            Runner::Pytest,
            "pytest".into(),
            "",
            CommandScope::Suite,
            "pyproject.toml",
        );
        let (_p, path) = path_with(&[]);
        let unmet = unmet(&c, &path, &mut tree.reader()).unwrap();
        assert_eq!(unmet.kind, UnmetKind::Runner);
        assert_eq!(
            unmet.precondition,
            "needs `pytest` on PATH: activate the project's virtual environment"
        );
    }

    #[test]
    fn a_script_tool_missing_from_node_modules_is_unmet_and_an_installed_one_is_not() {
        let files = [("package.json", r#"{"scripts": {"test": "vitest run"}}"#)];
        let (dir, tree) = tree_with(&files);
        let c = Candidate::new(
            Runner::Npm,
            "npm test".into(),
            "",
            CommandScope::Package,
            "package.json",
        );
        let (_p, path) = path_with(&["npm"]);
        // npm starts: the script says itself what it lacks, once run.
        assert_eq!(super::unmet(&c, &path, &mut tree.reader()), None);
        let unmet = uninstalled(&c, &mut tree.reader()).unwrap();
        assert_eq!(unmet.kind, UnmetKind::PackageTool);
        assert_eq!(
            unmet.precondition,
            "needs `vitest` in node_modules/.bin (the `test` script of `package.json` starts it): run `npm install` first"
        );
        std::fs::create_dir_all(dir.path().join("node_modules/.bin")).unwrap();
        std::fs::write(dir.path().join("node_modules/.bin/vitest"), "").unwrap();
        assert_eq!(uninstalled(&c, &mut tree.reader()), None);
    }
}
