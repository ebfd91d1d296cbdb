//! Python tests: `test_` functions and methods, their pytest markers and `parametrize`
//! rows, and the values their `assert` statements, `pytest.raises` and unittest's
//! `assert*` methods expect.

use std::collections::HashMap;

use tree_sitter::Node;

use super::{
    arrange, bound_once, call_parts, call_with_literals, is_literal, literal, matcher_words,
    named_children, row_text, table_rows, Expectation, Framework, Test,
};
use crate::walk::Walk;
use crate::{excerpt, line_of, text_of};

/// The `test_` functions and methods of the walk, read.
pub(super) fn tests(walk: &Walk, text: &str) -> Vec<Test> {
    let mut out = Vec::new();
    let constants = walk
        .all
        .first()
        .map(|root| module_constants(*root, text))
        .unwrap_or_default();
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
            line: line_of(start),
            ..Test::at(node, name.to_string(), title, Framework::Pytest)
        };
        let mut bindings: HashMap<String, String> = constants.clone();
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
                    } else if l.kind() == "identifier" {
                        // Bound here to something else: a module's literal no longer.
                        bindings.remove(text_of(l, text));
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
                        // `match=` is the message the error must have.
                        let message = args.iter().find_map(|a| {
                            let k = a.child_by_field_name("name")?;
                            let v = a.child_by_field_name("value")?;
                            (a.kind() == "keyword_argument"
                                && text_of(k, text) == "match"
                                && is_literal(v.kind()))
                            .then(|| literal(text_of(v, text)))
                        });
                        t.expects.push(Expectation {
                            line: line_of(n),
                            text: match message {
                                Some(m) => format!("raises {what} matching {m}"),
                                None => format!("raises {what}"),
                            },
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

/// The module's names bound once, at its top level, to a literal (`EXPECTED = "..."`):
/// a test that compares with one expects that literal. A name bound twice holds no one
/// value; a test's own binding of the name hides it.
fn module_constants(root: Node, text: &str) -> HashMap<String, String> {
    if root.kind() != "module" {
        return HashMap::new();
    }
    let assignments = named_children(root)
        .into_iter()
        .filter(|st| st.kind() == "expression_statement")
        .flat_map(named_children)
        .filter(|a| a.kind() == "assignment");
    bound_once(assignments.filter_map(|a| {
        let l = a.child_by_field_name("left")?;
        let r = a.child_by_field_name("right")?;
        (l.kind() == "identifier").then(|| {
            let value = is_literal(r.kind()).then(|| literal(text_of(r, text)));
            (text_of(l, text).to_string(), value)
        })
    }))
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
