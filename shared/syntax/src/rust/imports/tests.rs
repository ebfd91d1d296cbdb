use super::{items, read};
use crate::Grammar;

/// (specifier, line, names) of each import.
fn imports(text: &str) -> Vec<(String, u32, Vec<String>)> {
    read(text)
        .into_iter()
        .map(|i| (i.spec, i.line, i.names))
        .collect()
}

fn specs(text: &str) -> Vec<String> {
    read(text).into_iter().map(|i| i.spec).collect()
}

#[test]
fn only_the_use_and_file_mod_items_are_parsed() {
    let text = "//! doc\nmod db;\npub(crate) mod cart;\nmod inline {\n    use super::x;\n}\nfn f() -> u8 { 1 }\npub use crate::a::{b, c as d};\n";
    let parts: Vec<&str> = items(text.as_bytes())
        .into_iter()
        .map(|r| &text[r])
        .collect();
    assert_eq!(
        parts,
        [
            "mod db;",
            "mod cart;",
            "use super::x;",
            "use crate::a::{b, c as d};"
        ]
    );
    assert_eq!(
        imports(text),
        [
            ("mod db".into(), 2, vec!["db".into()]),
            ("mod cart".into(), 3, vec!["cart".into()]),
            ("super::x".into(), 5, vec!["x".into()]),
            ("crate::a::b".into(), 8, vec!["b".into()]),
            ("crate::a::c".into(), 8, vec!["d".into()]),
        ]
    );
}

#[test]
fn a_use_in_a_string_raw_string_or_comment_is_none() {
    let text = "const A: &str = \"use fake::a;\";\nconst B: &str = r##\"\nuse fake::b;\nmod fake;\n\"##;\n// use fake::c;\n/* outer /* use fake::d; */ mod fake; */\nconst C: char = '\"';\nuse real::e;\n";
    assert_eq!(specs(text), ["real::e"]);
}

#[test]
fn a_use_in_a_nested_block_or_test_module_is_read() {
    let text = "fn main() {\n    use std::io::Write;\n}\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use crate::cart::Line;\n}\n";
    assert_eq!(
        specs(text),
        ["std::io::Write", "super", "crate::cart::Line"]
    );
}

#[test]
fn lifetimes_and_characters_do_not_hide_what_follows() {
    let text =
        "fn f<'a>(x: &'a str) -> char { 'u' }\nuse a::b;\nconst Q: char = '\\'';\nuse c::d;\n";
    assert_eq!(specs(text), ["a::b", "c::d"]);
}

#[test]
fn names_like_the_keywords_are_no_items() {
    let text = "let r#use = 1;\nlet user = misuse;\nmacro_rules! m { ($use:ident) => {} }\nfn model() {}\nuse real::x;\n";
    assert_eq!(specs(text), ["real::x"]);
}

#[test]
fn a_use_in_a_macro_rule_falls_back_to_the_whole_tree() {
    // `$crate` parses as no path alone: the whole file is read, as its tree reads it.
    let text =
        "macro_rules! m {\n    () => {\n        use $crate::inner::Thing;\n    };\n}\nuse outer::y;\n";
    assert_eq!(read(text), crate::read(Grammar::Rust, text).imports);
}

#[test]
fn a_file_without_items_is_not_parsed() {
    assert!(items(b"fn main() {}\n// use a;\n").is_empty());
    assert!(read("struct S;\n").is_empty());
}

#[test]
fn self_renamed_in_a_list_names_the_module_itself() {
    let text = "use tokio_tungstenite::{tungstenite::{self as ts}, connect};\n";
    assert_eq!(
        imports(text),
        [
            (
                "tokio_tungstenite::tungstenite".into(),
                1,
                vec!["ts".into()]
            ),
            (
                "tokio_tungstenite::connect".into(),
                1,
                vec!["connect".into()]
            ),
        ]
    );
}
