use crate::testing::{imports, outline, paths, reads_broken_inputs, specs};
use crate::{Grammar, SymbolKind};

const KT: Grammar = Grammar::Kotlin;

#[test]
fn imports_aliases_and_globs_are_read() {
    let text = "package a.b\n\nimport a.b.C\nimport a.b.d as e\nimport x.y.*\n\nfun main() {}\n";
    let got: Vec<(String, u32, Vec<String>)> = imports(KT, text);
    assert_eq!(
        got,
        [
            ("a.b.C".to_string(), 3, vec!["C".to_string()]),
            ("a.b.d".to_string(), 4, vec!["e".to_string()]),
            ("x.y.*".to_string(), 5, vec![]),
        ]
    );
}

#[test]
fn an_import_in_a_string_or_comment_is_no_import() {
    let text = "// import gone.Gone\nval s = \"import fake.Fake\"\n";
    assert!(specs(KT, text).is_empty());
}

#[test]
fn classes_objects_functions_and_properties_are_the_outline() {
    let text = "class Cart(val n: Int) {\n    fun total(): Int {\n        val local = 1\n        return local\n    }\n}\nobject Registry {\n    val items = 1\n}\nfun top() = 1\nval max = 2\n";
    assert_eq!(
        outline(KT, text),
        [
            (SymbolKind::Class, "Cart".to_string(), 1, 6),
            (SymbolKind::Method, "total".to_string(), 2, 5),
            (SymbolKind::Class, "Registry".to_string(), 7, 9),
            (SymbolKind::Variable, "items".to_string(), 8, 8),
            (SymbolKind::Function, "top".to_string(), 10, 10),
            (SymbolKind::Variable, "max".to_string(), 11, 11),
        ]
    );
    assert_eq!(paths(KT, text)[1], "Cart::total");
}

#[test]
fn a_fun_in_a_comment_or_string_is_no_function() {
    let text = "// fun gone() {}\nval doc = \"fun quoted() {}\"\n";
    let names: Vec<String> = outline(KT, text).into_iter().map(|s| s.1).collect();
    assert_eq!(names, ["doc"]);
}

#[test]
fn broken_input_never_panics() {
    reads_broken_inputs(KT);
    assert_eq!(specs(KT, "import a.B\nfun f( {\n"), ["a.B"]);
}
