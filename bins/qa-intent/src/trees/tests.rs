use super::*;

fn rust(text: &str) -> Outline {
    outline(Grammar::Rust, text, &[]).expect("parsed")
}

#[test]
fn items_carry_their_enclosing_path() {
    let o =
        rust("mod tests {\n    fn sorts() {}\n}\nimpl Cart {\n    fn save(&self, id: u32) {}\n}\n");
    let paths: Vec<&str> = o.items.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(paths, ["tests", "tests::sorts", "Cart", "Cart::save"]);
    assert_eq!(o.items[3].params, ["&self", "id"]);
}

#[test]
fn conditions_are_normalized_and_located_in_their_item() {
    let o = rust("fn f() {\n    if (readlen  ==  0) {\n        return;\n    }\n}\n");
    assert_eq!(o.conditions.len(), 1);
    assert_eq!(o.conditions[0].text, "readlen==0");
    assert_eq!(o.conditions[0].line, 2);
    assert_eq!(o.path_of(o.conditions[0].item), "f");
}

#[test]
fn panics_and_error_values_are_exits_but_other_macros_are_not() {
    let o = rust(
        "fn f() {\n    todo!();\n    println!(\"x\");\n    let _ = Err(1);\n    g().unwrap();\n}\n",
    );
    let kinds: Vec<ExitKind> = o.exits.iter().map(|e| e.kind).collect();
    assert_eq!(kinds, [ExitKind::Panic, ExitKind::Error, ExitKind::Unwrap]);
}

#[test]
fn list_elements_count_inside_constants_only() {
    let o = rust("const NAMES: &[&str] = &[\"a\", \"b\"];\nfn f() { let v = [1, 2]; }\n");
    let texts: Vec<&str> = o.elements.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(texts, ["\"a\"", "\"b\""]);
}

#[test]
fn test_macros_are_those_whose_bodies_define_tests() {
    let o = rust("macro_rules! rgtest {\n    ($name:ident, $fun:expr) => {\n        #[test]\n        fn $name() { $fun() }\n    };\n}\nmacro_rules! other { () => { 1 } }\n");
    assert_eq!(o.test_macros, ["rgtest"]);
}

#[test]
fn typescript_javascript_python_and_go_have_items_and_conditions() {
    let ts = outline(
        Grammar::TypeScript,
        "class Cart { save(id: number) { if (id > 0) { throw new Error('no') } } }",
        &[],
    )
    .unwrap();
    assert_eq!(
        ts.items.iter().map(|i| i.path.as_str()).collect::<Vec<_>>(),
        ["Cart", "Cart::save"]
    );
    assert_eq!(ts.conditions[0].text, "id>0");
    assert_eq!(ts.exits[0].kind, ExitKind::Throw);
    let js = outline(
        Grammar::JavaScript,
        "const KINDS = ['a', 'b'];\nfunction f(x) { return x ? 1 : 2 }\n",
        &[],
    )
    .unwrap();
    assert_eq!(js.elements.len(), 2);
    assert_eq!(js.conditions[0].text, "x");
    let py = outline(
        Grammar::Python,
        "X = ['a']\ndef f(a, b):\n    if a < b:\n        raise ValueError('bad')\n",
        &[],
    )
    .unwrap();
    assert_eq!(py.items[1].params, ["a", "b"]);
    assert_eq!(py.exits[0].kind, ExitKind::Throw);
    assert_eq!(py.elements.len(), 1);
    let go = outline(Grammar::Go, "package p\nfunc F(n int) error {\n    if n < 0 {\n        return errors.New(\"negative\")\n    }\n    return nil\n}\n", &[]).unwrap();
    assert_eq!(go.conditions[0].text, "n<0");
    assert_eq!(go.exits[0].kind, ExitKind::Error);
}

#[test]
fn normalize_drops_only_balanced_outer_parentheses() {
    assert_eq!(normalize("( a && b )"), "a&&b");
    assert_eq!(normalize("(a) && (b)"), "(a)&&(b)");
}

#[test]
fn an_incremental_reparse_gives_the_tree_a_fresh_parse_gives() {
    let base = "fn a() {\n    one();\n}\n\nfn b() {\n    two();\n}\n";
    let head = "fn a() {\n    one();\n    if x > 1 {\n        three();\n    }\n}\n\nfn c() {\n    two();\n}\n";
    let edits = [
        // Two lines inserted after line 2, and line 5 replaced.
        LineEdit {
            base: (2, 2),
            head: (2, 5),
        },
        LineEdit {
            base: (4, 5),
            head: (7, 8),
        },
    ];
    let base_tree = parse(Grammar::Rust, base).unwrap();
    let tree = reparse(Grammar::Rust, &base_tree, base, head, &edits).expect("edits fit");
    let fresh = parse(Grammar::Rust, head).unwrap();
    assert_eq!(tree.root_node().to_sexp(), fresh.root_node().to_sexp());
    let names: Vec<String> = outline_of(Grammar::Rust, &tree, head, &[], None)
        .items
        .iter()
        .map(|i| format!("{}@{}-{}", i.name, i.start, i.end))
        .collect();
    assert_eq!(names, ["a@1-6", "c@8-10"]);
}

