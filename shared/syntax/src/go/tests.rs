use crate::testing::{imports, outline, reads_broken_inputs, specs};
use crate::{Grammar, SymbolKind};

const GO: Grammar = Grammar::Go;

#[test]
fn single_and_grouped_imports_are_read_with_their_lines() {
    let text = "package main\n\nimport \"fmt\"\nimport (\n\t\"example.com/shop/util\"\n\tdb \"example.com/shop/db\"\n\t_ `example.com/raw`\n)\n";
    let got: Vec<(String, u32)> = imports(GO, text).into_iter().map(|i| (i.0, i.1)).collect();
    let want: Vec<(String, u32)> = [
        ("fmt", 3),
        ("example.com/shop/util", 5),
        ("example.com/shop/db", 6),
        ("example.com/raw", 7),
    ]
    .into_iter()
    .map(|(s, l)| (s.to_string(), l))
    .collect();
    assert_eq!(got, want);
}

#[test]
fn an_import_in_a_string_or_comment_is_no_import() {
    let text = "package main\n// import \"gone\"\nvar s = `\nimport \"fake\"\n`\n";
    assert!(specs(GO, text).is_empty());
}

#[test]
fn funcs_methods_types_and_package_values_are_the_outline() {
    let text = "package main\n\ntype (\n\tCart struct{}\n\tID int\n)\n\nfunc (c *Cart) Total() int {\n\tvar local = 1\n\treturn local\n}\n\nfunc main() {}\n\nconst Max = 2\n";
    assert_eq!(
        outline(GO, text),
        [
            (SymbolKind::Class, "Cart".to_string(), 4, 4),
            (SymbolKind::Type, "ID".to_string(), 5, 5),
            (SymbolKind::Method, "Total".to_string(), 8, 11),
            (SymbolKind::Function, "main".to_string(), 13, 13),
            (SymbolKind::Variable, "Max".to_string(), 15, 15),
        ]
    );
}

#[test]
fn a_func_in_a_comment_is_no_function() {
    assert!(outline(GO, "package main\n// func gone() {}\n/* type T int */\n").is_empty());
}

#[test]
fn broken_input_never_panics() {
    reads_broken_inputs(GO);
    assert_eq!(specs(GO, "package a\nimport \"b\"\nfunc f( {\n"), ["b"]);
}
