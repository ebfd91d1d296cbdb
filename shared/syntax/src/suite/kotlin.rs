//! Kotlin tests as the oracle: JUnit 4/5 and kotlin.test functions, their skips, and the
//! values they expect (kotlin.test, JUnit, assertk, Truth and AssertJ assertions).

use std::collections::HashMap;

use tree_sitter::Node;

use super::jvm::{
    equality, joined_code, literal_comparison, shown_literal, string_content, Side,
    SKIP_ANNOTATIONS, TEST_ANNOTATIONS,
};
use super::{is_literal, matcher_words, named_children, Expectation, Framework, Test};
use crate::walk::Walk;
use crate::{excerpt, line_of, text_of};

/// A marker a file must hold to define Kotlin tests.
pub(super) const MARKER: &str = r"@(?:[\w.]+\.)?(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b|\bTestCase\(\)";

/// Calls that expect their trailing lambda to throw the type argument:
/// `assertFailsWith<IOException> { .. }`, `assertThrows<IOException> { .. }`.
const THROWS: &[&str] = &["assertFailsWith", "assertThrows", "assertFails"];

/// The roots of fluent assertion chains: assertk, Truth, AssertJ, Strikt.
const FLUENT_ROOTS: &[&str] = &[
    "assertThat",
    "assertFailure",
    "assertThatThrownBy",
    "assertThatCode",
    "expectThat",
];

/// One annotation: its simple name (`Test` of `@org.junit.Test`) and node.
struct Annotation<'t> {
    name: &'t str,
    node: Node<'t>,
}

/// The annotations in a declaration's `modifiers`.
fn annotations<'t>(declaration: Node<'t>, text: &'t str) -> Vec<Annotation<'t>> {
    named_children(declaration)
        .into_iter()
        .filter(|c| c.kind() == "modifiers")
        .flat_map(named_children)
        .filter(|a| a.kind() == "annotation")
        .filter_map(|a| {
            // `@Test` holds a type, `@Disabled("why")` a constructor call of one.
            let inner = named_children(a).into_iter().next()?;
            let ty = match inner.kind() {
                "constructor_invocation" => named_children(inner).into_iter().next()?,
                _ => inner,
            };
            let name = text_of(ty, text);
            Some(Annotation {
                name: name.rsplit('.').next().unwrap_or(name),
                node: a,
            })
        })
        .collect()
}

/// The byte offset where a function that runs past its own text ends: the end of the
/// first line after its start that is only `}` at the indent of its first line, when that
/// comes before the node's end (none when the node already ends there).
fn closing_line_end(node: Node, text: &str) -> Option<usize> {
    let start = node.start_byte();
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let indent = &text[line_start..start];
    if !indent.chars().all(|c| c == ' ' || c == '\t') {
        return None;
    }
    let mut at = text[start..].find('\n')? + start + 1;
    while at < node.end_byte() {
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        let line = text[at..end].trim_end();
        if line.strip_prefix(indent) == Some("}") {
            return (end < node.end_byte()).then_some(end);
        }
        at = end + 1;
    }
    None
}

/// text with every byte outside range made a space (newlines kept): a part of a file
/// parsed on its own at its own offsets and lines.
fn blank_outside(text: &str, range: &std::ops::Range<usize>) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if range.contains(&i) || c == '\n' {
            out.push(c);
        } else {
            // One space a byte: the offsets after it stay.
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        }
    }
    out
}

/// The class or object a function is declared in.
fn enclosing_class(function: Node) -> Option<Node> {
    let mut at = function.parent();
    while let Some(n) = at {
        if matches!(n.kind(), "class_declaration" | "object_declaration") {
            return Some(n);
        }
        at = n.parent();
    }
    None
}

/// A name as the test runner reports it: `` `saves the total` `` without its backticks.
fn unquoted(name: &str) -> &str {
    name.trim_matches('`')
}

pub(super) fn tests(walk: &Walk, text: &str) -> Vec<Test> {
    tests_at(walk, text, 0)
}

/// How often a function the parser could not close is read again: each reading closes at
/// least one function, and a file has only so many parse errors worth recovering.
const MAX_REREADS: usize = 4;

