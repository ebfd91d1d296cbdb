//! Tests read from syntax trees: which tests a file defines, whether they are skipped,
//! what they call and set up, and the values they expect (assertions, matchers, table
//! rows, parametrize columns), per test framework; and the repository's own assertion
//! helpers ([`helpers`]), whose literal arguments are expectations too.

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
    /// The runner expands it into cases named under its name (`name::case_1`): rstest's
    /// `#[case]` and `#[values]`, rstest_reuse's `#[apply]`. Its name alone, matched
    /// exactly, runs none of them.
    pub cases: bool,
    /// The statements of its body that call something and check nothing, which are not
    /// its act (`r.Use(mw)`, `db.seed()`): a set-up step, should the change write one.
    pub setup_calls: Vec<Statement>,
}

/// A statement of a test, located.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// The 1-based line it starts on.
    pub line: u32,
    /// The 1-based line it ends on.
    pub end: u32,
    /// The statement, excerpted.
    pub text: String,
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
            cases: false,
            setup_calls: Vec::new(),
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
                cases: false,
                setup_calls: Vec::new(),
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
        Grammar::Rust => (rust::tests(&walk, text, test_macros), Framework::Rust),
        Grammar::TypeScript | Grammar::Tsx | Grammar::JavaScript => {
            (javascript::tests(&walk, text), Framework::Jest)
        }
        Grammar::Python => (python::tests(&walk, text), Framework::Pytest),
        Grammar::Go => (go::tests(&walk, text), Framework::Go),
        Grammar::Java => (java::tests(&walk, text), Framework::JUnit),
        Grammar::Kotlin => (kotlin::tests(&walk, text), Framework::JUnit),
    };
    // The caller looked for test markers first: a file with tests may keep its cases in
    // a file-level table (the tests themselves may lie outside the changed ranges).
    out.extend(table_tests(&walk, root, text, framework));
    for t in &mut out {
        for e in &mut t.expects {
            if let Some(said) = predicate_expectation(&e.text) {
                e.text = said;
            }
        }
        // Repeated checks (`status` is 304 after each of three requests) are all kept:
        // which of them a change wrote is for the reader of a diff to tell.
        // Expected values first: a bare predicate (`` `f.IsSet()` holds ``) says less, and
        // a row that names no expected column only says the case passes (the test's own
        // assertions say what passing means). Only so many are kept per test.
        t.expects.sort_by_key(|e| {
            if e.text.starts_with("the case ") || e.text.starts_with("the row ") {
                2
            } else if e.text.ends_with("` holds")
                || e.text.ends_with("` does not hold")
                || only_error_check(&e.text)
            {
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

/// A boolean check of a predicate over literal inputs, said as what it expects of them.
/// `` `matched(&m, "a.tmp").is_ignore()` holds `` (from `assert!(..)`, `assertTrue(..)`,
/// `assert ..`) becomes `` `matched(&m, "a.tmp")` satisfies `is_ignore()` ``; an affix
/// check `` `out` contains "x" ``; a bare predicate function `` `is_hidden("a/.b")` is
/// true ``. A negation (`!x`, `not x`, "does not hold") is kept. A check against a
/// written `true` (`expect(..).toBe(true)`) keeps its words. `None` when the checked expression is no single predicate call or
/// none of its inputs is a literal: a bare `` `x.is_empty()` holds `` says no value.
fn predicate_expectation(text: &str) -> Option<String> {
    let rest = text.strip_prefix('`')?;
    let (expr, verdict) = rest.rsplit_once("` ")?;
    // A check written against `true` or `false` keeps its words: the literal is what
    // the test wrote.
    let mut holds = match verdict {
        "holds" => true,
        "does not hold" => false,
        _ => return None,
    };
    let mut expr = expr.trim();
    loop {
        if let Some(inner) = expr.strip_prefix('!').or_else(|| expr.strip_prefix("not ")) {
            holds = !holds;
            expr = inner.trim();
        } else if expr.starts_with('(') && expr.ends_with(')') && single_group(expr) {
            expr = expr[1..expr.len() - 1].trim();
        } else {
            break;
        }
    }
    if expr.contains('`') || expr.ends_with('…') || !one_operand(expr) || !has_literal(expr) {
        return None;
    }
    // The predicate is the call that ends the expression: `name(args)` after a `.`, or
    // the whole expression.
    let open = matching_open(expr)?;
    let head = &expr[..open];
    let args = &expr[open + 1..expr.len() - 1];
    let name_start = head
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let name = &head[name_start..];
    let receiver = head[..name_start].strip_suffix('.');
    // `strings.Contains(out, "x")`: a package's function, no method of `strings`; the
    // language's reader says which of them check text (Go's affix checks).
    let package = receiver.is_some_and(|r| {
        r.chars().all(|c| c.is_ascii_lowercase()) && name.starts_with(char::is_uppercase)
    });
    if package {
        return None;
    }
    let word =
        |w: &str| name.eq_ignore_ascii_case(w) || name.eq_ignore_ascii_case(&w.replace('_', ""));
    let affix = if word("contains") || word("includes") {
        Some(("contains", "does not contain"))
    } else if word("starts_with") || word("has_prefix") {
        Some(("starts with", "does not start with"))
    } else if word("ends_with") || word("has_suffix") {
        Some(("ends with", "does not end with"))
    } else {
        None
    };
    let (subject, part) = match receiver {
        Some(r) if !r.is_empty() => (r.to_string(), args.trim().to_string()),
        _ => match split_top(args).as_slice() {
            [subject, part] if affix.is_some() => (subject.to_string(), part.to_string()),
            _ => (String::new(), String::new()),
        },
    };
    if let (Some((yes, no)), true) = (affix, has_literal(&part) && !subject.is_empty()) {
        let verb = if holds { yes } else { no };
        return Some(format!("`{subject}` {verb} {part}"));
    }
    // `is_x`, `has_x`, `isX`, `hasX`, `IsX` (Go), `exists`, `matches`.
    let predicate_name = ["is", "has", "can", "exists", "matches"].iter().any(|p| {
        name.get(..p.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(p))
            && {
                let r = &name[p.len()..];
                r.is_empty() || r.starts_with('_') || r.starts_with(char::is_uppercase)
            }
    });
    if !predicate_name {
        return None;
    }
    let verb = if holds {
        "satisfies"
    } else {
        "does not satisfy"
    };
    match receiver {
        Some(r) if !r.is_empty() => Some(format!("`{r}` {verb} `{}`", &expr[name_start..])),
        // A bare predicate function: true or false of its inputs.
        _ if !args.trim().is_empty() && has_literal(args) => Some(format!("`{expr}` is {holds}")),
        _ => None,
    }
}

/// Each character of `code` outside string and character literals, with its byte offset
/// and the bracket depth it stands at (an opening bracket at the depth it opens from),
/// and whether every literal and bracket closes.
fn outside_quotes(code: &str) -> (Vec<(usize, char, i32)>, bool) {
    let mut out = Vec::new();
    let (mut depth, mut quote, mut prev) = (0i32, None::<char>, ' ');
    for (i, c) in code.char_indices() {
        match quote {
            Some(q) if c == q && prev != '\\' => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None => {
                if matches!(c, ')' | ']' | '}') {
                    depth -= 1;
                }
                out.push((i, c, depth));
                if matches!(c, '(' | '[' | '{') {
                    depth += 1;
                }
            }
        }
        prev = c;
    }
    (out, depth == 0 && quote.is_none())
}

/// Whether `expr` is one operand: no operator outside brackets and quotes.
fn one_operand(expr: &str) -> bool {
    let (chars, closed) = outside_quotes(expr);
    closed
        && !chars
            .iter()
            .any(|&(_, c, depth)| depth == 0 && " =<>&|+*/?!%,".contains(c))
}

/// Whether the outer parentheses of `expr` enclose all of it.
fn single_group(expr: &str) -> bool {
    matching_open(expr) == Some(0)
}

/// The byte offset of the `(` the final `)` of `expr` closes.
fn matching_open(expr: &str) -> Option<usize> {
    if !expr.ends_with(')') {
        return None;
    }
    let (chars, _) = outside_quotes(expr);
    chars
        .iter()
        .rev()
        .find(|&&(_, c, depth)| depth == 0 && matches!(c, '(' | '[' | '{'))
        .filter(|&&(_, c, _)| c == '(')
        .map(|&(i, _, _)| i)
}

/// The top-level comma-separated parts of an argument list.
fn split_top(args: &str) -> Vec<&str> {
    let (chars, _) = outside_quotes(args);
    let mut out = Vec::new();
    let mut start = 0;
    for &(i, c, depth) in &chars {
        if c == ',' && depth == 0 {
            out.push(args[start..i].trim());
            start = i + 1;
        }
    }
    if !args[start..].trim().is_empty() {
        out.push(args[start..].trim());
    }
    out
}

/// Whether code holds a string literal or a number given as an argument.
fn has_literal(code: &str) -> bool {
    static LITERAL: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#""[^"]*"|'[^']+'|[(,\[]\s*-?\d"#).expect("literal pattern"));
    LITERAL.is_match(code)
}

/// `` `err` is nil ``, `` `err` is an error ``: a check that the call failed or did not,
/// by the convention that names an error `err` (`parseErr`); it says less of what the
/// call gives than a check of its value, so it follows them.
fn only_error_check(text: &str) -> bool {
    let Some((subject, rest)) = text.strip_prefix('`').and_then(|t| t.split_once("` ")) else {
        return false;
    };
    let named_error = subject == "err" || subject.ends_with("Err");
    named_error
        && matches!(
            rest,
            "is nil" | "is not nil" | "is an error" | "is None" | "is not None"
        )
}

/// Test code a source file holds itself: a Rust function or module whose attributes (the
/// attribute items just before it) make it a test or compile it only for tests
/// (`#[test]`, `#[tokio::test]`, `#[rstest]`, `#[cfg(test)]`, `#[cfg(all(test, unix))]`).
/// Everything inside it is test evidence, never product code. (Only Rust's trees have
/// these kinds: other grammars keep their tests in files of their own.)
pub fn is_test_item(node: Node, text: &str) -> bool {
    if !matches!(node.kind(), "function_item" | "mod_item") {
        return false;
    }
    let mut prev = node.prev_sibling();
    while let Some(p) = prev {
        match p.kind() {
            "attribute_item" if is_test_attribute(text_of(p, text)) => return true,
            "attribute_item" | "line_comment" | "block_comment" => {}
            _ => return false,
        }
        prev = p.prev_sibling();
    }
    false
}

/// `#[test]`, `#[tokio::test(..)]`, `#[rstest]`, or a `cfg` that holds only under test
/// (`#[cfg(test)]`, `#[cfg(all(test, feature = "x"))]`; not `#[cfg(not(test))]`).
pub fn is_test_attribute(attr: &str) -> bool {
    let inner = attr.trim_start_matches("#[").trim_end_matches(']').trim();
    let path = inner
        .split(|c: char| c == '(' || c == '=' || c.is_whitespace())
        .next()
        .unwrap_or("");
    if path == "cfg" {
        let words: Vec<&str> = inner
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        return words.contains(&"test") && !words.contains(&"not") && !words.contains(&"any");
    }
    path.ends_with("test")
}

/// A cheap look at the text before walking a tree for tests: no test marker, no tests.
pub fn may_define_tests(grammar: Grammar, text: &str, test_macros: &[String]) -> bool {
    static MARKERS: LazyLock<[Regex; 6]> = LazyLock::new(|| {
        [
            // `#[test]`, `#[tokio::test(flavor = ...)]`, `#[rstest]`, rstest_reuse's
            // `#[apply(template)]`.
            r"#\[(?:[\w:]*test\b|(?:rstest_reuse::)?apply\()",
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
        Grammar::TypeScript | Grammar::Tsx | Grammar::JavaScript => {
            MARKERS[1].is_match(text) || javascript::TSD_IMPORT.is_match(text)
        }
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
pub(crate) fn literal(code: &str) -> String {
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

/// The names bound to a value exactly once, with that value: `bindings` gives each
/// binding in order, `None` for a value that is no literal. A name bound twice holds no
/// one value.
pub(crate) fn bound_once(
    bindings: impl IntoIterator<Item = (String, Option<String>)>,
) -> std::collections::HashMap<String, String> {
    let mut seen: std::collections::HashMap<String, Option<String>> =
        std::collections::HashMap::new();
    for (name, value) in bindings {
        seen.entry(name).and_modify(|v| *v = None).or_insert(value);
    }
    seen.into_iter()
        .filter_map(|(k, v)| Some((k, v?)))
        .collect()
}

/// A value the test builds from literals (`"COMMANDS:\n" + "  run"`), as a reader should
/// see it: written on one line without its comments, whitespace squeezed, bounded.
pub(crate) fn built_text(value: Node, text: &str) -> String {
    let mut code = String::new();
    let mut at = value.start_byte();
    crate::walk::descend(value, |n| {
        if n.kind().contains("comment") {
            code.push_str(text.get(at..n.start_byte()).unwrap_or(""));
            at = n.end_byte();
            return false;
        }
        true
    });
    code.push_str(text.get(at..value.end_byte()).unwrap_or(""));
    literal(&code.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// An expectation's text with its bare numbers and its strings of one or two characters
/// shown as code, as its subject and a setup's values already are: `` `len(line)` is less
/// than `80` ``, `` `dirname(p)` is `"/"` ``. A number inside code or a quoted string is
/// left as written; a word that merely holds digits is no number.
pub fn values_as_code(text: &str) -> String {
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
            // A triple-quoted string (Python's) ends only at its closing triple: the
            // quotes inside do not end it, so its numbers stay as written.
            '"' | '\''
                if token.is_empty()
                    && (c != '\'' || at_start)
                    && chars.clone().take(2).filter(|d| *d == c).count() == 2 =>
            {
                chars.next();
                chars.next();
                out.extend([c; 3]);
                let mut run = 0;
                for d in chars.by_ref() {
                    out.push(d);
                    run = if d == c { run + 1 } else { 0 };
                    if run == 3 {
                        break;
                    }
                }
                at_start = false;
            }
            '`' | '"' | '\'' if token.is_empty() && (c != '\'' || at_start) => {
                let mut quoted = String::from(c);
                let mut escaped = false;
                for d in chars.by_ref() {
                    quoted.push(d);
                    if d == c && !escaped {
                        break;
                    }
                    escaped = d == '\\' && !escaped && c != '`';
                }
                // A string of one or two characters (`"/"`, `"C:"`, `"[]"`) reads as
                // punctuation in a sentence: as code it is a value.
                let inner = quoted.chars().count().saturating_sub(2);
                let whole = chars
                    .peek()
                    .is_none_or(|d| d.is_whitespace() || ",;)]".contains(*d));
                if c != '`'
                    && (1..=2).contains(&inner)
                    && quoted.ends_with(c)
                    && whole
                    && !quoted.contains('`')
                {
                    out.push('`');
                    out.push_str(&quoted);
                    out.push('`');
                } else {
                    out.push_str(&quoted);
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
/// `bound` gives the literal a test-local name holds (`const want = "x"; check(got, want)`
/// passes `"x"`).
fn call_with_literals(
    name: &str,
    line: u32,
    args: &[Node],
    text: &str,
    bound: &dyn Fn(&str) -> Option<String>,
) -> Option<Call> {
    let args: Vec<Arg> = args.iter().map(|a| arg_of(*a, text, bound)).collect();
    args.iter().any(|a| a.literal).then(|| Call {
        name: name.to_string(),
        line,
        args,
    })
}

fn arg_of(a: Node, text: &str, bound: &dyn Fn(&str) -> Option<String>) -> Arg {
    // Python's `expected="x"`: the keyword names the parameter.
    if a.kind() == "keyword_argument" {
        if let (Some(k), Some(v)) = (
            a.child_by_field_name("name"),
            a.child_by_field_name("value"),
        ) {
            let mut arg = arg_of(v, text, bound);
            arg.keyword = Some(text_of(k, text).to_string());
            return arg;
        }
    }
    if matches!(a.kind(), "identifier" | "simple_identifier") {
        if let Some(value) = bound(text_of(a, text)) {
            return Arg {
                keyword: None,
                text: value,
                literal: true,
            };
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

/// A row given to a parameterized test: the expected column when a parameter is named
/// like one (`` `expected` is 3 for `a` 1 ``), else the case itself.
fn row_text(params: &[String], cells: &[String]) -> String {
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

/// A call's callee node, the callee as written, and its arguments.
fn call_parts<'t>(call: Node<'t>, text: &'t str) -> Option<(Node<'t>, &'t str, Vec<Node<'t>>)> {
    let f = call.child_by_field_name("function")?;
    let args = call
        .child_by_field_name("arguments")
        .map(named_children)
        .unwrap_or_default();
    Some((f, text_of(f, text), args))
}

mod arrange;
mod go;
pub mod helpers;
mod java;
mod javascript;
mod jvm;
mod kotlin;
mod python;
mod rust;

#[cfg(test)]
mod tests;
