//! Assertion helpers known by what they do: a function of the repository's test code whose
//! body reaches an assertion, directly or through one more such function, and which of
//! its parameters that assertion compares. A test's call to one passes expectations. A
//! test builder's setter that stores its argument in a field another method compares
//! (`.stdout("x")` before `.run()`) passes one too.

use std::collections::{BTreeSet, HashMap};

use tree_sitter::Node;

use super::{literal, named_children, Call, Expectation};
use crate::walk::{ByKind, Walk};
use crate::{text_of, Grammar};

/// A function defined in test code, read for what its body asserts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Helper {
    /// The function's name (a method's, without its type).
    pub name: String,
    /// Parameter names in call order, a method's receiver left out (`self`, `cls`).
    pub params: Vec<String>,
    /// Indexes of the parameters an assertion compares.
    pub compared: BTreeSet<usize>,
    /// Those of `compared` it compares only through a value built from them
    /// (`expected := "duplicate " + arg` then `got != expected`).
    pub derived: BTreeSet<usize>,
    /// Those of `compared` an assertion compares with another parameter (`got != want`),
    /// so a caller's non-literal argument for one is the subject of the other's literal;
    /// a parameter compared with a value the helper computes itself (`event.hostname`
    /// against `hostname`) is an expectation on that value, whatever the other arguments.
    pub paired: BTreeSet<usize>,
    /// True when the body asserts itself (not only through another helper).
    pub direct: bool,
    /// Calls in the body: the callee's last name and the identifiers of each argument.
    pub calls: Vec<(String, Vec<BTreeSet<String>>)>,
    /// Receiver fields the body stores a parameter in (`self.stdout = stdout.into()`),
    /// with that parameter's index.
    pub(super) stores: Vec<(usize, String)>,
    /// Receiver fields the body's assertions compare, directly (`assert_eq!(out,
    /// self.stdout)`) or through a local bound from them (`let want = &self.stdout;`).
    pub(super) compared_fields: BTreeSet<String>,
}

/// Every function `root` defines, with what its own assertions compare.
pub fn defined(grammar: Grammar, root: Node, text: &str) -> Vec<Helper> {
    let defs = Definitions::of(grammar, root, text);
    defs.read(|_| true)
}

/// The functions a tree defines, found in one walk; a body is read only for the names a
/// caller asks for (a test file defines hundreds of functions and calls a few of them).
pub struct Definitions<'t> {
    grammar: Grammar,
    text: &'t str,
    /// Each function: its name, parameters and body, in document order.
    functions: Vec<(&'t str, Vec<String>, Node<'t>)>,
    /// The names of all of them.
    own: BTreeSet<&'t str>,
}

