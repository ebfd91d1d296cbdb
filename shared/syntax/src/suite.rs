//! Tests read from syntax trees: which tests a file defines, whether they are skipped,
//! what they call and set up, and the values they expect (assertions, matchers, table
//! rows, parametrize columns), per test framework; and the repository's own assertion
//! helpers ([`helpers`]), whose literal arguments are expectations too.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use tree_sitter::Node;

use crate::walk::{ByKind, Walk};
use crate::{excerpt, line_of, text_of, Grammar};

/// The test framework family, as the `contracts[].framework` field names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framework {
    /// `#[test]` functions and the macros that define them (`cargo test`).
    Rust,
    /// `it`/`test`/`describe` calls (Jest, Vitest, Mocha: one calling shape).
    Jest,
    /// `test_` functions and methods.
    Pytest,
    /// `func TestX(t *testing.T)` and its `t.Run` cases.
    Go,
    /// JUnit 3, 4 or 5 test methods, in Java or Kotlin.
    JUnit,
    /// TestNG test methods.
    TestNg,
}

impl Framework {
    /// Its name in records: `rust`, `jest`, `pytest`, `go`, `junit`, `testng`.
    pub fn name(self) -> &'static str {
        match self {
            Framework::Rust => "rust",
            Framework::Jest => "jest",
            Framework::Pytest => "pytest",
            Framework::Go => "go",
            Framework::JUnit => "junit",
            Framework::TestNg => "testng",
        }
    }
}

/// One value a test expects, located: `"foo\nbar\n"`, `throws "boom"`, `raises ValueError`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expectation {
    /// The 1-based line it stands on.
    pub line: u32,
    /// What is expected, in words with the literal quoted (`` `sum(1, 2)` is 3 ``).
    pub text: String,
}

/// A test defined in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Test {
    /// The function or case name (`r1234`, `test_parse`, `TestSort/empty`).
    pub name: String,
    /// The human title: a JS title string, a docstring's first line, else the name.
    pub title: String,
    /// The framework that runs it.
    pub framework: Framework,
    /// The 1-based line its definition starts on.
    pub line: u32,
    /// The 1-based line its definition ends on.
    pub end: u32,
    /// The values it expects, expected values first, without repeats.
    pub expects: Vec<Expectation>,
    /// The marker that skips or disables it: `#[ignore]`, `test.skip`, `t.Skip`, ...
    pub skipped: Option<String>,
    /// Callee names in its body, for the product items it exercises.
    pub calls: Vec<String>,
    /// What the test sets up before the call it checks, in words: the options and fields
    /// it sets to a value (`` `StrictSlash` set to `true` ``), its fixtures; else its first
    /// statement that calls something and asserts nothing, excerpted.
    pub setup: Option<String>,
    /// Calls with a literal argument: to one of the repository's assertion helpers, their
    /// literal arguments are expectations ([`helpers`] resolves them).
    pub helper_calls: Vec<Call>,
    /// The call whose result the test asserts, as written with its arguments
    /// (`r.ServeHTTP(w, req)`, `parse(["--flag", "x"])`).
    pub act: Option<String>,
}

/// A call a test makes with at least one literal argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    /// The callee's last name: `assert_failure_with_error` of `env.assert_failure_with_error`.
    pub name: String,
    /// The 1-based line the call starts on.
    pub line: u32,
    /// Its arguments, in order.
    pub args: Vec<Arg>,
}

/// One argument of a [`Call`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arg {
    /// A keyword argument's name (`expected=` in Python).
    pub keyword: Option<String>,
    /// The argument as a reader should see it (a literal kept whole, else excerpted).
    pub text: String,
    /// Only literals: strings, numbers, and lists or tables of them.
    pub literal: bool,
}

impl Test {
    /// A test defined by `node`, spanning its lines, with nothing read from it yet.
    fn at(node: Node, name: String, title: String, framework: Framework) -> Test {
        Test {
            name,
            title,
            framework,
            line: line_of(node),
            end: node.end_position().row as u32 + 1,
            expects: Vec::new(),
            skipped: None,
            calls: Vec::new(),
            setup: None,
            helper_calls: Vec::new(),
            act: None,
        }
    }
}

/// Most expectations kept per test, a bound on memory only: the rows a change adds to a
/// long case table may stand far down it, and the caller keeps those the change wrote
/// before keeping a few.
const MAX_EXPECTS: usize = 128;
/// Longest literal kept in an expectation.
const LITERAL: usize = 160;

/// Keys of a table row that hold what the case expects: `want`, `expected`, `wantErr`,
/// `expectedReason`, `output`, `valid...`.
fn is_expectation_key(key: &str) -> bool {
    let k = key
        .trim_matches(|c| c == '"' || c == '\'' || c == '`')
        .to_ascii_lowercase();
    [
        "want", "expect", "output", "result", "valid", "invalid", "should",
    ]
    .iter()
    .any(|w| k.starts_with(w) || k.contains(&format!("_{w}")))
        || k.starts_with("exp") && k.len() <= 4
}

/// Table-driven cases in a test body: `{name: "x", want: "y"}` rows (Go keyed elements,
/// JavaScript object pairs, Python dict entries) whose key names an expectation.
fn table_rows(nodes: &[Node], text: &str, out: &mut Vec<Expectation>) {
    let mut kinds = ByKind::default();
    for &n in nodes {
        let kind = kinds.of(n, |k| k);
        if kind == "composite_literal" {
            go_positional_rows(n, text, out);
            continue;
        }
        let (key, value) = match kind {
            "keyed_element" => (n.child_by_field_name("key"), n.child_by_field_name("value")),
            "pair" => (n.child_by_field_name("key"), n.child_by_field_name("value")),
            _ => continue,
        };
        let (Some(key), Some(value)) = (key, value) else {
            continue;
        };
        let key = text_of(key, text);
        if is_expectation_key(key) {
            let key = key.trim_matches(|c| c == '"' || c == '\'' || c == '`');
            // The row's input, so the expected value says for what.
            let input = n.parent().and_then(|row| row_input(row, n, text));
            out.push(Expectation {
                line: line_of(value),
                text: match input {
                    Some((k, v)) => {
                        format!("`{key}` is {} for `{k}` {v}", literal(text_of(value, text)))
                    }
                    None => format!("`{key}` is {}", literal(text_of(value, text))),
                },
            });
        }
    }
}

/// `[]struct{ in, want string }{{"a", "b"}, ...}`: rows written without keys, their cells
/// named by the struct's fields in order.
fn go_positional_rows(table: Node, text: &str, out: &mut Vec<Expectation>) {
    let Some(strukt) = table
        .child_by_field_name("type")
        .filter(|t| matches!(t.kind(), "slice_type" | "array_type"))
        .and_then(|t| t.child_by_field_name("element"))
        .filter(|e| e.kind() == "struct_type")
    else {
        return;
    };
    let mut fields = Vec::new();
    for list in named_children(strukt) {
        for decl in named_children(list) {
            let mut c = decl.walk();
            fields.extend(
                decl.children_by_field_name("name", &mut c)
                    .map(|n| text_of(n, text).to_string()),
            );
        }
    }
    let Some(body) = table.child_by_field_name("body") else {
        return;
    };
    for element in named_children(body) {
        let Some(row) = named_children(element)
            .into_iter()
            .next()
            .filter(|r| r.kind() == "literal_value")
        else {
            continue;
        };
        let cells = named_children(row);
        if cells.is_empty() || cells.iter().any(|c| c.kind() == "keyed_element") {
            continue;
        }
        let cells: Vec<String> = cells.iter().map(|c| literal(text_of(*c, text))).collect();
        out.push(Expectation {
            line: line_of(row),
            text: row_text(&fields, &cells),
        });
    }
}

/// The first field of a table row that is not an expectation (`name: "flood control"`,
/// `input: "a"`): what the row feeds the test.
fn row_input(row: Node, expected: Node, text: &str) -> Option<(String, String)> {
    named_children(row).into_iter().find_map(|field| {
        if field == expected || !matches!(field.kind(), "keyed_element" | "pair") {
            return None;
        }
        let key = text_of(field.child_by_field_name("key")?, text)
            .trim_matches(|c| c == '"' || c == '\'' || c == '`');
        let value = field.child_by_field_name("value")?;
        (!is_expectation_key(key)).then(|| (key.to_string(), literal(text_of(value, text))))
    })
}