fn tests_at(walk: &Walk, text: &str, depth: usize) -> Vec<Test> {
    let mut out = Vec::new();
    // A function the parser could not close (a parse error inside it) runs on to a later
    // closing brace and swallows the declarations after it: its text ends at the first
    // `}` line at its own indent. The function, and what it swallowed, are read again
    // each on its own, the rest of the file blanked so lines and offsets stay.
    let mut reread: Vec<std::ops::Range<usize>> = Vec::new();
    if depth < MAX_REREADS {
        for &node in &walk.all {
            if node.kind() != "function_declaration"
                || !node.has_error()
                || reread.iter().any(|r| r.contains(&node.start_byte()))
            {
                continue;
            }
            if let Some(cut) = closing_line_end(node, text) {
                reread.push(node.start_byte()..cut);
                reread.push(cut..node.end_byte());
            }
        }
    }
    for r in &reread {
        let blanked = blank_outside(text, r);
        let Some(tree) = crate::parse(crate::Grammar::Kotlin, &blanked) else {
            continue;
        };
        let inner = Walk::new(tree.root_node(), walk.ranges());
        out.extend(tests_at(&inner, &blanked, depth + 1));
    }
    let functions = walk.all.iter().filter(|n| {
        n.kind() == "function_declaration" && !reread.iter().any(|r| r.contains(&n.start_byte()))
    });
    for &node in functions {
        let Some(name) = node.child_by_field_name("name").map(|n| text_of(n, text)) else {
            continue;
        };
        let own = annotations(node, text);
        let class = enclosing_class(node);
        // JUnit 3: `fun testX()` in a class that extends `TestCase`.
        let junit3 = name.starts_with("test")
            && class.is_some_and(|c| {
                named_children(c).into_iter().any(|d| {
                    d.kind() == "delegation_specifiers" && text_of(d, text).contains("TestCase")
                })
            });
        if !own.iter().any(|a| TEST_ANNOTATIONS.contains(&a.name)) && !junit3 {
            continue;
        }
        let class_annotations = class.map(|c| annotations(c, text)).unwrap_or_default();
        out.push(test(
            walk,
            node,
            unquoted(name),
            &own,
            &class_annotations,
            text,
        ));
    }
    out
}

fn test(
    walk: &Walk,
    node: Node,
    name: &str,
    own: &[Annotation],
    class_annotations: &[Annotation],
    text: &str,
) -> Test {
    let title = own
        .iter()
        .find(|a| a.name == "DisplayName")
        .and_then(|a| {
            Walk::new(a.node, None)
                .all
                .into_iter()
                .find(|n| n.kind() == "string_literal")
        })
        .map(|v| string_content(v, text))
        .unwrap_or_else(|| name.to_string());
    let skipped = own
        .iter()
        .chain(class_annotations)
        .find(|a| SKIP_ANNOTATIONS.contains(&a.name))
        .map(|a| excerpt(text_of(a.node, text)));
    let mut t = Test::at(node, name.to_string(), title, Framework::JUnit);
    t.skipped = skipped;
    let Some(body) = named_children(node)
        .into_iter()
        .find(|c| c.kind() == "function_body")
    else {
        return t;
    };
    let mut reader = Reader {
        text,
        bindings: HashMap::new(),
    };
    for &n in walk.subtree(body).iter() {
        match n.kind() {
            "property_declaration" => reader.bind(n),
            "binary_expression" => {
                if let Some(e) = reader.generic_throws(n) {
                    t.expects.push(e);
                }
            }
            "call_expression" => {
                // The callee of a call with a trailing lambda is read with that call.
                let head = n
                    .parent()
                    .is_some_and(|p| p.kind() == "call_expression" && p.named_child(0) == Some(n));
                if head {
                    continue;
                }
                let Some(call) = Call::of(n, text) else {
                    continue;
                };
                if let Some(e) = reader.expectation(&call) {
                    t.expects.push(e);
                    continue;
                }
                // `cache.assertPresent("a", a0)`: a repository's own assertion helper,
                // read by its body where it is defined.
                t.helper_calls.extend(super::call_with_literals(
                    call.name,
                    line_of(n),
                    &call.args,
                    text,
                    &|name| reader.bindings.get(name).map(|(v, _)| v.clone()),
                ));
                if !call.name.starts_with("assert") {
                    t.calls.push(call.name.to_string());
                }
            }
            _ => {}
        }
    }
    let block = named_children(body)
        .into_iter()
        .find(|c| c.kind() == "block")
        .unwrap_or(body);
    super::arrange::read(block, text, &[], &mut t);
    t
}

/// `IOException::class`, `IOException::class.java` -> `IOException`.
fn class_name(node: Node, text: &str) -> String {
    let t = excerpt(text_of(node, text));
    let t = t.strip_suffix(".java").unwrap_or(&t);
    t.strip_suffix("::class").unwrap_or(t).to_string()
}