impl<'t> Definitions<'t> {
    /// The functions `root` defines, their bodies not read yet.
    pub fn of(grammar: Grammar, root: Node<'t>, text: &'t str) -> Definitions<'t> {
        // One cursor walk in document order, keeping nothing but the functions.
        let mut functions = Vec::new();
        let mut defining = ByKind::default();
        // Most of a test file's nodes sit in expressions that define no function: a
        // subtree is skipped when it cannot hold one (each cursor step costs more than the
        // look at its text). A tree with errors is walked whole: a missing token may stand
        // for the brace the look relies on.
        let prune = !root.has_error();
        crate::walk::descend(root, |n| {
            if defining.of(n, |kind| function_kinds(grammar).contains(&kind)) {
                functions.extend(function_parts(grammar, n, text));
            }
            !prune || may_define(grammar, n, text)
        });
        // A call named like an assertion (`assertEquals`, `self.assertIn`) is a library's
        // assertion, unless this file defines it: then its body says what it does.
        let own = functions.iter().map(|(name, _, _)| *name).collect();
        Definitions {
            grammar,
            text,
            functions,
            own,
        }
    }

    /// Every function, in document order: read whole when `wanted` takes its name, else
    /// only named (no parameters, no calls, asserting nothing).
    pub fn read(&self, wanted: impl Fn(&str) -> bool) -> Vec<Helper> {
        self.functions
            .iter()
            .map(|(name, params, body)| {
                if wanted(name) {
                    self.helper(name, params, *body)
                } else {
                    Helper {
                        name: name.to_string(),
                        params: Vec::new(),
                        compared: BTreeSet::new(),
                        derived: BTreeSet::new(),
                        paired: BTreeSet::new(),
                        direct: false,
                        calls: Vec::new(),
                        stores: Vec::new(),
                        compared_fields: BTreeSet::new(),
                    }
                }
            })
            .collect()
    }

    /// [`Definitions::read`], reading whole besides the wanted every function whose body
    /// names a receiver (`self`, `this`): only such a body compares fields, and the fields
    /// any function compares count for every other ([`assertion_helpers`]'s setters).
    pub fn read_with_receivers(&self, wanted: impl Fn(&str) -> bool) -> Vec<Helper> {
        let receivers: BTreeSet<&str> = self
            .functions
            .iter()
            .filter(|(_, _, body)| {
                let code = &self.text[body.byte_range()];
                code.contains("self") || code.contains("this")
            })
            .map(|(name, _, _)| *name)
            .collect();
        self.read(|n| wanted(n) || receivers.contains(n))
    }

    fn helper(&self, name: &str, params: &[String], body: Node<'t>) -> Helper {
        let (grammar, text) = (self.grammar, self.text);
        let nodes = Walk::new(body, None).all;
        // Locals bound from receiver fields: `let want = unindent(&self.stdout);`, and
        // what every local is built from.
        let mut bound: HashMap<&str, BTreeSet<String>> = HashMap::new();
        let mut built: HashMap<&str, BTreeSet<String>> = HashMap::new();
        // What every local is bound from, by any expression (`got := err.Error()`).
        let mut sources: HashMap<&str, BTreeSet<String>> = HashMap::new();
        for &m in &nodes {
            if let Some((name, value)) = binding(grammar, m, text) {
                sources
                    .entry(name)
                    .or_default()
                    .extend(identifiers(value, text));
                if only_builds(grammar, value, text) {
                    built
                        .entry(name)
                        .or_default()
                        .extend(identifiers(value, text));
                }
                let fields: BTreeSet<String> = receiver_fields(grammar, value, text)
                    .into_iter()
                    .map(|(f, _)| f)
                    .collect();
                if !fields.is_empty() {
                    bound.entry(name).or_default().extend(fields);
                }
            }
        }
        let mut regions: Vec<Node> = Vec::new();
        // The identifiers each assertion statement names, by statement: a chain's parts
        // (`assertThat(got)` and `.isEqualTo(want)`) are one assertion.
        let mut groups: HashMap<usize, BTreeSet<String>> = HashMap::new();
        let mut compared_fields = BTreeSet::new();
        let mut calls = Vec::new();
        let mut stores = Vec::new();
        for &m in &nodes {
            let group = assertion_regions(grammar, m, text, &self.own);
            // The fields an assertion compares: those it names itself, or, when it names
            // none, those its locals were bound from. `assert_eq!(got, self.want)` with
            // `got` computed from `self.input` compares `want`, not `input`.
            let named: BTreeSet<String> = group
                .iter()
                .flat_map(|r| receiver_fields(grammar, *r, text))
                .filter(|(_, operand)| *operand)
                .map(|(f, _)| f)
                .collect();
            if named.is_empty() {
                for id in group.iter().flat_map(|r| identifiers(*r, text)) {
                    compared_fields.extend(bound.get(id.as_str()).into_iter().flatten().cloned());
                }
            }
            compared_fields.extend(named);
            if !group.is_empty() {
                groups
                    .entry(statement_of(m).id())
                    .or_default()
                    .extend(group.iter().flat_map(|r| identifiers(*r, text)));
            }
            regions.extend(group);
            if let Some((callee, args)) = call_parts(grammar, m, text) {
                let ids = args.iter().map(|a| identifiers(*a, text)).collect();
                calls.push((callee.to_string(), ids));
            }
        }
        let compared_ids: BTreeSet<String> =
            regions.iter().flat_map(|r| identifiers(*r, text)).collect();
        let mut compared: BTreeSet<usize> = params
            .iter()
            .enumerate()
            .filter(|(_, p)| compared_ids.contains(*p))
            .map(|(i, _)| i)
            .collect();
        // One step of data flow: a parameter a compared local is built from.
        let derived: BTreeSet<usize> = params
            .iter()
            .enumerate()
            .filter(|(i, p)| {
                !compared.contains(i)
                    && built
                        .iter()
                        .any(|(local, from)| compared_ids.contains(*local) && from.contains(*p))
            })
            .map(|(i, _)| i)
            .collect();
        compared.extend(derived.iter().copied());
        // The parameters each assertion names, directly or through a local bound from one.
        let mut paired = BTreeSet::new();
        for ids in groups.values() {
            let named: BTreeSet<usize> = params
                .iter()
                .enumerate()
                .filter(|(_, p)| {
                    ids.contains(*p)
                        || sources
                            .iter()
                            .any(|(local, from)| ids.contains(*local) && from.contains(*p))
                })
                .map(|(i, _)| i)
                .collect();
            if named.len() > 1 {
                paired.extend(named);
            }
        }
        for &m in &nodes {
            if let Some((field, value)) = field_store(grammar, m, text) {
                let used = identifiers(value, text);
                for (i, p) in params.iter().enumerate() {
                    if used.contains(p) {
                        stores.push((i, field.clone()));
                    }
                }
            }
        }
        Helper {
            name: name.to_string(),
            params: params.to_vec(),
            compared,
            derived,
            paired,
            direct: !regions.is_empty(),
            calls,
            stores,
            compared_fields,
        }
    }
}

