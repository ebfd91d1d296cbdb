//! What the language tests ask of a reading, in short forms.

use crate::{read, Grammar, SymbolKind};

/// (specifier, line, names) of each import.
pub fn imports(grammar: Grammar, text: &str) -> Vec<(String, u32, Vec<String>)> {
    read(grammar, text)
        .imports
        .into_iter()
        .map(|i| (i.spec, i.line, i.names))
        .collect()
}

/// The specifiers alone.
pub fn specs(grammar: Grammar, text: &str) -> Vec<String> {
    imports(grammar, text).into_iter().map(|i| i.0).collect()
}

/// (kind, name, start, end) of each symbol.
pub fn outline(grammar: Grammar, text: &str) -> Vec<(SymbolKind, String, u32, u32)> {
    read(grammar, text)
        .symbols
        .into_iter()
        .map(|s| (s.kind, s.name, s.start, s.end))
        .collect()
}

/// Each symbol as `Parent::name` (the innermost parent only).
pub fn paths(grammar: Grammar, text: &str) -> Vec<String> {
    let symbols = read(grammar, text).symbols;
    symbols
        .iter()
        .map(|s| match s.parent {
            Some(p) => format!("{}::{}", symbols[p].name, s.name),
            None => s.name.clone(),
        })
        .collect()
}

/// Inputs no grammar likes: cut in the middle, unbalanced, binary, deeply nested.
pub fn broken_inputs() -> Vec<String> {
    vec![
        String::new(),
        "\0\u{1}\u{ffff}".to_string(),
        "fn f( { class { def import use".to_string(),
        "import { from '".to_string(),
        "use a::{b::{c::{".to_string(),
        "(".repeat(2_000),
        "{".repeat(2_000),
        "a::{".repeat(500),
        "x = {a: ".repeat(500),
        "\"unterminated\n'also\n`and".to_string(),
    ]
}

/// Every broken input reads without a panic, for `grammar`.
pub fn reads_broken_inputs(grammar: Grammar) {
    for input in broken_inputs() {
        let _ = read(grammar, &input);
    }
}
