//! Python: `def` and `class` (a `def` in a class is a method) and imports (`import a.b as
//! c`, `from .x import y as z`; `from __future__` is no module). The names of a
//! `from m import y as z` are what it takes from `m` (`y`, which may be a submodule of
//! `m`), not the alias.

use crate::reading::{function_in, Declared, Import, Reader, SymbolKind};
use crate::{line_of, text_of};
use tree_sitter::Node;

pub mod imports;

pub struct Python;

impl Reader for Python {
    fn symbol<'t>(&self, node: Node<'t>, parent: Option<SymbolKind>) -> Option<Declared<'t>> {
        let kind = match node.kind() {
            "function_definition" => function_in(parent),
            "class_definition" => SymbolKind::Class,
            _ => return None,
        };
        Declared::named(kind, node)
    }

    fn imports(&self, node: Node, text: &str, out: &mut Vec<Import>) -> bool {
        let line = line_of(node);
        let mut cursor = node.walk();
        match node.kind() {
            // One import a module: `import os, shop.db as db`.
            "import_statement" => {
                for name in node.children_by_field_name("name", &mut cursor) {
                    let (module, local) = aliased(name, text);
                    out.push(Import {
                        spec: module.to_string(),
                        line,
                        names: vec![local.to_string()],
                    });
                }
                true
            }
            "import_from_statement" => {
                let Some(module) = node.child_by_field_name("module_name") else {
                    return true;
                };
                let names = node
                    .children_by_field_name("name", &mut cursor)
                    .map(|n| aliased(n, text).0.to_string())
                    .collect();
                out.push(Import {
                    spec: text_of(module, text).split_whitespace().collect(),
                    line,
                    names,
                });
                true
            }
            "future_import_statement" => true,
            _ => false,
        }
    }
}

/// The module or name an import item names and the local name it binds: `a.b` binds
/// `a.b` as written, `a.b as c` binds `c`.
fn aliased<'a>(item: Node, text: &'a str) -> (&'a str, &'a str) {
    if item.kind() == "aliased_import" {
        let name = item
            .child_by_field_name("name")
            .map_or("", |n| text_of(n, text));
        let alias = item
            .child_by_field_name("alias")
            .map_or(name, |a| text_of(a, text));
        (name, alias)
    } else {
        let name = text_of(item, text);
        (name, name)
    }
}

#[cfg(test)]
mod tests;