/// The assertion helpers among `defs`, by name: those that assert, and those that call
/// one that does (one level, no further), with the parameters that reach a compared one.
pub fn assertion_helpers(mut defs: Vec<Helper>) -> HashMap<String, Helper> {
    // A setter whose field some method compares passes an expectation as surely as an
    // assertion does: the builder compares it when the test runs it.
    let fields: BTreeSet<String> = defs
        .iter()
        .flat_map(|h| h.compared_fields.iter().cloned())
        .collect();
    for h in &mut defs {
        let set: Vec<usize> = h
            .stores
            .iter()
            .filter(|(_, f)| fields.contains(f))
            .map(|(i, _)| *i)
            .collect();
        if !set.is_empty() {
            h.compared.extend(set);
            h.direct = true;
        }
    }
    let direct: HashMap<String, Helper> = defs
        .iter()
        .filter(|h| h.direct)
        .map(|h| (h.name.clone(), h.clone()))
        .collect();
    let mut out = HashMap::new();
    for mut h in defs {
        let mut reached = false;
        for (callee, args) in &h.calls {
            let Some(inner) = direct.get(callee).filter(|i| i.name != h.name) else {
                continue;
            };
            reached = true;
            for k in &inner.compared {
                let Some(ids) = args.get(*k) else { continue };
                for (i, p) in h.params.iter().enumerate() {
                    if ids.contains(p) {
                        h.compared.insert(i);
                        if inner.paired.contains(k) {
                            h.paired.insert(i);
                        }
                        if inner.derived.contains(k) {
                            h.derived.insert(i);
                        } else {
                            h.derived.remove(&i);
                        }
                    }
                }
            }
        }
        if h.direct || reached {
            // A name defined twice keeps the reading that compares more.
            let keep = out
                .get(&h.name)
                .is_none_or(|o: &Helper| o.compared.len() < h.compared.len());
            if keep {
                out.insert(h.name.clone(), h);
            }
        }
    }
    out
}