/// True when a string template holds `$name` or `${..}` (the grammar reads a bare
/// `$name` as text).
fn interpolates(literal: &str) -> bool {
    let bytes = literal.as_bytes();
    bytes.windows(2).enumerate().any(|(i, w)| {
        w[0] == b'$'
            && (w[1] == b'{' || w[1] == b'_' || w[1].is_ascii_alphabetic())
            && (i == 0 || bytes[i - 1] != b'\\')
    })
}

/// The expression a `value_argument` passes (after `name =` or `*`).
fn argument_value(a: Node) -> Node {
    match a.kind() {
        "value_argument" => a.child(a.child_count().saturating_sub(1)).unwrap_or(a),
        _ => a,
    }
}

/// One call, its trailing lambda included: `assertFailsWith<E>("m") { body }` is the
/// call `assertFailsWith` with the type `E`, the argument `"m"` and the lambda `body`.
struct Call<'t> {
    node: Node<'t>,
    object: Option<Node<'t>>,
    name: &'t str,
    types: Option<Node<'t>>,
    args: Vec<Node<'t>>,
    lambda: Option<Node<'t>>,
}

impl<'t> Call<'t> {
    fn of(node: Node<'t>, text: &'t str) -> Option<Call<'t>> {
        if node.kind() != "call_expression" {
            return None;
        }
        let children = named_children(node);
        let mut callee = *children.first()?;
        let lambda = children
            .iter()
            .find(|c| c.kind() == "annotated_lambda")
            .and_then(|l| {
                named_children(*l)
                    .into_iter()
                    .find(|c| c.kind() == "lambda_literal")
            });
        let mut parts = children.clone();
        // `f(args) { .. }`: the arguments are the inner call's.
        if callee.kind() == "call_expression" {
            parts = named_children(callee);
            callee = *parts.first()?;
        }
        let (object, name) = match callee.kind() {
            "identifier" => (None, callee),
            "navigation_expression" => {
                let last = named_children(callee).into_iter().last()?;
                (callee.named_child(0), last)
            }
            _ => return None,
        };
        let args = parts
            .iter()
            .filter(|c| c.kind() == "value_arguments")
            .flat_map(|a| named_children(*a))
            .filter(|a| a.kind() == "value_argument")
            .map(argument_value)
            .collect();
        Some(Call {
            node,
            object,
            name: text_of(name, text),
            types: parts.iter().find(|c| c.kind() == "type_arguments").copied(),
            args,
            lambda,
        })
    }
}

/// Reads one test body's assertions, with the literals its locals hold.
struct Reader<'t> {
    text: &'t str,
    /// `val expected = "b,a"`: the literal and its line, by name.
    bindings: HashMap<&'t str, (String, u32)>,
}

impl<'t> Reader<'t> {
    fn bind(&mut self, declaration: Node<'t>) {
        let Some(declared) = named_children(declaration)
            .into_iter()
            .find(|c| c.kind() == "variable_declaration")
        else {
            return;
        };
        let Some(name) = named_children(declared)
            .into_iter()
            .find(|c| c.kind() == "identifier")
        else {
            return;
        };
        // The value is the declaration's last part (`true` and `null` are unnamed).
        let Some(value) = declaration.child(declaration.child_count().saturating_sub(1)) else {
            return;
        };
        if value == declared {
            return;
        }
        if let Some(v) = self.literal_of(value) {
            self.bindings.insert(text_of(name, self.text), v);
        }
    }

    /// A literal (or a collection of literals) written here or bound to a local name.
    fn literal_of(&self, node: Node) -> Option<(String, u32)> {
        let text = self.text;
        let at = (shown_literal(text_of(node, text)), line_of(node));
        match node.kind() {
            // `"a$b"` is built, not written.
            "string_literal" | "multiline_string_literal" => {
                (!interpolates(text_of(node, text))).then_some(at)
            }
            k if is_literal(k) => Some(at),
            "unary_expression" => named_children(node)
                .first()
                .filter(|o| is_literal(o.kind()))
                .map(|_| at),
            "identifier" => self.bindings.get(text_of(node, text)).cloned(),
            // `listOf("a", "b")`.
            "call_expression" => {
                let call = Call::of(node, text)?;
                let all = !call.args.is_empty()
                    && call
                        .args
                        .iter()
                        .all(|a| is_literal(a.kind()) || a.kind() == "unary_expression");
                let factory = matches!(
                    call.name,
                    "listOf" | "setOf" | "arrayOf" | "mutableListOf" | "intArrayOf"
                );
                (factory && call.object.is_none() && all).then_some(at)
            }
            _ => None,
        }
    }

