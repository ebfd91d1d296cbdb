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

static MOD: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(r"(?m)^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?mod[ \t]+([A-Za-z_]\w*)[ \t]*;")
});
static USE: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(r"(?m)^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?use[ \t]+([^;]+);")
});
static ALIAS: LazyLock<Regex> = LazyLock::new(|| code_pattern::regex(r"\s+as\s+\w+"));
static ITEM: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(
        r"(?m)^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?(?:async[ \t]+)?(?:fn|struct|enum|trait)[ \t]+([A-Za-z_]\w*)",
    )
});

/// `mod` declarations (as `mod NAME`) and every path a `use` tree names.
pub fn parse(text: &str) -> Parsed {
    let lines = Lines::new(text);
    let heads = line_heads(text);
    let mut imports = Vec::new();
    for c in line_matches(&MOD, text, &heads, &["mod"], Reach::Line) {
        imports.push(RawImport {
            spec: format!("mod {}", &c[1]),
            line: lines.at(&c, 0),
            // `mod export;` binds `export`: a dispatch `export::run()` names that file.
            names: vec![c[1].to_string()],
        });
    }
    for c in line_matches(&USE, text, &heads, &["use"], Reach::Semicolon) {
        let line = lines.at(&c, 0);
        let unaliased = ALIAS.replace_all(&c[1], "");
        let tree: String = unaliased.chars().filter(|ch| !ch.is_whitespace()).collect();
        let mut paths = Vec::new();
        expand("", &tree, &mut paths);
        for path in paths {
            let name = path.rsplit("::").next().unwrap_or(&path).to_string();
            imports.push(RawImport {
                spec: path,
                line,
                names: vec![name],
            });
        }
    }
    imports.sort_by_key(|i| i.line);
    let items = ["async", "fn", "struct", "enum", "trait"];
    let symbols: Symbols = line_matches(&ITEM, text, &heads, &items, Reach::Line)
        .filter_map(|c| Some((c.get(1)?.as_str(), lines.at(&c, 1))))
        .collect();
    Parsed {
        imports,
        symbols: Arc::new(symbols),
    }
}

/// How far a match of a line-anchored pattern starting at a line can reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// To the end of the line (of the line of the `)` closing a `pub(..)`).
    Line,
    /// Past the first `;` (after a `pub(..)`): `use` trees span lines.
    Semicolon,
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
            // The first letters of `pub` and of every keyword: most lines stop here.
            if !rest.starts_with(['p', 'm', 'u', 'a', 'f', 's', 'e', 't']) {
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
/// at the `heads` whose word is one of `words` and only as far as `reach` lets a match
/// there go: each pattern scanned whole texts, most of whose lines cannot start a match.
fn line_matches<'t>(
    pattern: &'t Regex,
    text: &'t str,
    heads: &'t [LineHead],
    words: &'t [&'t str],
    reach: Reach,
) -> impl Iterator<Item = regex::Captures<'t>> + 't {
    let bytes = text.as_bytes();
    let mut done = 0;
    heads.iter().filter_map(move |line| {
        if line.start < done || !words.iter().any(|w| text[line.word..].starts_with(w)) {
            return None;
        }
        // Nothing of a match crosses a line but a `pub(..)` and a `use` tree, which
        // ends at its first `;`.
        let end = match reach {
            Reach::Line => {
                memchr::memchr(b'\n', &bytes[line.head..]).map_or(text.len(), |at| line.head + at)
            }
            Reach::Semicolon => line.head + memchr::memchr(b';', &bytes[line.head..])? + 1,
        };
        let captures = pattern
            .captures_at(&text[..end], line.start)
            .filter(|c| c.get(0).is_some_and(|m| m.start() == line.start))?;
        done = captures.get(0).map_or(done, |m| m.end());
        Some(captures)
    })
}

/// Expands a `use` tree (`a::{b, c::{d, e}}`) into its paths.
fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    match tree.find('{') {
        None => {
            let path = if prefix.is_empty() {
                tree.to_string()
            } else {
                format!("{prefix}::{tree}")
            };
            out.push(path.trim_end_matches("::*").to_string());
        }
        Some(open) => {
            let head = tree[..open].trim_end_matches("::");
            let prefix = match (prefix.is_empty(), head.is_empty()) {
                (true, _) => head.to_string(),
                (false, true) => prefix.to_string(),
                (false, false) => format!("{prefix}::{head}"),
            };
            let inner = tree[open + 1..]
                .strip_suffix('}')
                .unwrap_or(&tree[open + 1..]);
            let mut depth = 0;
            let mut start = 0;
            for (i, ch) in inner.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand_item(&prefix, &inner[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            expand_item(&prefix, &inner[start..], out);
        }
    }
}

fn expand_item(prefix: &str, item: &str, out: &mut Vec<String>) {
    match item {
        "" => {}
        "self" => out.push(prefix.to_string()),
        _ => expand(prefix, item, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_patterns_are_read_as_a_whole_text_search_reads_them() {
        let text = "mod a;\n  pub(crate) mod b ;\npub(in\n crate) fn c() {}\nuse x::{\n  y,\n  z,\n};\nlet s = \"\nuse q;\";\nstruct\tD;\npub async fn e() {}\n// mod f;\nfnord g;\n";
        for (pattern, words, reach) in [
            (&*MOD, &["mod"][..], Reach::Line),
            (&*USE, &["use"][..], Reach::Semicolon),
            (
                &*ITEM,
                &["async", "fn", "struct", "enum", "trait"][..],
                Reach::Line,
            ),
        ] {
            let spans = |c: regex::Captures| c.get(0).map(|m| (m.start(), m.end()));
            let heads = line_heads(text);
            let windowed: Vec<_> = line_matches(pattern, text, &heads, words, reach)
                .map(spans)
                .collect();
            let whole: Vec<_> = pattern.captures_iter(text).map(spans).collect();
            assert_eq!(windowed, whole, "{pattern}");
        }
    }

    #[test]
    fn use_trees_expand_into_paths() {
        let mut out = Vec::new();
        expand("", "crate::{db,cart::{self,Line},*}", &mut out);
        assert_eq!(
            out,
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
    fn child_modules_live_beside_lib_and_under_named_files() {
        assert_eq!(module_dir("src/lib.rs"), "src");
        assert_eq!(module_dir("src/a/mod.rs"), "src/a");
        assert_eq!(module_dir("src/a.rs"), "src/a");
    }
}
