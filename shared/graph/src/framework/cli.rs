//! Command-line subcommands: clap (`#[derive(Subcommand)]` enums, variant names
//! kebab-cased or `#[command(name = ..)]`; builder `Command::new("x")` under
//! `.subcommand(..)`) and argparse (`add_parser("x")` under `ArgumentParser(prog=..)`),
//! each a command `<program> <sub>` starting at the module its dispatch calls into.

use super::{add_handled_entrypoint, arguments, handler_module, string_literal};
use crate::adapter::{holds, Adapter, Context, Detection, Layer, TextTest};
use crate::language::{files_with, python, rust, typescript, Lines};
use crate::model::{Fragment, Located, Module};
use crate::repository::{self, Declared};
use crate::tree::{file_name, join, parent, Snapshot};
use git2::Oid;
use qa_records::change::Confidence;
use qa_records::code_pattern;
use qa_records::graph::{NodeKind, Support};
use regex::Regex;
use std::collections::BTreeMap;
use std::sync::{Arc, LazyLock};

/// The clap/argparse framework adapter.
#[derive(Debug)]
pub struct Cli {
    clap: TextTest,
    argparse: TextTest,
    go_mains: TextTest,
}

impl Default for Cli {
    fn default() -> Cli {
        Cli {
            clap: TextTest::new(rust::EXTENSIONS, |t| {
                holds(t, "clap") && CLAP_USE.is_match(t)
            }),
            argparse: TextTest::new(python::EXTENSIONS, |t| {
                holds(t, "argparse") && ARGPARSE_IMPORT.is_match(t)
            }),
            go_mains: repository::go_mains(),
        }
    }
}

static CLAP_USE: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r"\bclap::|\buse\s+clap\b"));
static ARGPARSE_IMPORT: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(r"(?m)^[ \t]*(?:import[ \t]+argparse|from[ \t]+argparse[ \t]+import)\b")
});
/// `#[derive(.. Parser ..)]` or `Subcommand`, then attributes, then the item's name.
static DERIVE: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(
        r"#\[derive\(([^)]*)\)\]((?:\s*#\[[^\]]*(?:\[[^\]]*\][^\]]*)*\])*)\s*(?:pub(?:\([^)]*\))?\s+)?(struct|enum)\s+(\w+)",
    )
});
static NAME_ATTR: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(r#"#\[(?:command|clap)\s*\([^\]]*\bname\s*=\s*"([^"]+)""#)
});
static BUILDER: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(
        r#"\b(?:(?:Command|App)\s*::\s*new|SubCommand\s*::\s*with_name)\s*\(\s*"([^"]+)""#,
    )
});
static PROG: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(r#"ArgumentParser\s*\([^)]*\bprog\s*=\s*['"]([^'"]+)['"]"#)
});
static ADD_PARSER: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(r#"(?:\b(\w+)\s*=\s*)?[\w.]+\.add_parser\(\s*['"]([\w.-]+)['"]"#)
});
static KEYWORD_VALUE: LazyLock<Regex> = LazyLock::new(|| code_pattern::regex(r"^\w+\s*=\s*(.+)$"));