/// The expectations a test's calls to assertion helpers pass: each literal argument
/// the helper compares, with the call's other literal arguments as its input.
pub fn expectations(calls: &[Call], helpers: &HashMap<String, Helper>) -> Vec<Expectation> {
    let mut out = Vec::new();
    for c in calls {
        let Some(h) = helpers.get(&c.name) else {
            continue;
        };
        let param = |i: usize, keyword: &Option<String>| -> Option<usize> {
            match keyword {
                Some(k) => h.params.iter().position(|p| p == k),
                None => (i < h.params.len()).then_some(i),
            }
        };
        let mut expected = Vec::new();
        let mut inputs = Vec::new();
        // What the test computed and hands over to be compared: `exitCode` of
        // `expect(t, exitCode, 9)`.
        let mut subject = None;
        for (i, a) in c.args.iter().enumerate() {
            let Some(p) = param(i, &a.keyword) else {
                continue;
            };
            if !a.literal {
                if h.paired.contains(&p) {
                    subject.get_or_insert(a.text.as_str());
                }
                continue;
            }
            if h.compared.contains(&p) {
                expected.push((p, a));
            } else {
                inputs.push(format!("`{}` {}", h.params[p], a.text));
            }
        }
        // Both sides literal (`checkContains(t, "abc", "b")`): the last is the expectation.
        while expected.len() > 1 {
            let (p, a) = expected.remove(0);
            inputs.push(format!("`{}` {}", h.params[p], a.text));
        }
        let Some((p, a)) = expected.pop() else {
            continue;
        };
        // Only a parameter compared with another one has the caller's argument as subject.
        let subject = subject.filter(|_| h.paired.contains(&p));
        let mut text = match (subject, h.derived.contains(&p)) {
            (Some(s), false) => format!("`{s}` is {}", literal(&a.text)),
            (None, false) => format!("`{}`: `{}` is {}", c.name, h.params[p], literal(&a.text)),
            // Compared only through what the helper builds from it: say no more than that.
            (Some(s), true) => format!(
                "`{s}` is checked against what it builds from `{}` {}",
                h.params[p],
                literal(&a.text)
            ),
            (None, true) => format!(
                "`{}` checks what it builds from `{}` {}",
                c.name,
                h.params[p],
                literal(&a.text)
            ),
        };
        if !inputs.is_empty() {
            text.push_str(&format!(" for {}", inputs.join(", ")));
        }
        if subject.is_some() {
            text.push_str(&format!(" (`{}`)", c.name));
        }
        out.push(Expectation { line: c.line, text });
    }
    out
}

/// The statement an assertion call belongs to: the outermost expression around it, not
/// crossing into an enclosing call's arguments.
fn statement_of(n: Node) -> Node {
    let mut at = n;
    while let Some(p) = at.parent() {
        let k = p.kind();
        let chained =
            (k.contains("expression") || k.ends_with("suffix") || k.contains("invocation"))
                && !k.contains("argument");
        if !chained {
            break;
        }
        at = p;
    }
    at
}

/// The kinds of node that may define a function in `grammar`.
fn function_kinds(grammar: Grammar) -> &'static [&'static str] {
    match grammar {
        Grammar::Rust => &["function_item"],
        Grammar::Python => &["function_definition"],
        Grammar::Go => &["function_declaration", "method_declaration"],
        Grammar::Java => &["method_declaration"],
        Grammar::Kotlin => &["function_declaration"],
        Grammar::TypeScript | Grammar::Tsx | Grammar::JavaScript => &[
            "function_declaration",
            "method_definition",
            "variable_declarator",
        ],
    }
}

/// True unless `node`'s subtree, in a tree without errors, surely defines no function
/// [`function_parts`] reads. In JavaScript and TypeScript each one holds a `{` (a
/// function's or method's body) or a `=>` (an arrow function bound to a name, whose body
/// may be an expression); a subtree with neither in its text defines none. Other grammars
/// are walked whole.
fn may_define(grammar: Grammar, node: Node, text: &str) -> bool {
    if !matches!(
        grammar,
        Grammar::TypeScript | Grammar::Tsx | Grammar::JavaScript
    ) {
        return true;
    }
    let code = &text.as_bytes()[node.byte_range()];
    memchr::memchr(b'{', code).is_some() || memchr::memmem::find(code, b"=>").is_some()
}

