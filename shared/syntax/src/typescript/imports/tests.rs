use super::{left_out, read, skeleton_tree, statements};
use crate::Grammar;

const TS: Grammar = Grammar::TypeScript;

fn specs(grammar: Grammar, text: &str) -> Vec<String> {
    read(grammar, text).into_iter().map(|i| i.spec).collect()
}

/// The text of each chosen range.
fn parts(text: &str) -> Vec<&str> {
    statements(text)
        .unwrap()
        .ranges
        .into_iter()
        .map(|r| &text[r])
        .collect()
}

#[test]
fn only_the_lines_of_import_statements_are_parsed() {
    let text = "/* license */\nimport A from './a';\nimport {\n  B,\n} from './b';\n\nexport const x = 1;\nexport { y } from './y';\nfunction f() {\n  return 1;\n}\n";
    assert_eq!(
        parts(text),
        [
            "import A from './a';\n",
            "import {\n  B,\n} from './b';\n",
            "export { y } from './y';\n"
        ]
    );
    assert_eq!(specs(TS, text), ["./a", "./b", "./y"]);
}

#[test]
fn a_dynamic_import_or_require_late_in_a_function_is_read_with_its_bindings() {
    let text = "import a from './a';\n\ndescribe('x', () => {\n  it('y', async () => {\n    const { list, show: view } =\n      await import('./late');\n    const z = require('./z');\n  });\n});\n";
    let imports = read(TS, text);
    let got: Vec<(&str, u32, Vec<&str>)> = imports
        .iter()
        .map(|i| {
            let names = i.names.iter().map(String::as_str).collect();
            (i.spec.as_str(), i.line, names)
        })
        .collect();
    assert_eq!(
        got,
        [
            ("./a", 1, vec!["a"]),
            ("./late", 6, vec!["list", "view"]),
            ("./z", 7, vec!["z"]),
        ]
    );
}

#[test]
fn an_import_in_a_comment_string_or_template_literal_is_none() {
    let text = "// import a from './c1';\n/* require('./c2') */\nconst s = \"import b from './s1'\";\nconst t = `\nimport c from './t1'\n${ok ? `require('./t2')` : ''}\n`;\nconst r = /import('.\\/r1')/;\nexport * from './real';\n";
    assert_eq!(specs(TS, text), ["./real"]);
}

#[test]
fn a_call_inside_a_template_substitution_is_code() {
    let text = "const t = `${require('./in')}`;\n";
    assert_eq!(specs(TS, text), ["./in"]);
}

#[test]
fn a_division_is_no_regular_expression() {
    // Read as a regex, `/ 2; const b = require('./x') /` would hide the call.
    let text = "const a = (x) / 2; const b = require('./x') / 1;\n";
    assert_eq!(specs(TS, text), ["./x"]);
}

#[test]
fn import_meta_export_declarations_and_methods_named_require_are_no_imports() {
    let text = "const u = import.meta.url;\nexport const k = 1;\nexport function g() {}\nloader.require('./no');\n";
    assert!(parts(text).is_empty());
    assert!(read(TS, text).is_empty());
}

#[test]
fn lines_that_are_no_whole_statement_are_read_from_their_top_level_statement() {
    // A method's line alone parses with an error (a call followed by a block): the class
    // around it is parsed next, and it reads what the whole file's tree reads.
    let text =
        "const a = 1;\nclass A {\n  x = 1;\n  m() { return require('./m') }\n}\nconst b = 2;\n";
    let chosen = statements(text).unwrap();
    let part = |r: &std::ops::Range<usize>| &text[r.clone()];
    assert_eq!(
        chosen.ranges.iter().map(part).collect::<Vec<_>>(),
        ["  m() { return require('./m') }\n"]
    );
    let wider = chosen.top_level(text.as_bytes()).unwrap();
    assert_eq!(
        wider.iter().map(part).collect::<Vec<_>>(),
        ["class A {\n  x = 1;\n  m() { return require('./m') }\n}\n"]
    );
    assert_eq!(read(TS, text), crate::read(TS, text).imports);
    assert_eq!(specs(TS, text), ["./m"]);
}

#[test]
fn a_brace_list_and_a_specifier_are_left_out_of_the_parse_and_the_names_kept() {
    let text = "import {\n  a,\n  type B,\n  c as d, // why\n} from './x'\nimport type { T } from './t'\nexport { e } from \"./e\"\n";
    let chosen = statements(text).unwrap();
    let (parts, lists) = left_out(text, &chosen.ranges, &chosen.openers);
    let parsed: Vec<&str> = parts.iter().map(|r| &text[r.clone()]).collect();
    assert_eq!(
        parsed,
        [
            "import {",
            "} from '",
            "'\n",
            "import type {",
            "} from '",
            "'\n",
            "export {",
            "} from \"",
            "\"\n"
        ]
    );
    let names: Vec<Vec<String>> = lists.into_iter().map(|(_, names)| names).collect();
    assert_eq!(names, [vec!["a", "B", "d"], vec!["T"], vec!["e"]]);
    let imports = read(TS, text);
    assert_eq!(imports, crate::read(TS, text).imports);
    assert_eq!(imports[0].names, ["a", "B", "d"]);
    assert_eq!(imports[0].spec, "./x");
}

