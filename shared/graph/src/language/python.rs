//! Python: `import a.b` and `from a.b import c` (relative forms too), resolved to modules
//! and packages (`__init__.py`) under the repository root, `src/`, and every directory
//! holding a pyproject.toml, setup.py or setup.cfg, with its `src/` layout and the
//! package directories its pyproject.toml names (setuptools `where` and `package-dir`,
//! Poetry `from`); `def` and `class` names as symbols (imports from a syntax tree, names from the text).

use super::{symbols, Language, Lines, Parsed, RawImport};
use crate::tree::{file_name, join, normalize, parent, Snapshot};
use qa_records::change::Confidence;
use qa_records::code_pattern;
use qa_records::graph::Support;
use qa_syntax::Grammar;
use regex::Regex;
use std::sync::LazyLock;

pub const EXTENSIONS: &[&str] = &["py"];

/// Python, for the language layer.
pub struct Python;

impl Language for Python {
    const ID: &'static str = "python";
    const NAME: &'static str = "Python";
    const EXTENSIONS: &'static [&'static str] = EXTENSIONS;
    /// Structural: module imports are resolved, calls into them are not followed.
    const SUPPORT: Support = Support::Structural;
    type Tree = Roots;

    fn read_tree(snapshot: &Snapshot) -> Roots {
        Roots::of(snapshot)
    }

    fn parse(_path: &str, text: &str) -> Parsed {
        parse(text)
    }

    fn resolve(
        roots: &Roots,
        snapshot: &Snapshot,
        from: &str,
        raw: &RawImport,
    ) -> Vec<(String, Confidence)> {
        roots
            .resolve(snapshot, from, raw)
            .into_iter()
            .map(|p| (p, Confidence::High))
            .collect()
    }
}

/// Directories absolute imports start from.
#[derive(Debug)]
pub struct Roots {
    dirs: Vec<String>,
}

impl Roots {
    pub fn of(snapshot: &Snapshot) -> Roots {
        let mut dirs = vec![String::new(), "src".to_string()];
        for path in snapshot.files.keys() {
            let name = file_name(path);
            if matches!(name, "pyproject.toml" | "setup.py" | "setup.cfg") {
                let dir = parent(path);
                let declared = match name {
                    "pyproject.toml" => snapshot
                        .text(path)
                        .map(|t| package_roots(&t))
                        .unwrap_or_default(),
                    _ => Vec::new(),
                };
                let declared = declared.iter().filter_map(|d| normalize(dir, d));
                for d in [dir.to_string(), join(dir, "src")]
                    .into_iter()
                    .chain(declared)
                {
                    if !dirs.contains(&d) {
                        dirs.push(d);
                    }
                }
            }
        }
        Roots { dirs }
    }

    /// The files an import names: the module, and for `from m import x` the submodule
    /// `m/x` when `x` is one.
    pub fn resolve(&self, snapshot: &Snapshot, from: &str, raw: &RawImport) -> Vec<String> {
        let dots = raw.spec.chars().take_while(|c| *c == '.').count();
        let dotted = &raw.spec[dots..];
        let bases: Vec<String> = if dots > 0 {
            let mut dir = parent(from).to_string();
            for _ in 1..dots {
                if dir.is_empty() {
                    return Vec::new();
                }
                dir = parent(&dir).to_string();
            }
            vec![dir]
        } else {
            self.dirs.clone()
        };
        let rel = dotted.replace('.', "/");
        let mut found = Vec::new();
        for base in &bases {
            let module = if rel.is_empty() {
                base.clone()
            } else {
                join(base, &rel)
            };
            let mut hit = false;
            for name in &raw.names {
                if let Some(sub) = module_file(snapshot, &join(&module, name)) {
                    found.push(sub);
                    hit = true;
                }
            }
            if let Some(file) = module_file(snapshot, &module) {
                found.push(file);
                hit = true;
            }
            if hit {
                break;
            }
        }
        found.sort();
        found.dedup();
        found
    }
}