/// A function definition's name, parameter names and body.
fn function_parts<'t>(
    grammar: Grammar,
    n: Node<'t>,
    text: &'t str,
) -> Option<(&'t str, Vec<String>, Node<'t>)> {
    if !function_kinds(grammar).contains(&n.kind()) {
        return None;
    }
    let name = text_of(n.child_by_field_name("name")?, text);
    // `const check = (got, want) => { ... }`: the function is the declarator's value.
    let f = if n.kind() == "variable_declarator" {
        let v = n.child_by_field_name("value")?;
        if !matches!(
            v.kind(),
            "arrow_function" | "function_expression" | "function"
        ) {
            return None;
        }
        v
    } else {
        n
    };
    // Kotlin's body and parameters are no fields.
    let body = f
        .child_by_field_name("body")
        .or_else(|| child_of_kind(f, "function_body"))?;
    let params = match f
        .child_by_field_name("parameters")
        .or_else(|| f.child_by_field_name("parameter"))
        .or_else(|| child_of_kind(f, "function_value_parameters"))
    {
        Some(p) if p.kind() == "identifier" => vec![text_of(p, text).to_string()],
        Some(p) => named_children(p)
            .into_iter()
            .flat_map(|p| param_names(p, text))
            .filter(|p| !matches!(p.as_str(), "self" | "cls"))
            .collect(),
        None => Vec::new(),
    };
    Some((name, params, body))
}

fn child_of_kind<'t>(n: Node<'t>, kind: &str) -> Option<Node<'t>> {
    named_children(n).into_iter().find(|c| c.kind() == kind)
}

/// The names one parameter node declares (a Go declaration may hold several).
fn param_names(p: Node, text: &str) -> Vec<String> {
    match p.kind() {
        "identifier" => vec![text_of(p, text).to_string()],
        "self_parameter" => Vec::new(),
        // Go `got, want string`: every `name` field.
        "parameter_declaration" | "variadic_parameter_declaration" => {
            let mut c = p.walk();
            p.children_by_field_name("name", &mut c)
                .map(|n| text_of(n, text).to_string())
                .collect()
        }
        _ => {
            let named = ["pattern", "name", "left"]
                .iter()
                .find_map(|f| p.child_by_field_name(f))
                .or_else(|| named_children(p).into_iter().next());
            match named {
                Some(n) if n.kind() == "identifier" => vec![text_of(n, text).to_string()],
                Some(n) if n != p => param_names(n, text),
                _ => Vec::new(),
            }
        }
    }
}

/// A call's callee (last name) and arguments, in any grammar.
fn call_parts<'t>(
    grammar: Grammar,
    n: Node<'t>,
    text: &'t str,
) -> Option<(&'t str, Vec<Node<'t>>)> {
    let (callee, args) = match (grammar, n.kind()) {
        (Grammar::Java, "method_invocation") => (
            n.child_by_field_name("name")?,
            n.child_by_field_name("arguments")?,
        ),
        // Kotlin: `check(a, b)`, `cache.check(a)`; a call's parts are no fields.
        (Grammar::Kotlin, "call_expression") => {
            let f = n.named_child(0)?;
            let callee = match f.kind() {
                "identifier" => f,
                "navigation_expression" => named_children(f).into_iter().last()?,
                _ => return None,
            };
            let args = child_of_kind(n, "value_arguments")?;
            let args = named_children(args)
                .into_iter()
                .filter(|a| a.kind() == "value_argument")
                .filter_map(|a| a.child(a.child_count().checked_sub(1)?))
                .collect();
            return Some((text_of(callee, text), args));
        }
        (Grammar::Python, "call") | (_, "call_expression") => {
            let f = n.child_by_field_name("function")?;
            let last = ["field", "property", "attribute", "name"]
                .iter()
                .find_map(|k| f.child_by_field_name(k))
                .unwrap_or(f);
            (last, n.child_by_field_name("arguments")?)
        }
        _ => return None,
    };
    Some((text_of(callee, text), named_children(args)))
}