    fn side(&self, node: Node) -> Side {
        Side {
            code: self.code(node),
            literal: self.literal_of(node),
        }
    }

    fn code(&self, node: Node) -> String {
        let t = excerpt(text_of(node, self.text));
        match node.kind() {
            // A lambda's body is what runs: `{ cart.save(-1) }` reads `cart.save(-1)`.
            "lambda_literal" | "annotated_lambda" => {
                excerpt(t.trim_start_matches('{').trim_end_matches('}').trim())
            }
            _ => t,
        }
    }

    /// A value as quoted in an expectation: its literal, else its code.
    fn value(&self, node: Node) -> String {
        self.literal_of(node)
            .map(|(v, _)| v)
            .unwrap_or_else(|| joined_code(&self.code(node)))
    }

    /// `assertFailsWith<IOException> { body }` read as a comparison (`a < T > {..}`): the
    /// grammar's reading of a type argument before a lambda with no parentheses.
    fn generic_throws(&self, n: Node) -> Option<Expectation> {
        let text = self.text;
        let op = |b: Node| b.child_by_field_name("operator").map(|o| text_of(o, text));
        let left = n.child_by_field_name("left")?;
        let body = n.child_by_field_name("right")?;
        if op(n)? != ">" || body.kind() != "lambda_literal" || left.kind() != "binary_expression" {
            return None;
        }
        let callee = left.child_by_field_name("left")?;
        if op(left)? != "<" || !THROWS.contains(&text_of(callee, text)) {
            return None;
        }
        let class = left.child_by_field_name("right")?;
        Some(Expectation {
            line: line_of(n),
            text: format!("`{}` throws {}", self.code(body), class_name(class, text)),
        })
    }

    /// What one call asserts, if it is an assertion.
    fn expectation(&self, call: &Call<'t>) -> Option<Expectation> {
        let text = self.text;
        let line = line_of(call.node);
        if let Some(o) = call.object {
            if o.kind() == "call_expression" {
                return self.fluent(call, o, line);
            }
        }
        // `Assertions.assertEquals`, `kotlin.test.assertEquals`: a qualified static call.
        let statik = call.object.is_none_or(|o| {
            let o = text_of(o, text);
            o.ends_with("Assert") || o.ends_with("Assertions") || o.ends_with("kotlin.test")
        });
        if !statik {
            return None;
        }
        let args = &call.args;
        // JUnit 4's `assertEquals(message, expected, actual)`; kotlin.test puts the message
        // last.
        let junit4 = text.contains("org.junit.Assert");
        let text = match call.name {
            "assertEquals"
            | "assertNotEquals"
            | "assertSame"
            | "assertNotSame"
            | "assertContentEquals"
            | "assertArrayEquals" => {
                let negated = call.name.contains("Not");
                let skip =
                    usize::from(junit4 && args.len() == 3 && args[0].kind() == "string_literal");
                let (expected, actual) = (*args.get(skip)?, *args.get(skip + 1)?);
                return Some(equality(
                    self.side(expected),
                    self.side(actual),
                    negated,
                    line,
                ));
            }
            "assertTrue" | "assertFalse" => {
                let holds = call.name == "assertTrue";
                let cond = match args.as_slice() {
                    [m, cond] if junit4 && m.kind() == "string_literal" => *cond,
                    [cond, ..] => *cond,
                    // kotlin.test's `assertTrue { cond }`.
                    [] => call.lambda?,
                };
                self.truth(cond, holds)
            }
            "assertNull" | "assertNotNull" => {
                let subject = *args.first()?;
                let words = if call.name == "assertNull" {
                    "is null"
                } else {
                    "is not null"
                };
                format!("`{}` {words}", self.code(subject))
            }
            name if THROWS.contains(&name) => {
                let body = call.lambda.or_else(|| args.last().copied())?;
                let class = match (call.types, args.first()) {
                    (Some(t), _) => named_children(t)
                        .first()
                        .map(|c| excerpt(text_of(*c, self.text)))?,
                    // `assertFailsWith(IOException::class) { .. }`.
                    (None, Some(c)) if text_of(*c, self.text).contains("::class") => {
                        class_name(*c, self.text)
                    }
                    _ => {
                        return Some(Expectation {
                            line,
                            text: format!("`{}` throws", self.code(body)),
                        })
                    }
                };
                format!("`{}` throws {class}", self.code(body))
            }
            "assertDoesNotThrow" => {
                let body = call.lambda.or_else(|| args.first().copied())?;
                format!("`{}` does not throw", self.code(body))
            }
            // Hamcrest: `assertThat(actual, matcher)`.
            "assertThat" if args.len() >= 2 => {
                let (actual, matcher) = (args[args.len() - 2], args[args.len() - 1]);
                let m = Call::of(matcher, self.text);
                let (words, value) = match &m {
                    Some(m) if matches!(m.name, "is" | "equalTo") => {
                        ("is".to_string(), m.args.first().map(|a| self.value(*a)))
                    }
                    Some(m) => (
                        matcher_words(m.name),
                        m.args.first().map(|a| self.value(*a)),
                    ),
                    None => ("matches".to_string(), Some(self.value(matcher))),
                };
                match value {
                    Some(v) => format!("`{}` {words} {v}", self.code(actual)),
                    None => format!("`{}` {words}", self.code(actual)),
                }
            }
            _ => return None,
        };
        Some(Expectation { line, text })
    }

