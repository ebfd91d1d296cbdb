//! Go tests: `func TestX(t *testing.T)` and its `t.Run` cases, and the values its
//! `if got != want { t.Errorf(..) }` checks and testify calls expect.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;
use tree_sitter::Node;

use super::{
    arrange, built_text, call_parts, call_with_literals, is_literal, literal, matcher_words,
    named_children, table_rows, Expectation, Framework, Test,
};
use crate::walk::Walk;
use crate::{excerpt, line_of, text_of};

/// The test and benchmark functions of the walk and their `t.Run` cases, read.
pub(super) fn tests(walk: &Walk, text: &str) -> Vec<Test> {
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
    checks_in_helpers(walk, text, &mut out);
    out
}

/// A test with no check of its own that hands its `t` to a function of the same file
/// (`testParse(f, t)`) checks what that function's own `if got != want { t.Errorf }`
/// checks expect: they are the test's expectations.
fn checks_in_helpers(walk: &Walk, text: &str, out: &mut [Test]) {
    if out.iter().all(|t| !t.expects.is_empty()) {
        return;
    }
    let mut helpers: HashMap<&str, (Node, Node)> = HashMap::new();
    for &node in &walk.all {
        if node.kind() != "function_declaration" {
            continue;
        }
        let takes_t = node
            .child_by_field_name("parameters")
            .is_some_and(|p| TESTING_T.is_match(text_of(p, text)));
        let (Some(name), Some(body)) = (
            node.child_by_field_name("name").map(|n| text_of(n, text)),
            node.child_by_field_name("body"),
        ) else {
            continue;
        };
        if takes_t && !name.starts_with("Test") && !name.starts_with("Benchmark") {
            helpers.insert(name, (node, body));
        }
    }
    for t in out.iter_mut().filter(|t| t.expects.is_empty()) {
        let mut inherited = Vec::new();
        for callee in &t.calls {
            if let Some(&(node, body)) = helpers.get(callee.as_str()) {
                let nodes = walk.subtree(body);
                inherited.extend(go_test_body(&nodes, node, text, callee.clone()).expects);
            }
        }
        t.expects = inherited;
    }
}

/// A parameter list with a `*testing.T` (or `testing.TB`) among its types.
static TESTING_T: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\*\s*testing\.T\b|\btesting\.TB\b").expect("testing.T pattern"));

fn go_test(walk: &Walk, node: Node, body: Node, text: &str, name: String) -> Test {
    let nodes = walk.subtree(body);
    let mut t = go_test_body(&nodes, node, text, name);
    table_rows(&nodes, text, &mut t.expects);
    arrange::read(body, text, &[], &mut t);
    t
}

