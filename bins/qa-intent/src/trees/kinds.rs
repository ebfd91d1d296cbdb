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

/// The parent of a node or of one of its ancestors: the walk knows them, where
/// tree-sitter searches down from the root for each.
pub type Up<'a, 't> = &'a dyn Fn(Node<'t>) -> Option<Node<'t>>;

/// The role of `node` (of `kind`, its kind's name) in a file of `grammar`, if any; `up`
/// gives the parents above it.
pub fn role<'t>(
    grammar: Grammar,
    node: Node<'t>,
    kind: &str,
    text: &str,
    up: Up<'_, 't>,
) -> Option<Role<'t>> {
    match grammar {
        Grammar::Rust => rust(node, kind, text, up),
        Grammar::TypeScript | Grammar::Tsx | Grammar::JavaScript => {
            ecmascript(grammar, node, kind, up)
        }
        Grammar::Python => python(node, kind, up),
        Grammar::Go => go(node, kind, text, up),
        Grammar::Java => java(node, kind, text, up),
        Grammar::Kotlin => kotlin(node, kind, text, up),
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

fn parent_kind<'t>(node: Node<'t>, up: Up<'_, 't>) -> &'t str {
    up(node).map_or("", |p| p.kind())
}

fn rust<'t>(node: Node<'t>, kind: &str, text: &str, up: Up<'_, 't>) -> Option<Role<'t>> {
    match kind {
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
            let parent = up(node)?;
            let owner = match parent.kind() {
                "reference_expression" => up(parent)?,
                _ => parent,
            };
            matches!(owner.kind(), "const_item" | "static_item").then_some(Role::List)
        }
        "match_arm" => field(node, "pattern").map(Role::Arm),
        _ => None,
    }
}

fn ecmascript<'t>(
    grammar: Grammar,
    node: Node<'t>,
    kind: &str,
    up: Up<'_, 't>,
) -> Option<Role<'t>> {
    let ts = grammar != Grammar::JavaScript;
    match kind {
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
            let mut owner = up(node)?;
            if owner.kind() == "arguments" {
                owner = up(owner).filter(|p| p.kind() == "new_expression")?;
                owner = up(owner)?;
            } else if owner.kind() == "as_expression" && ts {
                owner = up(owner)?;
            }
            (owner.kind() == "variable_declarator").then_some(Role::List)
        }
        "switch_case" => field(node, "value").map(Role::Arm),
        _ => None,
    }
}

fn python<'t>(node: Node<'t>, kind: &str, up: Up<'_, 't>) -> Option<Role<'t>> {
    match kind {
        "function_definition" => item(ItemKind::Function, node, "name", Some("parameters")),
        "class_definition" => item(ItemKind::Type, node, "name", None),
        "assignment" => {
            // A module-level constant: `KINDS = [...]`.
            let left = field(node, "left").filter(|l| l.kind() == "identifier")?;
            let right = field(node, "right")?;
            let module_level = up(node)
                .filter(|p| p.kind() == "expression_statement")
                .is_some_and(|p| parent_kind(p, up) == "module");
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
            let owner = up(node).filter(|p| p.kind() == "assignment")?;
            let is_value = field(owner, "right").is_some_and(|r| r == node);
            let module_level = up(owner)
                .filter(|p| p.kind() == "expression_statement")
                .is_some_and(|p| parent_kind(p, up) == "module");
            (is_value && module_level).then_some(Role::List)
        }
        "case_pattern" if parent_kind(node, up) == "case_clause" => Some(Role::Arm(node)),
        _ => None,
    }
}

fn go<'t>(node: Node<'t>, kind: &str, text: &str, up: Up<'_, 't>) -> Option<Role<'t>> {
    match kind {
        "function_declaration" | "method_declaration" => {
            item(ItemKind::Function, node, "name", Some("parameters"))
        }
        "type_spec" if parent_kind(node, up) == "type_declaration" => {
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
            let literal = up(node).filter(|p| p.kind() == "composite_literal")?;
            let list = up(literal).filter(|p| p.kind() == "expression_list")?;
            matches!(parent_kind(list, up), "var_spec" | "const_spec").then_some(Role::List)
        }
        "expression_case" => field(node, "value").map(Role::Arm),
        _ => None,
    }
}

