//! The one walk over a tree that every language shares: each node is asked of the
//! language's [`Reader`] whether it declares a symbol or imports, and symbols nest by
//! their byte spans.

use crate::{end_line_of, line_of, text_of, File};
use tree_sitter::Node;

/// What a declaration is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    /// A function outside a class, or a closure bound to a name (`const f = () => ..`).
    Function,
    /// A function of a class, trait, interface, object or `impl` block.
    Method,
    /// A class, struct, enum, union, trait, interface, object or record.
    Class,
    /// A type alias.
    Type,
    /// A named constant or variable of a file, class or function.
    Variable,
    /// An inline module or namespace.
    Module,
    /// A Rust `impl` block, named by its type.
    Impl,
}

/// A declared name with its line span (1-based, inclusive).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub kind: SymbolKind,
    pub name: String,
    /// The line of the name.
    pub line: u32,
    /// The declaration's first and last lines (attributes and decorators excluded).
    pub start: u32,
    pub end: u32,
    /// The innermost symbol around this one (an index into the same list).
    pub parent: Option<usize>,
}

/// A module a file imports, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    /// The module specifier: `./Button`, `shop.pricing`, `crate::db::Pool`,
    /// `example.com/shop/db`, `java.util.List`; Rust's `mod db;` is `mod db`.
    pub spec: String,
    /// The line of the statement (a call's: of its specifier).
    pub line: u32,
    /// Local names it binds (an alias when there is one; Python's `from m import y as z`
    /// gives `y`, what it takes from `m`).
    pub names: Vec<String>,
}

/// A declaration a node makes: its kind and the node holding its name.
pub struct Declared<'t> {
    pub kind: SymbolKind,
    pub name: Node<'t>,
}

impl<'t> Declared<'t> {
    /// The declaration `node` makes, named by its `name` field.
    pub fn named(kind: SymbolKind, node: Node<'t>) -> Option<Declared<'t>> {
        Some(Declared {
            kind,
            name: node.child_by_field_name("name")?,
        })
    }
}

/// An import of a dotted path (Java, Kotlin): `a.b.C` binds `C` (or its alias), `a.b.*`
/// binds nothing.
pub fn dotted(path: &str, glob: bool, alias: Option<&str>, line: u32) -> Import {
    let path: String = path.split_whitespace().collect();
    let names = match (glob, alias) {
        (true, _) => Vec::new(),
        (false, Some(alias)) => vec![alias.to_string()],
        (false, None) => vec![path.rsplit('.').next().unwrap_or(&path).to_string()],
    };
    Import {
        spec: if glob { format!("{path}.*") } else { path },
        line,
        names,
    }
}

/// One language's reading of its nodes.
pub trait Reader: Sync {
    /// The symbol `node` declares, if any. `parent` is the kind of the innermost symbol
    /// around it.
    fn symbol<'t>(&self, node: Node<'t>, parent: Option<SymbolKind>) -> Option<Declared<'t>>;

    /// The imports `node` makes, pushed on `out`; true when the node was one (its
    /// subtree holds no other).
    fn imports(&self, node: Node, text: &str, out: &mut Vec<Import>) -> bool;
}

/// Every symbol and import below `root`, in document order. The walk keeps its own stack
/// (no recursion), so a deeply nested input costs memory, never the thread's stack.
pub fn read(reader: &dyn Reader, root: Node, text: &str) -> File {
    let mut file = File::default();
    // The symbols whose span the walk is inside: (index, end byte).
    let mut open: Vec<(usize, usize)> = Vec::new();
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        while open
            .last()
            .is_some_and(|&(_, end)| end <= node.start_byte())
        {
            open.pop();
        }
        let parent = open.last().map(|&(i, _)| i);
        let mut descend = true;
        if reader.imports(node, text, &mut file.imports) {
            descend = false;
        } else if let Some(declared) = reader.symbol(node, parent.map(|i| file.symbols[i].kind)) {
            let name = text_of(declared.name, text).to_string();
            if !name.is_empty() {
                open.push((file.symbols.len(), node.end_byte()));
                file.symbols.push(Symbol {
                    kind: declared.kind,
                    name,
                    line: line_of(declared.name),
                    start: line_of(node),
                    end: end_line_of(node),
                    parent,
                });
            }
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return file;
            }
        }
    }
}

/// A function inside a class-like symbol is its method.
pub fn function_in(parent: Option<SymbolKind>) -> SymbolKind {
    match parent {
        Some(SymbolKind::Class | SymbolKind::Impl) => SymbolKind::Method,
        _ => SymbolKind::Function,
    }
}

/// The child of `node` with one of `kinds`.
pub fn child_of_kind<'t>(node: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    let found = node
        .named_children(&mut cursor)
        .find(|c| kinds.contains(&c.kind()));
    found
}

/// A quoted literal's contents (`'./a'`, `"fmt"`, `` `raw` ``); None when empty or not
/// quoted.
pub fn unquoted(literal: &str) -> Option<&str> {
    let inner = literal.get(1..literal.len().checked_sub(1)?)?;
    let quoted = matches!(literal.as_bytes()[0], b'\'' | b'"' | b'`')
        && literal.as_bytes()[literal.len() - 1] == literal.as_bytes()[0];
    (quoted && !inner.is_empty()).then_some(inner)
}
