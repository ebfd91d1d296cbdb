use super::{last_import_line_end, read};

/// (specifier, line, names) of each import.
fn imports(text: &str) -> Vec<(String, u32, Vec<String>)> {
    read(text)
        .into_iter()
        .map(|i| (i.spec, i.line, i.names))
        .collect()
}

fn specs(text: &str) -> Vec<String> {
    imports(text).into_iter().map(|i| i.0).collect()
}

#[test]
fn module_and_from_imports_are_read_with_their_names() {
    let text = "import os, shop.db as db\nfrom .pricing import (\n    total,\n    tax as t,\n)\nfrom . import models\n\ndef f():\n    pass\n";
    let got = imports(text);
    assert_eq!(got[0], ("os".to_string(), 1, vec!["os".to_string()]));
    assert_eq!(got[1], ("shop.db".to_string(), 1, vec!["db".to_string()]));
    assert_eq!(
        got[2],
        (
            ".pricing".to_string(),
            2,
            vec!["total".to_string(), "tax".to_string()]
        )
    );
    assert_eq!(got[3], (".".to_string(), 6, vec!["models".to_string()]));
    assert_eq!(got.len(), 4);
}

#[test]
fn a_function_level_import_late_in_the_module_is_read() {
    let text = "import os\n\n\ndef handler():\n    if True:\n        from shop.late import thing\n    return thing\n\n\nclass C:\n    def m(self):\n        x = 1; import json\n";
    assert_eq!(specs(text), ["os", "shop.late", "json"]);
}

#[test]
fn an_import_in_a_docstring_string_or_comment_is_no_import() {
    let text = "\"\"\"Usage:\n\nimport shop.fake\nfrom shop import fake\n\"\"\"\nimport os\n# import commented\nx = 'import quoted'\n";
    assert_eq!(specs(text), ["os"]);
}

#[test]
fn the_parse_stops_at_the_line_of_the_last_import_word() {
    let text = "import os\nimportant = 1\nreimport = 2\n";
    assert_eq!(last_import_line_end(text), Some("import os\n".len()));
    assert_eq!(last_import_line_end("x = 1\n# imports\n"), None);
    assert!(read("def important():\n    pass\n").is_empty());
}

#[test]
fn the_parse_takes_a_parenthesised_or_continued_import_whole() {
    let text = "import os\nfrom shop import (\n    a,\n    b,\n)\nx = 1\n";
    assert_eq!(last_import_line_end(text), text.find("x = 1"));
    let continued = "from shop import a, \\\n    b\nx = 1\n";
    assert_eq!(last_import_line_end(continued), continued.find("x = 1"));
    assert_eq!(
        imports(text)[1],
        (
            "shop".to_string(),
            2,
            vec!["a".to_string(), "b".to_string()]
        )
    );
}

#[test]
fn a_future_import_is_no_module() {
    assert_eq!(
        specs("from __future__ import annotations\nimport os\n"),
        ["os"]
    );
}