fn java<'t>(node: Node<'t>, kind: &str, text: &str, up: Up<'_, 't>) -> Option<Role<'t>> {
    match kind {
        "class_declaration"
        | "interface_declaration"
        | "enum_declaration"
        | "record_declaration"
        | "annotation_type_declaration" => item(ItemKind::Type, node, "name", None),
        "method_declaration" | "constructor_declaration" => {
            item(ItemKind::Function, node, "name", Some("parameters"))
        }
        // `static final List<String> KINDS = List.of(...)`: one item per declaration,
        // named by its first declarator (lambdas assigned to fields are no items of
        // their own either).
        "field_declaration" | "constant_declaration" => Some(Role::Item {
            kind: if java_constant(node) {
                ItemKind::Constant
            } else {
                ItemKind::Field
            },
            name: field(field(node, "declarator")?, "name")?,
            params: None,
        }),
        "if_statement" | "while_statement" | "do_statement" | "for_statement"
        | "ternary_expression" => field(node, "condition").map(Role::Condition),
        // `case Integer i when i > 0`: the guard's expression.
        "guard" => {
            let mut walk = node.walk();
            let expr = node
                .named_children(&mut walk)
                .find(|c| !c.kind().contains("comment"));
            expr.map(Role::Condition)
        }
        "throw_statement" => Some(Role::Exit(ExitKind::Throw)),
        "array_initializer" | "argument_list" if java_constant_value(node, text, up) => {
            Some(Role::List)
        }
        // An enum's constants are the values it allows, like a constant list's elements.
        "enum_constant" => Some(Role::Arm(node)),
        // `case "a" ->`, `case Integer i when ...`: the one value or pattern, else the
        // whole label (`case 1, 2`); `default` is no arm.
        "switch_label" => {
            let mut walk = node.walk();
            let values: Vec<Node> = node
                .named_children(&mut walk)
                .filter(|c| c.kind() != "guard" && !c.kind().contains("comment"))
                .collect();
            match values.as_slice() {
                [] => None,
                [one] => Some(Role::Arm(*one)),
                _ => Some(Role::Arm(node)),
            }
        }
        _ => None,
    }
}

/// An interface's field, or a `static final` one.
fn java_constant(declaration: Node) -> bool {
    if declaration.kind() == "constant_declaration" {
        return true;
    }
    let mut walk = declaration.walk();
    let Some(modifiers) = declaration
        .named_children(&mut walk)
        .find(|c| c.kind() == "modifiers")
    else {
        return false;
    };
    let mut walk = modifiers.walk();
    let kinds: Vec<&str> = modifiers.children(&mut walk).map(|c| c.kind()).collect();
    kinds.contains(&"static") && kinds.contains(&"final")
}

/// Collection factories whose arguments are the collection's elements.
const JAVA_FACTORIES: &[&str] = &[
    "of",
    "asList",
    "newArrayList",
    "newHashSet",
    "newLinkedHashSet",
];

/// True for an array initializer, or the arguments of `List.of`/`Set.of`/`Map.of`/
/// `Arrays.asList`, that is a field's value, through wrappers such as
/// `new HashSet<>(...)`, `Collections.unmodifiableList(...)` or `new String[] {...}`.
fn java_constant_value<'t>(list: Node<'t>, text: &str, up: Up<'_, 't>) -> bool {
    let mut at = list;
    if list.kind() == "argument_list" {
        let Some(call) = up(list).filter(|c| c.kind() == "method_invocation") else {
            return false;
        };
        let factory =
            field(call, "name").is_some_and(|n| JAVA_FACTORIES.contains(&text_of(n, text)));
        if !factory {
            return false;
        }
        at = call;
    }
    for _ in 0..6 {
        let Some(parent) = up(at) else {
            return false;
        };
        match parent.kind() {
            "variable_declarator" => {
                return field(parent, "value") == Some(at)
                    && matches!(
                        parent_kind(parent, up),
                        "field_declaration" | "constant_declaration"
                    );
            }
            "array_creation_expression" => at = parent,
            // `List.of(...).stream()...`: the receiver of a chained call.
            "method_invocation" if field(parent, "object") == Some(at) => at = parent,
            "argument_list" => {
                let call = up(parent).filter(|c| {
                    matches!(c.kind(), "method_invocation" | "object_creation_expression")
                });
                let Some(call) = call else { return false };
                at = call;
            }
            _ => return false,
        }
    }
    false
}

/// The first named child of `node` of one of `kinds`.
fn child_of_kind<'t>(node: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
    let mut walk = node.walk();
    let found = node
        .named_children(&mut walk)
        .find(|c| kinds.contains(&c.kind()));
    found
}

