//! What a test sets up before the call it checks (options and fields set to a value,
//! environment, fixtures), in words, and that call: the arrange and act a tester follows.

use std::cell::OnceCell;
use std::collections::HashMap;

use tree_sitter::Node;

use super::{is_literal_value, literal, named_children, Statement, Test};
use crate::walk::{ByKind, Walk};
use crate::{excerpt, text_of};

/// Most set-up items named.
const MAX_ITEMS: usize = 4;

/// Reads `body` (a test function's body) into `t.setup` and `t.act`. `fixtures` are the
/// test's parameters a runner provides (pytest fixtures).
pub fn read(body: Node, text: &str, fixtures: &[String], t: &mut Test) {
    let mut items: Vec<String> = Vec::new();
    let around = Around {
        body,
        listed: OnceCell::new(),
    };
    for st in statements(body) {
        let code = text_of(st, text);
        if asserts(code) {
            break;
        }
        settings(st, text, &around, &mut items);
        if items.len() >= MAX_ITEMS {
            break;
        }
    }
    items.truncate(MAX_ITEMS);
    match fixtures {
        [] => {}
        [one] => items.push(format!("use the fixture `{one}`")),
        many => items.push(format!(
            "use the fixtures {}",
            many.iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
    t.setup = if items.is_empty() {
        first_call(body, text).map(|s| format!("run `{s}`"))
    } else {
        Some(items.join(", "))
    };
    t.act = act(body, text, t);
    t.setup_calls = setup_calls(body, text, t);
}

/// Most set-up calls kept per test.
const MAX_SETUP_CALLS: usize = 16;

/// The statements of a body that only call something (`r.Use(mw)`, `db.seed()`): no
/// check (no expectation of the test stands in it, and its callee is not named as one:
/// `te.assert_output(..)`), no binding (a call whose result is named is the test's act
/// or a value it reads), no branch or loop, and not the act itself.
fn setup_calls(body: Node, text: &str, t: &Test) -> Vec<Statement> {
    statements(body)
        .into_iter()
        .filter(|st| st.kind() == "expression_statement")
        .filter_map(|st| {
            let inner = named_children(st).into_iter().next()?;
            let call = match inner.kind() {
                "await_expression" => named_children(inner).into_iter().next()?,
                _ => inner,
            };
            if !matches!(
                call.kind(),
                "call_expression" | "call" | "method_invocation"
            ) {
                return None;
            }
            let code = text_of(st, text).trim();
            let called = excerpt(text_of(call, text));
            let (line, end) = (crate::line_of(st), st.end_position().row as u32 + 1);
            let checks = asserts(code)
                || t.expects.iter().any(|e| (line..=end).contains(&e.line))
                || call
                    .child_by_field_name("function")
                    .or_else(|| call.child_by_field_name("name"))
                    .is_some_and(|f| named_as_check(text_of(f, text)));
            if checks || code.starts_with("t.") || t.act.as_deref() == Some(called.as_str()) {
                return None;
            }
            Some(Statement {
                line,
                end,
                text: excerpt(code.trim_end_matches(';')),
            })
        })
        .take(MAX_SETUP_CALLS)
        .collect()
}

/// The first statement of a body that calls something and asserts nothing: not a
/// loop or branch (a table's loop is the check itself, `if cfg!(windows) { return }` an
/// early exit), not a helper the test defines.
fn first_call(body: Node, text: &str) -> Option<String> {
    statements(body).into_iter().find_map(|st| {
        let t = text_of(st, text).trim();
        // Rust wraps `if` and `for` in an expression statement.
        let inner = match st.kind() {
            "expression_statement" => named_children(st).into_iter().next().unwrap_or(st),
            _ => st,
        };
        let control = [
            "for", "if", "while", "loop", "match", "switch", "select", "try",
        ]
        .iter()
        .any(|k| inner.kind().starts_with(k));
        // `t.Parallel()`, `t.Helper()`: the runner's bookkeeping, no set-up.
        let skipped = asserts(t)
            || t.starts_with("t.")
            || control
            || st.kind().contains("comment")
            || matches!(
                st.kind(),
                "function_definition"
                    | "decorated_definition"
                    | "class_definition"
                    | "function_declaration"
                    | "function_item"
                    | "class_declaration"
            )
            || st.kind() == "string" && t.starts_with("\"\"\"");
        (!skipped && t.contains('(') && !t.starts_with('#')).then(|| excerpt(t))
    })
}

/// The statements of a body block, Go's statement list flattened.
fn statements(body: Node) -> Vec<Node> {
    let block = match body.kind() {
        "arrow_function"
        | "function_expression"
        | "function"
        | "func_literal"
        | "generator_function"
        | "function_declaration"
        | "generator_function_declaration" => match body.child_by_field_name("body") {
            Some(b) => b,
            None => return Vec::new(),
        },
        _ => body,
    };
    named_children(block)
        .into_iter()
        .flat_map(|n| {
            if n.kind() == "statement_list" {
                named_children(n)
            } else {
                vec![n]
            }
        })
        .collect()
}

/// A callee named as a check (`te.assert_output`, `checkRow`, `verify_tree`): its last
/// name starts with a word that says so.
fn named_as_check(callee: &str) -> bool {
    let last = callee
        .rsplit(['.', ':'])
        .next()
        .unwrap_or(callee)
        .to_ascii_lowercase();
    ["assert", "expect", "check", "verify", "must", "should"]
        .iter()
        .any(|w| last.starts_with(w))
}

/// A statement that checks rather than sets up.
fn asserts(code: &str) -> bool {
    let lower = code.trim_start().to_ascii_lowercase();
    [
        "assert",
        "expect",
        "self.assert",
        "require.",
        "with pytest.raises",
    ]
    .iter()
    .any(|w| lower.starts_with(w))
        || lower.contains("expect(")
        || lower.contains(".error")
        || lower.contains(".fatal")
}

/// The values a set-up statement gives: a field, option or key set to a literal
/// (`r.StrictSlash = true`, `app.config["X"] = 1`), literal options passed to a
/// constructor (`{ strict: false }`, `Config{Strict: true}`, `follow_redirects=True`),
/// environment variables (`t.Setenv("K", "v")`).
fn settings(st: Node, text: &str, around: &Around, out: &mut Vec<String>) {
    // The values already named: an option inside one is part of it, not another setting.
    let mut named: Vec<std::ops::Range<usize>> = Vec::new();
    let walk = Walk::new(st, None);
    let tabled = tabled(&walk, st, around);
    let mut kinds = ByKind::default();
    for (n, tabled) in walk.all.into_iter().zip(tabled) {
        if named.iter().any(|r| r.contains(&n.start_byte())) {
            continue;
        }
        // A row of a table of cases is a case, not a setting.
        if tabled {
            continue;
        }
        let (target, value) = match kinds.of(n, |k| k) {
            "assignment_statement" | "assignment_expression" | "assignment" => {
                match (
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                ) {
                    (Some(l), Some(r)) if is_member(l) => (text_of(l, text), r),
                    _ => continue,
                }
            }
            "pair" | "keyed_element" | "keyword_argument" | "field_initializer" => {
                let key = ["key", "name", "field"]
                    .iter()
                    .find_map(|f| n.child_by_field_name(f))
                    .or_else(|| named_children(n).into_iter().next());
                let value = n
                    .child_by_field_name("value")
                    .or_else(|| named_children(n).pop());
                match (key, value) {
                    (Some(k), Some(v)) if k != v => (text_of(k, text), v),
                    _ => continue,
                }
            }
            "call_expression" | "call" => {
                let Some(f) = n.child_by_field_name("function") else {
                    continue;
                };
                let name = text_of(f, text);
                let args = n
                    .child_by_field_name("arguments")
                    .map(named_children)
                    .unwrap_or_default();
                let env = ["Setenv", "setenv", "set_var"]
                    .iter()
                    .any(|s| name.ends_with(s));
                match args.as_slice() {
                    [k, v] if env && is_literal_value(*k) => (text_of(*k, text), *v),
                    _ => continue,
                }
            }
            _ => continue,
        };
        // Only literal values: a tester sets those; a computed one is the test's business.
        if !is_literal_value(value) {
            continue;
        }
        named.push(value.start_byte()..value.end_byte());
        let target = target.trim_matches(|c| c == '"' || c == '\'');
        let item = format!("set `{}` to `{}`", target, literal(text_of(value, text)));
        if !out.contains(&item) {
            out.push(item);
        }
    }
}

/// The body a statement stands in, and whether the body or one of its ancestors is a list
/// of cases: found once for all its statements (tree-sitter finds a node's parent by
/// searching down from the root each time).
struct Around<'t> {
    body: Node<'t>,
    listed: OnceCell<bool>,
}

/// For each node of the walk of `st`, whether it sits in a list of cases inside `st`
/// (`[]struct{...}{{...}}`, `[{...}]`): each node's answer is its parent's, read down the
/// walk (tree-sitter finds a node's parent by searching down from the root each time).
fn tabled(walk: &Walk, st: Node, around: &Around) -> Vec<bool> {
    let mut tabled = vec![false; walk.all.len()];
    for i in 1..walk.all.len() {
        tabled[i] = match walk.parent_index(i) {
            Some(p) if p != 0 => listed(walk.all[p]) || tabled[p],
            _ => false,
        };
    }
    // The statement itself counts as tabled when it stands in a list outside it.
    if let Some(first) = tabled.first_mut() {
        let mut at = st.parent();
        while let Some(p) = at {
            if p == around.body {
                *first = *around.listed.get_or_init(|| listed_or_inside(p));
                break;
            }
            if listed(p) {
                *first = true;
                break;
            }
            at = p.parent();
        }
    }
    tabled
}

/// True when `node` or one of its ancestors is a list of cases.
fn listed_or_inside(node: Node) -> bool {
    let mut at = Some(node);
    while let Some(p) = at {
        if listed(p) {
            return true;
        }
        at = p.parent();
    }
    false
}

/// A list of cases: an array, list or tuple, or a Go slice or array literal.
fn listed(p: Node) -> bool {
    matches!(p.kind(), "array" | "list" | "tuple")
        || p.kind() == "composite_literal"
            && p.child_by_field_name("type")
                .is_some_and(|t| matches!(t.kind(), "slice_type" | "array_type"))
}

/// A field, attribute, key or index: what a set-up assigns to (a local is the test's).
fn is_member(n: Node) -> bool {
    let n = match n.kind() {
        "expression_list" => match named_children(n).as_slice() {
            [one] => *one,
            _ => return false,
        },
        _ => n,
    };
    matches!(
        n.kind(),
        "selector_expression"
            | "member_expression"
            | "attribute"
            | "field_expression"
            | "field_access"
            | "subscript_expression"
            | "subscript"
            | "index_expression"
    )
}

/// The call whose result the test's first expectation checks: the checked expression
/// when it calls something, or the call a checked name was bound to (`got := Parse("x")`,
/// `const res = await app.request("/x")`).
fn act(body: Node, text: &str, t: &Test) -> Option<String> {
    let bindings = bindings(body, text);
    // An expected value's subject before a bare predicate's (`reflect.DeepEqual(a, b)`
    // holds): the predicate is the check, not the call it checks.
    // A predicate over literal inputs is read as what it expects of them: its subject
    // (`matched(&m, "a.tmp")` of `.is_ignore()`) is the call.
    let said: Vec<String> = t
        .expects
        .iter()
        .map(|e| super::predicate_expectation(&e.text).unwrap_or_else(|| e.text.clone()))
        .collect();
    let predicate = |e: &&String| e.ends_with("` holds") || e.ends_with("` does not hold");
    let values = said.iter().filter(|e| !predicate(e));
    values.chain(said.iter().filter(predicate)).find_map(|e| {
        let rest = e.strip_prefix('`')?;
        let subject = &rest[..rest.find("` ")?];
        let root: String = subject
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        match bindings.get(&root) {
            Some(call) => Some(call.clone()),
            None if subject.contains('(') && !subject.starts_with('!') => {
                Some(unwrapped(subject, &bindings).unwrap_or_else(|| subject.to_string()))
            }
            None => None,
        }
    })
}

/// The language's own conversions and inspections (`str(url)`, `len(routes)`,
/// `fmt.Sprintf("%v", r)`, `JSON.stringify(x)`) only read a value: the act is the call
/// that produced the name they read, when the test bound one.
fn unwrapped(subject: &str, bindings: &HashMap<String, String>) -> Option<String> {
    const READS: &[&str] = &[
        "str",
        "repr",
        "len",
        "isinstance",
        "all",
        "any",
        "list",
        "dict",
        "set",
        "tuple",
        "sorted",
        "bool",
        "int",
        "float",
        "String",
        "Number",
        "Boolean",
        "Array.from",
        "JSON.stringify",
        "JSON.parse",
        "fmt.Sprint",
        "fmt.Sprintf",
        "io.ReadAll",
        "string",
        "format!",
    ];
    let (callee, args) = subject.split_once('(')?;
    if !READS.contains(&callee.trim()) {
        return None;
    }
    args.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .find_map(|id| bindings.get(id).cloned())
}

/// Names bound to a call in the body, with the call as written (`await` dropped).
fn bindings(body: Node, text: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for n in Walk::new(body, None).all {
        let (names, value) = match n.kind() {
            "short_var_declaration" | "assignment" | "assignment_statement" => (
                n.child_by_field_name("left"),
                n.child_by_field_name("right"),
            ),
            "let_declaration" => (
                n.child_by_field_name("pattern"),
                n.child_by_field_name("value"),
            ),
            "variable_declarator" => (
                n.child_by_field_name("name"),
                n.child_by_field_name("value"),
            ),
            _ => continue,
        };
        let (Some(names), Some(value)) = (names, value) else {
            continue;
        };
        let value = match value.kind() {
            "expression_list" => match named_children(value).into_iter().next() {
                Some(v) => v,
                None => continue,
            },
            "await_expression" => match named_children(value).into_iter().next() {
                Some(v) => v,
                None => continue,
            },
            _ => value,
        };
        let code = text_of(value, text);
        if !code.contains('(') || is_literal_value(value) || is_built_in_place(value) {
            continue;
        }
        let ids: Vec<Node> = if names.kind() == "identifier" {
            vec![names]
        } else {
            named_children(names)
                .into_iter()
                .filter(|c| c.kind() == "identifier")
                .collect()
        };
        for id in ids {
            out.entry(text_of(id, text).to_string())
                .or_insert_with(|| excerpt(code));
        }
    }
    out
}

/// A value written out in place (`&Server{log: newLog()}`, `{ a: f() }`): the calls
/// inside build a field, none is the call the test checks.
fn is_built_in_place(value: Node) -> bool {
    let value = match value.kind() {
        "unary_expression" | "reference_expression" => {
            match named_children(value).into_iter().last() {
                Some(operand) => operand,
                None => return false,
            }
        }
        _ => value,
    };
    matches!(
        value.kind(),
        "composite_literal" | "struct_expression" | "object" | "dictionary"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::descend;
    use crate::{parse, Grammar};

    /// Whether the first statement of the first function literal of `go` counts as
    /// tabled, through its body's answer and through its own chain of parents.
    fn first_statement_tabled(go: &str) -> (bool, bool) {
        let tree = parse(Grammar::Go, go).expect("parsed");
        let mut body = None;
        descend(tree.root_node(), |n| {
            if body.is_none() && n.kind() == "func_literal" {
                body = Some(n);
            }
            body.is_none()
        });
        let body = body.expect("a function literal");
        let st = statements(body)[0];
        let around = Around {
            body,
            listed: OnceCell::new(),
        };
        let walk = Walk::new(st, None);
        (tabled(&walk, st, &around)[0], listed_or_inside(st))
    }

    #[test]
    fn a_statement_of_a_body_inside_a_list_of_cases_is_tabled() {
        let go = "package p\n\nfunc T() {\n\tcases := []func(){func() {\n\t\tr.Prefix = \"/v1\"\n\t}}\n\t_ = cases\n}\n";
        assert_eq!(first_statement_tabled(go), (true, true));
    }

    #[test]
    fn a_statement_of_a_body_outside_any_list_is_not_tabled() {
        let go =
            "package p\n\nfunc T() {\n\tf := func() {\n\t\tr.Prefix = \"/v1\"\n\t}\n\t_ = f\n}\n";
        assert_eq!(first_statement_tabled(go), (false, false));
    }
}
