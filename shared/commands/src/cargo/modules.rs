//! Which target of a package a Rust source file is compiled into, and its module path
//! there: the `mod` declarations read from the target's root down, and the inline
//! `mod tests { ... }` blocks that enclose a test function.

use super::package::{Package, Target};
use crate::tree::{join, parent, under, Reader};
use regex::Regex;
use std::sync::LazyLock;

/// A file's place in one target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed<'p> {
    pub target: &'p Target,
    /// Module path from the crate root (`walk`, `json`, `a::b`); empty for the root.
    pub module: Vec<String>,
}

/// The targets `file` is compiled into, with its module path in each: the target whose
/// root it is, else every target whose `mod` chain reaches it (library first). Empty when
/// no target declares it (a fixture, a file behind a `#[path]` attribute).
pub fn place<'p>(reader: &mut Reader, package: &'p Package, file: &str) -> Vec<Placed<'p>> {
    if let Some(target) = package.targets.iter().find(|t| t.root == file) {
        return vec![Placed {
            target,
            module: Vec::new(),
        }];
    }
    let mut order: Vec<&Target> = package.targets.iter().collect();
    order.sort_by_key(|t| t.kind);
    order
        .into_iter()
        .filter_map(|target| {
            let module = module_path(reader, &target.root, file)?;
            Some(Placed { target, module })
        })
        .collect()
}

/// The module path of `file` under the crate root `root`, when every module on the way
/// declares the next (`mod json;` in the root, `mod b;` in `a.rs` or `a/mod.rs`).
fn module_path(reader: &mut Reader, root: &str, file: &str) -> Option<Vec<String>> {
    let rel = under(file, parent(root))?.strip_suffix(".rs")?;
    let mut segments: Vec<String> = rel.split('/').map(str::to_string).collect();
    if segments.last().is_some_and(|s| s == "mod") {
        segments.pop();
    }
    if segments.is_empty() || segments.iter().any(|s| !is_ident(s)) {
        return None;
    }
    let mut declaring = root.to_string();
    for (i, segment) in segments.iter().enumerate() {
        let text = reader.read(&declaring)?;
        if !declares(&text.text, segment) {
            return None;
        }
        // The next declaring file: `a/b.rs` or `a/b/mod.rs` below the root's directory.
        let stem = join(parent(root), &segments[..=i].join("/"));
        let flat = format!("{stem}.rs");
        declaring = if reader.tree().is_file(&flat) {
            flat
        } else {
            join(&stem, "mod.rs")
        };
    }
    Some(segments)
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// True when `text` declares an out-of-line `mod name;` (any visibility, attributes on
/// lines of their own).
fn declares(text: &str, name: &str) -> bool {
    static MOD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([A-Za-z_][A-Za-z0-9_]*)\s*;")
            .expect("valid")
    });
    MOD.captures_iter(text).any(|c| &c[1] == name)
}

/// The inline modules enclosing line `line` (1-based) of `text`, outermost first:
/// `["tests"]` for a test inside `#[cfg(test)] mod tests { ... }`. Read from indentation
/// and closing braces, as rustfmt lays them out.
pub fn inline_modules(text: &str, line: u32) -> Vec<String> {
    static OPEN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(\s*)(?:pub(?:\([^)]*\))?\s+)?mod\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{\s*$")
            .expect("valid")
    });
    let mut open: Vec<(usize, String)> = Vec::new();
    for l in text.lines().take(line.saturating_sub(1) as usize) {
        let indent = l.len() - l.trim_start().len();
        if let Some(c) = OPEN.captures(l) {
            open.push((c[1].len(), c[2].to_string()));
        } else if l.trim_start().starts_with('}') {
            open.retain(|(i, _)| *i < indent);
        }
    }
    open.into_iter().map(|(_, name)| name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests_support::tree_with;

    fn placed(files: &[(&str, &str)], dir: &str, file: &str) -> Vec<(String, String)> {
        let (_d, tree) = tree_with(files);
        let mut reader = tree.reader();
        let package = Package::read(&mut reader, dir).unwrap();
        place(&mut reader, &package, file)
            .into_iter()
            .map(|p| (p.target.name.clone(), p.module.join("::")))
            .collect()
    }

    const INTEGRATION: &[(&str, &str)] = &[
        (
            "Cargo.toml",
            "[package]\nname = \"rg\"\nautotests = false\n[[test]]\nname = \"integration\"\npath = \"tests/tests.rs\"\n",
        ),
        ("src/main.rs", "mod search;\n"),
        ("src/search.rs", "mod sink;\n"),
        ("src/search/sink.rs", ""),
        ("src/orphan.rs", ""),
        ("tests/tests.rs", "#[macro_use]\nmod macros;\n\nmod json;\npub(crate) mod util;\n"),
        ("tests/json.rs", ""),
        ("tests/macros.rs", ""),
        ("tests/util/mod.rs", ""),
        ("tests/data/sherlock.rs", ""),
    ];

    #[test]
    fn a_module_of_an_integration_target_is_placed_in_that_target() {
        assert_eq!(
            placed(INTEGRATION, "", "tests/json.rs"),
            [("integration".to_string(), "json".to_string())]
        );
        assert_eq!(
            placed(INTEGRATION, "", "tests/util/mod.rs"),
            [("integration".to_string(), "util".to_string())]
        );
    }

    #[test]
    fn a_file_under_tests_that_no_target_declares_is_placed_nowhere() {
        assert!(placed(INTEGRATION, "", "tests/data/sherlock.rs").is_empty());
    }

    #[test]
    fn nested_modules_are_followed_through_their_parent_file() {
        assert_eq!(
            placed(INTEGRATION, "", "src/search/sink.rs"),
            [("rg".to_string(), "search::sink".to_string())]
        );
    }

    #[test]
    fn an_undeclared_source_file_is_placed_nowhere() {
        assert!(placed(INTEGRATION, "", "src/orphan.rs").is_empty());
    }

    #[test]
    fn a_target_root_is_placed_at_the_crate_root() {
        assert_eq!(
            placed(INTEGRATION, "", "tests/tests.rs"),
            [("integration".to_string(), String::new())]
        );
    }

    #[test]
    fn a_module_shared_by_auto_discovered_tests_is_placed_in_each_that_declares_it() {
        let files = &[
            ("Cargo.toml", "[package]\nname = \"a\"\n"),
            ("tests/one.rs", "mod common;\n"),
            ("tests/two.rs", "mod common;\n"),
            ("tests/three.rs", "// mod common;\n"),
            ("tests/common/mod.rs", ""),
        ];
        assert_eq!(
            placed(files, "", "tests/common/mod.rs"),
            [
                ("one".to_string(), "common".to_string()),
                ("two".to_string(), "common".to_string())
            ]
        );
    }

    #[test]
    fn inline_modules_enclosing_a_line_are_read_from_indentation() {
        let text = "fn a() {}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    mod inner {\n        #[test]\n        fn deep() {}\n    }\n\n    #[test]\n    fn shallow() {}\n}\n\nfn after() {}\n";
        assert_eq!(inline_modules(text, 9), ["tests", "inner"]);
        assert_eq!(inline_modules(text, 13), ["tests"]);
        assert!(inline_modules(text, 16).is_empty());
        assert!(inline_modules(text, 1).is_empty());
    }
}
