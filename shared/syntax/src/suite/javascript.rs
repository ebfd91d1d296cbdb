//! JavaScript and TypeScript tests: `it`/`test` calls with their modifiers, `test.each`
//! tables, and the values `expect(..)` matchers, `assert.*`, the assertions of a test's
//! own context parameter (ava's and tap's `t.is(..)`) and request chains expect.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;
use tree_sitter::Node;

use super::{
    arrange, call_with_literals, literal, matcher_words, named_children, row_text, table_rows,
    Expectation, Framework, Test,
};
use crate::walk::{ByKind, Walk};
use crate::{excerpt, line_of, text_of};

const TEST_FNS: &[&str] = &["it", "test", "specify", "xit", "xtest", "fit"];
/// What a test call's member may be and still define one test: jest's and vitest's
/// modifiers, ava's `serial` (run one at a time), `failing` and `cb`.
const TEST_MODIFIERS: &[&str] = &[
    "only",
    "serial",
    "cb",
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
        let literal_fn = args.iter().copied().find(|a| is_function(*a));
        // `test(title, macro, ...inputs)`: a function passed by name runs as the test's
        // body (ava's macros, `it('x', check)`), with the arguments after it as inputs.
        let by_name = match literal_fn {
            Some(_) => None,
            None => args
                .get(1)
                .copied()
                .filter(|a| matches!(a.kind(), "identifier" | "member_expression")),
        };
        let skipped = if base.starts_with('x') {
            Some(base.to_string())
        } else if let Some(m) = modifiers.iter().find(|m| matches!(**m, "skip" | "todo")) {
            Some(format!("{base}.{m}"))
        } else if literal_fn.is_none() && by_name.is_none() {
            Some(format!("{base} without a body"))
        } else {
            None
        };
        let mut t = Test {
            skipped,
            ..Test::at(node, title.clone(), title, Framework::Jest)
        };
        // The named function's definition in this file, if any, is read as the body;
        // the call's literal inputs bind its parameters after the test context.
        let mut inputs: HashMap<String, String> = HashMap::new();
        let mut body = literal_fn;
        if let Some(named) = by_name {
            let name = text_of(named, text);
            let passed = &args[2..];
            let defined = (named.kind() == "identifier")
                .then(|| defined_function(walk, name, text))
                .flatten();
            match defined {
                Some(f) => {
                    let params = js_params(f, text);
                    for (p, a) in params.iter().skip(1).zip(passed) {
                        if super::is_literal_value(*a) {
                            inputs.insert(p.clone(), literal(text_of(*a, text)));
                        }
                    }
                    let given: Vec<String> = params
                        .iter()
                        .skip(1)
                        .zip(passed)
                        .map(|(p, a)| format!("`{p}` set to `{}`", excerpt(text_of(*a, text))))
                        .collect();
                    body = Some(f);
                    t.calls.push(name.to_string());
                    if !given.is_empty() {
                        // Read below with the body; the inputs come first.
                        t.setup = Some(given.join(", "));
                    }
                }
                None => {
                    // A macro defined elsewhere: the call's literal inputs are what the
                    // test checks, and its name may be a known assertion helper.
                    let last = name.rsplit('.').next().unwrap_or(name);
                    t.calls.push(last.to_string());
                    t.helper_calls.extend(call_with_literals(
                        last,
                        line_of(node),
                        passed,
                        text,
                        &|_| None,
                    ));
                    let shown: Vec<String> =
                        passed.iter().map(|a| excerpt(text_of(*a, text))).collect();
                    if passed.iter().any(|a| super::is_literal_value(*a)) {
                        t.expects.push(Expectation {
                            line: line_of(node),
                            text: format!("`{last}({})` holds", shown.join(", ")),
                        });
                    }
                }
            }
        }
        // `test.each(table)(title, fn)`: the table's rows, by the function's parameters.
        if callee.kind() == "call_expression" {
            if let Some(table) = callee.child_by_field_name("arguments") {
                let params = body.map(|b| js_params(b, text)).unwrap_or_default();
                each_rows(table, &params, text, &mut t.expects);
            }
        }
        if let Some(body) = body {
            let nodes = walk.subtree(body);
            table_rows(&nodes, text, &mut t.expects);
            let mut bindings = literal_locals(&nodes, text);
            for (k, v) in &inputs {
                bindings.entry(k.clone()).or_insert_with(|| v.clone());
            }
            // The test's context, its first parameter (`t`), holds ava's and tap's
            // assertions.
            let context = first_param(body, text);
            for &n in nodes.iter() {
                if n.kind() != "call_expression" {
                    continue;
                }
                let own = context.and_then(|c| context_expectation(n, c, text, &bindings));
                if let Some(e) = own
                    .or_else(|| js_expectation(n, text))
                    .or_else(|| bdd_expectation(n, text))
                {
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
            let given = t.setup.take();
            arrange::read(body, text, &[], &mut t);
            if let Some(given) = given {
                t.setup = Some(match t.setup.take() {
                    Some(read) => format!("{given}, {read}"),
                    None => given,
                });
            }
        }
        out.push(t);
    }
    if TSD_IMPORT.is_match(text) {
        out.extend(type_tests(walk, text));
    }
    out
}

/// An import of tsd, whose calls state what a file's expressions type-check as.
pub(super) static TSD_IMPORT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?:from\s+|require\(\s*)['"](?:tsd|tsd-lite)['"]"#).expect("tsd import pattern")
});