fn kotlin<'t>(node: Node<'t>, kind: &str, text: &str, up: Up<'_, 't>) -> Option<Role<'t>> {
    match kind {
        // `class`, `interface`, `enum class`, `data class` are all `class_declaration`.
        "class_declaration" | "object_declaration" => item(ItemKind::Type, node, "name", None),
        "function_declaration" => Some(Role::Item {
            kind: ItemKind::Function,
            name: field(node, "name")?,
            params: child_of_kind(node, &["function_value_parameters"]),
        }),
        // A property of a file, class or object (a local `val` is no item).
        "property_declaration"
            if matches!(
                parent_kind(node, up),
                "source_file" | "class_body" | "enum_class_body"
            ) =>
        {
            let declared = child_of_kind(node, &["variable_declaration"])?;
            Some(Role::Item {
                kind: if kotlin_constant(node, text, up) {
                    ItemKind::Constant
                } else {
                    ItemKind::Field
                },
                name: child_of_kind(declared, &["identifier"])?,
                params: None,
            })
        }
        "if_expression" | "while_statement" | "do_while_statement" => {
            field(node, "condition").map(Role::Condition)
        }
        // `when (x) { 1 -> .. }`: the entry's value is an arm; `when { x > 1 -> .. }`: a
        // condition.
        "when_entry" => {
            let condition = field(node, "condition")?;
            let subject = up(node).and_then(|w| child_of_kind(w, &["when_subject"]));
            Some(match subject {
                Some(_) => Role::Arm(condition),
                None => Role::Condition(condition),
            })
        }
        "throw_expression" => Some(Role::Exit(ExitKind::Throw)),
        // `error("..")` and `TODO()` throw (kotlin's standard library).
        "call_expression" => {
            let callee = node.named_child(0)?;
            (callee.kind() == "identifier" && matches!(text_of(callee, text), "error" | "TODO"))
                .then_some(Role::Exit(ExitKind::Throw))
        }
        "value_arguments" if kotlin_constant_value(node, text, up) => Some(Role::List),
        "enum_entry" => Some(Role::Arm(node)),
        _ => None,
    }
}

/// A `const val`, or a `val` of a file or an `object` (companions included).
fn kotlin_constant<'t>(declaration: Node<'t>, text: &str, up: Up<'_, 't>) -> bool {
    let constant = child_of_kind(declaration, &["modifiers"])
        .is_some_and(|m| text_of(m, text).split_whitespace().any(|w| w == "const"));
    let val = declaration
        .child(u32::from(
            child_of_kind(declaration, &["modifiers"]).is_some(),
        ))
        .is_some_and(|k| k.kind() == "val");
    let owner = up(declaration)
        .filter(|b| b.kind() == "class_body")
        .and_then(up)
        .map_or("source_file", |o| o.kind());
    constant
        || val
            && matches!(
                owner,
                "source_file" | "object_declaration" | "companion_object"
            )
}

/// Collection factories whose arguments are the collection's elements.
const KOTLIN_FACTORIES: &[&str] = &[
    "listOf",
    "setOf",
    "mapOf",
    "arrayOf",
    "mutableListOf",
    "mutableSetOf",
    "mutableMapOf",
    "hashSetOf",
    "linkedSetOf",
];

/// True for the arguments of `listOf(...)`/`setOf(...)`/`mapOf(...)` that are a
/// constant's value (`val KINDS = listOf("a")`, `setOf(..).toSortedSet()` too).
fn kotlin_constant_value<'t>(args: Node<'t>, text: &str, up: Up<'_, 't>) -> bool {
    let Some(call) = up(args).filter(|c| c.kind() == "call_expression") else {
        return false;
    };
    let factory = call
        .named_child(0)
        .is_some_and(|f| f.kind() == "identifier" && KOTLIN_FACTORIES.contains(&text_of(f, text)));
    if !factory {
        return false;
    }
    let mut at = call;
    for _ in 0..4 {
        let Some(parent) = up(at) else {
            return false;
        };
        match parent.kind() {
            "property_declaration" => {
                return matches!(parent_kind(parent, up), "source_file" | "class_body");
            }
            // `listOf(..).map { .. }`: the receiver of a chained call.
            "navigation_expression" | "call_expression" => at = parent,
            _ => return false,
        }
    }
    false
}