#[test]
fn edits_that_do_not_turn_the_base_into_the_head_are_refused() {
    let base = "fn a() {}\nfn b() {}\n";
    let head = "fn a() {}\nfn z() {}\nfn b() {}\n";
    let base_tree = parse(Grammar::Rust, base).unwrap();
    // Claims the insertion sits after line 2, but it is after line 1.
    let wrong = [LineEdit {
        base: (2, 2),
        head: (2, 3),
    }];
    assert!(reparse(Grammar::Rust, &base_tree, base, head, &wrong).is_none());
    let right = [LineEdit {
        base: (1, 1),
        head: (1, 2),
    }];
    assert!(reparse(Grammar::Rust, &base_tree, base, head, &right).is_some());
}

fn java(text: &str) -> Outline {
    outline(Grammar::Java, text, &[]).expect("parsed")
}

#[test]
fn java_items_are_types_methods_constructors_and_fields_but_not_lambdas() {
    let o = java("class Cart {\n    static final int MAX = 3;\n    private int count;\n    Cart(int n) {}\n    int save(@Valid Item item, String... rest) {\n        Runnable r = () -> run();\n        return 1;\n    }\n    interface Shape { double area(); }\n    enum Color { RED }\n    record Point(int x) {}\n}\n");
    let items: Vec<(&str, ItemKind)> = o.items.iter().map(|i| (i.path.as_str(), i.kind)).collect();
    assert_eq!(
        items,
        [
            ("Cart", ItemKind::Type),
            ("Cart::MAX", ItemKind::Constant),
            ("Cart::count", ItemKind::Field),
            ("Cart::Cart", ItemKind::Function),
            ("Cart::save", ItemKind::Function),
            ("Cart::Shape", ItemKind::Type),
            ("Cart::Shape::area", ItemKind::Function),
            ("Cart::Color", ItemKind::Type),
            ("Cart::Point", ItemKind::Type),
        ]
    );
    assert_eq!(o.items[4].params, ["item", "rest"]);
}

#[test]
fn java_conditions_guards_and_throws() {
    let o = java("class A {\n    String f(int id, Object o) {\n        if (id > 0) { throw new IllegalArgumentException(\"bad id\"); }\n        while (id < 3) id++;\n        for (int i = 0; i < id; i++) {}\n        int y = id > 2 ? 1 : 2;\n        return switch (o) {\n            case Integer i when i > 9 -> \"big\";\n            default -> \"other\";\n        };\n    }\n}\n");
    let texts: Vec<&str> = o.conditions.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts, ["id>0", "id<3", "i<id", "id>2", "i>9"]);
    assert_eq!(o.path_of(o.conditions[0].item), "A::f");
    assert_eq!(o.exits.len(), 1);
    assert_eq!(o.exits[0].kind, ExitKind::Throw);
    assert_eq!(o.exits[0].shape, "thrownewIllegalArgumentException");
}

#[test]
fn java_elements_of_constant_collections_enums_and_switch_arms() {
    let o = java("class K {\n    static final List<String> KINDS = List.of(\"csv\", \"json\");\n    static final String[] NAMES = {\"a\"};\n    static final Set<String> S = new HashSet<>(Arrays.asList(\"x\"));\n    private final List<String> mutable = List.of(\"no\");\n    enum Color { RED, GREEN }\n    int f(String s) {\n        List<String> local = List.of(\"no\");\n        switch (s) {\n            case \"a\": return 1;\n            case \"b\", \"c\": return 2;\n            default: return 0;\n        }\n    }\n}\n");
    let els: Vec<(&str, &str)> = o
        .elements
        .iter()
        .map(|e| (o.path_of(e.item), e.text.as_str()))
        .collect();
    assert_eq!(
        els,
        [
            ("K::KINDS", "\"csv\""),
            ("K::KINDS", "\"json\""),
            ("K::NAMES", "\"a\""),
            ("K::S", "\"x\""),
            ("K::Color", "RED"),
            ("K::Color", "GREEN"),
            ("K::f", "\"a\""),
            ("K::f", "case \"b\", \"c\""),
        ]
    );
}

