//! Repository adapters: the commands a repository declares in its manifests
//! (package.json `bin`, Cargo binaries, pyproject scripts, Go `main` packages), each a
//! command node with an entrypoint edge to the file it starts in; its tests and the
//! fixtures they use ([`assertions`]); the flows of its reviewed manifest ([`flows`]).

pub mod assertions;
pub mod flows;

use crate::adapter::{holds, Adapter, Context, Detection, Layer, TextTest};
use crate::language::{go, python, rust, typescript};
use crate::model::{Edge, Fragment, Located, Node, NodeKey};
use crate::tree::{file_name, join, normalize, parent, Snapshot};
use anyhow::Context as _;
use git2::Oid;
use qa_records::change::Confidence;
use qa_records::code_pattern;
use qa_records::graph::{EdgeKind, NodeKind, Support};
use regex::Regex;
use std::sync::LazyLock;

/// The declared-commands repository adapter.
#[derive(Debug)]
pub struct Commands {
    go_mains: TextTest,
}

impl Default for Commands {
    fn default() -> Commands {
        Commands {
            go_mains: go_mains(),
        }
    }
}

/// Go files of a `main` package declaring `func main(`, for [`declared`].
pub fn go_mains() -> TextTest {
    TextTest::new(go::EXTENSIONS, |t| {
        holds(t, "package main") && holds(t, "func main(")
    })
}

fn is_command_manifest(path: &str) -> bool {
    matches!(
        file_name(path),
        "package.json" | "Cargo.toml" | "pyproject.toml" | "go.mod"
    )
}

impl Adapter for Commands {
    fn id(&self) -> &'static str {
        "commands"
    }

    fn layer(&self) -> Layer {
        Layer::Repository
    }

    fn support(&self) -> Support {
        Support::Structural
    }

    fn detect(&self, snapshot: &Snapshot) -> Detection {
        match snapshot.files.keys().find(|p| is_command_manifest(p)) {
            Some(path) => Detection::Accept(format!("{path} may declare commands")),
            None => Detection::Decline(
                "no package.json, Cargo.toml, pyproject.toml or go.mod".to_string(),
            ),
        }
    }

    fn analyze(&self, cx: &Context) -> anyhow::Result<Fragment> {
        let found = declared(cx.snapshot, &self.go_mains)?;
        let mut fragment = Fragment::default();
        for command in found {
            let node = NodeKey::new(NodeKind::Command, &command.name);
            fragment.nodes.push(Node::new(
                node.clone(),
                Confidence::High,
                command.declared.clone(),
            ));
            for file in command.files {
                fragment.edges.push(Edge::new(
                    EdgeKind::Entrypoint,
                    node.clone(),
                    NodeKey::file(file),
                    command.declared.clone(),
                    Confidence::High,
                ));
            }
        }
        Ok(fragment)
    }

    fn look(&self, path: &str, blob: Oid, text: &str) {
        self.go_mains.look(path, blob, text);
    }
}

/// The commands the manifests of `snapshot` declare (`go_mains` from [`go_mains`]). A
/// broken package.json is an error: which commands the repository has cannot be told.
pub fn declared(snapshot: &Snapshot, go_mains: &TextTest) -> anyhow::Result<Vec<Declared>> {
    let mut found = Vec::new();
    for path in snapshot.files.keys().filter(|p| is_command_manifest(p)) {
        let text = snapshot.text(path).unwrap_or_default();
        match file_name(path) {
            "package.json" => npm_bins(snapshot, path, &text, &mut found)?,
            "Cargo.toml" => cargo_bins(snapshot, path, &text, &mut found),
            "pyproject.toml" => python_scripts(snapshot, path, &text, &mut found),
            _ => go_main_packages(snapshot, path, go_mains, &mut found),
        }
    }
    Ok(found)
}

/// A declared command and the files it starts in.
#[derive(Debug, Clone)]
pub struct Declared {
    pub name: String,
    pub declared: Located,
    pub files: Vec<String>,
}

/// The line of `needle` in `text` (1 when absent: the manifest as a whole).
fn line_of(text: &str, needle: &str) -> u32 {
    text.find(needle)
        .map_or(1, |i| 1 + text[..i].matches('\n').count() as u32)
}

/// package.json `bin`: a string (the package's name) or an object of names. A broken
/// package.json fails this adapter: it cannot tell which commands the repository has.
fn npm_bins(
    snapshot: &Snapshot,
    path: &str,
    text: &str,
    out: &mut Vec<Declared>,
) -> anyhow::Result<()> {
    let json: serde_json::Value =
        serde_json::from_str(text).with_context(|| format!("{path} is not valid JSON"))?;
    let dir = parent(path);
    let package = json
        .get("name")
        .and_then(|n| n.as_str())
        .unwrap_or(file_name(dir));
    let unscoped = package.rsplit('/').next().unwrap_or(package);
    let bins: Vec<(String, String)> = match json.get("bin") {
        Some(serde_json::Value::String(file)) => vec![(unscoped.to_string(), file.clone())],
        Some(serde_json::Value::Object(map)) => map
            .iter()
            .filter_map(|(name, file)| Some((name.clone(), file.as_str()?.to_string())))
            .collect(),
        _ => Vec::new(),
    };
    for (name, file) in bins {
        let Some(base) = normalize(dir, &file) else {
            continue;
        };
        let source = typescript::probe_source(snapshot, &base);
        out.push(Declared {
            declared: Located::new(path, line_of(text, &format!("\"{name}\""))),
            name,
            files: source.into_iter().collect(),
        });
    }
    Ok(())
}