/// What an assertion at `n` compares: the nodes whose identifiers it reads. An
/// assertion call compares its arguments (`assert_eq!(a, b)`'s first two, not the
/// message); a check that fails the test (`if got != want { t.Errorf(...) }`,
/// `panic!`, `pytest.fail`, `throw`) compares its condition.
fn assertion_regions<'t>(
    grammar: Grammar,
    n: Node<'t>,
    text: &'t str,
    own: &BTreeSet<&str>,
) -> Vec<Node<'t>> {
    match (grammar, n.kind()) {
        (Grammar::Rust, "macro_invocation") => {
            let name = n
                .child_by_field_name("macro")
                .map(|m| text_of(m, text).rsplit("::").next().unwrap_or(""))
                .unwrap_or("");
            if !super::rust::is_assert_macro(name) {
                return Vec::new();
            }
            // `assert!(cond, "message {}", x)` compares its first argument, the others
            // their first two.
            let take = if name.trim_start_matches("debug_") == "assert" {
                1
            } else {
                2
            };
            macro_args(n).into_iter().take(take).flatten().collect()
        }
        (Grammar::Python, "assert_statement") => named_children(n).into_iter().take(1).collect(),
        (Grammar::Java, "assert_statement") => named_children(n).into_iter().take(1).collect(),
        (_, "if_statement" | "if_expression") => {
            let fails = n.child_by_field_name("consequence").is_some_and(|c| {
                Walk::new(c, None)
                    .all
                    .iter()
                    .any(|m| fails_test(grammar, *m, text))
            });
            if !fails {
                return Vec::new();
            }
            n.child_by_field_name("condition").into_iter().collect()
        }
        _ => {
            let Some((callee, args)) = call_parts(grammar, n, text) else {
                return Vec::new();
            };
            let f = n
                .child_by_field_name("function")
                .or_else(|| n.child_by_field_name("object"))
                // Kotlin's callee (`assertThat(x).isEqualTo`) is no field.
                .or_else(|| {
                    (grammar == Grammar::Kotlin)
                        .then(|| n.named_child(0))
                        .flatten()
                })
                .map(|f| text_of(f, text))
                .unwrap_or("");
            if own.contains(callee) {
                return Vec::new();
            }
            let asserts = callee.starts_with("assert")
                || f.starts_with("assert")
                || f.starts_with("require.")
                || f.starts_with("expect(")
                || f == "expect"
                || callee == "assertThat"
                || f.starts_with("assertThat(");
            if asserts {
                args
            } else {
                Vec::new()
            }
        }
    }
}

/// A statement that fails the test: `t.Errorf`, `t.Fatal`, `panic!`, `pytest.fail`,
/// `self.fail`, `fail(...)`, `throw`, `raise AssertionError`.
fn fails_test(grammar: Grammar, n: Node, text: &str) -> bool {
    match n.kind() {
        "macro_invocation" => n
            .child_by_field_name("macro")
            .is_some_and(|m| matches!(text_of(m, text), "panic" | "unreachable")),
        "throw_statement" => true,
        "raise_statement" => text_of(n, text).contains("Assertion"),
        _ => {
            call_parts(grammar, n, text).is_some_and(|(callee, _)| {
                matches!(
                    callee,
                    "Error" | "Errorf" | "Fatal" | "Fatalf" | "Fail" | "FailNow" | "fail"
                )
            }) && !value_used(n)
        }
    }
}

/// Whether a call's value is used: returned, bound or passed on. A call that fails the
/// test is a statement of its own (`t.Errorf(..)`); `return fmt.Errorf(..)` only builds
/// an error the caller may handle, and fails nothing.
fn value_used(n: Node) -> bool {
    n.parent().is_some_and(|p| {
        let k = p.kind();
        k.contains("return")
            || k.contains("jump")
            || k.contains("assignment")
            || k.contains("declarat")
            || k.contains("argument")
            || matches!(k, "expression_list" | "variable_declarator" | "var_spec")
    })
}

/// A macro's top-level arguments: the nodes of its token tree between commas.
fn macro_args(n: Node) -> Vec<Vec<Node>> {
    let Some(tree) = named_children(n)
        .into_iter()
        .find(|c| c.kind() == "token_tree")
    else {
        return Vec::new();
    };
    let mut out = vec![Vec::new()];
    let mut c = tree.walk();
    for child in tree.children(&mut c) {
        match child.kind() {
            "," => out.push(Vec::new()),
            "(" | ")" | "[" | "]" | "{" | "}" => {}
            _ => out.last_mut().expect("one group").push(child),
        }
    }
    out
}

