//! Rust: items (`fn`, `struct`, `enum`, `union`, `trait`, `type`, `const`, `static`, inline
//! `mod`, `impl` blocks named by their type) and imports (`mod x;` declarations and every
//! path a `use` tree names).

pub mod imports;

use crate::reading::{function_in, Declared, Import, Reader, SymbolKind};
use crate::{line_of, text_of};
use tree_sitter::Node;

pub struct Rust;

impl Reader for Rust {
    fn symbol<'t>(&self, node: Node<'t>, parent: Option<SymbolKind>) -> Option<Declared<'t>> {
        let kind = match node.kind() {
            "function_item" => function_in(parent),
            "function_signature_item" => SymbolKind::Method,
            "struct_item" | "enum_item" | "union_item" | "trait_item" => SymbolKind::Class,
            "type_item" => SymbolKind::Type,
            "const_item" | "static_item" => SymbolKind::Variable,
            "mod_item" if node.child_by_field_name("body").is_some() => SymbolKind::Module,
            "impl_item" => {
                return Some(Declared {
                    kind: SymbolKind::Impl,
                    name: type_name(node.child_by_field_name("type")?),
                })
            }
            _ => return None,
        };
        Declared::named(kind, node)
    }

    fn imports(&self, node: Node, text: &str, out: &mut Vec<Import>) -> bool {
        match node.kind() {
            "mod_item" if node.child_by_field_name("body").is_none() => {
                if let Some(name) = node.child_by_field_name("name") {
                    let name = text_of(name, text);
                    out.push(Import {
                        spec: format!("mod {name}"),
                        line: line_of(node),
                        // `mod export;` binds `export`: a dispatch `export::run()` names
                        // that file.
                        names: vec![name.to_string()],
                    });
                }
                true
            }
            "use_declaration" => {
                if let Some(tree) = node.child_by_field_name("argument") {
                    let line = line_of(node);
                    let mut paths = Vec::new();
                    expand("", tree, text, &mut paths);
                    out.extend(paths.into_iter().map(|(spec, name)| Import {
                        spec,
                        line,
                        names: name.into_iter().collect(),
                    }));
                }
                true
            }
            // A macro's body is tokens, not items: a `use` in it (a closure's body given
            // to `fuzz_target!`) is read from its own text.
            "token_tree" => {
                uses_in_tokens(node, text, out);
                false
            }
            _ => false,
        }
    }
}

/// The `use` statements among the direct tokens of a macro's token tree, each parsed
/// alone (from `use` to its `;`) and placed at its line.
fn uses_in_tokens(tree: Node, text: &str, out: &mut Vec<Import>) {
    let mut cursor = tree.walk();
    let tokens: Vec<Node> = tree.children(&mut cursor).collect();
    for (i, token) in tokens.iter().enumerate() {
        if token.kind() != "use" {
            continue;
        }
        let Some(end) = tokens[i..].iter().find(|t| t.kind() == ";") else {
            continue;
        };
        let Some(statement) = text.get(token.start_byte()..end.end_byte()) else {
            continue;
        };
        let line = line_of(*token);
        let read = crate::read(crate::Grammar::Rust, statement);
        out.extend(read.imports.into_iter().map(|import| Import {
            line: line + import.line - 1,
            ..import
        }));
    }
}

/// The node naming an `impl` block's type: `Cart` of `Cart<T>`, `a::Cart` or `&Cart`.
fn type_name(ty: Node) -> Node {
    let mut ty = ty;
    loop {
        let inner = match ty.kind() {
            "generic_type" => ty.child_by_field_name("type"),
            "scoped_type_identifier" => ty.child_by_field_name("name"),
            "reference_type" | "pointer_type" => ty.child_by_field_name("type"),
            _ => None,
        };
        match inner {
            Some(inner) => ty = inner,
            None => return ty,
        }
    }
}

/// The paths a `use` tree names below `prefix`, each with the local name it binds (none
/// for a glob or `_`): `a::{b, c::{self, D as E}, f::*}` gives `a::b` (b), `a::c` (c),
/// `a::c::D` (E) and `a::f`.
fn expand(prefix: &str, tree: Node, text: &str, out: &mut Vec<(String, Option<String>)>) {
    expand_within(prefix, tree, text, out, 0);
}

/// Nested lists deeper than this are not read (no real `use` nests so deep; a hostile one
/// must not exhaust the stack).
const MAX_DEPTH: usize = 32;

fn expand_within(
    prefix: &str,
    tree: Node,
    text: &str,
    out: &mut Vec<(String, Option<String>)>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let expand = |prefix: &str, tree: Node, out: &mut Vec<(String, Option<String>)>| {
        expand_within(prefix, tree, text, out, depth + 1)
    };
    let join = |rest: &str| match (prefix.is_empty(), rest.is_empty()) {
        (true, _) => rest.to_string(),
        (false, true) => prefix.to_string(),
        (false, false) => format!("{prefix}::{rest}"),
    };
    let last = |path: &str| path.rsplit("::").next().unwrap_or(path).to_string();
    match tree.kind() {
        "use_as_clause" => {
            let Some(path) = tree.child_by_field_name("path") else {
                return;
            };
            // `{self as ts}` names the list's module itself.
            let path = match text_of(path, text) {
                "self" if !prefix.is_empty() => prefix.to_string(),
                path => join(&compact(path)),
            };
            let alias = tree
                .child_by_field_name("alias")
                .map(|a| text_of(a, text).to_string())
                .filter(|a| a != "_");
            out.push((path, alias));
        }
        "use_wildcard" => {
            // `a::*`: the module itself; its first named child is the path (none for `*`).
            let path = tree
                .named_child(0)
                .map(|p| compact(text_of(p, text)))
                .unwrap_or_default();
            out.push((join(&path), None));
        }
        "scoped_use_list" => {
            let head = tree
                .child_by_field_name("path")
                .map(|p| compact(text_of(p, text)))
                .unwrap_or_default();
            let prefix = join(&head);
            if let Some(list) = tree.child_by_field_name("list") {
                expand(&prefix, list, out);
            }
        }
        "use_list" => {
            let mut cursor = tree.walk();
            for item in tree.named_children(&mut cursor) {
                if item.kind() == "self" {
                    out.push((prefix.to_string(), Some(last(prefix))));
                } else {
                    expand(prefix, item, out);
                }
            }
        }
        // A path or a name: `crate::db::Pool`, `std`, `self`, `super`.
        _ if tree.is_named() && !tree.is_extra() => {
            let path = join(&compact(text_of(tree, text)));
            let name = last(&path);
            out.push((path, Some(name)));
        }
        _ => {}
    }
}

/// A path as written without its layout (`a ::\n b` is `a::b`).
fn compact(path: &str) -> String {
    // Nearly every path is written on one line without blanks: copied whole.
    if !path.contains(char::is_whitespace) {
        return path.to_string();
    }
    path.chars().filter(|c| !c.is_whitespace()).collect()
}

#[cfg(test)]
mod tests;
