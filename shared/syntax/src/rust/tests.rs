use crate::testing::{imports, outline, paths, reads_broken_inputs, specs};
use crate::{Grammar, SymbolKind};

const R: Grammar = Grammar::Rust;

#[test]
fn use_trees_expand_into_paths_with_the_names_they_bind() {
    let got = imports(
        R,
        "use crate::{db, cart::{self, Line as L}, io::*};\nuse std::fmt;\n",
    );
    let want = [
        ("crate::db", 1, vec!["db"]),
        ("crate::cart", 1, vec!["cart"]),
        ("crate::cart::Line", 1, vec!["L"]),
        ("crate::io", 1, vec![]),
        ("std::fmt", 2, vec!["fmt"]),
    ];
    let want: Vec<(String, u32, Vec<String>)> = want
        .into_iter()
        .map(|(s, l, n)| (s.to_string(), l, n.into_iter().map(String::from).collect()))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn mod_declarations_are_imports_and_inline_modules_are_not() {
    let text = "mod db;\npub(crate) mod cart;\nmod tests {\n    use super::*;\n}\n";
    assert_eq!(specs(R, text), ["mod db", "mod cart", "super"]);
    assert_eq!(
        outline(R, text),
        [(SymbolKind::Module, "tests".to_string(), 3, 5)]
    );
}

#[test]
fn a_use_inside_a_string_or_comment_is_no_import() {
    let text = "// use crate::gone;\n/* mod hidden; */\nconst S: &str = \"use crate::fake;\";\n";
    assert!(specs(R, text).is_empty());
}

#[test]
fn items_have_their_names_kinds_and_spans() {
    let text = "pub struct Cart {\n    n: u8,\n}\n\nimpl<T> Display for Cart<T> {\n    fn fmt(&self) {}\n}\n\ntrait Store {\n    fn save(&self);\n}\n\npub(crate) async unsafe fn run() {}\ntype Id = u64;\nconst MAX: u8 = 1;\n";
    assert_eq!(
        outline(R, text),
        [
            (SymbolKind::Class, "Cart".to_string(), 1, 3),
            (SymbolKind::Impl, "Cart".to_string(), 5, 7),
            (SymbolKind::Method, "fmt".to_string(), 6, 6),
            (SymbolKind::Class, "Store".to_string(), 9, 11),
            (SymbolKind::Method, "save".to_string(), 10, 10),
            (SymbolKind::Function, "run".to_string(), 13, 13),
            (SymbolKind::Type, "Id".to_string(), 14, 14),
            (SymbolKind::Variable, "MAX".to_string(), 15, 15),
        ]
    );
    assert_eq!(
        paths(R, text),
        [
            "Cart",
            "Cart",
            "Cart::fmt",
            "Store",
            "Store::save",
            "run",
            "Id",
            "MAX"
        ]
    );
}

#[test]
fn a_fn_inside_a_string_or_comment_is_no_function() {
    let text = "// fn commented() {}\nconst DOC: &str = \"fn quoted() {}\";\n";
    let names: Vec<String> = outline(R, text).into_iter().map(|s| s.1).collect();
    assert_eq!(names, ["DOC"]);
}

#[test]
fn broken_input_never_panics() {
    reads_broken_inputs(R);
    // What stands before the breakage is still read.
    assert_eq!(specs(R, "use crate::a;\nfn f( {\n"), ["crate::a"]);
}

#[test]
fn a_use_inside_a_macro_call_is_an_import() {
    // `fuzz_target!(|data| { use chrono::prelude::*; .. })`: the macro's body is code.
    let text = "fuzz_target!(|data: &[u8]| {\n    use chrono::prelude::*;\n    let x = 1;\n});\n";
    assert_eq!(
        imports(R, text),
        [("chrono::prelude".to_string(), 2, vec![])]
    );
}

#[test]
fn a_use_word_inside_a_macro_s_string_is_no_import() {
    assert!(specs(R, "println!(\"use crate::fake;\");\n").is_empty());
}