    /// `a == 5` -> `` `a` is 5 ``; else the condition holds (or does not).
    fn truth(&self, cond: Node, holds: bool) -> String {
        let text = self.text;
        if cond.kind() == "equality_expression" || cond.kind() == "binary_expression" {
            let op = cond
                .child_by_field_name("operator")
                .map_or("", |o| text_of(o, text));
            let sides = match (
                op,
                cond.child_by_field_name("left"),
                cond.child_by_field_name("right"),
            ) {
                ("==", Some(l), Some(r)) => Some((l, r, holds)),
                ("!=", Some(l), Some(r)) => Some((l, r, !holds)),
                _ => None,
            };
            if let Some((l, r, equal)) = sides {
                if let Some(words) = literal_comparison(self.side(l), self.side(r), equal) {
                    return words;
                }
            }
        }
        let words = if holds { "holds" } else { "does not hold" };
        format!("`{}` {words}", self.code(cond))
    }

    /// A fluent chain's link: `assertThat(x).isEqualTo(lit)` (assertk, Truth, AssertJ),
    /// `assertFailure { .. }.isInstanceOf<E>()`.
    fn fluent(&self, call: &Call<'t>, object: Node<'t>, line: u32) -> Option<Expectation> {
        let text = self.text;
        // Down the chain to its root call.
        let mut root = Call::of(object, text)?;
        while let Some(o) = root.object.filter(|o| o.kind() == "call_expression") {
            root = Call::of(o, text)?;
        }
        let qualified = root.object.is_none_or(|o| {
            let o = text_of(o, text);
            o.ends_with("Assertions") || o.ends_with("assertk") || o.ends_with("Truth")
        });
        if !FLUENT_ROOTS.contains(&root.name) || !qualified {
            return None;
        }
        // Descriptions and configuration are no checks.
        if matches!(
            call.name,
            "as" | "describedAs" | "withFailMessage" | "named" | "given" | "all"
        ) {
            return None;
        }
        let subject = match (root.args.first(), root.lambda) {
            (Some(s), _) => self.code(*s),
            (None, Some(l)) => self.code(l),
            (None, None) => String::new(),
        };
        let failure = matches!(
            root.name,
            "assertFailure" | "assertThatThrownBy" | "assertThatCode"
        );
        let class = call
            .types
            .and_then(|t| named_children(t).first().copied())
            .map(|c| excerpt(text_of(c, text)))
            .or_else(|| call.args.first().map(|a| class_name(*a, text)));
        let text = match call.name {
            "isInstanceOf" | "isExactlyInstanceOf" | "hasClass" if failure => {
                format!("`{subject}` throws {}", class?)
            }
            "isInstanceOf" | "isExactlyInstanceOf" => {
                format!("`{subject}` is a {}", class?)
            }
            name => {
                let words = match name {
                    "isEqualTo" | "isSameAs" | "isSameInstanceAs" => "is".to_string(),
                    "isNotEqualTo" | "isNotSameAs" | "isNotSameInstanceAs" => "is not".to_string(),
                    _ => matcher_words(name),
                };
                let subject = if failure {
                    format!("`{subject}` fails and")
                } else {
                    format!("`{subject}`")
                };
                match call.args.first().or(call.lambda.as_ref()) {
                    Some(v) => format!("{subject} {words} {}", self.value(*v)),
                    None => format!("{subject} {words}"),
                }
            }
        };
        Some(Expectation { line, text })
    }
}