static WHERE: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r#"(?m)^[ \t]*where[ \t]*=[ \t]*\[([^\]]*)\]"#));
static ROOT_PACKAGE_DIR: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(r#"(?m)^[ \t]*package-dir[ \t]*=[ \t]*\{[^}]*?""[ \t]*=[ \t]*"([^"]+)""#)
});
static POETRY_FROM: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r#"\bfrom[ \t]*=[ \t]*"([^"]+)""#));
static QUOTED: LazyLock<Regex> = LazyLock::new(|| code_pattern::regex(r#""([^"]+)""#));

/// The directories a pyproject.toml says its packages are found under, relative to it:
/// setuptools `where = [...]` and `package-dir = {"" = ...}`, Poetry `from = ...`.
fn package_roots(text: &str) -> Vec<String> {
    let mut roots: Vec<String> = WHERE
        .captures_iter(text)
        .flat_map(|c| {
            QUOTED
                .captures_iter(c.get(1).map_or("", |m| m.as_str()))
                .map(|q| q[1].to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    roots.extend(
        ROOT_PACKAGE_DIR
            .captures_iter(text)
            .map(|c| c[1].to_string()),
    );
    roots.extend(POETRY_FROM.captures_iter(text).map(|c| c[1].to_string()));
    roots
}

/// `m.py`, or the package `m/__init__.py`.
pub fn module_file(snapshot: &Snapshot, module: &str) -> Option<String> {
    if module.is_empty() {
        return None;
    }
    [format!("{module}.py"), format!("{module}/__init__.py")]
        .into_iter()
        .find(|p| snapshot.has(p))
}

static DEFINITION: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r"(?m)^(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)"));

/// Imports and top-level definitions of one module. The imports come from qa-syntax's
/// tree of the module up to its last `import` line (any depth: a function's own import
/// too); the definitions are still read from the text, as their tree would cost a parse
/// of the whole module.
pub fn parse(text: &str) -> Parsed {
    let lines = Lines::new(text);
    let imports = qa_syntax::imports(Grammar::Python, text)
        .into_iter()
        .map(RawImport::from)
        .collect();
    let symbols = symbols(&DEFINITION, text, &lines);
    Parsed { imports, symbols }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_import_statements_are_read_with_their_names() {
        let parsed = parse("import os, shop.db as db\nfrom .pricing import (\n    total,\n    tax,\n)\nfrom . import models\n");
        let got: Vec<(&str, &[String])> = parsed
            .imports
            .iter()
            .map(|i| (i.spec.as_str(), i.names.as_slice()))
            .collect();
        assert_eq!(got[0].0, "os");
        assert_eq!(got[1], ("shop.db", &["db".to_string()][..]));
        assert_eq!(got[2].0, ".pricing");
        assert_eq!(got[2].1, ["total", "tax"]);
        assert_eq!(got[3], (".", &["models".to_string()][..]));
    }

    #[test]
    fn an_import_in_a_docstring_is_no_edge_a_function_level_one_is() {
        let parsed = parse("\"\"\"\nimport shop.fake\n\"\"\"\nimport os\n\n\ndef f():\n    from shop import late\n");
        let specs: Vec<&str> = parsed.imports.iter().map(|i| i.spec.as_str()).collect();
        assert_eq!(specs, ["os", "shop"]);
    }

    #[test]
    fn package_roots_are_read_from_setuptools_and_poetry_tables() {
        let text = "[tool.setuptools.packages.find]\nwhere = [\"lib\", \"plugins\"]\n\n[tool.setuptools]\npackage-dir = {\"\" = \"code\"}\n\n[tool.poetry]\npackages = [{ include = \"shop\", from = \"app\" }]\n";
        assert_eq!(package_roots(text), ["lib", "plugins", "code", "app"]);
        assert!(package_roots("[project]\nname = \"x\"\n").is_empty());
    }

    #[test]
    fn top_level_definitions_are_symbols_nested_ones_are_not() {
        let parsed =
            parse("def handler():\n    def inner():\n        pass\nclass Cart:\n    pass\n");
        let names: Vec<&str> = parsed.symbols.iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["handler", "Cart"]);
    }
}
