//! Java: classes, interfaces, enums, records and annotation types, their methods and
//! constructors; imports (`import a.b.C;`, `import static a.b.C.m;`, `import a.b.*;`).

use crate::reading::{dotted, Declared, Import, Reader, SymbolKind};
use crate::{line_of, text_of};
use tree_sitter::Node;

pub struct Java;

impl Reader for Java {
    fn symbol<'t>(&self, node: Node<'t>, _parent: Option<SymbolKind>) -> Option<Declared<'t>> {
        let kind = match node.kind() {
            "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration"
            | "annotation_type_declaration" => SymbolKind::Class,
            "method_declaration"
            | "constructor_declaration"
            | "compact_constructor_declaration" => SymbolKind::Method,
            _ => return None,
        };
        Declared::named(kind, node)
    }

    fn imports(&self, node: Node, text: &str, out: &mut Vec<Import>) -> bool {
        if node.kind() != "import_declaration" {
            return false;
        }
        let mut cursor = node.walk();
        let parts: Vec<Node> = node.named_children(&mut cursor).collect();
        let Some(path) = parts
            .iter()
            .find(|p| matches!(p.kind(), "scoped_identifier" | "identifier"))
        else {
            return true;
        };
        let glob = parts.iter().any(|p| p.kind() == "asterisk");
        out.push(dotted(text_of(*path, text), glob, None, line_of(node)));
        true
    }
}

#[cfg(test)]
mod tests;