#[test]
fn a_list_that_is_no_plain_list_of_names_is_parsed_and_read_by_the_tree() {
    // `type as b`, `default` alone and a default name beside a namespace are the tree's
    // to read; the specifier with an escape is parsed too.
    let text = "import { a, type as b } from './x'\nexport { default } from './d'\nimport c, * as ns from './n'\nimport { q } from './q\\'s'\n";
    let chosen = statements(text).unwrap();
    let (parts, lists) = left_out(text, &chosen.ranges, &chosen.openers);
    assert_eq!(lists.len(), 1);
    assert!(parts.iter().any(|r| text[r.clone()].contains("type as b")));
    assert!(parts.iter().any(|r| text[r.clone()].contains("./q\\'s")));
    assert_eq!(read(TS, text), crate::read(TS, text).imports);
}

#[test]
fn a_type_alias_and_a_list_of_the_files_own_names_are_no_statements_to_parse() {
    let text = "export type A<\n  T,\n> = T\nexport { a, b }\nexport type { C }\nexport { d } from './d'\nexport { e } /* later */ from './e'\n";
    assert_eq!(
        parts(text),
        [
            "export { d } from './d'\n",
            "export { e } /* later */ from './e'\n"
        ]
    );
    assert_eq!(specs(TS, text), ["./d", "./e"]);
}

#[test]
fn a_comment_ending_a_line_does_not_carry_the_statement_over_it() {
    // The comments end with `,` and `.`, which in code would continue the statement.
    let text = "// the notes,\nimport a from './a' // and more.\nconst x = 1\n";
    assert_eq!(parts(text), ["import a from './a' // and more.\n"]);
    // A continuing operator before a comment still carries it.
    let text = "const y = cond ? // pick,\n  require('./y') : null\n";
    assert_eq!(parts(text), [text]);
}

#[test]
fn a_regular_expression_after_a_condition_is_no_division() {
    // Read as a division, the quote in the regex would open a string that hides the call.
    let text = "if (x) /'/.test(s); const y = require('./y');\n";
    assert_eq!(specs(TS, text), ["./y"]);
}

#[test]
fn jsx_is_read_by_its_own_grammar() {
    let text = "import React from 'react';\nconst App = () => <p>It's {a / b}</p>;\nconst Page = lazy(() => import('./page'));\n";
    assert_eq!(specs(Grammar::JavaScript, text), ["react", "./page"]);
    assert_eq!(specs(Grammar::Tsx, text), ["react", "./page"]);
}

/// Each import as (spec, line, names).
fn readings(grammar: Grammar, text: &str) -> Vec<(String, u32, Vec<String>)> {
    read(grammar, text)
        .into_iter()
        .map(|i| (i.spec, i.line, i.names))
        .collect()
}

/// The same, from the whole file's tree.
fn whole_readings(grammar: Grammar, text: &str) -> Vec<(String, u32, Vec<String>)> {
    crate::read(grammar, text)
        .imports
        .into_iter()
        .map(|i| (i.spec, i.line, i.names))
        .collect()
}

#[test]
fn statements_of_one_skeleton_share_a_tree_and_keep_their_own_specs_lines_and_names() {
    // Both statements parse as `import {} from '';`: the second is read from the first's
    // tree, its bytes and line mapped back to its own.
    let text = "import { a, b as c } from './one';\n\n// why\nimport {\n  d,\n} from '../two';\n";
    let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        readings(TS, text),
        [
            ("./one".to_string(), 1, names(&["a", "c"])),
            ("../two".to_string(), 4, names(&["d"])),
        ]
    );
    assert_eq!(readings(TS, text), whole_readings(TS, text));
    let kept = skeleton_tree(TS, "import {} from '';\n").expect("a tree without error");
    assert_eq!(kept.root_node().named_child_count(), 1);
}

#[test]
fn a_call_after_a_left_out_list_on_its_line_is_read_at_its_own_line() {
    // The list's lines are out of the skeleton: the call's line is the file's, not the
    // skeleton's.
    let text =
        "import {\n  a,\n  b,\n} from './x'; const c = require('./c');\nexport * from './y'\n";
    assert_eq!(readings(TS, text), whole_readings(TS, text));
    let lines: Vec<u32> = read(TS, text).iter().map(|i| i.line).collect();
    assert_eq!(lines, [1, 4, 5]);
}

#[test]
fn a_skeleton_with_an_error_is_read_from_a_wider_tree() {
    // A member's lines alone are no statement (positive control: its skeleton has an
    // error) and the interface around them is read instead; a statement's own skeleton
    // is kept without error (negative control).
    let text = "import { a } from './a'\ninterface I {\n  ast?: import('./t').T[]\n}\n";
    assert!(skeleton_tree(TS, "  ast?: import('./t').T[]\n").is_none());
    assert!(skeleton_tree(TS, "import {} from ''\n").is_some());
    assert_eq!(readings(TS, text), whole_readings(TS, text));
    assert_eq!(specs(TS, text)[0], "./a");
}

#[test]
fn statements_that_only_touch_are_apart_and_a_shared_line_keeps_them_together() {
    let text = "import a from './a'\nimport b from './b'; export * from './c'\n";
    assert_eq!(
        parts(text),
        [
            "import a from './a'\n",
            "import b from './b'; export * from './c'\n"
        ]
    );
    assert_eq!(specs(TS, text), ["./a", "./b", "./c"]);
}