impl Adapter for Cli {
    fn id(&self) -> &'static str {
        "cli"
    }

    fn layer(&self) -> Layer {
        Layer::Framework
    }

    /// Structural: a subcommand's handler module is found only where the dispatch names
    /// an imported module or function on the same arm.
    fn support(&self) -> Support {
        Support::Structural
    }

    fn detect(&self, snapshot: &Snapshot) -> Detection {
        let clap = files_with(snapshot, rust::EXTENSIONS).find(|p| self.clap.passes(snapshot, p));
        let argparse =
            || files_with(snapshot, python::EXTENSIONS).find(|p| self.argparse.passes(snapshot, p));
        match (clap, argparse()) {
            (Some(path), _) => Detection::Accept(format!("{path} uses clap")),
            (None, Some(path)) => Detection::Accept(format!("{path} imports argparse")),
            (None, None) => Detection::Decline("no module uses clap or argparse".to_string()),
        }
    }

    fn analyze(&self, cx: &Context) -> anyhow::Result<Fragment> {
        // A broken package.json is the commands adapter's failure to report, not ours.
        let declared = repository::declared(cx.snapshot, &self.go_mains).unwrap_or_default();
        let mut found = Vec::new();
        // Read once: a dispatch may be in any of them.
        let clap_files: Vec<(&str, Arc<str>)> = files_with(cx.snapshot, rust::EXTENSIONS)
            .filter(|p| self.clap.passes(cx.snapshot, p))
            .filter_map(|p| Some((p, cx.snapshot.text(p)?)))
            .collect();
        for (path, text) in &clap_files {
            let programs = Programs::new(cx, &declared, path);
            clap_derive(cx, path, text, &clap_files, &programs, &mut found);
            clap_builder(cx, path, text, &programs, &mut found);
        }
        for path in files_with(cx.snapshot, python::EXTENSIONS) {
            if !self.argparse.passes(cx.snapshot, path) {
                continue;
            }
            if let Some(text) = cx.snapshot.text(path) {
                argparse(cx, path, &text, &declared, &mut found);
            }
        }
        let mut fragment = Fragment::default();
        for sub in found {
            add_handled_entrypoint(
                &mut fragment,
                NodeKind::Command,
                &format!("{} {}", sub.program, sub.name),
                &sub.declared_in,
                sub.handler.as_deref(),
                sub.at,
                Confidence::Medium,
            );
        }
        Ok(fragment)
    }

    fn look(&self, path: &str, blob: Oid, text: &str) {
        self.clap.look(path, blob, text);
        self.argparse.look(path, blob, text);
        self.go_mains.look(path, blob, text);
    }
}

/// One subcommand found.
struct Subcommand {
    program: String,
    name: String,
    declared_in: String,
    handler: Option<String>,
    at: Located,
}