fn go_test_body(nodes: &[Node], node: Node, text: &str, name: String) -> Test {
    let mut b = Bindings::default();
    let mut t = Test::at(node, name.clone(), name, Framework::Go);
    for &n in nodes {
        match n.kind() {
            "short_var_declaration" | "var_spec" | "assignment_statement" => b.bind(n, text),
            "if_statement" => {
                // `if want, got := f(x), "foo"; want != got {`: the initializer binds
                // before the condition reads it.
                if let Some(init) = n.child_by_field_name("initializer") {
                    b.bind(init, text);
                }
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
                        t.expects.push(Expectation {
                            line: line_of(n),
                            text: b
                                .affix(inner, negated, text)
                                .or_else(|| b.equality(inner, negated, text))
                                .unwrap_or_else(|| {
                                    let verb = if negated { "holds" } else { "does not hold" };
                                    format!("`{}` {verb}", excerpt(text_of(inner, text)))
                                }),
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
                if let Some((got, v)) = b.compared(l, r, text) {
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
                    // `Truef(t, ok, "why %s", x)`: the formatted variant of `True`.
                    let m = m.strip_suffix('f').filter(|b| !b.is_empty()).unwrap_or(m);
                    if let (Some(words), Some(subject)) = (testify_one_value(m), args.get(1)) {
                        // `assert.True(t, strings.Contains(out, "x"))` says what it
                        // expects of `out`.
                        let affix = match m {
                            "True" | "False" if subject.kind() == "call_expression" => {
                                b.affix(*subject, m == "True", text)
                            }
                            _ => None,
                        };
                        // testify's one-value checks: (t, value, message...); the message
                        // is no value.
                        t.expects.push(Expectation {
                            line: line_of(n),
                            text: affix.unwrap_or_else(|| {
                                format!("`{}` {words}", excerpt(text_of(*subject, text)))
                            }),
                        });
                        continue;
                    }
                    // testify: (t, expected, actual, message...): the message is no value.
                    let compared = args.get(1..3).unwrap_or(&[]);
                    if let [a, c] = compared {
                        if let Some((other, v)) = b.compared(*c, *a, text) {
                            t.expects.push(Expectation {
                                line: line_of(n),
                                text: format!(
                                    "`{}` {} {v}",
                                    excerpt(text_of(other, text)),
                                    matcher_words(&format!("to{m}"))
                                ),
                            });
                        }
                    }
                } else {
                    let callee = match f.kind() {
                        "selector_expression" => f.child_by_field_name("field"),
                        _ => Some(f),
                    };
                    if let Some(c) = callee.map(|c| text_of(c, text)) {
                        t.helper_calls.extend(call_with_literals(
                            c,
                            line_of(n),
                            &args,
                            text,
                            &|name| b.literals.get(name).cloned(),
                        ));
                        t.calls.push(c.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    t
}

/// The values a test's locals hold: a literal (`want := "a,b"`), or a value the test
/// builds from literals with the language's own joins and formats (`want := "x: " +
/// name`, `expected := fmt.Sprintf("%d items", n)`), which says as much of what is
/// expected as its literal parts do; or a list of literals (`want := []string{"a",
/// "b"}`), whose element a check indexes (`got[i] != want[i]`).
#[derive(Default)]
struct Bindings {
    literals: HashMap<String, String>,
    built: HashMap<String, String>,
    lists: HashMap<String, String>,
}

impl Bindings {
    /// Records what the names of a declaration or assignment `n` are bound to.
    fn bind(&mut self, n: Node, text: &str) {
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
        let (Some(l), Some(r)) = (l, r) else {
            return;
        };
        let ls = named_children(l);
        let rs = named_children(r);
        let ls = if ls.is_empty() { vec![l] } else { ls };
        for (a, b) in ls.iter().zip(rs.iter()) {
            let name = text_of(*a, text).to_string();
            // A name bound again holds only its new value, if any.
            self.literals.remove(&name);
            self.built.remove(&name);
            self.lists.remove(&name);
            if is_literal(b.kind()) {
                self.literals.insert(name, literal(text_of(*b, text)));
            } else if built_from_literals(*b, text) {
                self.built.insert(name, built_text(*b, text));
            } else if is_literal_list(*b) {
                self.lists.insert(name, built_text(*b, text));
            }
        }
    }

    /// A literal, or a name bound to one.
    fn literal(&self, n: Node, text: &str) -> Option<String> {
        if is_literal(n.kind()) {
            Some(literal(text_of(n, text)))
        } else {
            self.literals.get(text_of(n, text)).cloned()
        }
    }

    /// A value built from literals, written in place or bound to a name; or an element
    /// of a list of literals bound to a name (`want[i] of []string{"a", "b"}`).
    fn built(&self, n: Node, text: &str) -> Option<String> {
        if built_from_literals(n, text) {
            return Some(built_text(n, text));
        }
        if n.kind() == "index_expression" {
            let list = n.child_by_field_name("operand")?;
            let values = self.lists.get(text_of(list, text))?;
            return Some(format!("{} of {values}", text_of(n, text)));
        }
        self.built.get(text_of(n, text)).cloned()
    }

    /// Which side of a comparison is expected, and its value: a literal before a built
    /// value (a format of the actual value is no expectation when the other side is a
    /// literal), the preferred side (`b`: the right of `got != want`, testify's first
    /// argument) first.
    fn compared<'t>(&self, a: Node<'t>, b: Node<'t>, text: &str) -> Option<(Node<'t>, String)> {
        let value = |n: Node| self.literal(n, text);
        let built = |n: Node| self.built(n, text);
        value(b)
            .map(|v| (a, v))
            .or_else(|| value(a).map(|v| (b, v)))
            .or_else(|| built(b).map(|v| (a, v)))
            .or_else(|| built(a).map(|v| (b, v)))
    }

    /// An equality written as a call, `reflect.DeepEqual(got, want)`, `bytes.Equal`,
    /// `slices.Equal`, `maps.Equal`: what it expects of `got` when `holds` (else of its
    /// negation), with the other side's value known (a literal, a value built from
    /// literals, or a list of literals bound to a name).
    fn equality(&self, call: Node, holds: bool, text: &str) -> Option<String> {
        let (_, f, args) = call_parts(call, text)?;
        if !matches!(
            f,
            "reflect.DeepEqual" | "bytes.Equal" | "slices.Equal" | "maps.Equal"
        ) {
            return None;
        }
        let [a, b] = args.as_slice() else {
            return None;
        };
        let list = |n: Node| self.lists.get(text_of(n, text)).cloned();
        let (got, v) = self
            .compared(*a, *b, text)
            .or_else(|| list(*b).map(|v| (*a, v)))
            .or_else(|| list(*a).map(|v| (*b, v)))?;
        let words = if holds { "is" } else { "is not" };
        Some(format!("`{}` {words} {v}", excerpt(text_of(got, text))))
    }

    /// `strings.Contains(got, want)`, `strings.HasPrefix(got, "x")`, `bytes.HasSuffix`:
    /// what the call expects of `got` when `holds` (else of its negation), with the text
    /// it looks for known.
    fn affix(&self, call: Node, holds: bool, text: &str) -> Option<String> {
        let (_, f, args) = call_parts(call, text)?;
        let (package, check) = f.split_once('.')?;
        if !matches!(package, "strings" | "bytes") {
            return None;
        }
        let verb = match (check, holds) {
            ("Contains", true) => "contains",
            ("Contains", false) => "does not contain",
            ("HasPrefix", true) => "starts with",
            ("HasPrefix", false) => "does not start with",
            ("HasSuffix", true) => "ends with",
            ("HasSuffix", false) => "does not end with",
            _ => return None,
        };
        let [subject, part] = args.as_slice() else {
            return None;
        };
        let part = self
            .literal(*part, text)
            .or_else(|| self.built(*part, text))?;
        Some(format!(
            "`{}` {verb} {part}",
            excerpt(text_of(*subject, text))
        ))
    }
}

/// A value built from literals with the language's own joins and formats: a `+` join
/// with a string literal among its parts, or a call that only writes a string out
/// (`fmt.Sprintf`, `strings.Join`, `strings.Repeat`) given a literal with more than format verbs. A call
/// of the code under test computes a value; these only write one out.
fn built_from_literals(n: Node, text: &str) -> bool {
    match n.kind() {
        "parenthesized_expression" => named_children(n)
            .first()
            .is_some_and(|i| built_from_literals(*i, text)),
        "binary_expression" => {
            let op = n.child_by_field_name("operator").map(|o| text_of(o, text));
            let parts = [
                n.child_by_field_name("left"),
                n.child_by_field_name("right"),
            ];
            op == Some("+")
                && parts.iter().flatten().any(|p| {
                    p.kind().contains("string_literal") && has_words(text_of(*p, text))
                        || built_from_literals(*p, text)
                })
        }
        "call_expression" => {
            let Some((_, f, args)) = call_parts(n, text) else {
                return false;
            };
            let writer = matches!(
                f,
                "fmt.Sprintf" | "fmt.Sprint" | "fmt.Sprintln" | "strings.Join" | "strings.Repeat"
            );
            writer && args.iter().any(|a| holds_words(*a, text))
        }
        _ => false,
    }
}

/// A slice or array literal of literals only (`[]string{"a", "b"}`).
fn is_literal_list(n: Node) -> bool {
    n.kind() == "composite_literal"
        && n.child_by_field_name("type")
            .is_some_and(|t| matches!(t.kind(), "slice_type" | "array_type"))
        && super::is_literal_value(n)
}

/// A string literal, or a list of them, with some text beyond format verbs.
fn holds_words(n: Node, text: &str) -> bool {
    match n.kind() {
        k if k.contains("string_literal") => has_words(text_of(n, text)),
        "composite_literal" | "literal_value" | "literal_element" => {
            named_children(n).iter().any(|c| holds_words(*c, text))
        }
        _ => built_from_literals(n, text),
    }
}

/// Whether a string literal says something besides its format verbs and escapes (`"%v"`
/// says nothing of the value it formats, `"\n"` nothing but a line break).
fn has_words(literal: &str) -> bool {
    static VERB: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"%[-+# 0-9.*]*[a-zA-Z%]|\\.").expect("format verb pattern"));
    VERB.replace_all(literal, "")
        .chars()
        .any(char::is_alphanumeric)
}

/// What a testify check of one value says of it (`True`, `NotNil`, `NoError`), or None for
/// the checks that compare two (`Equal`, `Contains`, `Len`).
fn testify_one_value(check: &str) -> Option<&'static str> {
    Some(match check {
        "True" => "is true",
        "False" => "is false",
        "Nil" | "NoError" => "is nil",
        "NotNil" => "is not nil",
        "Error" => "is an error",
        "Empty" => "is empty",
        "NotEmpty" => "is not empty",
        "Zero" => "is zero",
        "NotZero" => "is not zero",
        "Panics" => "panics",
        "NotPanics" => "does not panic",
        _ => return None,
    })
}
