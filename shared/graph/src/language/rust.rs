//! Rust: `mod x;` declarations and `use crate::`/`super::`/`self::` paths resolved to
//! module files, and `use other_crate::` for the crates of the tree a package depends on
//! (see [`super::cargo`]); `fn`, `struct`, `enum` and `trait` names as symbols.

use super::cargo::Crates;
use super::{Language, Lines, Parsed, RawImport};
use crate::model::Symbols;
use crate::tree::{file_name, join, parent, Snapshot};
use qa_records::change::Confidence;
use qa_records::code_pattern;
use qa_records::graph::Support;
use qa_syntax::Grammar;
use regex::Regex;
use std::sync::{Arc, LazyLock};

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

static ITEM: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(
        r"(?m)^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?(?:async[ \t]+)?(?:fn|struct|enum|trait)[ \t]+([A-Za-z_]\w*)",
    )
});

/// `mod` declarations (as `mod NAME`) and every path a `use` tree names, from qa-syntax's
/// tree of the file's `use` and `mod x;` items (at any depth); `fn`, `struct`, `enum` and
/// `trait` names still from the text, as their tree would cost a parse of the whole file.
pub fn parse(text: &str) -> Parsed {
    let lines = Lines::new(text);
    let heads = line_heads(text);
    let imports = qa_syntax::imports(Grammar::Rust, text)
        .into_iter()
        .map(RawImport::from)
        .collect();
    let items = ["async", "fn", "struct", "enum", "trait"];
    let symbols: Symbols = line_matches(&ITEM, text, &heads, &items)
        .filter_map(|c| Some((c.get(1)?.as_str(), lines.at(&c, 1))))
        .collect();
    Parsed {
        imports,
        symbols: Arc::new(symbols),
    }
}

/// A line that may start a match of a line-anchored pattern: where it starts, where
/// its visibility ends (the `)` of a `pub(..)`, else the line's start) and where the
/// word after blanks and visibility starts.
#[derive(Debug, Clone, Copy)]
struct LineHead {
    start: usize,
    head: usize,
    word: usize,
}

/// The lines of `text` whose first word after blanks and a visibility (`pub`,
/// `pub(..)`, then blanks) may be a keyword: a line starting otherwise starts no match
/// of `(?m)^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?...`, so only these are searched.
fn line_heads(text: &str) -> Vec<LineHead> {
    let bytes = text.as_bytes();
    let blank = |c: char| c == ' ' || c == '\t';
    let starts = std::iter::once(0).chain(memchr::memchr_iter(b'\n', bytes).map(|at| at + 1));
    starts
        .filter_map(|start| {
            let rest = text[start..].trim_start_matches(blank);
            // The first letters of `pub` and of every item keyword: most lines stop here.
            if !rest.starts_with(['p', 'a', 'f', 's', 'e', 't']) {
                return None;
            }
            let Some(after) = rest.strip_prefix("pub") else {
                let word = text.len() - rest.len();
                return Some(LineHead {
                    start,
                    head: start,
                    word,
                });
            };
            // `[^)]*` ends at the first `)`.
            let (head, after) = match after.starts_with('(') {
                true => {
                    let close = start + memchr::memchr(b')', &bytes[start..])?;
                    (close, &text[close + 1..])
                }
                false => (start, after),
            };
            let word = after.trim_start_matches(blank);
            (word.len() < after.len()).then(|| LineHead {
                start,
                head,
                word: text.len() - word.len(),
            })
        })
        .collect()
}

/// The matches of a line-anchored `pattern` as `captures_iter` finds them, searched only
/// at the `heads` whose word is one of `words` and only as far as the line (of the `)`
/// closing a `pub(..)`): the pattern scanned whole texts, most of whose lines cannot
/// start a match.
fn line_matches<'t>(
    pattern: &'t Regex,
    text: &'t str,
    heads: &'t [LineHead],
    words: &'t [&'t str],
) -> impl Iterator<Item = regex::Captures<'t>> + 't {
    let bytes = text.as_bytes();
    let mut done = 0;
    heads.iter().filter_map(move |line| {
        if line.start < done || !words.iter().any(|w| text[line.word..].starts_with(w)) {
            return None;
        }
        let end =
            memchr::memchr(b'\n', &bytes[line.head..]).map_or(text.len(), |at| line.head + at);
        let captures = pattern
            .captures_at(&text[..end], line.start)
            .filter(|c| c.get(0).is_some_and(|m| m.start() == line.start))?;
        done = captures.get(0).map_or(done, |m| m.end());
        Some(captures)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specs(text: &str) -> Vec<String> {
        parse(text).imports.into_iter().map(|i| i.spec).collect()
    }

    #[test]
    fn item_lines_are_read_as_a_whole_text_search_reads_them() {
        let text = "mod a;\n  pub(crate) mod b ;\npub(in\n crate) fn c() {}\nuse x::{\n  y,\n  z,\n};\nlet s = \"\nuse q;\";\nstruct\tD;\npub async fn e() {}\n// mod f;\nfnord g;\n";
        let spans = |c: regex::Captures| c.get(0).map(|m| (m.start(), m.end()));
        let heads = line_heads(text);
        let items = ["async", "fn", "struct", "enum", "trait"];
        let windowed: Vec<_> = line_matches(&ITEM, text, &heads, &items)
            .map(spans)
            .collect();
        let whole: Vec<_> = ITEM.captures_iter(text).map(spans).collect();
        assert_eq!(windowed, whole);
    }

    #[test]
    fn mod_declarations_and_uses_are_imports() {
        let parsed = parse("mod db;\npub(crate) mod cart;\nuse crate::db::Pool;\nfn main() {}\n");
        let specs: Vec<&str> = parsed.imports.iter().map(|i| i.spec.as_str()).collect();
        assert_eq!(specs, ["mod db", "mod cart", "crate::db::Pool"]);
        assert_eq!(parsed.symbols.iter().collect::<Vec<_>>(), [("main", 4)]);
    }

    #[test]
    fn a_use_in_a_raw_string_is_no_edge_one_in_a_test_module_is() {
        let text = "pub use crate::db::{self, Pool as P};\nconst FIXTURE: &str = r#\"\nuse crate::fake;\nmod fake;\n\"#;\nmod inline {\n    fn f() {}\n}\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use crate::cart::Line;\n}\n";
        assert_eq!(
            specs(text),
            ["crate::db", "crate::db::Pool", "super", "crate::cart::Line"]
        );
        let names: Vec<Vec<String>> = parse(text).imports.into_iter().map(|i| i.names).collect();
        assert_eq!(names[1], ["P"]);
    }

    #[test]
    fn child_modules_live_beside_lib_and_under_named_files() {
        assert_eq!(module_dir("src/lib.rs"), "src");
        assert_eq!(module_dir("src/a/mod.rs"), "src/a");
        assert_eq!(module_dir("src/a.rs"), "src/a");
    }
}