/// clap's default subcommand name: `ExportAll` -> `export-all`, `HTTPServer` ->
/// `http-server`.
fn kebab(ident: &str) -> String {
    let chars: Vec<char> = ident.chars().collect();
    let mut out = String::new();
    for (i, c) in chars.iter().enumerate() {
        if c.is_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                out.push('-');
            }
        }
        if *c == '_' {
            out.push('-');
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// How a Rust file's program is named: an explicit `#[command(name)]` on a Parser or a
/// top-level `Command::new`, else the binary the manifest declares for the crate.
struct Programs {
    fallback: String,
}

impl Programs {
    fn new(cx: &Context, declared: &[Declared], path: &str) -> Programs {
        let root = crate_root(cx.snapshot, path);
        let in_crate = |file: &str| root.as_deref().is_none_or(|r| under(file, r));
        let by_manifest = declared
            .iter()
            .find(|d| {
                d.files
                    .iter()
                    .any(|f| in_crate(f) && f.ends_with("main.rs"))
            })
            .map(|d| d.name.clone());
        let by_package = root.as_deref().and_then(|r| {
            let text = cx.snapshot.text(&join(r, "Cargo.toml"))?;
            Some(rust::PACKAGE_NAME.captures(&text)?[1].to_string())
        });
        let stem = file_name(path).trim_end_matches(".rs").to_string();
        Programs {
            fallback: by_manifest.or(by_package).unwrap_or(stem),
        }
    }
}

fn under(file: &str, dir: &str) -> bool {
    dir.is_empty() || file.starts_with(&format!("{dir}/"))
}

/// The directory of the nearest Cargo.toml above `path`.
fn crate_root(snapshot: &Snapshot, path: &str) -> Option<String> {
    let mut dir = parent(path);
    loop {
        if snapshot.has(&join(dir, "Cargo.toml")) {
            return Some(dir.to_string());
        }
        if dir.is_empty() {
            return None;
        }
        dir = parent(dir);
    }
}

/// The items between the braces opening at `open`, split at top-level commas.
fn braced_items(code: &str, open: usize) -> Vec<(usize, &str)> {
    let bytes = code.as_bytes();
    let mut items = Vec::new();
    let (mut depth, mut start) = (0usize, open + 1);
    for (i, &b) in bytes.iter().enumerate().skip(open + 1) {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth > 0 => depth -= 1,
            b'}' => {
                items.push((start, &code[start..i]));
                break;
            }
            b',' if depth == 0 => {
                items.push((start, &code[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    items
}

/// A variant's subcommand name: its `#[command(name)]`, else its kebab-cased name.
fn variant_name(item: &str) -> Option<(String, String)> {
    let item = item.trim();
    let explicit = NAME_ATTR.captures(item).map(|c| c[1].to_string());
    let mut rest = item;
    while rest.starts_with("#[") {
        let (_, end) = bracket_end(rest)?;
        rest = rest[end..].trim_start();
    }
    let ident: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if ident.is_empty() {
        return None;
    }
    let name = explicit.unwrap_or_else(|| kebab(&ident));
    Some((ident, name))
}

/// The attribute at the start of `text` and the offset past its `]`.
fn bracket_end(text: &str) -> Option<(&str, usize)> {
    let mut depth = 0usize;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'[' => depth += 1,
            b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some((&text[..=i], i + 1));
                }
            }
            _ => {}
        }
    }
    None
}

/// `#[derive(Subcommand)] enum Command { Export { .. }, .. }`: its variants, dispatched
/// in any clap file of the crate by `Command::Export .. => handler(..)`.
fn clap_derive(
    cx: &Context,
    path: &str,
    text: &str,
    clap_files: &[(&str, Arc<str>)],
    programs: &Programs,
    found: &mut Vec<Subcommand>,
) {
    let code = typescript::blank_comments(text);
    let lines = Lines::new(&code);
    let parser = DERIVE
        .captures_iter(&code)
        .filter(|c| c[1].contains("Parser") && &c[3] == "struct")
        .find_map(|c| NAME_ATTR.captures(&c[2]).map(|n| n[1].to_string()));
    let program = parser.unwrap_or_else(|| programs.fallback.clone());
    let root = crate_root(cx.snapshot, path);
    for c in DERIVE.captures_iter(&code) {
        if !c[1].contains("Subcommand") || &c[3] != "enum" {
            continue;
        }
        let end = c.get(0).map_or(0, |m| m.end());
        let Some(open) = code[end..].find('{').map(|i| end + i) else {
            continue;
        };
        let dispatch = Regex::new(&format!(r"\b{}\s*::\s*(\w+)\b", regex::escape(&c[4])))
            .expect("an escaped identifier makes a valid regex");
        for (offset, item) in braced_items(&code, open) {
            let Some((ident, name)) = variant_name(item) else {
                continue;
            };
            let handler = clap_files
                .iter()
                .filter(|(f, _)| root.as_deref().is_none_or(|r| under(f, r)))
                .find_map(|(f, text)| {
                    let arm = dispatch
                        .captures_iter(text)
                        .find(|d| d[1] == ident)?
                        .get(0)?
                        .end();
                    handler_after_arrow(text, arm, f, cx.modules)
                });
            found.push(Subcommand {
                program: program.clone(),
                name,
                declared_in: path.to_string(),
                handler,
                at: Located::new(
                    path,
                    lines.of(offset + item.len() - item.trim_start().len()),
                ),
            });
        }
    }
}

/// The module a match arm starting at `from` calls into: the first path after `=>`
/// (`export::run(..)`, `run_export(..)`).
fn handler_after_arrow(
    text: &str,
    from: usize,
    file: &str,
    modules: &BTreeMap<String, Module>,
) -> Option<String> {
    let window = &text[from..text.len().min(from + 400)];
    let arrow = window.find("=>")?;
    // A `;` before the arrow ends the pattern: the arrow belongs to another arm.
    if window[..arrow].contains(';') {
        return None;
    }
    let mut expr = window[arrow + 2..].trim_start();
    for skip in ["{", "return ", "Ok(", "Box::pin(", "await "] {
        expr = expr.strip_prefix(skip).unwrap_or(expr).trim_start();
    }
    handler_module(modules, file, expr)
}

/// `Command::new("shop").subcommand(Command::new("export"))`: the first command not
/// under `.subcommand(` names the program; the others are its subcommands, dispatched
/// by `Some(("export", m)) => handler(..)`.
fn clap_builder(
    cx: &Context,
    path: &str,
    text: &str,
    programs: &Programs,
    found: &mut Vec<Subcommand>,
) {
    let code = typescript::blank_comments(text);
    let lines = Lines::new(&code);
    let mut program = None;
    let mut subs = Vec::new();
    for c in BUILDER.captures_iter(&code) {
        let start = c.get(0).map_or(0, |m| m.start());
        let before = code[..start].trim_end().trim_end_matches("clap::");
        // The 300 bytes before, from a character's start (`é` is two bytes).
        let mut near = start.saturating_sub(300);
        while !code.is_char_boundary(near) {
            near -= 1;
        }
        let nested = before.trim_end().ends_with("subcommand(")
            || c[0].starts_with("SubCommand")
            || code[near..start].contains("subcommands(");
        match nested {
            true => subs.push((c[1].to_string(), start)),
            false if program.is_none() => program = Some(c[1].to_string()),
            false => {}
        }
    }
    let program = program.unwrap_or_else(|| programs.fallback.clone());
    for (name, offset) in subs {
        let quoted = format!("\"{name}\"");
        let handler = code
            .match_indices(&quoted)
            .filter(|(i, _)| *i != offset && !code[..*i].trim_end().ends_with("new("))
            .find_map(|(i, _)| handler_after_arrow(&code, i + quoted.len(), path, cx.modules));
        found.push(Subcommand {
            program: program.clone(),
            name,
            declared_in: path.to_string(),
            handler,
            at: Located::new(path, lines.of(offset)),
        });
    }
}

/// `sub.add_parser("export")` in a module importing argparse; the program is
/// `ArgumentParser(prog=..)`, else the script a manifest declares for the module, else
/// the module's name. The handler is `p.set_defaults(func=export.run)`.
fn argparse(
    cx: &Context,
    path: &str,
    text: &str,
    declared: &[Declared],
    found: &mut Vec<Subcommand>,
) {
    let program = PROG
        .captures(text)
        .map(|c| c[1].to_string())
        .or_else(|| {
            declared
                .iter()
                .find(|d| d.files.iter().any(|f| f == path))
                .map(|d| d.name.clone())
        })
        .unwrap_or_else(|| {
            let stem = file_name(path).trim_end_matches(".py");
            match stem {
                "__main__" | "__init__" => file_name(parent(path)).to_string(),
                _ => stem.to_string(),
            }
        });
    let lines = Lines::new(text);
    for c in ADD_PARSER.captures_iter(text) {
        let handler = c
            .get(1)
            .and_then(|var| set_defaults(text, var.as_str()))
            .and_then(|value| handler_module(cx.modules, path, value));
        found.push(Subcommand {
            program: program.clone(),
            name: c[2].to_string(),
            declared_in: path.to_string(),
            handler,
            at: Located::new(path, lines.at(&c, 0)),
        });
    }
}

/// The handler `var.set_defaults(func=handler)` names.
fn set_defaults<'t>(text: &'t str, var: &str) -> Option<&'t str> {
    let call = format!("{var}.set_defaults(");
    let open = text.find(&call)? + call.len() - 1;
    let (args, _) = arguments(text, open)?;
    args.iter()
        .filter_map(|a| KEYWORD_VALUE.captures(a))
        .find_map(|c| c.get(1).map(|m| m.as_str()))
        .filter(|v| string_literal(v).is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_are_kebab_cased_like_clap() {
        assert_eq!(kebab("Export"), "export");
        assert_eq!(kebab("ExportAll"), "export-all");
        assert_eq!(kebab("HTTPServer"), "http-server");
    }

    #[test]
    fn an_explicit_command_name_wins_over_the_variant_name() {
        let item = "\n    #[command(name = \"import-csv\", about = \"a, b\")]\n    Import(Args)";
        assert_eq!(
            variant_name(item),
            Some(("Import".to_string(), "import-csv".to_string()))
        );
        assert_eq!(
            variant_name(" Export { format: String }"),
            Some(("Export".to_string(), "export".to_string()))
        );
    }

    #[test]
    fn set_defaults_names_the_handler_and_a_string_default_is_none() {
        let text = "p.set_defaults(func=export.run)\nq.set_defaults(mode='fast')\n";
        assert_eq!(set_defaults(text, "p"), Some("export.run"));
        assert_eq!(set_defaults(text, "q"), None);
    }
}