/// A spec of a `describe` with three 14-line tests; `expected` is the middle test's
/// first expectation.
fn spec_with(expected: &str) -> String {
    spec_of(&["one", "two", "three"], "two", expected)
}

/// A spec of a test per title, each of 12 expectations, the first of `changed`'s being
/// `expected`.
fn spec_of(titles: &[&str], changed: &str, expected: &str) -> String {
    let mut s = String::from("import { f } from '../src/f'\n\ndescribe('f', () => {\n");
    for &title in titles {
        s.push_str(&format!("  it('{title}', () => {{\n"));
        for i in 0..12 {
            let value = if title == changed && i == 0 {
                expected.to_string()
            } else {
                i.to_string()
            };
            s.push_str(&format!("    expect(f({i})).toBe({value})\n"));
        }
        s.push_str("  })\n");
    }
    s.push_str("})\n");
    s
}

/// Both outlines of a pair read over the changed lines, as `delta` reads them.
fn outlines(pair: &Pair, base: &str, head: &str, edits: &[LineEdit]) -> String {
    let ranges = |text: &str, side: fn(&LineEdit) -> (usize, usize)| {
        byte_ranges(text, edits.iter().map(side))
    };
    let read = |tree: &Option<Tree>, text: &str, r: Vec<Range<usize>>| {
        tree.as_ref().map(|t| {
            format!(
                "{:?}",
                outline_of(Grammar::TypeScript, t, text, &[], Some(&r))
            )
        })
    };
    format!(
        "{:?}\n{:?}",
        read(&pair.base, base, ranges(base, |e| e.base)),
        read(&pair.head, head, ranges(head, |e| e.head))
    )
}

/// The whole-file trees of a pair, as qa-intent read every file before.
fn whole(base: &str, head: &str, edits: &[LineEdit]) -> Pair {
    let base_tree = parse(Grammar::TypeScript, base).unwrap();
    let head_tree = reparse(Grammar::TypeScript, &base_tree, base, head, edits).unwrap();
    Pair {
        base: Some(base_tree),
        head: Some(head_tree),
        left_out: 0,
        marked: [None, None],
    }
}

#[test]
fn trees_without_the_far_tests_read_as_the_whole_files_do() {
    let (base, head) = (spec_with("0"), spec_with("'changed'"));
    // Line 19 (0-based 18) is the second test's first expectation.
    let edits = [LineEdit {
        base: (18, 19),
        head: (18, 19),
    }];
    let pair = pair(Grammar::TypeScript, Some(&base), Some(&head), Some(&edits));
    assert!(pair.left_out > 0, "the first and third tests are left out");
    let read = outlines(&pair, &base, &head, &edits);
    assert_eq!(
        read,
        outlines(&whole(&base, &head, &edits), &base, &head, &edits)
    );
    assert!(read.contains("'changed'"), "{read}");
}

#[test]
fn a_block_inside_a_template_literal_is_never_left_out() {
    // Lines of a template that look like a far test: left out, the tree would show
    // another string. The partial tree puts the gap inside a template: parsed whole.
    let mut base = String::from("const page = `\nit('looks like a test', () => {\n");
    for i in 0..14 {
        base.push_str(&format!("  step {i}\n"));
    }
    base.push_str("})\n`\n\nconst a = 1\nconst b = 2\n\ntest('changed', () => {\n  expect(page).toBe(1)\n})\n");
    let head = base.replace("toBe(1)", "toBe(2)");
    let line = base.lines().position(|l| l.contains("toBe(1)")).unwrap();
    let edits = [LineEdit {
        base: (line, line + 1),
        head: (line, line + 1),
    }];
    assert!(
        !regions::skippable(&base, &[(line, line + 1)], true).is_empty(),
        "the lines alone suggest a block to leave out"
    );
    let pair = pair(Grammar::TypeScript, Some(&base), Some(&head), Some(&edits));
    assert_eq!(pair.left_out, 0);
    assert_eq!(
        outlines(&pair, &base, &head, &edits),
        outlines(&whole(&base, &head, &edits), &base, &head, &edits)
    );
}

#[test]
fn a_partial_tree_with_a_syntax_error_gives_way_to_the_whole_file() {
    // A function at column 0 inside another: leaving it out leaves the outer one open.
    let mut base = String::from("function outer() {\n  if (x) {\nfunction inner() {\n");
    for i in 0..14 {
        base.push_str(&format!("  call({i})\n"));
    }
    base.push_str("}\n  }\n}\n\nfunction changed() {\n  return 1\n}\n");
    let head = base.replace("return 1", "return 2");
    let line = base.lines().position(|l| l.contains("return 1")).unwrap();
    let edits = [LineEdit {
        base: (line, line + 1),
        head: (line, line + 1),
    }];
    let pair = pair(Grammar::TypeScript, Some(&base), Some(&head), Some(&edits));
    assert_eq!(pair.left_out, 0);
    assert!(!pair.base.unwrap().root_node().has_error());
}