/// File-level tables of cases in a file that defines tests (`var cases = []struct{...}`,
/// `const cases = [...]`, `CASES = [...]`): each one whose rows name expected values is a
/// test of its own, so that a changed row is a changed test.
fn table_tests(walk: &Walk, root: Node, text: &str, framework: Framework) -> Vec<Test> {
    let mut out = Vec::new();
    for top in named_children(root) {
        if !walk.touches(top) {
            continue;
        }
        let declarators: Vec<Node> = match top.kind() {
            "var_declaration" | "lexical_declaration" | "variable_declaration" => {
                named_children(top)
            }
            "expression_statement" => named_children(top)
                .into_iter()
                .filter(|n| n.kind() == "assignment")
                .collect(),
            _ => continue,
        };
        for d in declarators {
            let (name, value) = match d.kind() {
                "var_spec" | "variable_declarator" => (
                    d.child_by_field_name("name"),
                    d.child_by_field_name("value"),
                ),
                "assignment" => (
                    d.child_by_field_name("left"),
                    d.child_by_field_name("right"),
                ),
                _ => continue,
            };
            let (Some(name), Some(value)) = (name, value) else {
                continue;
            };
            let mut expects = Vec::new();
            table_rows(&walk.subtree(value), text, &mut expects);
            if expects.is_empty() {
                continue;
            }
            let name = text_of(name, text).to_string();
            out.push(Test {
                title: format!("cases of `{name}`"),
                name,
                framework,
                line: line_of(d),
                end: d.end_position().row as u32 + 1,
                expects,
                skipped: None,
                calls: Vec::new(),
                setup: None,
                helper_calls: Vec::new(),
                act: None,
            });
        }
    }
    out
}

/// Every test `root` defines. `test_macros` are Rust macros known to define tests.
pub fn tests(
    grammar: Grammar,
    root: Node,
    text: &str,
    test_macros: &[String],
    ranges: Option<&[Range<usize>]>,
) -> Vec<Test> {
    let walk = Walk::new(root, ranges);
    let (mut out, framework) = match grammar {
        Grammar::Rust => (rust_tests(&walk, text, test_macros), Framework::Rust),
        Grammar::TypeScript | Grammar::Tsx | Grammar::JavaScript => {
            (js_tests(&walk, text), Framework::Jest)
        }
        Grammar::Python => (python_tests(&walk, text), Framework::Pytest),
        Grammar::Go => (go_tests(&walk, text), Framework::Go),
        Grammar::Java => (java::tests(&walk, text), Framework::JUnit),
        Grammar::Kotlin => (kotlin::tests(&walk, text), Framework::JUnit),
    };
    // The caller looked for test markers first: a file with tests may keep its cases in
    // a file-level table (the tests themselves may lie outside the changed ranges).
    out.extend(table_tests(&walk, root, text, framework));
    for t in &mut out {
        let mut seen = std::collections::HashSet::new();
        t.expects.retain(|e| seen.insert(e.text.clone()));
        // Expected values first: a bare predicate (`` `f.IsSet()` holds ``) says less, and
        // a row that names no expected column only says the case passes (the test's own
        // assertions say what passing means). Only so many are kept per test.
        t.expects.sort_by_key(|e| {
            if e.text.starts_with("the case ") || e.text.starts_with("the row ") {
                2
            } else if e.text.ends_with("` holds") || e.text.ends_with("` does not hold") {
                1
            } else {
                0
            }
        });
        t.expects.truncate(MAX_EXPECTS);
        t.calls.sort();
        t.calls.dedup();
    }
    out
}

/// A cheap look at the text before walking a tree for tests: no test marker, no tests.
pub fn may_define_tests(grammar: Grammar, text: &str, test_macros: &[String]) -> bool {
    static MARKERS: LazyLock<[Regex; 6]> = LazyLock::new(|| {
        [
            // `#[test]`, `#[tokio::test(flavor = ...)]`, `#[rstest]`.
            r"#\[[\w:]*test\b",
            // A test call at the start of a statement: `it(`, `test.each(`, `xit(`.
            r"(?m)^\s*(?:it|test|specify|xit|xtest|fit)\s*[.(]",
            r"(?m)^\s*(?:async\s+)?def\s+test",
            r"(?m)^func\s+(?:Test|Benchmark)",
            java::MARKER,
            kotlin::MARKER,
        ]
        .map(|p| Regex::new(p).expect("test marker pattern"))
    });
    match grammar {
        Grammar::Rust => {
            MARKERS[0].is_match(text) || test_macros.iter().any(|m| text.contains(&format!("{m}!")))
        }
        Grammar::TypeScript | Grammar::Tsx | Grammar::JavaScript => MARKERS[1].is_match(text),
        Grammar::Python => MARKERS[2].is_match(text),
        Grammar::Go => MARKERS[3].is_match(text),
        Grammar::Java => MARKERS[4].is_match(text),
        Grammar::Kotlin => MARKERS[5].is_match(text),
    }
}

pub(crate) fn named_children(node: Node) -> Vec<Node> {
    let mut walk = node.walk();
    node.named_children(&mut walk)
        .filter(|c| !c.kind().contains("comment"))
        .collect()
}

/// A literal as a reader should see it: quotes kept, line continuations joined, newlines
/// shown as `\n`, bounded.
pub fn literal(code: &str) -> String {
    let mut s = String::new();
    let mut chars = code.trim().chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            // Rust's `\` line continuation: the newline and the next line's indent go.
            '\\' if chars.peek() == Some(&'\n') => {
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                }
            }
            '\n' => s.push_str("\\n"),
            '\r' => {}
            c => s.push(c),
        }
    }
    match s.char_indices().nth(LITERAL) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

/// An expectation's text with its bare numbers shown as code, as its subject and a
/// setup's values already are: `` `len(line)` is less than `80` ``. A number inside code
/// or a quoted string is left as written; a word that merely holds digits is no number.
pub fn numbers_as_code(text: &str) -> String {
    static NUMBER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^-?(?:0[xX][0-9a-fA-F_]+|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?)(?:[uUiIfF](?:8|16|32|64|128|size)?|[lLdD]|[uU][lL])?$",
        )
            .expect("number pattern")
    });
    let mut out = String::with_capacity(text.len() + 8);
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        // A trailing comma or closing bracket belongs to the text, not the number.
        let end = token.trim_end_matches([',', ')', ']', ';', ':']).len();
        let (core, tail) = token.split_at(end);
        if NUMBER.is_match(core) {
            out.push('`');
            out.push_str(core);
            out.push('`');
            out.push_str(tail);
        } else {
            out.push_str(token);
        }
        token.clear();
    };
    let mut chars = text.chars().peekable();
    let mut at_start = true;
    while let Some(c) = chars.next() {
        match c {
            // Code and strings pass through whole; a quote only opens a string at a token's
            // start (an apostrophe inside a word does not).
            '`' | '"' | '\'' if token.is_empty() && (c != '\'' || at_start) => {
                out.push(c);
                let mut escaped = false;
                for d in chars.by_ref() {
                    out.push(d);
                    if d == c && !escaped {
                        break;
                    }
                    escaped = d == '\\' && !escaped && c != '`';
                }
                at_start = false;
            }
            c if c.is_whitespace() || c == '(' || c == '[' => {
                flush(&mut token, &mut out);
                out.push(c);
                at_start = true;
            }
            c => {
                token.push(c);
                at_start = false;
            }
        }
    }
    flush(&mut token, &mut out);
    out
}

/// The record of a call that passes a literal (`name` is the callee's last name), for
/// [`helpers`] to read as an assertion helper's expectations once the helpers are known.
fn call_with_literals(name: &str, line: u32, args: &[Node], text: &str) -> Option<Call> {
    let args: Vec<Arg> = args.iter().map(|a| arg_of(*a, text)).collect();
    args.iter().any(|a| a.literal).then(|| Call {
        name: name.to_string(),
        line,
        args,
    })
}

