//! Go: package imports inside a go.mod module path (or a `replace` of the importing
//! module pointing at a directory of the tree), resolved to every non-test file of the
//! imported package's directory (Go imports packages, not files); `func` and `type`
//! names as symbols (imports from a syntax tree, names from the text).

use super::{symbols, Language, Lines, Parsed, RawImport};
use crate::tree::{join, normalize, parent, Snapshot};
use qa_records::change::Confidence;
use qa_records::code_pattern;
use qa_records::graph::Support;
use qa_syntax::Grammar;
use regex::Regex;
use std::collections::BTreeMap;
use std::sync::LazyLock;

pub const EXTENSIONS: &[&str] = &["go"];

/// Go, for the language layer.
pub struct Go;

impl Language for Go {
    const ID: &'static str = "go";
    const NAME: &'static str = "Go";
    const EXTENSIONS: &'static [&'static str] = EXTENSIONS;
    /// Structural: package imports are resolved to directories, calls are not followed.
    const SUPPORT: Support = Support::Structural;
    type Tree = Modules;

    fn read_tree(snapshot: &Snapshot) -> Modules {
        Modules::read(snapshot)
    }

    fn parse(_path: &str, text: &str) -> Parsed {
        parse(text)
    }

    fn resolve(
        modules: &Modules,
        snapshot: &Snapshot,
        from: &str,
        raw: &RawImport,
    ) -> Vec<(String, Confidence)> {
        modules
            .package_dir(from, &raw.spec)
            .map(|dir| package_files(snapshot, &dir))
            .unwrap_or_default()
            .into_iter()
            .map(|p| (p, Confidence::High))
            .collect()
    }
}

static MODULE: LazyLock<Regex> = LazyLock::new(|| code_pattern::regex(r"(?m)^module\s+(\S+)"));

/// The go.mod modules of the tree and the directory replacements each declares.
#[derive(Debug, Default)]
pub struct Modules {
    /// (module path, directory), longest path first.
    paths: Vec<(String, String)>,
    /// By the directory of the go.mod declaring them: (replaced module path, directory
    /// of the tree it is replaced by), longest path first. A replacement applies to the
    /// builds of its own module only.
    replaces: BTreeMap<String, Vec<(String, String)>>,
}

impl Modules {
    pub fn read(snapshot: &Snapshot) -> Modules {
        let mut replaces = BTreeMap::new();
        for path in snapshot.named("go.mod") {
            let Some(text) = snapshot.text(path) else {
                continue;
            };
            let dir = parent(path);
            let mut found = directory_replaces(&text, dir);
            found.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.cmp(b)));
            if !found.is_empty() {
                replaces.insert(dir.to_string(), found);
            }
        }
        Modules {
            paths: modules(snapshot),
            replaces,
        }
    }

    /// The directory of the package `import_path` as the file `from` imports it: through
    /// a replacement of the module holding `from`, else a module of the tree.
    pub fn package_dir(&self, from: &str, import_path: &str) -> Option<String> {
        let holding = self
            .replaces
            .keys()
            .filter(|dir| dir.is_empty() || from.starts_with(&format!("{dir}/")))
            .max_by_key(|dir| dir.len());
        holding
            .and_then(|dir| package_dir(&self.replaces[dir], import_path))
            .or_else(|| package_dir(&self.paths, import_path))
    }
}

/// The go.mod modules of the tree: (module path, directory), longest path first.
pub fn modules(snapshot: &Snapshot) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = snapshot
        .named("go.mod")
        .filter_map(|path| {
            let module = MODULE.captures(&snapshot.text(path)?)?[1].to_string();
            Some((module, parent(path).to_string()))
        })
        .collect();
    found.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.cmp(b)));
    found
}