static CARGO_BIN: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r#"(?ms)^\[\[bin\]\]\s*\n(.*?)(?:^\[|\z)"#));
static TOML_STRING: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r#"(?m)^\s*(name|path)\s*=\s*"([^"]+)""#));

/// `src/main.rs` (the package's name), `src/bin/*.rs` and `[[bin]]` tables.
fn cargo_bins(snapshot: &Snapshot, path: &str, text: &str, out: &mut Vec<Declared>) {
    let dir = parent(path);
    let package = rust::PACKAGE_NAME.captures(text).map(|c| c[1].to_string());
    let mut add = |name: String, file: String, line: u32| {
        if snapshot.has(&file) && !out.iter().any(|d| d.name == name) {
            out.push(Declared {
                name,
                declared: Located::new(path, line),
                files: vec![file],
            });
        }
    };
    for table in CARGO_BIN.captures_iter(text) {
        let mut name = None;
        let mut file = None;
        for kv in TOML_STRING.captures_iter(&table[1]) {
            match &kv[1] {
                "name" => name = Some(kv[2].to_string()),
                _ => file = Some(kv[2].to_string()),
            }
        }
        if let Some(name) = name {
            let file = file.unwrap_or_else(|| format!("src/bin/{name}.rs"));
            let line = line_of(text, &format!("\"{name}\""));
            add(name, join(dir, &file), line);
        }
    }
    if let Some(package) = package {
        let line = line_of(text, "[package]");
        add(package, join(dir, "src/main.rs"), line);
    }
    let bin_dir = join(dir, "src/bin");
    for file in snapshot.files_in(&bin_dir) {
        if let Some(stem) = file_name(file).strip_suffix(".rs") {
            add(stem.to_string(), file.to_string(), 1);
        }
    }
}

static SCRIPTS: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(r"(?ms)^\[(?:project\.scripts|tool\.poetry\.scripts)\]\s*\n(.*?)(?:^\[|\z)")
});
static SCRIPT: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r#"(?m)^\s*"?([\w.-]+)"?\s*=\s*"([\w.]+)(?::\w+)?""#));

/// `[project.scripts]` / `[tool.poetry.scripts]`: `name = "pkg.module:func"`.
fn python_scripts(snapshot: &Snapshot, path: &str, text: &str, out: &mut Vec<Declared>) {
    let dir = parent(path);
    for table in SCRIPTS.captures_iter(text) {
        for script in SCRIPT.captures_iter(&table[1]) {
            let module = script[2].replace('.', "/");
            let file = [join(dir, &module), join(&join(dir, "src"), &module)]
                .iter()
                .find_map(|m| python::module_file(snapshot, m));
            out.push(Declared {
                name: script[1].to_string(),
                declared: Located::new(path, line_of(text, &script[0])),
                files: file.into_iter().collect(),
            });
        }
    }
}

/// Every directory of the module holding a `package main` file with `func main(`: the
/// command is named after the directory (the module's last segment at its root).
fn go_main_packages(snapshot: &Snapshot, path: &str, go_mains: &TextTest, out: &mut Vec<Declared>) {
    let dir = parent(path);
    let module = go::modules(snapshot)
        .into_iter()
        .find(|(_, d)| d == dir)
        .map(|(m, _)| m);
    let mut mains: Vec<&str> = snapshot
        .files_under(dir)
        .filter(|p| p.ends_with(".go") && !p.ends_with("_test.go"))
        .filter(|p| go_mains.passes(snapshot, p))
        .collect();
    mains.sort();
    for main in mains {
        let pkg_dir = parent(main);
        let name = if pkg_dir == dir {
            module
                .as_deref()
                .map_or(file_name(dir), |m| m.rsplit('/').next().unwrap_or(m))
        } else {
            file_name(pkg_dir)
        };
        out.push(Declared {
            name: name.to_string(),
            declared: Located::new(
                main,
                line_of(&snapshot.text(main).unwrap_or_default(), "func main("),
            ),
            files: go::package_files(snapshot, pkg_dir),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_declarations_count_from_one() {
        assert_eq!(
            line_of("{\n  \"bin\": {\n    \"shop\": \"cli.js\"", "\"shop\""),
            3
        );
        assert_eq!(line_of("x", "absent"), 1);
    }
}