/// The receiver fields a subtree reads: `self.f` (Rust, Python), `this.f` (JavaScript,
/// Java), and `self . f` inside a Rust macro's tokens; each with whether it is read as a
/// value of its own (`self.want`) rather than asked something (`self.want.is_none()`). A
/// condition's fields are left out: `if self.unindent { .. }` chooses a value, it is not
/// the value.
fn receiver_fields(grammar: Grammar, n: Node, text: &str) -> BTreeSet<(String, bool)> {
    let mut out = BTreeSet::new();
    let mut stack = vec![n];
    while let Some(m) = stack.pop() {
        if let Some(f) = receiver_field(grammar, m, text) {
            // `self.f.g` or `self.f.g()`: the node is the object of a further access.
            let asked = m.parent().is_some_and(|p| {
                receiver_field(grammar, p, text).is_none()
                    && ["value", "object"]
                        .iter()
                        .any(|k| p.child_by_field_name(k) == Some(m))
            });
            out.insert((f.to_string(), !asked));
            continue;
        }
        if m.kind() == "identifier" {
            let dot = m.prev_sibling().filter(|d| d.kind() == ".");
            if dot
                .and_then(|d| d.prev_sibling())
                .is_some_and(|s| s.kind() == "self")
            {
                let asked = m.next_sibling().is_some_and(|d| d.kind() == ".");
                out.insert((text_of(m, text).to_string(), !asked));
            }
        }
        let condition = m.child_by_field_name("condition");
        let mut c = m.walk();
        stack.extend(m.named_children(&mut c).filter(|k| Some(*k) != condition));
    }
    out
}

/// The field of a receiver field access node: `self.f`, `this.f`.
fn receiver_field<'t>(grammar: Grammar, n: Node<'t>, text: &'t str) -> Option<&'t str> {
    let (object, field) = match (grammar, n.kind()) {
        (Grammar::Rust, "field_expression") => ("value", "field"),
        (Grammar::Python, "attribute") => ("object", "attribute"),
        (Grammar::Java, "field_access") => ("object", "field"),
        (Grammar::TypeScript | Grammar::Tsx | Grammar::JavaScript, "member_expression") => {
            ("object", "property")
        }
        _ => return None,
    };
    let o = n.child_by_field_name(object)?;
    matches!(text_of(o, text), "self" | "this").then_some(())?;
    Some(text_of(n.child_by_field_name(field)?, text))
}

/// A local binding's name and value: `let want = ..`, `if let Some(want) = ..`,
/// `want = ..` (Python), `const want = ..`, Java's `String want = ..`.
fn binding<'t>(grammar: Grammar, n: Node<'t>, text: &'t str) -> Option<(&'t str, Node<'t>)> {
    let (name, value) = match (grammar, n.kind()) {
        (Grammar::Rust, "let_declaration" | "let_condition") => ("pattern", "value"),
        (Grammar::Python, "assignment") => ("left", "right"),
        (Grammar::Go, "short_var_declaration") => ("left", "right"),
        (_, "variable_declarator") => ("name", "value"),
        _ => return None,
    };
    let pattern = n.child_by_field_name(name)?;
    let value = n.child_by_field_name(value)?;
    // `Some(want)`, `mut want`: the one identifier the pattern binds.
    let ids: Vec<Node> = Walk::new(pattern, None)
        .all
        .into_iter()
        .filter(|m| m.kind() == "identifier")
        .collect();
    match ids.as_slice() {
        [one] if !matches!(text_of(*one, text), "Some" | "Ok") => {
            Some((text_of(*one, text), value))
        }
        [ctor, one] if matches!(text_of(*ctor, text), "Some" | "Ok") => {
            Some((text_of(*one, text), value))
        }
        _ => None,
    }
}

