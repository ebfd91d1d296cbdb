//! Python's imports from a tree of the part of a module that can hold them: every
//! import statement holds the keyword `import`, so the parse stops where the statement
//! of the text's last word `import` ends (a module without one has none).

use super::Python;
use crate::reading::{Import, Reader};
use crate::walk::descend;
use crate::{read_cut, Grammar};

/// The imports of a Python module, in the order they stand, at any depth (a function's
/// own `import` too). The text only chooses where the parse stops; every import is an
/// import statement of the tree.
pub fn read(text: &str) -> Vec<Import> {
    let Some(end) = last_import_line_end(text) else {
        return Vec::new();
    };
    // A cut in a string (the last `import` is prose in a docstring) has an error, and
    // the whole module is read.
    read_cut(Grammar::Python, text, end, |tree| {
        let mut out = Vec::new();
        // Only nodes that hold statements are entered: an import is a statement, and
        // expressions hold none.
        descend(tree.root_node(), |node| {
            !Python.imports(node, text, &mut out) && holds_statements(node.kind())
        });
        out
    })
    .unwrap_or_default()
}

/// Node kinds whose children may be statements: the module, blocks, the compound
/// statements and their clauses, and `ERROR` (code the grammar could not place).
fn holds_statements(kind: &str) -> bool {
    matches!(
        kind,
        "module"
            | "block"
            | "ERROR"
            | "decorated_definition"
            | "function_definition"
            | "class_definition"
            | "if_statement"
            | "for_statement"
            | "while_statement"
            | "try_statement"
            | "with_statement"
            | "match_statement"
    ) || kind.ends_with("_clause")
}

/// Where the statement of the text's last word `import` (not part of a longer name)
/// ends at the latest: the end of its line, or of the line of the first `)` after it
/// when the line opens a parenthesised list (`from m import (`), or of the first line
/// after it not ending in `\\`. None when the text holds no such word.
fn last_import_line_end(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let word = |b: u8| b == b'_' || b.is_ascii_alphanumeric() || b >= 0x80;
    let at = memchr::memmem::rfind_iter(bytes, b"import").find(|&at| {
        let before = at.checked_sub(1).map(|i| bytes[i]);
        let after = bytes.get(at + "import".len()).copied();
        !before.is_some_and(word) && !after.is_some_and(word)
    })?;
    let line_end =
        |from: usize| memchr::memchr(b'\n', &bytes[from..]).map_or(text.len(), |n| from + n + 1);
    let mut end = line_end(at);
    let line = &bytes[at..end];
    if memchr::memchr(b'(', line).is_some() && memchr::memchr(b')', line).is_none() {
        end = memchr::memchr(b')', &bytes[end..]).map_or(text.len(), |n| line_end(end + n));
    }
    while bytes[..end].trim_ascii_end().ends_with(b"\\") && end < text.len() {
        end = line_end(end);
    }
    Some(end)
}

#[cfg(test)]
mod tests;