fn arg_of(a: Node, text: &str) -> Arg {
    // Python's `expected="x"`: the keyword names the parameter.
    if a.kind() == "keyword_argument" {
        if let (Some(k), Some(v)) = (
            a.child_by_field_name("name"),
            a.child_by_field_name("value"),
        ) {
            let mut arg = arg_of(v, text);
            arg.keyword = Some(text_of(k, text).to_string());
            return arg;
        }
    }
    let is = is_literal_value(a);
    Arg {
        keyword: None,
        text: if is {
            literal(text_of(a, text))
        } else {
            excerpt(text_of(a, text))
        },
        literal: is,
    }
}

/// A literal, or a list, tuple, table or struct literal made only of literals: `"x"`,
/// `&["a", "b"]`, `[]string{"a"}`, `{ strict: true }`, `-1`.
pub(crate) fn is_literal_value(n: Node) -> bool {
    const CONTAINERS: &[&str] = &[
        "array",
        "list",
        "tuple",
        "set",
        "object",
        "dictionary",
        "pair",
        "composite_literal",
        "literal_value",
        "literal_element",
        "keyed_element",
        "element",
        "array_initializer",
        "array_expression",
        "tuple_expression",
        "reference_expression",
        "unary_expression",
        "parenthesized_expression",
        "expression_list",
    ];
    // Keys and type names inside a table are no values of their own.
    const NAMES: &[&str] = &[
        "property_identifier",
        "field_identifier",
        "type_identifier",
        "qualified_type",
        "slice_type",
        "array_type",
        "map_type",
    ];
    if !CONTAINERS.contains(&n.kind()) {
        // A function literal is code, whatever its node is called.
        return is_literal(n.kind()) && !n.kind().starts_with("func");
    }
    let kids = named_children(n);
    // `key: value`: the key is a name, whatever its node.
    if matches!(n.kind(), "pair" | "keyed_element") {
        return kids.last().is_some_and(|v| is_literal_value(*v));
    }
    kids.iter().any(|k| !NAMES.contains(&k.kind()))
        && kids
            .iter()
            .all(|k| NAMES.contains(&k.kind()) || is_literal_value(*k))
}

/// True for a literal node of any grammar: strings, numbers, booleans, null-likes.
fn is_literal(kind: &str) -> bool {
    kind.contains("string")
        || kind.contains("literal") && !kind.contains("composite") && kind != "literal_value"
        || matches!(
            kind,
            "number"
                | "integer"
                | "float"
                | "true"
                | "false"
                | "none"
                | "null"
                | "undefined"
                | "nil"
                | "template_string"
                | "concatenated_string"
                | "boolean_literal"
                | "char_literal"
                | "interpreted_string_literal"
                | "raw_string_literal"
                | "int_literal"
        )
}

// ---------------------------------------------------------------------------------------
// Rust

/// A leaf token of a Rust subtree: literals are kept whole.
struct Tok<'t> {
    kind: &'t str,
    text: &'t str,
    line: u32,
    bytes: (usize, usize),
}

fn rust_tokens<'t>(node: Node<'t>, text: &'t str, out: &mut Vec<Tok<'t>>) {
    let kind = node.kind();
    if node.child_count() == 0
        || matches!(
            kind,
            "string_literal" | "raw_string_literal" | "char_literal" | "integer_literal"
        )
    {
        out.push(Tok {
            kind,
            text: text_of(node, text),
            line: line_of(node),
            bytes: (node.start_byte(), node.end_byte()),
        });
        return;
    }
    let mut walk = node.walk();
    let children: Vec<Node> = node.children(&mut walk).collect();
    for c in children {
        if !c.kind().contains("comment") {
            rust_tokens(c, text, out);
        }
    }
}

fn rust_literal(kind: &str) -> bool {
    matches!(
        kind,
        "string_literal"
            | "raw_string_literal"
            | "char_literal"
            | "integer_literal"
            | "float_literal"
            | "true"
            | "false"
    )
}

/// An assertion macro: `assert*!`, `debug_assert*!`, and `*eq*!` helpers like `eqnice!`.
pub(crate) fn is_assert_macro(name: &str) -> bool {
    let bare = name.trim_start_matches("debug_");
    bare.starts_with("assert") || name.contains("eq")
}

fn rust_tests(walk: &Walk, text: &str, test_macros: &[String]) -> Vec<Test> {
    let mut out = Vec::new();
    for &node in &walk.all {
        match node.kind() {
            "function_item" => {
                let attrs = preceding_attributes(node, text);
                let is_test = attrs.iter().any(|(name, _)| {
                    name == "test" || name.ends_with("::test") || name.ends_with("test")
                });
                if !is_test {
                    continue;
                }
                let name = node
                    .child_by_field_name("name")
                    .map(|n| text_of(n, text).to_string())
                    .unwrap_or_default();
                let mut t = rust_test(node, text, name);
                if let Some(b) = node.child_by_field_name("body") {
                    arrange::read(b, text, &[], &mut t);
                }
                for (attr, whole) in &attrs {
                    if attr == "ignore" {
                        t.skipped = Some(format!("#[{whole}]"));
                    }
                    if attr == "should_panic" {
                        let message = whole
                            .split_once('"')
                            .map(|(_, rest)| format!("\"{}", rest.trim_end_matches(')')));
                        t.expects.insert(
                            0,
                            Expectation {
                                line: t.line,
                                text: match message {
                                    Some(m) => format!("panics with {}", literal(&m)),
                                    None => "panics".to_string(),
                                },
                            },
                        );
                    }
                }
                out.push(t);
            }
            "macro_invocation" => {
                let item_level = node.parent().is_some_and(|p| {
                    matches!(p.kind(), "source_file" | "declaration_list")
                        || p.kind() == "expression_statement"
                            && p.parent().is_some_and(|g| {
                                matches!(g.kind(), "source_file" | "declaration_list")
                            })
                });
                let Some(mac) = node.child_by_field_name("macro") else {
                    continue;
                };
                let mac = text_of(mac, text);
                if !item_level || !test_macros.iter().any(|m| m == mac) {
                    continue;
                }
                let mut toks = Vec::new();
                rust_tokens(node, text, &mut toks);
                // `name!(test_name, |dir, cmd| { ... })`: the first identifier inside.
                let name = toks
                    .iter()
                    .skip(2)
                    .find(|t| t.kind == "identifier")
                    .map(|t| t.text.to_string())
                    .unwrap_or_else(|| mac.to_string());
                out.push(rust_test(node, text, name));
            }
            _ => {}
        }
    }
    out
}

/// The attributes right above an item: (path, whole text inside `#[...]`).
fn preceding_attributes(node: Node, text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut prev = node.prev_sibling();
    while let Some(p) = prev {
        match p.kind() {
            "attribute_item" => {
                let whole = text_of(p, text)
                    .trim_start_matches("#[")
                    .trim_end_matches(']')
                    .trim()
                    .to_string();
                let path: String = whole
                    .split(|c: char| c == '(' || c == '=' || c.is_whitespace())
                    .next()
                    .unwrap_or("")
                    .to_string();
                out.push((path, whole));
            }
            k if k.contains("comment") => {}
            _ => break,
        }
        prev = p.prev_sibling();
    }
    out
}