/// A store into a receiver field: `self.f = value` (Rust, Python), `this.f = value`.
fn field_store<'t>(grammar: Grammar, n: Node<'t>, text: &'t str) -> Option<(String, Node<'t>)> {
    let (left, right) = match n.kind() {
        "assignment_expression" | "assignment" => ("left", "right"),
        _ => return None,
    };
    let target = n.child_by_field_name(left)?;
    let field = receiver_field(grammar, target, text)?;
    Some((field.to_string(), n.child_by_field_name(right)?))
}

/// True when `value` only builds a value from its parts (concatenation, a template, a
/// formatting call), so a parameter in it is what a comparison of the result checks.
/// A value computed by any other call (`run(input)`) is the behaviour's result, and its
/// inputs are inputs.
fn only_builds(grammar: Grammar, value: Node, text: &str) -> bool {
    const FORMATTERS: &[&str] = &["Sprintf", "Sprint", "format", "join", "Join", "concat"];
    Walk::new(value, None).all.iter().all(|n| {
        call_parts(grammar, *n, text).is_none_or(|(callee, _)| FORMATTERS.contains(&callee))
    })
}

/// The identifiers in a subtree.
fn identifiers(n: Node, text: &str) -> BTreeSet<String> {
    Walk::new(n, None)
        .all
        .iter()
        .filter(|m| m.kind() == "identifier")
        .map(|m| text_of(*m, text).to_string())
        .collect()
}

#[cfg(test)]
mod pruned_walk_tests {
    use super::*;
    use crate::parse;

    /// Every function [`function_parts`] reads, found by walking every node.
    fn every_function(grammar: Grammar, text: &str) -> Vec<String> {
        let tree = parse(grammar, text).unwrap();
        let mut names = Vec::new();
        crate::walk::descend(tree.root_node(), |n| {
            names.extend(function_parts(grammar, n, text).map(|(name, _, _)| name.to_string()));
            true
        });
        names
    }

    fn defined_names(grammar: Grammar, text: &str) -> Vec<String> {
        let tree = parse(grammar, text).unwrap();
        let defs = Definitions::of(grammar, tree.root_node(), text);
        defs.read(|_| false).into_iter().map(|h| h.name).collect()
    }

    #[test]
    fn the_pruned_walk_finds_every_function_a_whole_walk_finds() {
        let text = "\
export const check = (got) => expect(got).toBe(1)
const twice = x => x * 2, other = run(a => a)
function setup() { return 1 }
describe('x', () => {
  const local = (a, b) => expect(a).toEqual(b)
  const obj = { method() { expect(1).toBe(1) }, arrow: () => 2 }
  class Page { open(url) { this.url = url } }
  it('works', () => wrap(function inner() { local(1, 1) }))
  const named = function inner() { return 1 }
  expect(foo(bar)).toMatchSnapshot()
})
";
        let whole = every_function(Grammar::TypeScript, text);
        assert_eq!(
            whole,
            ["check", "twice", "setup", "local", "method", "open", "named"]
        );
        assert_eq!(defined_names(Grammar::TypeScript, text), whole);
    }

    #[test]
    fn a_subtree_without_a_brace_or_an_arrow_is_skipped_and_one_with_either_is_not() {
        let text = "expect(foo(bar)).toBe(1)\nrun(() => 1)\nrun({ a: 1 })\n";
        let tree = parse(Grammar::TypeScript, text).unwrap();
        let statements = named_children(tree.root_node());
        let may: Vec<bool> = statements
            .iter()
            .map(|n| may_define(Grammar::TypeScript, *n, text))
            .collect();
        assert_eq!(may, [false, true, true]);
        // Other grammars are walked whole.
        assert!(may_define(Grammar::Python, statements[0], text));
    }

    #[test]
    fn a_tree_with_errors_is_walked_whole() {
        // The method's body lacks its brace: a whole walk still reads what it finds.
        let text = "class A { open(url) this.url = url }\nconst f = (a) => a\n";
        let tree = parse(Grammar::TypeScript, text).unwrap();
        assert!(tree.root_node().has_error());
        assert_eq!(
            defined_names(Grammar::TypeScript, text),
            every_function(Grammar::TypeScript, text)
        );
    }
}