/// tsd's assertions, each with what it says of its argument.
const TYPE_ASSERTIONS: &[(&str, &str)] = &[
    ("expectType", "has the type"),
    ("expectNotType", "does not have the type"),
    ("expectAssignable", "is assignable to"),
    ("expectNotAssignable", "is not assignable to"),
    ("expectError", "is a type error"),
    ("expectDeprecated", "is marked deprecated"),
    ("expectNotDeprecated", "is not marked deprecated"),
    ("expectNever", "has the type never"),
    ("expectDocCommentIncludes", "has a doc comment including"),
];

/// A type-test file's assertions, as tsd checks them (`expectType<string>(x)`,
/// `expectError(f(1))`): one test of the file's types, expecting what each changed
/// assertion says; tsd runs them all at once, by the package's type-test script.
fn type_tests(walk: &Walk, text: &str) -> Option<Test> {
    let mut expects = Vec::new();
    let mut calls = ByKind::default();
    let assertions = walk.all.iter().filter_map(|&n| {
        let called = n
            .child_by_field_name("function")
            .filter(|_| calls.of(n, |k| k == "call_expression"))?;
        let name = text_of(called, text);
        let (_, words) = TYPE_ASSERTIONS.iter().find(|(a, _)| *a == name)?;
        Some((n, words))
    });
    for (n, words) in assertions {
        let subject = n
            .child_by_field_name("arguments")
            .and_then(|a| named_children(a).into_iter().next())
            .map(|a| excerpt(text_of(a, text)))
            .unwrap_or_default();
        let typed = n.child_by_field_name("type_arguments").map(|t| {
            literal(
                text_of(t, text)
                    .trim_start_matches('<')
                    .trim_end_matches('>'),
            )
        });
        expects.push(Expectation {
            line: line_of(n),
            text: match typed {
                Some(ty) => format!("`{subject}` {words} `{ty}`"),
                None => format!("`{subject}` {words}"),
            },
        });
    }
    let root = *walk.all.first()?;
    (!expects.is_empty()).then(|| {
        let title = "type assertions".to_string();
        Test {
            expects,
            ..Test::at(root, title.clone(), title, Framework::Jest)
        }
    })
}

/// A function literal, as a test's body is written (`() => {..}`, `function* () {..}`).
fn is_function(n: Node) -> bool {
    matches!(
        n.kind(),
        "arrow_function" | "function_expression" | "function" | "generator_function"
    )
}

/// The function a file defines at its top level under `name`: `function name(t) {..}`,
/// `const name = (t) => {..}`, ava's `const name = test.macro((t) => {..})`, exported
/// or not.
fn defined_function<'t>(walk: &Walk<'t>, name: &str, text: &str) -> Option<Node<'t>> {
    let root = *walk.all.first()?;
    named_children(root).into_iter().find_map(|top| {
        let top = match top.kind() {
            "export_statement" => top.child_by_field_name("declaration")?,
            _ => top,
        };
        match top.kind() {
            "function_declaration" | "generator_function_declaration" => {
                let n = top.child_by_field_name("name")?;
                (text_of(n, text) == name).then_some(top)
            }
            "lexical_declaration" | "variable_declaration" => {
                named_children(top).into_iter().find_map(|d| {
                    let n = d.child_by_field_name("name")?;
                    if d.kind() != "variable_declarator" || text_of(n, text) != name {
                        return None;
                    }
                    let value = d.child_by_field_name("value")?;
                    if is_function(value) {
                        return Some(value);
                    }
                    // `test.macro(fn)`: the function it wraps.
                    (value.kind() == "call_expression")
                        .then(|| value.child_by_field_name("arguments"))
                        .flatten()
                        .and_then(|a| named_children(a).into_iter().find(|a| is_function(*a)))
                })
            }
            _ => None,
        }
    })
}

