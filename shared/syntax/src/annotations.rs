//! `@qa` tags in the comments right above an exported declaration: what a product file
//! says of its own behaviour (`@qaFlow checkout`, `@qaOutcome shows the receipt`).

use std::collections::BTreeSet;

use tree_sitter::{Node, Tree};

use crate::{line_of, text_of, Grammar};

/// The tags read, without their `@`.
const TAGS: &[&str] = &["qaFlow", "qaStage", "qaOutcome", "qaRisk"];

/// One tag of a declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    /// The line of the declaration the tag is attached to (1-based).
    pub line: u32,
    /// The tag without `@`: `qaFlow`.
    pub tag: String,
    pub value: String,
}

/// The `@qaFlow`, `@qaStage`, `@qaOutcome` and `@qaRisk` tags of comments (`/** */`, `///`,
/// `//`, `#`) that stand alone on their lines directly above an exported declaration,
/// every line from the comment to the declaration in `lines` (the added ones) with no
/// blank line between; attributes and decorators may sit between. Exported: TypeScript's
/// `export` of a declaration, Rust's `pub fn`, a Python `def` at column 0 whose name
/// starts with a letter, a Go `func` whose name is capitalised. A tag anywhere else says
/// nothing.
pub fn read(grammar: Grammar, tree: &Tree, text: &str, lines: &BTreeSet<u32>) -> Vec<Annotation> {
    let mut out = Vec::new();
    crate::walk::descend(tree.root_node(), |node| {
        let span = line_of(node)..=crate::end_line_of(node);
        if lines.range(span.clone()).next().is_none() {
            return false;
        }
        if !is_comment(node) {
            return true;
        }
        if lines.contains(span.start()) && text_of(node, text).contains("@qa") {
            out.extend(tags_of(grammar, node, text, lines));
        }
        false
    });
    out
}

fn is_comment(node: Node) -> bool {
    matches!(node.kind(), "comment" | "line_comment" | "block_comment")
}

/// The tags of one comment, placed on the declaration it stands above (none when it
/// stands above none).
fn tags_of(grammar: Grammar, comment: Node, text: &str, lines: &BTreeSet<u32>) -> Vec<Annotation> {
    let line_start = text[..comment.start_byte()]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    if !text[line_start..comment.start_byte()].trim().is_empty() {
        return Vec::new();
    }
    let Some(line) = declaration_below(grammar, comment, text, lines) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for piece in text_of(comment, text).lines() {
        let piece = piece.split("*/").next().unwrap_or(piece);
        collect(piece, &mut found);
    }
    found
        .into_iter()
        .map(|(tag, value)| Annotation { line, tag, value })
        .collect()
}

/// The line of the exported declaration right below `comment`, past other comments,
/// attributes and decorators, on added lines with no gap.
fn declaration_below(
    grammar: Grammar,
    comment: Node,
    text: &str,
    lines: &BTreeSet<u32>,
) -> Option<u32> {
    let mut last = crate::end_line_of(comment);
    let mut next = comment.next_named_sibling()?;
    loop {
        let first = line_of(next);
        if first > last + 1 || !(line_of(comment)..=first).all(|l| lines.contains(&l)) {
            return None;
        }
        let between = is_comment(next)
            || matches!(next.kind(), "attribute_item" | "decorator" | "annotation");
        if !between {
            break;
        }
        last = crate::end_line_of(next);
        next = next.next_named_sibling()?;
    }
    let line = exported(grammar, next, text)?;
    (line_of(comment)..=line)
        .all(|l| lines.contains(&l))
        .then_some(line)
}

/// The line where `node` declares an exported function, class, type or value.
fn exported(grammar: Grammar, node: Node, text: &str) -> Option<u32> {
    match grammar {
        Grammar::TypeScript | Grammar::Tsx | Grammar::JavaScript => {
            if node.kind() != "export_statement" {
                return None;
            }
            let declares = node.child_by_field_name("declaration").is_some()
                || node.child_by_field_name("value").is_some_and(|v| {
                    matches!(v.kind(), "function_expression" | "function" | "class")
                });
            // Decorators stand inside the statement: its line is the keyword's.
            let mut cursor = node.walk();
            let keyword = node.children(&mut cursor).find(|c| c.kind() == "export");
            declares.then(|| keyword.map_or(line_of(node), line_of))
        }
        Grammar::Rust => {
            let mut cursor = node.walk();
            let public = node
                .named_children(&mut cursor)
                .any(|c| c.kind() == "visibility_modifier" && text_of(c, text) == "pub");
            (node.kind() == "function_item" && public).then(|| line_of(node))
        }
        Grammar::Python => {
            let def = if node.kind() == "decorated_definition" {
                node.child_by_field_name("definition")?
            } else {
                node
            };
            let name = text_of(def.child_by_field_name("name")?, text);
            (def.kind() == "function_definition"
                && def.start_position().column == 0
                && name.starts_with(|c: char| c.is_ascii_alphabetic()))
            .then(|| line_of(def))
        }
        Grammar::Go => {
            let name = text_of(node.child_by_field_name("name")?, text);
            (matches!(node.kind(), "function_declaration" | "method_declaration")
                && name.starts_with(char::is_uppercase))
            .then(|| line_of(node))
        }
        Grammar::Java | Grammar::Kotlin => None,
    }
}

/// The tags of one comment line: each tag's value runs to the next tag or the line's end.
fn collect(piece: &str, into: &mut Vec<(String, String)>) {
    let mut at: Vec<(usize, usize, &str)> = Vec::new();
    for (i, _) in piece.match_indices("@qa") {
        let rest = &piece[i + 1..];
        let Some(tag) = TAGS.iter().find(|t| rest.starts_with(**t)) else {
            continue;
        };
        let end = i + 1 + tag.len();
        let bounded = !piece[end..].starts_with(|c: char| c.is_alphanumeric() || c == '_');
        if bounded {
            at.push((i, end, tag));
        }
    }
    for (k, &(_, end, tag)) in at.iter().enumerate() {
        let stop = at.get(k + 1).map_or(piece.len(), |next| next.0);
        let value = piece[end..stop].trim().trim_end_matches('*').trim();
        if !value.is_empty() {
            into.push((tag.to_string(), value.to_string()));
        }
    }
}

#[cfg(test)]
mod tests;
