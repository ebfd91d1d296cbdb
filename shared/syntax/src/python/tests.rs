use crate::testing::{imports, outline, paths, reads_broken_inputs, specs};
use crate::{Grammar, SymbolKind};

const PY: Grammar = Grammar::Python;

#[test]
fn both_import_statements_are_read_with_the_names_they_bind() {
    let text = "import os, shop.db as db\nfrom .pricing import (\n    total,\n    tax as t,\n)\nfrom . import models\nfrom x import *\n";
    let got = imports(PY, text);
    let want: Vec<(String, u32, Vec<String>)> = [
        ("os", 1, vec!["os"]),
        ("shop.db", 1, vec!["db"]),
        // What `from` takes: `tax` may be the submodule `.pricing.tax`.
        (".pricing", 2, vec!["total", "tax"]),
        (".", 6, vec!["models"]),
        ("x", 7, vec![]),
    ]
    .into_iter()
    .map(|(s, l, n)| (s.to_string(), l, n.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(got, want);
}

#[test]
fn future_imports_and_imports_in_strings_are_not_imports() {
    let text = "from __future__ import annotations\n\"\"\"\nimport fake\nfrom fake import x\n\"\"\"\n# import commented\nimport real\n";
    assert_eq!(specs(PY, text), ["real"]);
}

#[test]
fn an_import_inside_a_function_is_read() {
    assert_eq!(specs(PY, "def f():\n    import lazy\n"), ["lazy"]);
}

#[test]
fn definitions_have_their_kinds_spans_and_parents() {
    let text = "@dataclass\nclass Cart:\n    async def total(self):\n        def helper():\n            pass\n        return 1\n\ndef handler():\n    pass\n";
    assert_eq!(
        outline(PY, text),
        [
            (SymbolKind::Class, "Cart".to_string(), 2, 6),
            (SymbolKind::Method, "total".to_string(), 3, 6),
            (SymbolKind::Function, "helper".to_string(), 4, 5),
            (SymbolKind::Function, "handler".to_string(), 8, 9),
        ]
    );
    assert_eq!(
        paths(PY, text),
        ["Cart", "Cart::total", "total::helper", "handler"]
    );
}

#[test]
fn a_def_in_a_docstring_is_no_definition() {
    let text = "\"\"\"\ndef quoted():\n    pass\n\"\"\"\n# def commented(): pass\n";
    assert!(outline(PY, text).is_empty());
}

#[test]
fn broken_input_never_panics() {
    reads_broken_inputs(PY);
    assert_eq!(specs(PY, "import a\ndef f(:\n"), ["a"]);
}
