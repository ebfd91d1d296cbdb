//! TypeScript, TSX and JavaScript: declarations (functions, classes, methods, interfaces,
//! type aliases, enums, namespaces, declared variables; a variable bound to a function is
//! a function) and imports (`import`, `export .. from`, `import x = require(..)`, and
//! `require('x')` / `import('x')` calls with the names a declaration binds to them).

pub mod imports;

use crate::reading::{function_in, unquoted, Declared, Import, Reader, SymbolKind};
use crate::{line_of, text_of};
use tree_sitter::Node;

pub struct TypeScript;

impl Reader for TypeScript {
    fn symbol<'t>(&self, node: Node<'t>, parent: Option<SymbolKind>) -> Option<Declared<'t>> {
        let kind = match node.kind() {
            "function_declaration" | "generator_function_declaration" | "function_signature" => {
                function_in(parent)
            }
            "class_declaration"
            | "abstract_class_declaration"
            | "interface_declaration"
            | "enum_declaration" => SymbolKind::Class,
            "type_alias_declaration" => SymbolKind::Type,
            "method_definition" | "method_signature" | "abstract_method_signature" => {
                SymbolKind::Method
            }
            "internal_module" | "module" => SymbolKind::Module,
            "variable_declarator" => {
                let name = node.child_by_field_name("name")?;
                if name.kind() != "identifier" {
                    return None;
                }
                let function = node.child_by_field_name("value").is_some_and(|v| {
                    matches!(
                        v.kind(),
                        "arrow_function"
                            | "function_expression"
                            | "function"
                            | "generator_function"
                    )
                });
                return Some(Declared {
                    kind: if function {
                        SymbolKind::Function
                    } else {
                        SymbolKind::Variable
                    },
                    name,
                });
            }
            _ => return None,
        };
        Declared::named(kind, node)
    }

    fn imports(&self, node: Node, text: &str, out: &mut Vec<Import>) -> bool {
        imports_of(node, text, &[], out)
    }
}

/// The file text a tree's nodes stand for: the parsed text itself, or (see
/// [`imports::read`]) a file whose statements were parsed apart, each node's bytes and
/// line mapped back to the file's.
pub(crate) trait Source {
    /// The file's text of `node`.
    fn text_of(&self, node: Node) -> &str;
    /// The file's 1-based line where `node` starts.
    fn line_of(&self, node: Node) -> u32;
    /// The file's offset where `node` starts.
    fn start_of(&self, node: Node) -> usize;
}

impl Source for str {
    fn text_of(&self, node: Node) -> &str {
        text_of(node, self)
    }

    fn line_of(&self, node: Node) -> u32 {
        line_of(node)
    }

    fn start_of(&self, node: Node) -> usize {
        node.start_byte()
    }
}

/// The import `node` makes, pushed to `out`; true when it was one (its children hold no
/// other). `lists` gives the names of the brace lists whose contents were left out of the
/// parse, by the offset of their `{` (see [`imports::read`]).
pub(crate) fn imports_of<S: Source + ?Sized>(
    node: Node,
    text: &S,
    lists: &[(usize, Vec<String>)],
    out: &mut Vec<Import>,
) -> bool {
    match node.kind() {
        "import_statement" | "export_statement" => {
            // One pass over the children: the `source` (of the statement, or of an
            // `import x = require('y')` clause) and the names the others bind.
            let mut source = None;
            let mut names = Vec::new();
            let mut cursor = node.walk();
            let mut more = cursor.goto_first_child();
            while more {
                let part = cursor.node();
                if cursor.field_name() == Some("source") {
                    source = Some(part);
                } else if part.is_named() {
                    if part.kind() == "import_require_clause" {
                        source = part.child_by_field_name("source");
                    }
                    bindings(part, text, lists, &mut names);
                }
                more = cursor.goto_next_sibling();
            }
            let Some(spec) = source.and_then(|s| unquoted(text.text_of(s))) else {
                // An export of a declaration holds calls to read.
                return false;
            };
            out.push(Import {
                spec: spec.to_string(),
                line: text.line_of(node),
                names,
            });
            true
        }
        "call_expression" => {
            let Some(spec) = loaded(node, text) else {
                return false;
            };
            out.push(Import {
                spec: spec.text.to_string(),
                line: text.line_of(spec.node),
                names: bound_to(node, text),
            });
            true
        }
        _ => false,
    }
}

