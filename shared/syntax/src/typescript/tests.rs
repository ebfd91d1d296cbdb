use crate::testing::{imports, outline, paths, reads_broken_inputs, specs};
use crate::{Grammar, SymbolKind};

const TS: Grammar = Grammar::TypeScript;

fn names_of(text: &str) -> Vec<Vec<String>> {
    imports(TS, text).into_iter().map(|i| i.2).collect()
}

#[test]
fn every_import_form_is_read() {
    let text = "import A, { B as C, type D } from './a';\nimport './side';\nexport * from \"../b\";\nconst d = require('./d');\nconst e = await import('./e');\nimport {\n  F,\n} from './f';\nimport x = require('./x');\nexport * as NS from './ns';\nexport { G as H } from './g';\n";
    assert_eq!(
        specs(TS, text),
        ["./a", "./side", "../b", "./d", "./e", "./f", "./x", "./ns", "./g"]
    );
    assert_eq!(
        names_of(text),
        [
            vec!["A", "C", "D"],
            vec![],
            vec![],
            vec!["d"],
            vec!["e"],
            vec!["F"],
            vec!["x"],
            vec!["NS"],
            vec!["H"],
        ]
    );
    let lines: Vec<u32> = imports(TS, text).into_iter().map(|i| i.1).collect();
    assert_eq!(lines, [1, 2, 3, 4, 5, 6, 9, 10, 11]);
}

#[test]
fn a_destructured_require_binds_its_local_names() {
    let text = "const { list, show: view } = require(\"./handlers\");\nrequire('./side');\n";
    assert_eq!(names_of(text), [vec!["list", "view"], vec![]]);
}

#[test]
fn imports_in_comments_strings_and_templates_are_not_imports() {
    let text = "// import A from './a';\n/* import B from './b' */\nconst code = `import { ref } from 'vue'`;\nconst s = \"require('./s')\";\nconst url = 'http://x//y';\nimport C from './c';\n";
    assert_eq!(specs(TS, text), ["./c"]);
}

#[test]
fn a_require_of_a_computed_name_is_no_import() {
    let text = "const a = require(name);\nconst b = require(`./${name}`);\nconst c = obj.require('./c');\n";
    assert!(specs(TS, text).is_empty());
}

#[test]
fn declarations_have_their_kinds_and_spans() {
    let text = "export default class Cart {\n  total() {\n    return 1;\n  }\n}\nexport function checkout(): void {}\nconst handler = async () => {};\nlet count = 0;\ninterface Line {}\ntype Id = string;\nenum Status { Open }\n";
    assert_eq!(
        outline(TS, text),
        [
            (SymbolKind::Class, "Cart".to_string(), 1, 5),
            (SymbolKind::Method, "total".to_string(), 2, 4),
            (SymbolKind::Function, "checkout".to_string(), 6, 6),
            (SymbolKind::Function, "handler".to_string(), 7, 7),
            (SymbolKind::Variable, "count".to_string(), 8, 8),
            (SymbolKind::Class, "Line".to_string(), 9, 9),
            (SymbolKind::Type, "Id".to_string(), 10, 10),
            (SymbolKind::Class, "Status".to_string(), 11, 11),
        ]
    );
}

#[test]
fn a_function_in_a_string_or_comment_is_no_declaration() {
    let text = "// function gone() {}\nconst doc = 'function quoted() {}';\n";
    let names: Vec<String> = outline(TS, text).into_iter().map(|s| s.1).collect();
    assert_eq!(names, ["doc"]);
}

#[test]
fn nested_declarations_know_their_parent() {
    let text = "function outer() {\n  const inner = () => 1;\n}\n";
    assert_eq!(paths(TS, text), ["outer", "outer::inner"]);
}

#[test]
fn javascript_and_tsx_read_the_same_forms() {
    let js = "const a = require('./a');\nimport('./b').then(x => x);\nclass C { m() {} }\n";
    assert_eq!(specs(Grammar::JavaScript, js), ["./a", "./b"]);
    assert_eq!(paths(Grammar::JavaScript, js), ["a", "C", "C::m"]);
    let tsx = "import { Button } from './Button';\nexport const Page = () => <Button label=\"import x from 'y'\" />;\n";
    assert_eq!(specs(Grammar::Tsx, tsx), ["./Button"]);
    assert_eq!(paths(Grammar::Tsx, tsx), ["Page"]);
}

#[test]
fn broken_input_never_panics() {
    reads_broken_inputs(TS);
    reads_broken_inputs(Grammar::Tsx);
    reads_broken_inputs(Grammar::JavaScript);
    assert_eq!(specs(TS, "import a from './a';\nfunction f( {\n"), ["./a"]);
}