fn rust_test(node: Node, text: &str, name: String) -> Test {
    let mut toks = Vec::new();
    rust_tokens(node, text, &mut toks);
    let mut bindings: HashMap<&str, (&str, u32)> = HashMap::new();
    let mut expects = Vec::new();
    let mut calls = Vec::new();
    let mut helper_calls = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        // `let [mut] name [: T] = LITERAL;`
        if t.text == "let" {
            let mut j = i + 1;
            if toks.get(j).is_some_and(|t| t.text == "mut") {
                j += 1;
            }
            if let Some(name) = toks.get(j).filter(|t| t.kind == "identifier") {
                let eq = (j + 1..toks.len().min(j + 12)).find(|&k| toks[k].text == "=");
                if let Some(eq) = eq {
                    if let (Some(v), Some(end)) = (toks.get(eq + 1), toks.get(eq + 2)) {
                        if rust_literal(v.kind) && end.text == ";" {
                            bindings.insert(name.text, (v.text, v.line));
                        }
                    }
                }
            }
        }
        // `cmd.arg("x").assert_exit_code(0)`: a method assertion on what the line built.
        // A command-line test builder's `.assert()` (a method of the builder, read by
        // what follows it: the outcomes it expects of the command line it built).
        if t.kind == "field_identifier" && t.text == "assert" && i > 0 && toks[i - 1].text == "." {
            let start = (0..i - 1)
                .rev()
                .find(|&k| matches!(toks[k].text, ";" | "{" | "}" | "=>" | "="))
                .map_or(0, |k| k + 1);
            expects.extend(cli_runs::expectations(&toks, start, i));
        }
        if t.kind == "identifier"
            && t.text.starts_with("assert")
            && i > 0
            && toks[i - 1].text == "."
            && toks.get(i + 1).is_some_and(|n| n.text == "(")
        {
            let start = (0..i - 1)
                .rev()
                .find(|&k| matches!(toks[k].text, ";" | "{" | "}" | "=>" | "="))
                .map_or(0, |k| k + 1);
            let receiver = match (toks.get(start), toks.get(i - 2)) {
                (Some(a), Some(b)) if start < i - 1 => {
                    excerpt(text.get(a.bytes.0..b.bytes.1).unwrap_or(""))
                }
                _ => String::new(),
            };
            let call = group_args(&toks, i + 1)
                .and_then(|(_, end)| text.get(t.bytes.0..toks.get(end - 1)?.bytes.1))
                .map(excerpt)
                .unwrap_or_else(|| t.text.to_string());
            // Inside a macro every name is an identifier: a builder's `.assert()` there
            // is read the same way.
            let runs = cli_runs::expectations(&toks, start, i);
            if !runs.is_empty() {
                expects.extend(runs);
            } else if !receiver.is_empty() {
                expects.push(Expectation {
                    line: t.line,
                    text: format!("`{receiver}` passes `{call}`"),
                });
            }
        }
        if t.kind == "identifier" || t.kind == "field_identifier" {
            match toks.get(i + 1).map(|n| n.text) {
                Some("(") if i == 0 || toks[i - 1].text != "fn" => {
                    // Method names are no product items of their own here.
                    if t.kind == "identifier" {
                        calls.push(t.text.to_string());
                    }
                    if let Some((args, _)) = group_args(&toks, i + 1) {
                        let args: Vec<Arg> = args
                            .iter()
                            .map(|a| {
                                let is = rust_literal_arg(a);
                                let code = match (a.first(), a.last()) {
                                    (Some(x), Some(y)) => {
                                        text.get(x.bytes.0..y.bytes.1).unwrap_or("")
                                    }
                                    _ => "",
                                };
                                Arg {
                                    keyword: None,
                                    text: if is { literal(code) } else { excerpt(code) },
                                    literal: is,
                                }
                            })
                            .collect();
                        if args.iter().any(|a| a.literal) {
                            helper_calls.push(Call {
                                name: t.text.to_string(),
                                line: t.line,
                                args,
                            });
                        }
                    }
                }
                Some("!") if t.kind == "identifier" && is_assert_macro(t.text) => {
                    // The arguments are scanned on for the calls they make.
                    if let Some((args, _)) = group_args(&toks, i + 2) {
                        expects.extend(rust_expectations(t.text, &args, &bindings, t.line, text));
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    Test {
        title: name.clone(),
        name,
        framework: Framework::Rust,
        line: line_of(node),
        end: node.end_position().row as u32 + 1,
        expects,
        skipped: None,
        calls,
        setup: None,
        helper_calls,
        act: None,
    }
}

/// A Rust argument made of literals only: `"x"`, `&["a", "b"]`, `vec!["a"]`, `-1`,
/// `"x".to_string()`.
fn rust_literal_arg(arg: &[Tok]) -> bool {
    arg.iter().any(|t| rust_literal(t.kind))
        && arg.iter().all(|t| {
            rust_literal(t.kind)
                || matches!(
                    t.text,
                    "&" | "[" | "]" | "," | "(" | ")" | "!" | "." | "::" | "-"
                )
                || t.kind == "identifier"
                    && matches!(
                        t.text,
                        "vec" | "Some" | "to_string" | "to_owned" | "into" | "String" | "from"
                    )
        })
}

/// The top-level comma-separated arguments of the bracket group opening at `open`, and
/// the index after its close.
fn group_args<'a, 't>(toks: &'a [Tok<'t>], open: usize) -> Option<(Vec<&'a [Tok<'t>]>, usize)> {
    if !matches!(toks.get(open)?.text, "(" | "[" | "{") {
        return None;
    }
    let mut depth = 0;
    let mut args = Vec::new();
    let mut start = open + 1;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t.text {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth -= 1;
                if depth == 0 {
                    if k > start {
                        args.push(&toks[start..k]);
                    }
                    return Some((args, k + 1));
                }
            }
            "," if depth == 1 => {
                args.push(&toks[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    None
}

fn rust_expectations(
    mac: &str,
    args: &[&[Tok]],
    bindings: &HashMap<&str, (&str, u32)>,
    line: u32,
    source: &str,
) -> Vec<Expectation> {
    let value = |arg: &[Tok]| -> Option<(String, u32)> {
        match arg {
            [t] if rust_literal(t.kind) => Some((literal(t.text), t.line)),
            [t] if t.kind == "identifier" => bindings.get(t.text).map(|(v, l)| (literal(v), *l)),
            // `&"x"`, `"x".to_string()`, `String::from("x")`: the one literal inside.
            _ => {
                let lits: Vec<&Tok> = arg.iter().filter(|t| rust_literal(t.kind)).collect();
                (lits.len() == 1 && arg.len() <= 6).then(|| (literal(lits[0].text), lits[0].line))
            }
        }
    };
    // The source between the first and the last token, as written.
    let code = |arg: &[Tok]| match (arg.first(), arg.last()) {
        (Some(a), Some(b)) => excerpt(source.get(a.bytes.0..b.bytes.1).unwrap_or("")),
        _ => String::new(),
    };
    let negated = mac.contains("_ne");
    let mut out = Vec::new();
    if mac.contains("eq") || mac.contains("ne") && mac.starts_with("assert") {
        // The literal side of a two-sided comparison; the other side is what is checked.
        let sides: Vec<Option<(String, u32)>> = args.iter().take(2).map(|a| value(a)).collect();
        for (k, side) in sides.iter().enumerate() {
            if let Some((v, l)) = side {
                let other = args.get(1 - k).map(|a| code(a)).unwrap_or_default();
                let text = match (negated, other.is_empty()) {
                    (true, _) => format!("`{other}` is not {v}"),
                    (false, true) => v.clone(),
                    (false, false) => format!("`{other}` is {v}"),
                };
                out.push(Expectation { line: *l, text });
                break;
            }
        }
        if out.is_empty() && args.len() >= 2 {
            out.push(Expectation {
                line,
                text: format!("`{}` equals `{}`", code(args[0]), code(args[1])),
            });
        }
    } else if let Some(first) = args.first() {
        // `assert!(a == b)`: the literal side; else the asserted expression itself.
        let eq = first.iter().position(|t| t.text == "==" || t.text == "!=");
        let text = match eq {
            Some(p) => {
                let (l, r) = (&first[..p], &first[p + 1..]);
                let op = if first[p].text == "==" {
                    "is"
                } else {
                    "is not"
                };
                match (value(l), value(r)) {
                    (_, Some((v, _))) => format!("`{}` {op} {v}", code(l)),
                    (Some((v, _)), None) => format!("`{}` {op} {v}", code(r)),
                    _ => format!("`{}` holds", code(first)),
                }
            }
            None => format!("`{}` holds", code(first)),
        };
        out.push(Expectation { line, text });
    }
    out
}

// ---------------------------------------------------------------------------------------
// JavaScript and TypeScript

const TEST_FNS: &[&str] = &["it", "test", "specify", "xit", "xtest", "fit"];
const TEST_MODIFIERS: &[&str] = &[
    "only",
    "skip",
    "todo",
    "concurrent",
    "failing",
    "sequential",
    "fails",
    "runIf",
    "skipIf",
];

fn js_tests(walk: &Walk, text: &str) -> Vec<Test> {
    let mut out = Vec::new();
    let mut calls = ByKind::default();
    for &node in &walk.all {
        if !calls.of(node, |k| k == "call_expression") {
            continue;
        }
        let Some(callee) = node.child_by_field_name("function") else {
            continue;
        };
        let Some((base, modifiers)) = js_test_callee(callee, text) else {
            continue;
        };
        let Some(args) = node.child_by_field_name("arguments") else {
            continue;
        };
        let args = named_children(args);
        let Some(title) = args.first().and_then(|a| js_string(*a, text)) else {
            continue;
        };
        let body = args.iter().find(|a| {
            matches!(
                a.kind(),
                "arrow_function" | "function_expression" | "function"
            )
        });
        let skipped = if base.starts_with('x') {
            Some(base.to_string())
        } else if let Some(m) = modifiers.iter().find(|m| matches!(**m, "skip" | "todo")) {
            Some(format!("{base}.{m}"))
        } else if body.is_none() {
            Some(format!("{base} without a body"))
        } else {
            None
        };
        let mut t = Test {
            name: title.clone(),
            title,
            framework: Framework::Jest,
            line: line_of(node),
            end: node.end_position().row as u32 + 1,
            expects: Vec::new(),
            skipped,
            calls: Vec::new(),
            setup: None,
            helper_calls: Vec::new(),
            act: None,
        };
        // `test.each(table)(title, fn)`: the table's rows, by the function's parameters.
        if callee.kind() == "call_expression" {
            if let Some(table) = callee.child_by_field_name("arguments") {
                let params = body.map(|b| js_params(*b, text)).unwrap_or_default();
                each_rows(table, &params, text, &mut t.expects);
            }
        }
        if let Some(body) = body {
            let nodes = walk.subtree(*body);
            table_rows(&nodes, text, &mut t.expects);
            for &n in nodes.iter() {
                if n.kind() != "call_expression" {
                    continue;
                }
                if let Some(e) = js_expectation(n, text) {
                    t.expects.push(e);
                } else if let Some(f) = n.child_by_field_name("function") {
                    let name = match f.kind() {
                        "identifier" => Some(f),
                        "member_expression" => f.child_by_field_name("property"),
                        _ => None,
                    };
                    let name = name.map(|n| text_of(n, text)).filter(|n| *n != "expect");
                    if let Some(name) = name {
                        let args = n
                            .child_by_field_name("arguments")
                            .map(named_children)
                            .unwrap_or_default();
                        t.helper_calls
                            .extend(call_with_literals(name, line_of(n), &args, text));
                        t.calls.push(name.to_string());
                    }
                }
            }
            arrange::read(*body, text, &[], &mut t);
        }
        out.push(t);
    }
    out
}

/// A test function's parameter names, a destructured object's keys included
/// (`(a, b, expected)`, `({ input, expected })`).
fn js_params(f: Node, text: &str) -> Vec<String> {
    let Some(params) = f
        .child_by_field_name("parameters")
        .or_else(|| f.child_by_field_name("parameter"))
    else {
        return Vec::new();
    };
    Walk::new(params, None)
        .all
        .iter()
        .filter(|n| {
            matches!(
                n.kind(),
                "identifier" | "shorthand_property_identifier_pattern"
            ) && !n.parent().is_some_and(|p| {
                p.kind() == "pair_pattern" && p.child_by_field_name("value") != Some(**n)
            })
        })
        .map(|n| text_of(*n, text).to_string())
        .collect()
}

/// The rows of a `test.each` table: an array of arrays (cells by the parameters), of
/// objects (cells by key), of single values, or a template literal whose first line
/// names the columns (`a | b | expected`).
fn each_rows(table: Node, params: &[String], text: &str, out: &mut Vec<Expectation>) {
    if table.kind() == "template_string" {
        let first = line_of(table);
        let body = text_of(table, text).trim_matches('`');
        let mut lines = body
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let Some((_, header)) = lines.next() else {
            return;
        };
        let names: Vec<String> = header.split('|').map(|c| c.trim().to_string()).collect();
        for (k, row) in lines {
            let cells: Vec<String> = row
                .split('|')
                .map(|c| {
                    let c = c.trim();
                    let c = c
                        .strip_prefix("${")
                        .and_then(|c| c.strip_suffix('}'))
                        .unwrap_or(c);
                    literal(c)
                })
                .collect();
            out.push(Expectation {
                line: first + k as u32,
                text: row_text(&names, &cells),
            });
        }
        return;
    }
    let Some(array) = named_children(table).into_iter().next() else {
        return;
    };
    if array.kind() != "array" {
        return;
    }
    for row in named_children(array) {
        let (names, cells): (Vec<String>, Vec<Node>) = match row.kind() {
            "array" => (params.to_vec(), named_children(row)),
            "object" => named_children(row)
                .into_iter()
                .filter(|p| p.kind() == "pair")
                .filter_map(|p| {
                    let k = p.child_by_field_name("key")?;
                    let k = text_of(k, text).trim_matches(|c| c == '"' || c == '\'');
                    Some((k.to_string(), p.child_by_field_name("value")?))
                })
                .unzip(),
            _ => (params.iter().take(1).cloned().collect(), vec![row]),
        };
        let cells: Vec<String> = cells.iter().map(|c| literal(text_of(*c, text))).collect();
        out.push(Expectation {
            line: line_of(row),
            text: row_text(&names, &cells),
        });
    }
}

/// A call's callee node, the callee as written, and its arguments.
fn call_parts<'t>(call: Node<'t>, text: &'t str) -> Option<(Node<'t>, &'t str, Vec<Node<'t>>)> {
    let f = call.child_by_field_name("function")?;
    let args = call
        .child_by_field_name("arguments")
        .map(named_children)
        .unwrap_or_default();
    Some((f, text_of(f, text), args))
}

/// `it`, `test.skip`, `it.each(table)`, `describe.only`...: the test function and its
/// modifiers, for a call that defines one test (describe blocks define none).
fn js_test_callee<'t>(callee: Node, text: &'t str) -> Option<(&'t str, Vec<&'t str>)> {
    match callee.kind() {
        "identifier" => {
            let name = text_of(callee, text);
            TEST_FNS.contains(&name).then(|| (name, Vec::new()))
        }
        "member_expression" => {
            let object = callee.child_by_field_name("object")?;
            let property = text_of(callee.child_by_field_name("property")?, text);
            if !TEST_MODIFIERS.contains(&property) {
                return None;
            }
            let (base, mut mods) = js_test_callee(object, text)?;
            mods.push(property);
            Some((base, mods))
        }
        // `it.each(table)(title, fn)`: the inner call names the function.
        "call_expression" => {
            let inner = callee.child_by_field_name("function")?;
            if inner.kind() != "member_expression" {
                return None;
            }
            let property = text_of(inner.child_by_field_name("property")?, text);
            if property != "each" {
                return None;
            }
            js_test_callee(inner.child_by_field_name("object")?, text).or_else(|| {
                let o = inner.child_by_field_name("object")?;
                let name = text_of(o, text);
                TEST_FNS.contains(&name).then(|| (name, Vec::new()))
            })
        }
        _ => None,
    }
}

/// The text of a string or template literal argument.
fn js_string(node: Node, text: &str) -> Option<String> {
    match node.kind() {
        "string" | "template_string" => {
            let t = text_of(node, text);
            Some(
                t.get(1..t.len().saturating_sub(1))
                    .unwrap_or("")
                    .to_string(),
            )
        }
        _ => None,
    }
}

/// `expect(x)[.not|.resolves|.rejects].toMatcher(y)` or `assert.equal(x, y)`.
fn js_expectation(call: Node, text: &str) -> Option<Expectation> {
    let f = call.child_by_field_name("function")?;
    if f.kind() != "member_expression" {
        return None;
    }
    let matcher = text_of(f.child_by_field_name("property")?, text);
    let args: Vec<Node> = call
        .child_by_field_name("arguments")
        .map(named_children)
        .unwrap_or_default();
    let arg = |i: usize| args.get(i).map(|a| literal(text_of(*a, text)));
    let object = f.child_by_field_name("object")?;
    if text_of(object, text) == "assert" {
        let other = arg(0).unwrap_or_default();
        let want = arg(1)?;
        return Some(Expectation {
            line: line_of(call),
            text: format!("`{}` {} {want}", excerpt(&other), matcher_words(matcher)),
        });
    }
    if matcher == "expect" && matches!(object.kind(), "call_expression" | "member_expression") {
        return chained_expectation(call, object, &args, text);
    }
    if !matcher.starts_with("to") {
        return None;
    }
    // Walk `.not` / `.resolves` / `.rejects` down to `expect(subject)`.
    let mut negated = false;
    let mut node = object;
    loop {
        match node.kind() {
            "member_expression" => {
                let p = text_of(node.child_by_field_name("property")?, text);
                negated ^= p == "not";
                node = node.child_by_field_name("object")?;
            }
            "call_expression" => break,
            _ => return None,
        }
    }
    let expect = node.child_by_field_name("function")?;
    if text_of(expect, text) != "expect" {
        return None;
    }
    let subject = node
        .child_by_field_name("arguments")
        .and_then(|a| named_children(a).into_iter().next())
        .map(|s| excerpt(text_of(s, text)))
        .unwrap_or_default();
    let words = matcher_words(matcher);
    let words = if negated {
        format!("not {words}")
    } else {
        words
    };
    let text = match arg(0) {
        Some(want) => format!("`{subject}` {words} {want}"),
        None => format!("`{subject}` {words}"),
    };
    Some(Expectation {
        line: line_of(call),
        text,
    })
}

/// A request chain's own assertion, as supertest writes it:
/// `request(app).get('/').expect(200, 'ok', done)`, `.expect('Content-Type', /json/)`,
/// `.expect({ id: 1 })`. The literal arguments are what the response must be; a callback
/// (`done`, a function) is not.
fn chained_expectation(call: Node, object: Node, args: &[Node], text: &str) -> Option<Expectation> {
    let values: Vec<Node> = args
        .iter()
        .copied()
        .filter(|a| {
            matches!(
                a.kind(),
                "number" | "string" | "template_string" | "regex" | "object" | "array"
            )
        })
        .collect();
    let first = values.first()?;
    let chain = text_of(object, text);
    // `.expect(200).expect('x')`: the request is what comes before the first assertion.
    let subject = excerpt(chain.split(".expect(").next().unwrap_or(chain));
    let value = |n: &Node| literal(text_of(*n, text));
    let said = match (first.kind(), values.get(1)) {
        ("number", Some(body)) => format!("responds {} with body {}", value(first), value(body)),
        ("number", None) => format!("responds {}", value(first)),
        ("string", Some(v)) => format!("has header {} matching {}", value(first), value(v)),
        _ => format!("responds with body {}", value(first)),
    };
    Some(Expectation {
        line: line_of(call),
        text: format!("`{subject}` {said}"),
    })
}

/// `toHaveBeenCalledWith` -> `has been called with`; `toBe` -> `is`.
fn matcher_words(matcher: &str) -> String {
    let rest = matcher.strip_prefix("to").unwrap_or(matcher);
    let mut words: Vec<String> = Vec::new();
    for c in rest.chars() {
        if c.is_uppercase() || words.is_empty() {
            words.push(c.to_lowercase().collect());
        } else if let Some(w) = words.last_mut() {
            w.push(c);
        }
    }
    if let Some(first) = words.first_mut() {
        match first.as_str() {
            "be" => *first = "is".to_string(),
            "have" => *first = "has".to_string(),
            "equal" => *first = "equals".to_string(),
            "match" => *first = "matches".to_string(),
            "contain" => *first = "contains".to_string(),
            "throw" => *first = "throws".to_string(),
            _ => {}
        }
    }
    // unittest's `assertLess(a, 80)`, `assertGreaterEqual(a, 1)`: the comparison in words.
    match words.join(" ").as_str() {
        "less" => "is less than".to_string(),
        "less equal" => "is at most".to_string(),
        "greater" => "is greater than".to_string(),
        "greater equal" => "is at least".to_string(),
        w => w.to_string(),
    }
}

// ---------------------------------------------------------------------------------------
// Python

fn python_tests(walk: &Walk, text: &str) -> Vec<Test> {
    let mut out = Vec::new();
    for &node in &walk.all {
        if node.kind() != "function_definition" {
            continue;
        }
        let Some(name) = node.child_by_field_name("name").map(|n| text_of(n, text)) else {
            continue;
        };
        if !name.starts_with("test") {
            continue;
        }
        let decorators: Vec<String> = node
            .parent()
            .filter(|p| p.kind() == "decorated_definition")
            .map(|p| {
                named_children(p)
                    .into_iter()
                    .filter(|d| d.kind() == "decorator")
                    .map(|d| text_of(d, text).to_string())
                    .collect()
            })
            .unwrap_or_default();
        // `skip` and `xfail` prove nothing; `skipif(WIN)` still runs where it matters.
        let mut skipped = decorators
            .iter()
            .find(|d| {
                let d = d.split('(').next().unwrap_or(d);
                d.ends_with(".skip") || d.ends_with(".xfail") || d.ends_with("skip")
            })
            .map(|d| excerpt(d));
        let body = node.child_by_field_name("body");
        let title = body
            .and_then(|b| named_children(b).into_iter().next())
            .filter(|s| s.kind() == "expression_statement")
            .and_then(|s| named_children(s).into_iter().next())
            .filter(|s| s.kind() == "string")
            .map(|s| {
                text_of(s, text)
                    .trim_matches(|c| c == '"' || c == '\'')
                    .lines()
                    .map(str::trim)
                    .find(|l| !l.is_empty())
                    .unwrap_or(name)
                    .to_string()
            })
            .unwrap_or_else(|| name.to_string());
        // The span starts at the decorators: a changed `parametrize` row changes the test.
        let start = node
            .parent()
            .filter(|p| p.kind() == "decorated_definition")
            .unwrap_or(node);
        let mut t = Test {
            name: name.to_string(),
            title,
            framework: Framework::Pytest,
            line: line_of(start),
            end: node.end_position().row as u32 + 1,
            expects: Vec::new(),
            skipped: None,
            calls: Vec::new(),
            setup: None,
            helper_calls: Vec::new(),
            act: None,
        };
        let mut bindings: HashMap<String, String> = HashMap::new();
        let nodes = body.map(|b| walk.subtree(b)).unwrap_or_default();
        for &n in nodes.iter() {
            match n.kind() {
                "assignment" => {
                    let (Some(l), Some(r)) = (
                        n.child_by_field_name("left"),
                        n.child_by_field_name("right"),
                    ) else {
                        continue;
                    };
                    if l.kind() == "identifier" && is_literal(r.kind()) {
                        bindings.insert(text_of(l, text).to_string(), literal(text_of(r, text)));
                    }
                }
                "assert_statement" => {
                    if let Some(e) = named_children(n).into_iter().next() {
                        t.expects.push(Expectation {
                            line: line_of(n),
                            text: python_assertion(e, text, &bindings),
                        });
                    }
                }
                "call" => {
                    let Some((f, ftext, args)) = call_parts(n, text) else {
                        continue;
                    };
                    if ftext == "pytest.raises" || ftext.ends_with(".assertRaises") {
                        let what = args
                            .first()
                            .map(|a| excerpt(text_of(*a, text)))
                            .unwrap_or_default();
                        t.expects.push(Expectation {
                            line: line_of(n),
                            text: format!("raises {what}"),
                        });
                    } else if ftext == "pytest.skip" || ftext.ends_with(".skipTest") {
                        skipped.get_or_insert_with(|| ftext.to_string());
                    } else if let Some(m) = ftext.strip_prefix("self.assert") {
                        let first = args.first().map(|a| excerpt(text_of(*a, text)));
                        let value = |a: &Node| {
                            if is_literal(a.kind()) {
                                Some(literal(text_of(*a, text)))
                            } else {
                                bindings.get(text_of(*a, text)).cloned()
                            }
                        };
                        let lit = args.iter().find_map(value);
                        let other = args
                            .iter()
                            .find(|a| value(a).is_none())
                            .map(|a| excerpt(text_of(*a, text)))
                            .unwrap_or_default();
                        let text = match (m, first, lit) {
                            // `assertTrue(len(x) <= 64)` says what `assert len(x) <= 64` does.
                            ("True", Some(_), _)
                                if args
                                    .first()
                                    .is_some_and(|a| a.kind() == "comparison_operator") =>
                            {
                                python_assertion(args[0], text, &bindings)
                            }
                            ("True", Some(x), _) => format!("`{x}` holds"),
                            ("False", Some(x), _) => format!("`{x}` does not hold"),
                            (_, _, Some(l)) => {
                                format!("`{other}` {} {l}", matcher_words(&format!("to{m}")))
                            }
                            _ => format!("`{}` holds", excerpt(text_of(n, text))),
                        };
                        t.expects.push(Expectation {
                            line: line_of(n),
                            text,
                        });
                    } else {
                        let callee = match f.kind() {
                            "attribute" => f.child_by_field_name("attribute"),
                            _ => Some(f),
                        };
                        if let Some(c) = callee.map(|c| text_of(c, text)) {
                            t.helper_calls
                                .extend(call_with_literals(c, line_of(n), &args, text));
                            t.calls.push(c.to_string());
                        }
                    }
                }
                _ => {}
            }
        }
        table_rows(&nodes, text, &mut t.expects);
        let decorators = python_decorators(node);
        for d in &decorators {
            parametrize_rows(*d, text, &mut t.expects);
        }
        t.skipped = skipped;
        if let Some(b) = body {
            // The parameters pytest fills that no `parametrize` row gives.
            let rowed: Vec<String> = decorators
                .iter()
                .filter_map(|d| parametrize(*d, text))
                .flat_map(|(names, _)| names)
                .collect();
            let fixtures: Vec<String> = node
                .child_by_field_name("parameters")
                .map(named_children)
                .unwrap_or_default()
                .into_iter()
                .filter(|p| p.kind() == "identifier")
                .map(|p| text_of(p, text).to_string())
                .filter(|p| p != "self" && !rowed.contains(p))
                .collect();
            arrange::read(b, text, &fixtures, &mut t);
        }
        out.push(t);
    }
    out
}

/// A row given to a parameterized test: the expected column when a parameter is named
/// like one (`` `expected` is 3 for `a` 1 ``), else the case itself.
pub(crate) fn row_text(params: &[String], cells: &[String]) -> String {
    if params.len() == cells.len() {
        if let Some(at) = params.iter().position(|p| is_expectation_key(p)) {
            // Every other column is the row's input.
            let inputs: Vec<String> = (0..cells.len())
                .filter(|&k| k != at)
                .take(3)
                .map(|k| format!("`{}` {}", params[k], cells[k]))
                .collect();
            return match inputs.is_empty() {
                false => format!(
                    "`{}` is {} for {}",
                    params[at],
                    cells[at],
                    inputs.join(", ")
                ),
                true => format!("`{}` is {}", params[at], cells[at]),
            };
        }
        let case: Vec<String> = params
            .iter()
            .zip(cells)
            .map(|(p, c)| format!("`{p}` = {c}"))
            .collect();
        return format!("the case {} to pass", case.join(", "));
    }
    format!("the row {} to pass", cells.join(", "))
}

/// The decorators that apply to a test function: its own, then its class's (pytest
/// applies a class's `parametrize` to each of its test methods).
fn python_decorators(function: Node) -> Vec<Node> {
    fn decorated(n: Node) -> Vec<Node> {
        n.parent()
            .filter(|p| p.kind() == "decorated_definition")
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .filter(|d| d.kind() == "decorator")
            .collect()
    }
    let mut out = decorated(function);
    // [decorated_definition ->] function -> block -> class_definition.
    let own = function
        .parent()
        .filter(|p| p.kind() == "decorated_definition")
        .unwrap_or(function);
    if let Some(class) = own
        .parent()
        .and_then(|b| b.parent())
        .filter(|c| c.kind() == "class_definition")
    {
        out.extend(decorated(class));
    }
    out
}

/// A `parametrize` decorator's parameter names and its list of rows.
fn parametrize<'t>(decorator: Node<'t>, text: &str) -> Option<(Vec<String>, Node<'t>)> {
    let call = named_children(decorator)
        .into_iter()
        .find(|c| c.kind() == "call")?;
    let is_parametrize = call
        .child_by_field_name("function")
        .is_some_and(|f| text_of(f, text).ends_with("parametrize"));
    let args: Vec<Node> = call
        .child_by_field_name("arguments")
        .map(named_children)
        .unwrap_or_default();
    let (true, Some(names), Some(rows)) = (is_parametrize, args.first(), args.get(1)) else {
        return None;
    };
    let names: Vec<String> = text_of(*names, text)
        .split(',')
        .map(|n| {
            n.trim_matches(|c: char| c.is_whitespace() || "()[]\"'".contains(c))
                .to_string()
        })
        .collect();
    Some((names, *rows))
}

/// `@pytest.mark.parametrize(("shell", "expect"), [("fish", "a\\n"), ...])`: the value
/// each row gives the parameter named like an expectation.
fn parametrize_rows(decorator: Node, text: &str, out: &mut Vec<Expectation>) {
    let Some((names, rows)) = parametrize(decorator, text) else {
        return;
    };
    for row in named_children(rows) {
        // `pytest.param(..., id="x")` rows hold their cells as arguments.
        let cells = match row.kind() {
            "call" => row
                .child_by_field_name("arguments")
                .map(named_children)
                .unwrap_or_default()
                .into_iter()
                .filter(|c| c.kind() != "keyword_argument")
                .collect(),
            "tuple" | "list" | "parenthesized_expression" => named_children(row),
            _ => vec![row],
        };
        if cells.len() == names.len() {
            let texts: Vec<String> = cells.iter().map(|c| literal(text_of(*c, text))).collect();
            out.push(Expectation {
                line: line_of(row),
                text: row_text(&names, &texts),
            });
        }
    }
}

/// `assert got == "x"` -> `` `got` is "x" ``; anything else -> `` `expr` holds ``.
fn python_assertion(e: Node, text: &str, bindings: &HashMap<String, String>) -> String {
    if e.kind() == "comparison_operator" {
        let parts = named_children(e);
        let op = e
            .child(1)
            .map(|o| text_of(o, text).to_string())
            .unwrap_or_default();
        // A literal, a literal bound to a name in the test, or a literal collection.
        let value = |n: &Node| -> Option<String> {
            if is_literal(n.kind()) || matches!(n.kind(), "list" | "dictionary" | "tuple" | "set") {
                Some(literal(text_of(*n, text)))
            } else {
                bindings.get(text_of(*n, text)).cloned()
            }
        };
        let code = |n: &Node| excerpt(text_of(*n, text));
        if let [l, r] = parts.as_slice() {
            let words = match op.as_str() {
                "==" | "is" => "is",
                "!=" | "is not" => "is not",
                _ => "",
            };
            if op == "in" || op == "not in" {
                let verb = if op == "in" {
                    "contains"
                } else {
                    "does not contain"
                };
                if let Some(v) = value(l) {
                    return format!("`{}` {verb} {v}", code(r));
                }
            } else if !words.is_empty() {
                if let Some(v) = value(r) {
                    return format!("`{}` {words} {v}", code(l));
                }
                if let Some(v) = value(l) {
                    return format!("`{}` {words} {v}", code(r));
                }
            } else if let Some((bound, flipped)) = ordering_words(&op) {
                // `len(x) <= 64` bounds `len(x)`; `64 >= len(x)` says the same.
                if let Some(v) = value(r) {
                    return format!("`{}` {bound} {v}", code(l));
                }
                if let Some(v) = value(l) {
                    return format!("`{}` {flipped} {v}", code(r));
                }
            }
        }
    }
    format!("`{}` holds", excerpt(text_of(e, text)))
}

/// An ordering operator in words, read from its left side and from its right side:
/// `<=` is "is at most" for the left operand and "is at least" for the right one.
fn ordering_words(op: &str) -> Option<(&'static str, &'static str)> {
    Some(match op {
        "<" => ("is less than", "is greater than"),
        "<=" => ("is at most", "is at least"),
        ">" => ("is greater than", "is less than"),
        ">=" => ("is at least", "is at most"),
        _ => return None,
    })
}

// ---------------------------------------------------------------------------------------
// Go

fn go_tests(walk: &Walk, text: &str) -> Vec<Test> {
    let mut out = Vec::new();
    for &node in &walk.all {
        if node.kind() != "function_declaration" {
            continue;
        }
        let Some(name) = node.child_by_field_name("name").map(|n| text_of(n, text)) else {
            continue;
        };
        let params = node
            .child_by_field_name("parameters")
            .map(|p| text_of(p, text))
            .unwrap_or("");
        // Tests and benchmarks: a benchmark's checks guard the same behaviour. As for
        // `go test`, a lower-case letter after the prefix makes no test (`Testify`).
        let named = |prefix: &str| {
            name.strip_prefix(prefix)
                .is_some_and(|rest| !rest.starts_with(char::is_lowercase))
        };
        let test = named("Test") && params.contains("testing.T");
        let bench = named("Benchmark") && params.contains("testing.B");
        if !test && !bench {
            continue;
        }
        let Some(body) = node.child_by_field_name("body") else {
            continue;
        };
        out.push(go_test(walk, node, body, text, name.to_string()));
        // `t.Run("case", func(t *testing.T) { ... })`: subtests, named `TestX/case`.
        for &n in walk.subtree(body).iter() {
            if n.kind() != "call_expression" {
                continue;
            }
            let f = n.child_by_field_name("function").map(|f| text_of(f, text));
            if !f.is_some_and(|f| f.ends_with(".Run")) {
                continue;
            }
            let args: Vec<Node> = n
                .child_by_field_name("arguments")
                .map(named_children)
                .unwrap_or_default();
            let (Some(case), Some(func)) = (args.first(), args.get(1)) else {
                continue;
            };
            if func.kind() != "func_literal" || !case.kind().contains("string") {
                continue;
            }
            let case = text_of(*case, text).trim_matches(|c| c == '"' || c == '`');
            out.push(go_test(walk, n, *func, text, format!("{name}/{case}")));
        }
    }
    out
}

fn go_test(walk: &Walk, node: Node, body: Node, text: &str, name: String) -> Test {
    let nodes = walk.subtree(body);
    let mut t = go_test_body(&nodes, node, text, name);
    table_rows(&nodes, text, &mut t.expects);
    arrange::read(body, text, &[], &mut t);
    t
}

fn go_test_body(nodes: &[Node], node: Node, text: &str, name: String) -> Test {
    let mut bindings: HashMap<String, String> = HashMap::new();
    let mut t = Test::at(node, name.clone(), name, Framework::Go);
    let value = |n: Node, bindings: &HashMap<String, String>| -> Option<String> {
        if is_literal(n.kind()) {
            Some(literal(text_of(n, text)))
        } else {
            bindings.get(text_of(n, text)).cloned()
        }
    };
    for &n in nodes {
        match n.kind() {
            "short_var_declaration" | "var_spec" | "assignment_statement" => {
                let (l, r) = match n.kind() {
                    "var_spec" => (
                        n.child_by_field_name("name"),
                        n.child_by_field_name("value"),
                    ),
                    _ => (
                        n.child_by_field_name("left"),
                        n.child_by_field_name("right"),
                    ),
                };
                if let (Some(l), Some(r)) = (l, r) {
                    let ls = named_children(l);
                    let rs = named_children(r);
                    let ls = if ls.is_empty() { vec![l] } else { ls };
                    for (a, b) in ls.iter().zip(rs.iter()) {
                        if is_literal(b.kind()) {
                            bindings
                                .insert(text_of(*a, text).to_string(), literal(text_of(*b, text)));
                        }
                    }
                }
            }
            "if_statement" => {
                let (Some(cond), Some(then)) = (
                    n.child_by_field_name("condition"),
                    n.child_by_field_name("consequence"),
                ) else {
                    continue;
                };
                // Only a block that reports at once (`t.Errorf` as one of its own
                // statements, not inside a nested `if`) makes the comparison an oracle.
                let reports = named_children(then)
                    .into_iter()
                    .flat_map(|st| {
                        if st.kind() == "statement_list" {
                            named_children(st)
                        } else {
                            vec![st]
                        }
                    })
                    .filter(|st| st.kind() == "expression_statement")
                    .any(|st| {
                        let t = text_of(st, text);
                        t.contains(".Error") || t.contains(".Fatal")
                    });
                if !reports {
                    continue;
                }
                // `if strings.Contains(out, "\x1b[") { t.Fatal(...) }` expects the call
                // not to hold; `if !ok { ... }` expects `ok` to.
                if matches!(cond.kind(), "call_expression" | "unary_expression") {
                    let negated = cond.kind() == "unary_expression"
                        && text_of(cond, text).trim_start().starts_with('!');
                    let inner = if negated {
                        cond.child_by_field_name("operand")
                    } else {
                        Some(cond)
                    };
                    if let Some(inner) = inner.filter(|i| i.kind() == "call_expression") {
                        let verb = if negated { "holds" } else { "does not hold" };
                        t.expects.push(Expectation {
                            line: line_of(n),
                            text: format!("`{}` {verb}", excerpt(text_of(inner, text))),
                        });
                    }
                    continue;
                }
                if cond.kind() != "binary_expression" {
                    continue;
                }
                let (Some(l), Some(r)) = (
                    cond.child_by_field_name("left"),
                    cond.child_by_field_name("right"),
                ) else {
                    continue;
                };
                let op = cond
                    .child_by_field_name("operator")
                    .map(|o| text_of(o, text))
                    .unwrap_or("");
                // `if got != want { t.Errorf(...) }` expects got == want.
                let words = if op == "!=" { "is" } else { "is not" };
                let want = value(r, &bindings)
                    .map(|v| (l, v))
                    .or_else(|| value(l, &bindings).map(|v| (r, v)));
                if let Some((got, v)) = want {
                    t.expects.push(Expectation {
                        line: line_of(n),
                        text: format!("`{}` {words} {v}", excerpt(text_of(got, text))),
                    });
                }
            }
            "call_expression" => {
                let Some((f, ftext, args)) = call_parts(n, text) else {
                    continue;
                };
                if matches!(ftext, "t.Skip" | "t.Skipf" | "t.SkipNow") {
                    t.skipped.get_or_insert_with(|| ftext.to_string());
                } else if ftext.starts_with("assert.") || ftext.starts_with("require.") {
                    let m = ftext.split_once('.').map(|(_, m)| m).unwrap_or("");
                    // testify: (t, expected, actual, message...): the message is no value.
                    let compared = args.get(1..3).unwrap_or(&[]);
                    if let Some(v) = compared.iter().find_map(|a| value(*a, &bindings)) {
                        let other = compared
                            .iter()
                            .find(|a| value(**a, &bindings).is_none())
                            .map(|a| excerpt(text_of(*a, text)))
                            .unwrap_or_default();
                        t.expects.push(Expectation {
                            line: line_of(n),
                            text: format!("`{other}` {} {v}", matcher_words(&format!("to{m}"))),
                        });
                    }
                } else {
                    let callee = match f.kind() {
                        "selector_expression" => f.child_by_field_name("field"),
                        _ => Some(f),
                    };
                    if let Some(c) = callee.map(|c| text_of(c, text)) {
                        t.helper_calls
                            .extend(call_with_literals(c, line_of(n), &args, text));
                        t.calls.push(c.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    t
}

mod arrange;
mod cli_runs;
pub mod helpers;
mod java;
mod jvm;
mod kotlin;

#[cfg(test)]
mod tests;