/// A spec of five tests whose third changes, and its line edit: the first and the last
/// test are far from the change.
fn five_tests() -> (String, String, [LineEdit; 1]) {
    let titles = ["one", "two", "three", "four", "five"];
    let (base, head) = (
        spec_of(&titles, "three", "0"),
        spec_of(&titles, "three", "'changed'"),
    );
    // Line 33 (0-based 32) is the third test's first expectation.
    let edits = [LineEdit {
        base: (32, 33),
        head: (32, 33),
    }];
    (base, head, edits)
}

#[test]
fn a_partial_tree_names_the_blocks_it_left_out_and_a_whole_tree_none() {
    let (base, head, edits) = five_tests();
    let pair = pair(Grammar::TypeScript, Some(&base), Some(&head), Some(&edits));
    let gaps = left_out(pair.base.as_ref().unwrap(), &base);
    assert_eq!(gaps.len(), 2, "the first and fifth tests");
    assert_eq!(gaps.iter().map(|g| g.len()).sum::<usize>(), pair.left_out);
    let whole = parse(Grammar::TypeScript, &base).unwrap();
    assert!(left_out(&whole, &base).is_empty());
}

/// Every node of a tree with its kind and bytes, in document order.
fn nodes(tree: &Tree) -> Vec<(&str, Range<usize>)> {
    Walk::new(tree.root_node(), None)
        .all
        .iter()
        .map(|n| (n.kind(), n.byte_range()))
        .collect()
}

#[test]
fn a_tree_widened_from_a_narrower_one_is_the_tree_parsed_afresh() {
    let (base, head, edits) = five_tests();
    let narrow = pair(Grammar::TypeScript, Some(&base), Some(&head), Some(&edits))
        .head
        .unwrap();
    let gaps = left_out(&narrow, &head);
    // The first test parsed too; the fifth still left out.
    let rest = &gaps[1..];
    let widened = without(Grammar::TypeScript, &head, rest, &narrow).unwrap();
    assert_eq!(left_out(&widened, &head), rest);
    let mut parser = qa_syntax::parser(Grammar::TypeScript).unwrap();
    parser
        .set_included_ranges(&widened.included_ranges())
        .unwrap();
    let afresh = parser.parse(&head, None).unwrap();
    assert_eq!(nodes(&widened), nodes(&afresh));
    assert_ne!(nodes(&widened), nodes(&narrow));
}

fn kotlin(text: &str) -> Outline {
    outline(Grammar::Kotlin, text, &[]).expect("parsed")
}

#[test]
fn kotlin_is_read_for_kt_and_kts_files() {
    assert_eq!(Grammar::of("src/Cart.kt"), Some(Grammar::Kotlin));
    assert_eq!(Grammar::of("build.gradle.kts"), Some(Grammar::Kotlin));
    assert_eq!(Grammar::of("src/Cart.ktm"), None);
}

#[test]
fn kotlin_items_are_types_objects_functions_and_properties_but_not_locals() {
    let o = kotlin("const val MAX = 3\nclass Cart(val id: Int) {\n  private var count = 0\n  fun save(item: Item, vararg rest: String): Int {\n    val local = 1\n    return 1\n  }\n  companion object {\n    val KINDS = 2\n  }\n}\nobject Registry {\n  fun find() {}\n}\ninterface Shape\nenum class Color { RED }\n");
    let items: Vec<(&str, ItemKind)> = o.items.iter().map(|i| (i.path.as_str(), i.kind)).collect();
    assert_eq!(
        items,
        [
            ("MAX", ItemKind::Constant),
            ("Cart", ItemKind::Type),
            ("Cart::count", ItemKind::Field),
            ("Cart::save", ItemKind::Function),
            ("Cart::KINDS", ItemKind::Constant),
            ("Registry", ItemKind::Type),
            ("Registry::find", ItemKind::Function),
            ("Shape", ItemKind::Type),
            ("Color", ItemKind::Type),
        ]
    );
    assert_eq!(o.items[3].params, ["item", "rest"]);
}

