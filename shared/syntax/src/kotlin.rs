//! Kotlin: classes, interfaces, objects and named companion objects, functions (a function
//! of a class or object is a method), properties of a file, class or object; imports
//! (`import a.b.C`, `import a.b.c as d`, `import a.b.*`).

use crate::reading::{child_of_kind, dotted, function_in, Declared, Import, Reader, SymbolKind};
use crate::{line_of, text_of};
use tree_sitter::Node;

pub struct Kotlin;

impl Reader for Kotlin {
    fn symbol<'t>(&self, node: Node<'t>, parent: Option<SymbolKind>) -> Option<Declared<'t>> {
        let (kind, name) = match node.kind() {
            "class_declaration" | "object_declaration" | "companion_object" => {
                (SymbolKind::Class, node.child_by_field_name("name")?)
            }
            "function_declaration" => (function_in(parent), node.child_by_field_name("name")?),
            // A property of a file, class or object; a local `val` is no outline.
            "property_declaration" if matches!(parent, None | Some(SymbolKind::Class)) => {
                let declared = child_of_kind(node, &["variable_declaration"])?;
                (
                    SymbolKind::Variable,
                    child_of_kind(declared, &["identifier"])?,
                )
            }
            _ => return None,
        };
        Some(Declared { kind, name })
    }

    fn imports(&self, node: Node, text: &str, out: &mut Vec<Import>) -> bool {
        if node.kind() != "import" {
            return false;
        }
        let mut cursor = node.walk();
        let parts: Vec<Node> = node.named_children(&mut cursor).collect();
        let Some(path) = parts.iter().find(|p| p.kind() == "qualified_identifier") else {
            return true;
        };
        let glob = text_of(node, text).trim_end().ends_with('*');
        let alias = parts
            .iter()
            .find(|p| p.kind() == "identifier")
            .map(|a| text_of(*a, text));
        out.push(dotted(text_of(*path, text), glob, alias, line_of(node)));
        true
    }
}

#[cfg(test)]
mod tests;
