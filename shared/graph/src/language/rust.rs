//! Rust: `mod x;` declarations and `use crate::`/`super::`/`self::` paths resolved to
//! module files, and `use other_crate::` for the crates of the tree a package depends on
//! (see [`super::cargo`]); `fn`, `struct`, `enum`, `union` and `trait` names as symbols.

use super::cargo::Crates;
use super::{Language, Parsed, RawImport};
use crate::tree::{file_name, join, parent, Snapshot};
use qa_records::change::Confidence;
use qa_records::code_pattern;
use qa_records::graph::Support;
use qa_syntax::{Grammar, SymbolKind};
use regex::Regex;
use std::sync::LazyLock;

pub const EXTENSIONS: &[&str] = &["rs"];

/// Rust, for the language layer.
pub struct Rust;

impl Language for Rust {
    const ID: &'static str = "rust";
    const NAME: &'static str = "Rust";
    const EXTENSIONS: &'static [&'static str] = EXTENSIONS;
    /// Structural: module files are resolved, items and calls are not.
    const SUPPORT: Support = Support::Structural;
    type Tree = Crates;

    fn read_tree(snapshot: &Snapshot) -> Crates {
        Crates::read(snapshot)
    }

    fn parse(_path: &str, text: &str) -> Parsed {
        parse(text)
    }

    fn resolve(
        crates: &Crates,
        snapshot: &Snapshot,
        from: &str,
        raw: &RawImport,
    ) -> Vec<(String, Confidence)> {
        resolve(snapshot, crates, from, raw)
            .into_iter()
            .map(|p| (p, Confidence::High))
            .collect()
    }
}

/// The `[package]` name of a Cargo.toml.
pub static PACKAGE_NAME: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r#"(?ms)^\[package\].*?^name\s*=\s*"([^"]+)""#));

/// The directory a file's child modules live in: `src/` for `src/lib.rs`, `src/a/` for
/// `src/a.rs` and `src/a/mod.rs`.
fn module_dir(file: &str) -> String {
    match file_name(file) {
        "lib.rs" | "main.rs" | "mod.rs" => parent(file).to_string(),
        name => join(parent(file), name.trim_end_matches(".rs")),
    }
}

/// The file of the module whose children live in `dir`.
fn module_of_dir(snapshot: &Snapshot, dir: &str) -> Option<String> {
    [
        format!("{dir}.rs"),
        join(dir, "mod.rs"),
        join(dir, "lib.rs"),
        join(dir, "main.rs"),
    ]
    .into_iter()
    .find(|p| snapshot.has(p))
}

/// The `src` dir of the crate holding `file`.
fn crate_src(snapshot: &Snapshot, file: &str) -> Option<String> {
    let mut dir = parent(file);
    loop {
        if snapshot.has(&join(dir, "Cargo.toml")) {
            return Some(join(dir, "src"));
        }
        if dir.is_empty() {
            return None;
        }
        dir = parent(dir);
    }
}

/// Walks `segments` down from the module directory `dir`: the deepest module file
/// reached, else the module of `dir` itself (the item lives there).
fn walk(snapshot: &Snapshot, dir: &str, segments: &[&str]) -> Option<String> {
    descend(snapshot, dir, segments).or_else(|| module_of_dir(snapshot, dir))
}

/// The deepest module file `segments` reach down from the module directory `dir`.
fn descend(snapshot: &Snapshot, dir: &str, segments: &[&str]) -> Option<String> {
    let mut dir = dir.to_string();
    let mut found = None;
    for seg in segments {
        let next = join(&dir, seg);
        match [format!("{next}.rs"), join(&next, "mod.rs")]
            .into_iter()
            .find(|p| snapshot.has(p))
        {
            Some(file) => {
                found = Some(file);
                dir = next;
            }
            None => break,
        }
    }
    found
}

fn resolve(snapshot: &Snapshot, crates: &Crates, from: &str, raw: &RawImport) -> Option<String> {
    if let Some(name) = raw.spec.strip_prefix("mod ") {
        let dir = module_dir(from);
        return [
            format!("{}.rs", join(&dir, name)),
            join(&join(&dir, name), "mod.rs"),
        ]
        .into_iter()
        .find(|p| snapshot.has(p));
    }
    let segments: Vec<&str> = raw.spec.split("::").collect();
    let (first, rest) = segments.split_first()?;
    match *first {
        "crate" => walk(snapshot, &crate_src(snapshot, from)?, rest),
        "self" => walk(snapshot, &module_dir(from), rest),
        "super" => {
            let mut dir = parent(&module_dir(from)).to_string();
            let mut rest = rest;
            while rest.first() == Some(&"super") {
                dir = parent(&dir).to_string();
                rest = &rest[1..];
            }
            walk(snapshot, &dir, rest)
        }
        // Another crate: down from its library root (`src/lib.rs` or `[lib] path`).
        other => {
            let lib = crates.library(from, other)?;
            descend(snapshot, &module_dir(lib), rest).or_else(|| Some(lib.to_string()))
        }
    }
}

/// `mod` declarations (as `mod NAME`), every path a `use` tree names, and the file's
/// functions and types at any depth.
pub fn parse(text: &str) -> Parsed {
    super::read(Grammar::Rust, text, |s| {
        matches!(
            s.kind,
            SymbolKind::Function | SymbolKind::Method | SymbolKind::Class
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn use_trees_expand_into_paths() {
        let parsed = parse("use crate::{db,cart::{self,Line},*};\n");
        let specs: Vec<&str> = parsed.imports.iter().map(|i| i.spec.as_str()).collect();
        assert_eq!(
            specs,
            ["crate::db", "crate::cart", "crate::cart::Line", "crate"]
        );
    }

    #[test]
    fn mod_declarations_and_uses_are_imports() {
        let parsed = parse("mod db;\npub(crate) mod cart;\nuse crate::db::Pool;\nfn main() {}\n");
        let specs: Vec<&str> = parsed.imports.iter().map(|i| i.spec.as_str()).collect();
        assert_eq!(specs, ["mod db", "mod cart", "crate::db::Pool"]);
        assert_eq!(parsed.symbols.iter().collect::<Vec<_>>(), [("main", 4)]);
    }

    #[test]
    fn a_use_in_a_string_is_none() {
        let parsed = parse("const SNIPPET: &str = \"\nuse crate::db;\n\";\nuse crate::cart;\n");
        let specs: Vec<&str> = parsed.imports.iter().map(|i| i.spec.as_str()).collect();
        assert_eq!(specs, ["crate::cart"]);
    }

    #[test]
    fn child_modules_live_beside_lib_and_under_named_files() {
        assert_eq!(module_dir("src/lib.rs"), "src");
        assert_eq!(module_dir("src/a/mod.rs"), "src/a");
        assert_eq!(module_dir("src/a.rs"), "src/a");
    }
}