#[test]
fn kotlin_conditions_when_branches_and_throws() {
    let o = kotlin("fun f(id: Int): String {\n  if (id > 0) throw IllegalArgumentException(\"bad id\")\n  while (id < 3) {}\n  require(id != 2)\n  if (id == 9) error(\"nine\")\n  return when {\n    id > 9 -> \"big\"\n    else -> \"other\"\n  }\n}\n");
    let texts: Vec<&str> = o.conditions.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts, ["id>0", "id<3", "id==9", "id>9"]);
    assert_eq!(o.path_of(o.conditions[0].item), "f");
    let exits: Vec<(ExitKind, &str)> = o.exits.iter().map(|e| (e.kind, e.shape.as_str())).collect();
    assert_eq!(exits.len(), 2);
    assert_eq!(exits[0].0, ExitKind::Throw);
    assert_eq!(exits[1].0, ExitKind::Throw);
}

#[test]
fn kotlin_elements_of_constant_lists_enums_and_when_arms() {
    let o = kotlin("val KINDS = listOf(\"csv\", \"json\")\nclass K {\n  private val mutable = listOf(\"no\")\n  enum class Color { RED, GREEN }\n  fun f(s: String): Int {\n    val local = listOf(\"no\")\n    return when (s) {\n      \"a\" -> 1\n      else -> 0\n    }\n  }\n}\n");
    let els: Vec<(&str, &str)> = o
        .elements
        .iter()
        .map(|e| (o.path_of(e.item), e.text.as_str()))
        .collect();
    assert_eq!(
        els,
        [
            ("KINDS", "\"csv\""),
            ("KINDS", "\"json\""),
            ("K::Color", "RED"),
            ("K::Color", "GREEN"),
            ("K::f", "\"a\""),
        ]
    );
}

/// The last line of the statement starting on each of `lines` of `text`.
fn ends(grammar: Grammar, text: &str, lines: &[u32]) -> Vec<u32> {
    let tree = parse(grammar, text).expect("parsed");
    let statements = Statements::new(&tree, text);
    lines.iter().map(|&l| statements.end(l)).collect()
}

#[test]
fn a_multi_line_assertion_ends_on_its_last_line_and_a_one_line_one_on_its_own() {
    let rust = "fn t() {\n    assert!(a);\n    assert_eq!(\n        x,\n        \"y\"\n    );\n    let z = 1;\n}\n";
    // Line 3 opens the multi-line check; the one-line check (2) and the statement after
    // it (7) do not run into their neighbours.
    assert_eq!(ends(Grammar::Rust, rust, &[3, 2, 7]), [6, 2, 7]);
    // A line continuing a statement begun above spans only itself.
    let python = "def t():\n    assert f(\n        1,\n    ) == 2\n";
    assert_eq!(ends(Grammar::Python, python, &[2, 3]), [4, 3]);
}

#[test]
fn a_chained_call_on_its_own_line_ends_where_its_arguments_end() {
    // `.stdout(` (line 4) opens a call whose text runs to line 7; `.stderr("")` (line 8)
    // is one line; `.success()` (line 3) too.
    let rust = "fn t() {\n    cmd()\n        .success()\n        .stdout(\n            \"a\\\n             b\",\n        )\n        .stderr(\"\");\n}\n";
    assert_eq!(ends(Grammar::Rust, rust, &[4, 8, 3]), [7, 8, 3]);
    let js = "test('t', () => {\n  expect(x)\n    .toEqual({\n      a: 1,\n    })\n})\n";
    assert_eq!(ends(Grammar::JavaScript, js, &[3]), [5]);
    // Control: a spread (`...rest`) starting a line is no chained call.
    let spread = "const a = [\n  ...rest,\n  1,\n]\n";
    assert_eq!(ends(Grammar::JavaScript, spread, &[2]), [2]);
}

#[test]
fn a_line_inside_a_multi_line_string_ends_where_the_string_ends() {
    // No node starts at the line's first byte: the smallest node holding it decides.
    let python = "x = \"\"\"\n  abc\n\"\"\"\ny = 1\n";
    assert_eq!(ends(Grammar::Python, python, &[2, 4]), [3, 4]);
}

#[test]
fn edits_hold_only_when_they_turn_the_base_into_the_head() {
    let (base, head) = ("a\nb\nc\n", "a\nB\nc\nd\n");
    let right = [LineEdit::of_hunk(2, 1, 2, 1), LineEdit::of_hunk(3, 0, 4, 1)];
    assert!(edits_hold(base, head, &right));
    // The edit one line off, or a missing edit, leaves unchanged runs that differ.
    let shifted = [LineEdit::of_hunk(1, 1, 1, 1), LineEdit::of_hunk(3, 0, 4, 1)];
    assert!(!edits_hold(base, head, &shifted));
    assert!(!edits_hold(base, head, &right[..1]));
}
