//! Go's imports from a tree of the file's head: the language puts every import
//! declaration between the package clause and the first other declaration, so only
//! the text before the first line opening one is parsed.

use super::Go;
use crate::reading::{Import, Reader};
use crate::{read_cut, Grammar};
use tree_sitter::Node;

/// The imports of a Go file, in the order they stand. The text only chooses where the
/// parse stops; every import is an `import_spec` node of the tree.
pub fn read(text: &str) -> Vec<Import> {
    // A head cut in a block comment or a raw string (at a line of it that looks like a
    // declaration) has an error, and the whole file is read.
    read_cut(Grammar::Go, text, head_end(text), |tree| {
        let mut out = Vec::new();
        let root = tree.root_node();
        let mut cursor = root.walk();
        for node in root.children(&mut cursor) {
            if node.kind() == "import_declaration" {
                specs(node, text, &mut out);
            }
        }
        out
    })
    .unwrap_or_default()
}

/// The `import_spec`s below one import declaration (one, or a parenthesised group).
fn specs(declaration: Node, text: &str, out: &mut Vec<Import>) {
    let mut cursor = declaration.walk();
    for child in declaration.named_children(&mut cursor) {
        match child.kind() {
            "import_spec" => {
                Go.imports(child, text, out);
            }
            "import_spec_list" => specs(child, text, out),
            _ => {}
        }
    }
}

/// Where the head ends: the start of the first line that opens a `func`, `type`, `var`
/// or `const` declaration at its first column (gofmt's place for them), or the text's
/// end. Such a line may stand in a block comment or a raw string; then the head's tree
/// says so (see [`read`]).
fn head_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut start = 0;
    while start < bytes.len() {
        let line = &bytes[start..];
        let opens = ["func", "type", "var", "const"].iter().any(|keyword| {
            line.starts_with(keyword.as_bytes())
                && matches!(line.get(keyword.len()), Some(b' ' | b'\t' | b'('))
        });
        if opens {
            return start;
        }
        match memchr::memchr(b'\n', line) {
            Some(at) => start += at + 1,
            None => break,
        }
    }
    text.len()
}

#[cfg(test)]
mod tests;