/// A function's first parameter when it is a plain name (`t` of `(t) => ..` or
/// `async t => ..`): the test context ava and tap hand a test.
fn first_param<'t>(f: Node, text: &'t str) -> Option<&'t str> {
    if let Some(p) = f.child_by_field_name("parameter") {
        return (p.kind() == "identifier").then(|| text_of(p, text));
    }
    let first = named_children(f.child_by_field_name("parameters")?)
        .into_iter()
        .next()?;
    let name = match first.kind() {
        "identifier" => first,
        // TypeScript's `(t: ExecutionContext)`.
        "required_parameter" => first
            .child_by_field_name("pattern")
            .filter(|p| p.kind() == "identifier")?,
        _ => return None,
    };
    Some(text_of(name, text))
}

/// An assertion of the test's context (`context` is its parameter's name): ava's
/// `t.is(got, 'x')`, `t.deepEqual`, `t.true`, `t.throws(fn, {message: 'x'})`,
/// `t.snapshot`; tap's `t.equal`, `t.same`, `t.match`; node:test's `t.assert.*`. A name
/// `bound` to a literal (a local, a macro's input) is quoted as that literal.
fn context_expectation(
    call: Node,
    context: &str,
    text: &str,
    bound: &HashMap<String, String>,
) -> Option<Expectation> {
    let f = call.child_by_field_name("function")?;
    if f.kind() != "member_expression" {
        return None;
    }
    let object = text_of(f.child_by_field_name("object")?, text);
    if object != context && object.strip_suffix(".assert") != Some(context) {
        return None;
    }
    let method = text_of(f.child_by_field_name("property")?, text);
    let args: Vec<Node> = call
        .child_by_field_name("arguments")
        .map(named_children)
        .unwrap_or_default();
    let subject = excerpt(text_of(*args.first()?, text));
    let value = |i: usize| {
        args.get(i).map(|a| {
            let code = text_of(*a, text);
            match bound.get(code) {
                Some(v) if a.kind() == "identifier" => v.clone(),
                _ => literal(code),
            }
        })
    };
    let compared = |words: &str| value(1).map(|want| format!("`{subject}` {words} {want}"));
    let said = match method {
        "is" | "equal" | "equals" | "strictEqual" => compared("is")?,
        "not" | "notEqual" | "notStrictEqual" => compared("is not")?,
        "deepEqual" | "deepStrictEqual" | "same" | "strictSame" => compared("deep equals")?,
        "notDeepEqual" | "notDeepStrictEqual" | "notSame" | "notStrictSame" => {
            compared("does not deep equal")?
        }
        "like" | "has" | "hasStrict" => compared("has the fields of")?,
        "regex" | "match" => compared("matches")?,
        "notRegex" | "notMatch" | "doesNotMatch" => compared("does not match")?,
        "type" => compared("is of type")?,
        "true" | "false" => condition_words(args[0], text)
            .filter(|_| method == "true")
            .unwrap_or_else(|| format!("`{subject}` is {method}")),
        "truthy" | "ok" | "assert" => {
            condition_words(args[0], text).unwrap_or_else(|| format!("`{subject}` holds"))
        }
        "falsy" | "notOk" => format!("`{subject}` does not hold"),
        "error" | "ifError" => format!("`{subject}` is no error"),
        "throws" | "throwsAsync" | "rejects" => {
            let verb = if method == "throws" {
                "throws"
            } else {
                "rejects"
            };
            match value(1) {
                Some(want) => format!("`{subject}` {verb} {want}"),
                None => format!("`{subject}` {verb}"),
            }
        }
        "notThrows" | "notThrowsAsync" | "doesNotThrow" | "doesNotReject" | "resolves" => {
            format!("`{subject}` does not throw")
        }
        "snapshot" | "matchSnapshot" => format!("`{subject}` matches the snapshot"),
        _ => return None,
    };
    Some(Expectation {
        line: line_of(call),
        text: said,
    })
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
