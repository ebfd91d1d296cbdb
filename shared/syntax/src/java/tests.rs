use crate::testing::{imports, outline, paths, reads_broken_inputs, specs};
use crate::{Grammar, SymbolKind};

const JAVA: Grammar = Grammar::Java;

#[test]
fn single_static_and_glob_imports_are_read() {
    let text = "package a.b;\nimport java.util.List;\nimport static org.junit.Assert.assertEquals;\nimport a.c.*;\n";
    let got: Vec<(String, Vec<String>)> = imports(JAVA, text)
        .into_iter()
        .map(|i| (i.0, i.2))
        .collect();
    assert_eq!(
        got,
        [
            ("java.util.List".to_string(), vec!["List".to_string()]),
            (
                "org.junit.Assert.assertEquals".to_string(),
                vec!["assertEquals".to_string()]
            ),
            ("a.c.*".to_string(), vec![]),
        ]
    );
}

#[test]
fn an_import_in_a_comment_or_string_is_no_import() {
    let text = "// import gone.Gone;\nclass A { String s = \"import fake.Fake;\"; }\n";
    assert!(specs(JAVA, text).is_empty());
}

#[test]
fn types_methods_and_constructors_are_the_outline() {
    let text = "public class Cart {\n  Cart() {}\n  int total() {\n    return 1;\n  }\n  enum Status { OPEN }\n}\ninterface Store {}\nrecord Line(int n) {}\n";
    assert_eq!(
        outline(JAVA, text),
        [
            (SymbolKind::Class, "Cart".to_string(), 1, 7),
            (SymbolKind::Method, "Cart".to_string(), 2, 2),
            (SymbolKind::Method, "total".to_string(), 3, 5),
            (SymbolKind::Class, "Status".to_string(), 6, 6),
            (SymbolKind::Class, "Store".to_string(), 8, 8),
            (SymbolKind::Class, "Line".to_string(), 9, 9),
        ]
    );
    assert_eq!(paths(JAVA, text)[2], "Cart::total");
}

#[test]
fn a_class_in_a_comment_is_no_class() {
    assert!(outline(JAVA, "/* class Gone {} */\n// class Also {}\n").is_empty());
}

#[test]
fn broken_input_never_panics() {
    reads_broken_inputs(JAVA);
    assert_eq!(specs(JAVA, "import a.B;\nclass C { void f( {\n"), ["a.B"]);
}
