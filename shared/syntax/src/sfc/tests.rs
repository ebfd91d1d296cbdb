use super::{is_component, read, split};
use crate::testing::broken_inputs;
use crate::{Grammar, SymbolKind};

const VUE: &str = "<template>\n  <button @click=\"save\">{{ label }}</button>\n</template>\n\n<script setup lang=\"ts\">\nimport { ref } from 'vue'\nimport Cart from './Cart.vue'\nconst label = ref('Save')\nfunction save() {}\n</script>\n\n<style scoped>\n.a { color: red }\n</style>\n";

#[test]
fn components_are_vue_and_svelte_files() {
    assert!(is_component("src/App.vue"));
    assert!(is_component("src/Page.svelte"));
    assert!(!is_component("src/app.ts"));
    assert!(!is_component(".vue"));
}

#[test]
fn a_vue_component_splits_into_its_script_and_template() {
    let parts = split(VUE);
    assert_eq!(parts.scripts.len(), 1);
    let script = &parts.scripts[0];
    assert_eq!(script.grammar, Grammar::TypeScript);
    assert!(script.setup);
    assert_eq!(script.line, 5);
    assert!(VUE[script.bytes.clone()].contains("function save"));
    assert_eq!(parts.markup.len(), 1);
    assert!(VUE[parts.markup[0].clone()].starts_with("<template>"));
}

#[test]
fn script_code_is_read_at_its_lines_in_the_file() {
    let file = read(VUE);
    let imports: Vec<(&str, u32)> = file
        .imports
        .iter()
        .map(|i| (i.spec.as_str(), i.line))
        .collect();
    assert_eq!(imports, [("vue", 6), ("./Cart.vue", 7)]);
    let symbols: Vec<(SymbolKind, &str, u32)> = file
        .symbols
        .iter()
        .map(|s| (s.kind, s.name.as_str(), s.start))
        .collect();
    assert_eq!(
        symbols,
        [
            (SymbolKind::Variable, "label", 8),
            (SymbolKind::Function, "save", 9)
        ]
    );
}

#[test]
fn a_script_in_a_comment_or_the_template_text_is_no_block() {
    let text = "<!-- <script>import gone from './gone'</script> -->\n<template><p>import fake from './fake'</p></template>\n";
    let parts = split(text);
    assert!(parts.scripts.is_empty());
    assert!(read(text).imports.is_empty());
}

#[test]
fn a_svelte_component_has_its_module_and_instance_scripts() {
    let text = "<script context=\"module\">\nexport const prerender = true\n</script>\n<script>\nimport Nav from './Nav.svelte'\nlet count = 0\n</script>\n\n<Nav />\n{#if count}<p>{count}</p>{/if}\n";
    let parts = split(text);
    assert_eq!(parts.scripts.len(), 2);
    assert!(parts
        .scripts
        .iter()
        .all(|s| s.grammar == Grammar::JavaScript));
    assert!(!parts.markup.is_empty());
    let file = read(text);
    assert_eq!(file.imports[0].spec, "./Nav.svelte");
    assert_eq!(file.imports[0].line, 5);
    let names: Vec<&str> = file.symbols.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["prerender", "count"]);
}

#[test]
fn a_script_in_a_language_without_a_grammar_is_skipped() {
    let text = "<script lang=\"coffee\">\nimport x from 'y'\n</script>\n";
    assert!(split(text).scripts.is_empty());
}

#[test]
fn broken_input_never_panics() {
    for input in broken_inputs() {
        let _ = read(&input);
    }
    let _ = read("<script lang=\"ts\">\nimport { a } from './a'\nfunction f( {\n");
    let _ = read(&"<div>".repeat(2_000));
}
