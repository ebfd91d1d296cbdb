//! Go tests: `func TestX(t *testing.T)` and its `t.Run` cases, and the values its
//! `if got != want { t.Errorf(..) }` checks and testify calls expect.

use std::collections::HashMap;

use tree_sitter::Node;

use super::{
    arrange, call_parts, call_with_literals, is_literal, literal, matcher_words, named_children,
    table_rows, Expectation, Framework, Test,
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
                    // `Truef(t, ok, "why %s", x)`: the formatted variant of `True`.
                    let m = m.strip_suffix('f').filter(|b| !b.is_empty()).unwrap_or(m);
                    if let (Some(words), Some(subject)) = (testify_one_value(m), args.get(1)) {
                        // testify's one-value checks: (t, value, message...); the message
                        // is no value.
                        t.expects.push(Expectation {
                            line: line_of(n),
                            text: format!("`{}` {words}", excerpt(text_of(*subject, text))),
                        });
                        continue;
                    }
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
                        t.helper_calls.extend(call_with_literals(
                            c,
                            line_of(n),
                            &args,
                            text,
                            &|name| bindings.get(name).cloned(),
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
