//! JavaScript and TypeScript tests: `it`/`test` calls with their modifiers, `test.each`
//! tables, and the values `expect(..)` matchers, `assert.*` and request chains expect.

use std::collections::HashMap;
use tree_sitter::Node;

use super::{
    arrange, call_with_literals, literal, matcher_words, named_children, row_text, table_rows,
    Expectation, Framework, Test,
};
use crate::walk::{ByKind, Walk};
use crate::{excerpt, line_of, text_of};

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

/// The `it`/`test` calls of the walk, `test.each` rows included, read.
pub(super) fn tests(walk: &Walk, text: &str) -> Vec<Test> {
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
            skipped,
            ..Test::at(node, title.clone(), title, Framework::Jest)
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
            let bindings = literal_locals(&nodes, text);
            for &n in nodes.iter() {
                if n.kind() != "call_expression" {
                    continue;
                }
                if let Some(e) = js_expectation(n, text).or_else(|| bdd_expectation(n, text)) {
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
                        t.helper_calls.extend(call_with_literals(
                            name,
                            line_of(n),
                            &args,
                            text,
                            &|name| bindings.get(name).cloned(),
                        ));
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

/// `it`, `test.skip`, `it.each(table)`, `describe.only`...: the test function and its
/// modifiers, for a call that defines one test (describe blocks define none).
/// The locals a test body declares once with a literal (`const want = "x"`), by name, the
/// literal as a reader sees it; a name declared twice holds no one value.
fn literal_locals(nodes: &[Node], text: &str) -> HashMap<String, String> {
    super::bound_once(
        nodes
            .iter()
            .filter(|n| n.kind() == "variable_declarator")
            .filter_map(|n| {
                let name = n.child_by_field_name("name")?;
                (name.kind() == "identifier").then(|| {
                    let value = n
                        .child_by_field_name("value")
                        .filter(|v| super::is_literal_value(*v))
                        .map(|v| literal(text_of(v, text)));
                    (text_of(name, text).to_string(), value)
                })
            }),
    )
}

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
    let args: Vec<Node> = call
        .child_by_field_name("arguments")
        .map(named_children)
        .unwrap_or_default();
    // `assert(cond, msg)`, node:assert's own call.
    if f.kind() == "identifier" && text_of(f, text) == "assert" {
        return assert_ok(call, &args, text);
    }
    if f.kind() != "member_expression" {
        return None;
    }
    let matcher = text_of(f.child_by_field_name("property")?, text);
    let arg = |i: usize| args.get(i).map(|a| literal(text_of(*a, text)));
    let object = f.child_by_field_name("object")?;
    if text_of(object, text) == "assert" && matcher == "ok" {
        return assert_ok(call, &args, text);
    }
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

/// node:assert's `assert.ok(cond, msg)` and `assert(cond, msg)`: what the condition says
/// of its subject (`res.text.includes('ok')`: `res.text` contains 'ok'; `a === 1`: `a` is
/// 1), else that it holds; a literal message says in words what is expected, so it goes
/// with it.
fn assert_ok(call: Node, args: &[Node], text: &str) -> Option<Expectation> {
    let cond = *args.first()?;
    let said = condition_words(cond, text)
        .unwrap_or_else(|| format!("`{}` holds", excerpt(text_of(cond, text))));
    let message = args
        .get(1)
        .filter(|m| matches!(m.kind(), "string" | "template_string"))
        .map(|m| literal(text_of(*m, text)));
    Some(Expectation {
        line: line_of(call),
        text: match message {
            Some(m) => format!("{said} ({m})"),
            None => said,
        },
    })
}

/// A condition in words when it compares its subject with a literal (`a === 'x'`,
/// `s.includes('x')`, `!s.startsWith('#')`).
fn condition_words(cond: Node, text: &str) -> Option<String> {
    let is_value = |n: Node| {
        matches!(
            n.kind(),
            "string" | "template_string" | "number" | "true" | "false" | "null" | "undefined"
        )
    };
    match cond.kind() {
        "parenthesized_expression" => condition_words(*named_children(cond).first()?, text),
        "unary_expression" if text_of(cond, text).starts_with('!') => {
            let inner = cond.child_by_field_name("argument")?;
            let words = condition_words(inner, text)?;
            // Only a call's verb turns: `!(a === 1)` is left as a whole.
            let (subject, rest) = words.split_once("` ")?;
            let negated = [
                ("contains", "does not contain"),
                ("starts with", "does not start with"),
                ("ends with", "does not end with"),
            ]
            .iter()
            .find_map(|(v, not)| rest.strip_prefix(v).map(|tail| format!("{not}{tail}")))?;
            Some(format!("{subject}` {negated}"))
        }
        "binary_expression" => {
            let op = text_of(cond.child_by_field_name("operator")?, text);
            let words = match op {
                "===" | "==" => "is",
                "!==" | "!=" => "is not",
                _ => return None,
            };
            let (l, r) = (
                cond.child_by_field_name("left")?,
                cond.child_by_field_name("right")?,
            );
            let (subject, value) = match (is_value(l), is_value(r)) {
                (_, true) => (l, r),
                (true, false) => (r, l),
                _ => return None,
            };
            Some(format!(
                "`{}` {words} {}",
                excerpt(text_of(subject, text)),
                literal(text_of(value, text))
            ))
        }
        "call_expression" => {
            let f = cond.child_by_field_name("function")?;
            if f.kind() != "member_expression" {
                return None;
            }
            let verb = match text_of(f.child_by_field_name("property")?, text) {
                "includes" => "contains",
                "startsWith" => "starts with",
                "endsWith" => "ends with",
                _ => return None,
            };
            let args: Vec<Node> = cond
                .child_by_field_name("arguments")
                .map(named_children)
                .unwrap_or_default();
            let [value] = args.as_slice() else {
                return None;
            };
            if !is_value(*value) {
                return None;
            }
            let subject = f.child_by_field_name("object")?;
            Some(format!(
                "`{}` {verb} {}",
                excerpt(text_of(subject, text)),
                literal(text_of(*value, text))
            ))
        }
        _ => None,
    }
}

/// The words of a BDD assertion chain that only read well (chai's language chains).
const CHAIN_FILLERS: &[&str] = &[
    "to", "be", "been", "is", "that", "which", "and", "has", "have", "with", "at", "of", "same",
    "but", "does", "still", "also",
];

/// The flags of a chain that change what is compared.
const CHAIN_FLAGS: &[&str] = &[
    "not",
    "deep",
    "nested",
    "own",
    "ordered",
    "any",
    "all",
    "itself",
    "eventually",
];

/// A BDD chain, as chai and should.js write one: `expect(x).to.equal(1)`,
/// `expect(x).to.not.deep.equal({..})`, `x.should.containEql('a')`,
/// `should(err).have.property('message')`. Only a call ends one (a bare property such as
/// `.to.be.true` is none), and every word between its root and its matcher is one of
/// chai's chains or flags, so an ordinary method chain is never read as one.
fn bdd_expectation(call: Node, text: &str) -> Option<Expectation> {
    let f = call.child_by_field_name("function")?;
    if f.kind() != "member_expression" {
        return None;
    }
    let matcher = text_of(f.child_by_field_name("property")?, text);
    let mut flags: Vec<&str> = Vec::new();
    let mut node = f.child_by_field_name("object")?;
    let subject = loop {
        match node.kind() {
            "member_expression" => {
                let word = text_of(node.child_by_field_name("property")?, text);
                let object = node.child_by_field_name("object")?;
                if word == "should" {
                    break object;
                }
                if CHAIN_FLAGS.contains(&word) {
                    flags.push(word);
                } else if !CHAIN_FILLERS.contains(&word) {
                    return None;
                }
                node = object;
            }
            "call_expression" => {
                let root = text_of(node.child_by_field_name("function")?, text);
                if !matches!(root, "expect" | "chai.expect" | "should") {
                    return None;
                }
                break node
                    .child_by_field_name("arguments")
                    .and_then(|a| named_children(a).into_iter().next())?;
            }
            _ => return None,
        }
    };
    flags.reverse();
    let verb = match matcher {
        "equal" | "equals" | "eq" | "eql" | "eqls" => "equals".to_string(),
        "include" | "includes" | "contain" | "contains" | "containEql" => "contains".to_string(),
        "property" | "ownProperty" | "haveOwnProperty" => "has the property".to_string(),
        "above" | "greaterThan" | "gt" => "is greater than".to_string(),
        "below" | "lessThan" | "lt" => "is less than".to_string(),
        "least" | "gte" => "is at least".to_string(),
        "most" | "lte" => "is at most".to_string(),
        "length" | "lengthOf" => "has length".to_string(),
        "a" | "an" | "instanceOf" | "instanceof" => "is a".to_string(),
        "match" | "matches" => "matches".to_string(),
        "throw" | "throws" | "Throw" => "throws".to_string(),
        m => matcher_words(m),
    };
    let negated = flags.contains(&"not");
    let flags: Vec<&str> = flags.into_iter().filter(|w| *w != "not").collect();
    let mut words = String::new();
    if negated {
        words.push_str("not ");
    }
    for w in &flags {
        words.push_str(w);
        words.push(' ');
    }
    words.push_str(&verb);
    let want = call
        .child_by_field_name("arguments")
        .and_then(|a| named_children(a).into_iter().next())
        .map(|a| literal(text_of(a, text)));
    let subject = excerpt(text_of(subject, text));
    Some(Expectation {
        line: line_of(call),
        text: match want {
            Some(want) => format!("`{subject}` {words} {want}"),
            None => format!("`{subject}` {words}"),
        },
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
