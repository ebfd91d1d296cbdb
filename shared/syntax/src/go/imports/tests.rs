use super::{head_end, read};

/// (specifier, line) of each import.
fn imports(text: &str) -> Vec<(String, u32)> {
    read(text).into_iter().map(|i| (i.spec, i.line)).collect()
}

fn owned(pairs: &[(&str, u32)]) -> Vec<(String, u32)> {
    pairs.iter().map(|&(s, l)| (s.to_string(), l)).collect()
}

#[test]
fn grouped_and_single_imports_are_read_from_the_head() {
    let text = "package main\n\nimport \"fmt\"\nimport (\n\t\"example.com/shop/util\"\n\tdb \"example.com/shop/db\"\n\t_ `example.com/raw`\n)\n\nfunc main() {}\n";
    assert_eq!(head_end(text), text.find("func").unwrap());
    assert_eq!(
        imports(text),
        owned(&[
            ("fmt", 3),
            ("example.com/shop/util", 5),
            ("example.com/shop/db", 6),
            ("example.com/raw", 7),
        ])
    );
}

#[test]
fn a_parenthesis_in_a_comment_of_a_group_does_not_end_it() {
    let text = "package main\n\nimport (\n\t\"fmt\" // printing (stdout)\n\t\"os\"\n)\n";
    assert_eq!(imports(text), owned(&[("fmt", 4), ("os", 5)]));
}

#[test]
fn an_import_in_a_comment_or_a_raw_string_is_no_import() {
    let text = "package main\n\n// import \"commented\"\n/*\nimport \"blocked\"\n*/\nimport \"real\"\n\nvar usage = `\nimport \"quoted\"\n`\n\nfunc f() {}\n";
    assert_eq!(imports(text), owned(&[("real", 7)]));
}

#[test]
fn a_declaration_line_in_a_comment_before_the_imports_does_not_cut_them_off() {
    // cgo's preamble: C code in a block comment, a line of it starting with `const`.
    let text = "package cgo\n\n/*\nconst char* name;\n*/\nimport \"C\"\nimport \"unsafe\"\n\nfunc f() {}\n";
    assert_eq!(head_end(text), text.find("const").unwrap());
    assert_eq!(imports(text), owned(&[("C", 6), ("unsafe", 7)]));
}

#[test]
fn a_file_of_declarations_only_has_no_import() {
    let text = "package a\n\nconst x = `\nimport \"fake\"\n`\n\nfunc g() {}\n";
    assert!(imports(text).is_empty());
}

#[test]
fn a_file_without_declarations_is_read_whole() {
    let text = "package a\n\nimport (\n\t\"b\"\n)\n";
    assert_eq!(head_end(text), text.len());
    assert_eq!(imports(text), owned(&[("b", 4)]));
}
