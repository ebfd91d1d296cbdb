//! Vue and Svelte single-file components, split by the HTML grammar: the `<script>` blocks
//! (each read by the TypeScript or JavaScript grammar over its own bytes, so lines and
//! offsets are the file's) and the markup around them (Vue's `<template>`, Svelte's
//! top-level markup). A `<script>` inside a comment or a string is no block.

use crate::reading::child_of_kind;
use crate::{read_node, text_of, File, Grammar};
use std::ops::Range;
use tree_sitter::{Node, Parser, Tree};

/// True for a path the component reader takes: `.vue`, `.svelte`.
pub fn is_component(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && matches!(ext.to_ascii_lowercase().as_str(), "vue" | "svelte")
    })
}

/// One `<script>` block: its code's bytes and the grammar its `lang` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    pub grammar: Grammar,
    /// The code between `<script ..>` and `</script>`.
    pub bytes: Range<usize>,
    /// The code's first line (1-based).
    pub line: u32,
    /// Vue's `<script setup>`, Svelte's `<script context="module">` is not.
    pub setup: bool,
    range: tree_sitter::Range,
}

/// A component's parts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Component {
    pub scripts: Vec<Script>,
    /// Top-level markup: elements and text that are neither `<script>` nor `<style>`
    /// (Vue's `<template>` element whole).
    pub markup: Vec<Range<usize>>,
}

/// The HTML tree of a component.
pub fn parse_html(text: &str) -> Option<Tree> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_html::LANGUAGE.into())
        .ok()?;
    parser.parse(text, None)
}

/// The script blocks and markup of a component (empty when the parser gives up).
pub fn split(text: &str) -> Component {
    parse_html(text).map_or_else(Component::default, |tree| split_tree(&tree, text))
}

/// The script blocks and markup of a component already parsed by [`parse_html`].
pub fn split_tree(tree: &Tree, text: &str) -> Component {
    let root = tree.root_node();
    let mut component = Component::default();
    let mut cursor = root.walk();
    for node in root.named_children(&mut cursor) {
        match node.kind() {
            "script_element" => component.scripts.extend(script(node, text)),
            "style_element" | "comment" => {}
            _ => component.markup.push(node.byte_range()),
        }
    }
    component
}

/// The code of a `<script>` element and its grammar; None for an empty block or a
/// language without a grammar (`lang="coffee"`).
fn script(element: Node, text: &str) -> Option<Script> {
    let code = child_of_kind(element, &["raw_text"])?;
    let tag = child_of_kind(element, &["start_tag"])?;
    let mut lang = None;
    let mut setup = false;
    let mut cursor = tag.walk();
    for attribute in tag.named_children(&mut cursor) {
        if attribute.kind() != "attribute" {
            continue;
        }
        let name = child_of_kind(attribute, &["attribute_name"]).map_or("", |n| text_of(n, text));
        let value = child_of_kind(attribute, &["quoted_attribute_value", "attribute_value"])
            .map(|v| text_of(v, text).trim_matches(['"', '\'']));
        match name.to_ascii_lowercase().as_str() {
            "lang" => lang = value,
            "setup" => setup = true,
            _ => {}
        }
    }
    let grammar = match lang.map(str::to_ascii_lowercase).as_deref() {
        None | Some("js" | "javascript" | "jsx") => Grammar::JavaScript,
        Some("ts" | "typescript") => Grammar::TypeScript,
        Some("tsx") => Grammar::Tsx,
        Some(_) => return None,
    };
    Some(Script {
        grammar,
        bytes: code.byte_range(),
        line: u32::try_from(code.start_position().row + 1).unwrap_or(u32::MAX),
        setup,
        range: code.range(),
    })
}

/// The tree of one script block, parsed over the component's whole text with only the
/// block included: its nodes' bytes and lines are the component's.
pub fn parse_script(text: &str, script: &Script) -> Option<Tree> {
    let mut parser = crate::parser(script.grammar)?;
    parser.set_included_ranges(&[script.range]).ok()?;
    parser.parse(text, None)
}

/// What a component's scripts declare and import, in the order the blocks stand.
pub fn read(text: &str) -> File {
    let mut file = File::default();
    for script in split(text).scripts {
        let Some(tree) = parse_script(text, &script) else {
            continue;
        };
        let read = read_node(script.grammar, tree.root_node(), text);
        let offset = file.symbols.len();
        file.symbols.extend(read.symbols.into_iter().map(|mut s| {
            s.parent = s.parent.map(|p| p + offset);
            s
        }));
        file.imports.extend(read.imports);
    }
    file
}

#[cfg(test)]
mod tests;