/// The `replace` directives of a go.mod in `dir` whose replacement is a directory
/// (`=> ../y`, `=> ./forks/y`), as (module path, tree directory); a replacement by
/// another module version, or one outside the repository, is left out.
fn directory_replaces(text: &str, dir: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or(line).trim();
        let directive = if in_block {
            if line.starts_with(')') {
                in_block = false;
                continue;
            }
            line
        } else if let Some(rest) = line.strip_prefix("replace") {
            let rest = rest.trim();
            if rest.starts_with('(') {
                in_block = true;
                continue;
            }
            rest
        } else {
            continue;
        };
        let Some((old, new)) = directive.split_once("=>") else {
            continue;
        };
        let Some(module) = old.split_whitespace().next() else {
            continue;
        };
        let mut target = new.split_whitespace();
        let (Some(path), None) = (target.next(), target.next()) else {
            continue;
        };
        if !(path.starts_with("./") || path.starts_with("../")) {
            continue;
        }
        if let Some(replacement) = normalize(dir, path) {
            found.push((module.to_string(), replacement));
        }
    }
    found
}

/// The directory of the package `import_path`, when a module of the tree holds it.
pub fn package_dir(modules: &[(String, String)], import_path: &str) -> Option<String> {
    modules.iter().find_map(|(module, dir)| {
        let rest = import_path.strip_prefix(module.as_str())?;
        match rest {
            "" => Some(dir.clone()),
            _ => rest.strip_prefix('/').map(|sub| join(dir, sub)),
        }
    })
}

/// The non-test Go files of one package directory.
pub fn package_files(snapshot: &Snapshot, dir: &str) -> Vec<String> {
    snapshot
        .files_in(dir)
        .filter(|p| p.ends_with(".go") && !p.ends_with("_test.go"))
        .map(str::to_string)
        .collect()
}

static DECLARATION: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(r"(?m)^(?:func|type)[ \t]+(?:\([^)]*\)[ \t]*)?([A-Za-z_]\w*)")
});

/// Imports (single and grouped) and top-level `func`/`type` names of one file. The
/// imports come from qa-syntax's tree of the file's head (Go allows them nowhere else);
/// the names are still read from the text, as a tree of every body would cost a parse of
/// the whole file.
pub fn parse(text: &str) -> Parsed {
    let lines = Lines::new(text);
    let imports = qa_syntax::imports(Grammar::Go, text)
        .into_iter()
        .map(RawImport::from)
        .collect();
    let symbols = symbols(&DECLARATION, text, &lines);
    Parsed { imports, symbols }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_and_grouped_imports_are_read() {
        let text = "package main\n\nimport \"fmt\"\nimport (\n\t\"example.com/shop/util\"\n\tdb \"example.com/shop/db\"\n)\n\nfunc main() {}\n";
        let parsed = parse(text);
        let got: Vec<(&str, u32)> = parsed
            .imports
            .iter()
            .map(|i| (i.spec.as_str(), i.line))
            .collect();
        assert_eq!(
            got,
            [
                ("fmt", 3),
                ("example.com/shop/util", 5),
                ("example.com/shop/db", 6)
            ]
        );
        assert_eq!(parsed.symbols.iter().collect::<Vec<_>>(), [("main", 9)]);
    }

    #[test]
    fn an_import_in_a_raw_string_or_a_comment_is_no_edge() {
        let text = "package main\n\nimport (\n\t\"fmt\" // (stdout)\n\t\"os\"\n)\n\n// import \"gone\"\nvar usage = `\nimport \"quoted\"\n`\n";
        let parsed = parse(text);
        let specs: Vec<&str> = parsed.imports.iter().map(|i| i.spec.as_str()).collect();
        assert_eq!(specs, ["fmt", "os"]);
    }

    #[test]
    fn only_directory_replacements_inside_the_repository_are_kept() {
        let gomod = "module example.com/a\n\nreplace example.com/b => ../b\nreplace (\n\texample.com/c v1.0.0 => ./forks/c // fork\n\texample.com/d => example.com/d2 v1.2.0\n)\nreplace example.com/e => ../../outside/e\n";
        assert_eq!(
            directory_replaces(gomod, "a"),
            [
                ("example.com/b".to_string(), "b".to_string()),
                ("example.com/c".to_string(), "a/forks/c".to_string()),
            ]
        );
    }

    #[test]
    fn only_paths_inside_a_module_have_a_directory() {
        let modules = vec![("example.com/shop".to_string(), String::new())];
        assert_eq!(
            package_dir(&modules, "example.com/shop/util"),
            Some("util".to_string())
        );
        assert_eq!(package_dir(&modules, "example.com/shopping"), None);
        assert_eq!(package_dir(&modules, "fmt"), None);
    }
}
