//! What each grammar's nodes are to an outline: items, conditions, error exits, constant
//! lists and match arms, by node kind and field.
//!
//! A table of kinds, not tree-sitter queries: compiling a query costs its grammar's
//! analysis (1 to 12 ms a grammar, measured), more than reading a small change, and these
//! facts need no more than a node's kind, fields and parent.

use tree_sitter::Node;

use super::{text_of, ExitKind, Grammar, ItemKind};

/// The part a node plays in the outline.
pub enum Role<'t> {
    Item {
        kind: ItemKind,
        name: Node<'t>,
        params: Option<Node<'t>>,
    },
    /// The condition expression of the node (an `if`, a `while`, a match guard).
    Condition(Node<'t>),
    Exit(ExitKind),
    /// A list, set or map literal that is a constant's value.
    List,
    /// A match arm's or a case's pattern.
    Arm(Node<'t>),
}

/// The role of `node` in a file of `grammar`, if any.
pub fn role<'t>(grammar: Grammar, node: Node<'t>, text: &str) -> Option<Role<'t>> {
    match grammar {
        Grammar::Rust => rust(node, text),
        Grammar::TypeScript | Grammar::Tsx | Grammar::JavaScript => ecmascript(grammar, node),
        Grammar::Python => python(node),
        Grammar::Go => go(node, text),
    }
}

fn field<'t>(node: Node<'t>, name: &str) -> Option<Node<'t>> {
    node.child_by_field_name(name)
}

fn item<'t>(kind: ItemKind, node: Node<'t>, name: &str, params: Option<&str>) -> Option<Role<'t>> {
    Some(Role::Item {
        kind,
        name: field(node, name)?,
        params: params.and_then(|p| field(node, p)),
    })
}

fn parent_kind<'t>(node: Node<'t>) -> &'t str {
    node.parent().map_or("", |p| p.kind())
}

fn rust<'t>(node: Node<'t>, text: &str) -> Option<Role<'t>> {
    match node.kind() {
        "function_item" => item(ItemKind::Function, node, "name", Some("parameters")),
        "struct_item" | "enum_item" | "trait_item" => item(ItemKind::Type, node, "name", None),
        "impl_item" => item(ItemKind::Type, node, "type", None),
        "const_item" | "static_item" => item(ItemKind::Constant, node, "name", None),
        "macro_definition" => item(ItemKind::Macro, node, "name", None),
        "mod_item" => item(ItemKind::Module, node, "name", None),
        "if_expression" | "while_expression" | "match_pattern" => {
            field(node, "condition").map(Role::Condition)
        }
        "macro_invocation" => {
            let name = field(node, "macro")?;
            let name = match name.kind() {
                "scoped_identifier" => field(name, "name")?,
                _ => name,
            };
            match text_of(name, text) {
                "panic" | "todo" | "unimplemented" | "unreachable" => {
                    Some(Role::Exit(ExitKind::Panic))
                }
                "bail" => Some(Role::Exit(ExitKind::Error)),
                _ => None,
            }
        }
        "call_expression" => {
            let f = field(node, "function")?;
            match f.kind() {
                "identifier" if text_of(f, text) == "Err" => Some(Role::Exit(ExitKind::Error)),
                "field_expression" => {
                    let name = text_of(field(f, "field")?, text);
                    matches!(name, "unwrap" | "expect").then_some(Role::Exit(ExitKind::Unwrap))
                }
                _ => None,
            }
        }
        "array_expression" => {
            // `const X: &[&str] = &["a"]` or `= ["a"]`.
            let parent = node.parent()?;
            let owner = match parent.kind() {
                "reference_expression" => parent.parent()?,
                _ => parent,
            };
            matches!(owner.kind(), "const_item" | "static_item").then_some(Role::List)
        }
        "match_arm" => field(node, "pattern").map(Role::Arm),
        _ => None,
    }
}