/// The specifier of a `require('x')` or `import('x')` call.
struct Loaded<'a, 't> {
    text: &'a str,
    node: Node<'t>,
}

fn loaded<'a, 't, S: Source + ?Sized>(call: Node<'t>, text: &'a S) -> Option<Loaded<'a, 't>> {
    let function = call.child_by_field_name("function")?;
    let loads = function.kind() == "import"
        || function.kind() == "identifier" && text.text_of(function) == "require";
    if !loads {
        return None;
    }
    let arguments = call.child_by_field_name("arguments")?;
    if arguments.named_child_count() != 1 {
        return None;
    }
    let node = arguments.named_child(0)?;
    if node.kind() != "string" {
        return None;
    }
    Some(Loaded {
        text: unquoted(text.text_of(node))?,
        node,
    })
}

/// The names a declaration binds to a loaded module: `items` of
/// `const items = require('./items')`, `list` and `view` of
/// `const { list, show: view } = await import('./handlers')`.
fn bound_to<S: Source + ?Sized>(call: Node, text: &S) -> Vec<String> {
    let mut value = call;
    let mut declarator = call.parent();
    if let Some(wait) = declarator.filter(|p| p.kind() == "await_expression") {
        value = wait;
        declarator = wait.parent();
    }
    let Some(declarator) = declarator.filter(|d| {
        d.kind() == "variable_declarator"
            && d.child_by_field_name("value").map(|v| v.id()) == Some(value.id())
    }) else {
        return Vec::new();
    };
    let mut names = Vec::new();
    if let Some(name) = declarator.child_by_field_name("name") {
        bindings(name, text, &[], &mut names);
    }
    names
}

/// Local names an import clause, export clause or binding pattern binds: `A, { B, C as
/// D }` gives A, B, D; `* as NS` gives NS; `{ list, show: view }` gives list, view.
/// A brace list in `lists` (its contents left out of the parse) gives the names read there.
fn bindings<S: Source + ?Sized>(
    node: Node,
    text: &S,
    lists: &[(usize, Vec<String>)],
    names: &mut Vec<String>,
) {
    let kind = node.kind();
    if matches!(kind, "named_imports" | "export_clause") {
        if let Some((_, list)) = lists.iter().find(|(open, _)| *open == text.start_of(node)) {
            names.extend(list.iter().cloned());
            return;
        }
    }
    match kind {
        "identifier" | "shorthand_property_identifier_pattern" => {
            names.push(text.text_of(node).to_string())
        }
        "import_specifier" | "export_specifier" => {
            if let Some(local) = node
                .child_by_field_name("alias")
                .or_else(|| node.child_by_field_name("name"))
            {
                if local.kind() == "identifier" {
                    names.push(text.text_of(local).to_string());
                }
            }
        }
        // `show: view` binds `view`; a nested pattern binds no module.
        "pair_pattern" => {
            if let Some(value) = node
                .child_by_field_name("value")
                .filter(|v| v.kind() == "identifier")
            {
                names.push(text.text_of(value).to_string());
            }
        }
        "import_clause"
        | "named_imports"
        | "namespace_import"
        | "namespace_export"
        | "export_clause"
        | "import_require_clause"
        | "object_pattern" => {
            let mut cursor = node.walk();
            for part in node.named_children(&mut cursor) {
                // `import x = require('y')`: the source is no binding.
                if node.kind() == "import_require_clause" && part.kind() == "string" {
                    continue;
                }
                bindings(part, text, lists, names);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests;
