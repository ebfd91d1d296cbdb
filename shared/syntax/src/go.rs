//! Go: `func` declarations and methods, `type` specs (single and grouped), file-level
//! `const` and `var` names; imports (single and grouped, interpreted or raw strings).

use crate::reading::{unquoted, Declared, Import, Reader, SymbolKind};
use crate::{line_of, text_of};
use tree_sitter::Node;

pub mod imports;

pub struct Go;

impl Reader for Go {
    fn symbol<'t>(&self, node: Node<'t>, parent: Option<SymbolKind>) -> Option<Declared<'t>> {
        let kind = match node.kind() {
            "function_declaration" => SymbolKind::Function,
            "method_declaration" => SymbolKind::Method,
            "type_spec" => match node.child_by_field_name("type").map(|t| t.kind()) {
                Some("struct_type" | "interface_type") => SymbolKind::Class,
                _ => SymbolKind::Type,
            },
            "type_alias" => SymbolKind::Type,
            // A package's constants and variables; a function's locals are no outline.
            "const_spec" | "var_spec" if parent.is_none() => SymbolKind::Variable,
            _ => return None,
        };
        Declared::named(kind, node)
    }

    fn imports(&self, node: Node, text: &str, out: &mut Vec<Import>) -> bool {
        if node.kind() != "import_spec" {
            return false;
        }
        if let Some(spec) = node
            .child_by_field_name("path")
            .and_then(|p| unquoted(text_of(p, text)))
        {
            out.push(Import {
                spec: spec.to_string(),
                line: line_of(node),
                // Go binds the package's own name, which the path does not tell.
                names: Vec::new(),
            });
        }
        true
    }
}

#[cfg(test)]
mod tests;