fn ecmascript(grammar: Grammar, node: Node) -> Option<Role> {
    let ts = grammar != Grammar::JavaScript;
    match node.kind() {
        "function_declaration" | "generator_function_declaration" | "method_definition" => {
            item(ItemKind::Function, node, "name", Some("parameters"))
        }
        "variable_declarator" => {
            let name = field(node, "name").filter(|n| n.kind() == "identifier")?;
            let kind = match field(node, "value")?.kind() {
                "arrow_function" | "function_expression" | "function" => ItemKind::Function,
                "array" | "object" | "new_expression" => ItemKind::Constant,
                _ => return None,
            };
            Some(Role::Item {
                kind,
                name,
                params: None,
            })
        }
        "class_declaration" | "class" => item(ItemKind::Type, node, "name", None),
        "abstract_class_declaration"
        | "interface_declaration"
        | "type_alias_declaration"
        | "enum_declaration"
            if ts =>
        {
            item(ItemKind::Type, node, "name", None)
        }
        "if_statement" | "while_statement" | "ternary_expression" => {
            field(node, "condition").map(Role::Condition)
        }
        "throw_statement" => Some(Role::Exit(ExitKind::Throw)),
        "array" | "object" => {
            // A constant's value: `const K = [...]`, `new Set([...])`, `[...] as const`.
            let mut owner = node.parent()?;
            if owner.kind() == "arguments" {
                owner = owner.parent().filter(|p| p.kind() == "new_expression")?;
                owner = owner.parent()?;
            } else if owner.kind() == "as_expression" && ts {
                owner = owner.parent()?;
            }
            (owner.kind() == "variable_declarator").then_some(Role::List)
        }
        "switch_case" => field(node, "value").map(Role::Arm),
        _ => None,
    }
}

fn python(node: Node) -> Option<Role> {
    match node.kind() {
        "function_definition" => item(ItemKind::Function, node, "name", Some("parameters")),
        "class_definition" => item(ItemKind::Type, node, "name", None),
        "assignment" => {
            // A module-level constant: `KINDS = [...]`.
            let left = field(node, "left").filter(|l| l.kind() == "identifier")?;
            let right = field(node, "right")?;
            let module_level = node
                .parent()
                .filter(|p| p.kind() == "expression_statement")
                .is_some_and(|p| parent_kind(p) == "module");
            (module_level && matches!(right.kind(), "list" | "set" | "dictionary" | "tuple"))
                .then_some(Role::Item {
                    kind: ItemKind::Constant,
                    name: left,
                    params: None,
                })
        }
        "if_statement" | "elif_clause" | "while_statement" => {
            field(node, "condition").map(Role::Condition)
        }
        "raise_statement" => Some(Role::Exit(ExitKind::Throw)),
        "list" | "set" | "dictionary" | "tuple" => {
            let owner = node.parent().filter(|p| p.kind() == "assignment")?;
            let is_value = field(owner, "right").is_some_and(|r| r == node);
            let module_level = owner
                .parent()
                .filter(|p| p.kind() == "expression_statement")
                .is_some_and(|p| parent_kind(p) == "module");
            (is_value && module_level).then_some(Role::List)
        }
        "case_pattern" if parent_kind(node) == "case_clause" => Some(Role::Arm(node)),
        _ => None,
    }
}

fn go<'t>(node: Node<'t>, text: &str) -> Option<Role<'t>> {
    match node.kind() {
        "function_declaration" | "method_declaration" => {
            item(ItemKind::Function, node, "name", Some("parameters"))
        }
        "type_spec" if parent_kind(node) == "type_declaration" => {
            item(ItemKind::Type, node, "name", None)
        }
        "var_spec" | "const_spec" => item(ItemKind::Constant, node, "name", None),
        "if_statement" => field(node, "condition").map(Role::Condition),
        "for_clause" => field(node, "condition").map(Role::Condition),
        "call_expression" => {
            let f = field(node, "function")?;
            match f.kind() {
                "identifier" if text_of(f, text) == "panic" => Some(Role::Exit(ExitKind::Panic)),
                "selector_expression" => {
                    let pkg = text_of(field(f, "operand")?, text);
                    let name = text_of(field(f, "field")?, text);
                    (matches!(pkg, "errors" | "fmt" | "log")
                        && matches!(
                            name,
                            "New" | "Errorf" | "Fatal" | "Fatalf" | "Panic" | "Panicf"
                        ))
                    .then_some(Role::Exit(ExitKind::Error))
                }
                _ => None,
            }
        }
        "literal_value" => {
            // `var kinds = []string{...}`: the body of a spec's composite literal value.
            let literal = node.parent().filter(|p| p.kind() == "composite_literal")?;
            let list = literal.parent().filter(|p| p.kind() == "expression_list")?;
            matches!(parent_kind(list), "var_spec" | "const_spec").then_some(Role::List)
        }
        "expression_case" => field(node, "value").map(Role::Arm),
        _ => None,
    }
}
