//! Java tests as the oracle: JUnit 3/4/5 and TestNG test methods, their skips, and the
//! values they expect (JUnit, AssertJ and Hamcrest assertions, `@CsvSource` rows).

use std::collections::HashMap;

use tree_sitter::Node;

use super::jvm::{
    equality, joined_code, literal_comparison, shown_literal, string_content, Side,
    SKIP_ANNOTATIONS, TEST_ANNOTATIONS,
};
use super::{
    is_literal, literal, matcher_words, named_children, row_text, Expectation, Framework, Test,
};
use crate::walk::Walk;
use crate::{excerpt, line_of, text_of};

/// Class name endings of test classes (`CartTest`, `CartTests`, `CartIT`).
const TEST_CLASS_SUFFIXES: &[&str] = &["Test", "Tests", "IT", "TestCase"];

/// A marker a file must hold to define Java tests.
pub(super) const MARKER: &str = r"@(?:[\w.]+\.)?(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b|\bclass\s+\w*(?:Test|Tests|IT|TestCase)\b";

/// One annotation: its simple name (`Test` of `@org.junit.Test`) and node.
struct Annotation<'t> {
    name: &'t str,
    node: Node<'t>,
}

impl<'t> Annotation<'t> {
    /// The arguments of `@A(x)` or `@A(key = x)`: (key, value); `value` for a bare one.
    fn arguments(&self, text: &'t str) -> Vec<(&'t str, Node<'t>)> {
        let Some(args) = self.node.child_by_field_name("arguments") else {
            return Vec::new();
        };
        named_children(args)
            .into_iter()
            .filter_map(|a| {
                if a.kind() == "element_value_pair" {
                    let key = text_of(a.child_by_field_name("key")?, text);
                    Some((key, a.child_by_field_name("value")?))
                } else {
                    Some(("value", a))
                }
            })
            .collect()
    }

    fn argument(&self, key: &str, text: &'t str) -> Option<Node<'t>> {
        self.arguments(text)
            .into_iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }
}

/// The annotations in a declaration's `modifiers`.
fn annotations<'t>(declaration: Node<'t>, text: &'t str) -> Vec<Annotation<'t>> {
    named_children(declaration)
        .into_iter()
        .filter(|c| c.kind() == "modifiers")
        .flat_map(named_children)
        .filter(|a| matches!(a.kind(), "annotation" | "marker_annotation"))
        .filter_map(|a| {
            let name = text_of(a.child_by_field_name("name")?, text);
            Some(Annotation {
                name: name.rsplit('.').next().unwrap_or(name),
                node: a,
            })
        })
        .collect()
}

fn has_modifier(declaration: Node, keyword: &str) -> bool {
    named_children(declaration)
        .into_iter()
        .filter(|c| c.kind() == "modifiers")
        .any(|m| {
            let mut walk = m.walk();
            let found = m.children(&mut walk).any(|c| c.kind() == keyword);
            found
        })
}

/// The class (or enum, record, interface) a method is declared in.
fn enclosing_class(method: Node) -> Option<Node> {
    let mut at = method.parent();
    while let Some(n) = at {
        if matches!(
            n.kind(),
            "class_declaration"
                | "enum_declaration"
                | "record_declaration"
                | "interface_declaration"
        ) {
            return Some(n);
        }
        at = n.parent();
    }
    None
}

pub(super) fn tests(walk: &Walk, text: &str) -> Vec<Test> {
    let framework = framework_of(text);
    // JUnit 3: `public void testX()` in a `TestCase`, or in a test class of a file that
    // marks no test with an annotation.
    let annotated = text.contains("@Test")
        || TEST_ANNOTATIONS[1..]
            .iter()
            .any(|a| text.contains(&format!("@{a}")));
    let mut out = Vec::new();
    let methods = walk.all.iter().filter(|n| n.kind() == "method_declaration");
    for &node in methods {
        let Some(name) = node.child_by_field_name("name").map(|n| text_of(n, text)) else {
            continue;
        };
        let own = annotations(node, text);
        let class = enclosing_class(node);
        let class_annotations = class.map(|c| annotations(c, text)).unwrap_or_default();
        let class_name = class
            .and_then(|c| c.child_by_field_name("name"))
            .map_or("", |n| text_of(n, text));
        let no_params = node
            .child_by_field_name("parameters")
            .is_some_and(|p| named_children(p).is_empty());
        let public_void = has_modifier(node, "public")
            && !has_modifier(node, "static")
            && node
                .child_by_field_name("type")
                .is_some_and(|t| t.kind() == "void_type");
        let marked = own.iter().any(|a| TEST_ANNOTATIONS.contains(&a.name));
        let testng_class = framework == Framework::TestNg
            && class_annotations.iter().any(|a| a.name == "Test")
            && public_void;
        let junit3 = public_void
            && no_params
            && name.starts_with("test")
            && (class.is_some_and(|c| {
                c.child_by_field_name("superclass")
                    .is_some_and(|s| text_of(s, text).contains("TestCase"))
            }) || !annotated && TEST_CLASS_SUFFIXES.iter().any(|s| class_name.ends_with(s)));
        if !marked && !testng_class && !junit3 {
            continue;
        }
        out.push(test(
            walk,
            node,
            name,
            &own,
            &class_annotations,
            framework,
            text,
        ));
    }
    out
}

/// TestNG when the file imports it, JUnit otherwise.
fn framework_of(text: &str) -> Framework {
    if text.contains("org.testng") {
        Framework::TestNg
    } else {
        Framework::JUnit
    }
}

fn test(
    walk: &Walk,
    node: Node,
    name: &str,
    own: &[Annotation],
    class_annotations: &[Annotation],
    framework: Framework,
    text: &str,
) -> Test {
    let title = own
        .iter()
        .find(|a| a.name == "DisplayName")
        .and_then(|a| a.argument("value", text))
        .filter(|v| v.kind() == "string_literal")
        .map(|v| string_content(v, text))
        .unwrap_or_else(|| name.to_string());
    // `@Disabled`, `@Ignore` on the method or its class; TestNG's `enabled = false`.
    let skipped = own
        .iter()
        .chain(class_annotations)
        .find(|a| {
            SKIP_ANNOTATIONS.contains(&a.name)
                || a.name == "Test"
                    && a.argument("enabled", text)
                        .is_some_and(|v| text_of(v, text) == "false")
        })
        .map(|a| excerpt(text_of(a.node, text)));
    let mut t = Test::at(node, name.to_string(), title, framework);
    t.skipped = skipped;
    // `@Test(expected = X.class)` (JUnit 4), `expectedExceptions = X.class` (TestNG).
    for a in own.iter().filter(|a| a.name == "Test") {
        for key in ["expected", "expectedExceptions"] {
            if let Some(v) = a.argument(key, text) {
                t.expects.push(Expectation {
                    line: line_of(v),
                    text: format!("throws {}", exception_name(v, text)),
                });
            }
        }
    }
    let params: Vec<String> = node
        .child_by_field_name("parameters")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|p| {
            p.child_by_field_name("name")
                .map(|n| text_of(n, text).to_string())
        })
        .collect();
    for a in own {
        match a.name {
            "CsvSource" => csv_rows(a, &params, text, &mut t.expects),
            "ValueSource" => value_rows(a, &params, text, &mut t.expects),
            _ => {}
        }
    }
    if let Some(body) = node.child_by_field_name("body") {
        let nodes = walk.subtree(body);
        let mut reader = Reader {
            text,
            framework,
            bindings: HashMap::new(),
        };
        for &n in nodes.iter() {
            match n.kind() {
                "variable_declarator" | "assignment_expression" => reader.bind(n),
                "method_invocation" => {
                    if let Some(e) = reader.expectation(n) {
                        t.expects.push(e);
                    } else if let Some(callee) = n.child_by_field_name("name") {
                        let callee = text_of(callee, text);
                        if !callee.starts_with("assert") {
                            let args = n
                                .child_by_field_name("arguments")
                                .map(named_children)
                                .unwrap_or_default();
                            t.helper_calls.extend(super::call_with_literals(
                                callee,
                                line_of(n),
                                &args,
                                text,
                                &|name| reader.bindings.get(name).map(|(v, _)| v.clone()),
                            ));
                            t.calls.push(callee.to_string());
                        }
                    }
                }
                // `new Cart(...)`: the constructor of a changed class.
                "object_creation_expression" => {
                    if let Some(ty) = n.child_by_field_name("type") {
                        let ty = text_of(ty, text);
                        let ty = ty.split('<').next().unwrap_or(ty);
                        t.calls
                            .push(ty.rsplit('.').next().unwrap_or(ty).to_string());
                    }
                }
                _ => {}
            }
        }
        super::arrange::read(body, text, &[], &mut t);
    }
    t
}

/// `IOException.class` -> `IOException`; `{A.class, B.class}` as written.
fn exception_name(node: Node, text: &str) -> String {
    let t = excerpt(text_of(node, text));
    t.strip_suffix(".class").map_or(t.clone(), str::to_string)
}

/// The rows of `@CsvSource({"1, 2", ...})` or `@CsvSource(textBlock = """...""")`.
fn csv_rows(a: &Annotation, params: &[String], text: &str, out: &mut Vec<Expectation>) {
    let delimiter = a
        .argument("delimiterString", text)
        .or_else(|| a.argument("delimiter", text))
        .map(|d| {
            let d = text_of(d, text);
            d.trim_matches(|c| c == '\'' || c == '"').to_string()
        })
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| ",".to_string());
    let mut rows: Vec<(String, u32)> = Vec::new();
    if let Some(block) = a.argument("textBlock", text) {
        let first = line_of(block);
        for (k, line) in string_content(block, text).lines().enumerate() {
            let row = line.trim();
            if !row.is_empty() && !row.starts_with('#') {
                rows.push((row.to_string(), first + k as u32));
            }
        }
    }
    if let Some(value) = a.argument("value", text) {
        let strings = if value.kind() == "element_value_array_initializer" {
            named_children(value)
        } else {
            vec![value]
        };
        rows.extend(
            strings
                .into_iter()
                .filter(|s| s.kind() == "string_literal")
                .map(|s| (string_content(s, text), line_of(s))),
        );
    }
    for (row, line) in rows {
        let cells: Vec<String> = split_csv(&row, &delimiter)
            .into_iter()
            .map(|c| csv_cell(&c))
            .collect();
        out.push(Expectation {
            line,
            text: row_text(params, &cells),
        });
    }
}

/// `@ValueSource(strings = {"a", "b"})`: one row per value.
fn value_rows(a: &Annotation, params: &[String], text: &str, out: &mut Vec<Expectation>) {
    for (_, value) in a.arguments(text) {
        let values = if value.kind() == "element_value_array_initializer" {
            named_children(value)
        } else {
            vec![value]
        };
        for v in values {
            out.push(Expectation {
                line: line_of(v),
                text: row_text(params, &[literal(text_of(v, text))]),
            });
        }
    }
}

/// Splits a CSV row on `delimiter` outside `'...'` quotes.
fn split_csv(row: &str, delimiter: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let mut quoted = false;
    let mut rest = row;
    while let Some(c) = rest.chars().next() {
        if !quoted && rest.starts_with(delimiter) {
            cells.push(String::new());
            rest = &rest[delimiter.len()..];
            continue;
        }
        if c == '\'' {
            quoted = !quoted;
        }
        if let Some(cell) = cells.last_mut() {
            cell.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    cells
}

/// A CSV cell as a value: numbers and booleans bare, text quoted, an empty cell `null`.
fn csv_cell(cell: &str) -> String {
    let c = cell.trim();
    if c.is_empty() {
        return "null".to_string();
    }
    if let Some(inner) = c.strip_prefix('\'').and_then(|c| c.strip_suffix('\'')) {
        return literal(&format!("\"{inner}\""));
    }
    let bare = c.parse::<f64>().is_ok() || matches!(c, "true" | "false" | "null");
    if bare {
        c.to_string()
    } else {
        literal(&format!("\"{c}\""))
    }
}

/// Reads one test body's assertions, with the literals its locals hold.
struct Reader<'t> {
    text: &'t str,
    framework: Framework,
    /// `String expected = "b,a";`: the literal and its line, by name.
    bindings: HashMap<&'t str, (String, u32)>,
}

impl<'t> Reader<'t> {
    /// `String expected = "a";` (a declarator) or `expected = "b";` (an assignment): the
    /// name holds the literal it was last given at the assertions that follow; an
    /// assignment of a value that is no literal leaves it none.
    fn bind(&mut self, node: Node<'t>) {
        let assigns = node.kind() == "assignment_expression";
        let (name, value) = match assigns {
            true => ("left", "right"),
            false => ("name", "value"),
        };
        let (Some(name), Some(value)) = (
            node.child_by_field_name(name),
            node.child_by_field_name(value),
        ) else {
            return;
        };
        let operator = node.child_by_field_name("operator");
        if name.kind() != "identifier" || operator.is_some_and(|o| text_of(o, self.text) != "=") {
            return;
        }
        let name = text_of(name, self.text);
        match self.literal_of(value) {
            Some(v) => {
                self.bindings.insert(name, v);
            }
            None if assigns => {
                self.bindings.remove(name);
            }
            None => {}
        }
    }

    /// A literal (or a collection of literals) written here or bound to a local name.
    fn literal_of(&self, node: Node) -> Option<(String, u32)> {
        let text = self.text;
        let at = (shown_literal(text_of(node, text)), line_of(node));
        match node.kind() {
            k if is_literal(k) => Some(at),
            "unary_expression" => node
                .child_by_field_name("operand")
                .filter(|o| is_literal(o.kind()))
                .map(|_| at),
            "identifier" => self.bindings.get(text_of(node, text)).cloned(),
            // `List.of("a", "b")`, `Arrays.asList(1, 2)`.
            "method_invocation" => {
                let name = text_of(node.child_by_field_name("name")?, text);
                let args = named_children(node.child_by_field_name("arguments")?);
                let all = !args.is_empty()
                    && args
                        .iter()
                        .all(|a| is_literal(a.kind()) || a.kind() == "unary_expression");
                (matches!(name, "of" | "asList") && all).then_some(at)
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
        // A lambda's body is what runs: `() -> cart.save(-1)` reads `cart.save(-1)`.
        let node = match node.kind() {
            "lambda_expression" => node.child_by_field_name("body").unwrap_or(node),
            _ => node,
        };
        let t = excerpt(text_of(node, self.text));
        match node.kind() {
            "block" => excerpt(t.trim_start_matches('{').trim_end_matches('}').trim()),
            _ => t,
        }
    }

    /// What one call asserts, if it is an assertion.
    fn expectation(&self, call: Node<'t>) -> Option<Expectation> {
        let text = self.text;
        let name = text_of(call.child_by_field_name("name")?, text);
        let object = call.child_by_field_name("object");
        let args = named_children(call.child_by_field_name("arguments")?);
        let line = line_of(call);
        let statik = object.is_none_or(|o| {
            let o = text_of(o, text);
            // A repository's own `MoreAsserts` too.
            o.ends_with("Assert")
                || o.ends_with("Asserts")
                || o.ends_with("Assertions")
                || o.ends_with("AssertJUnit")
        });
        if let Some(o) = object {
            if o.kind() == "method_invocation" {
                return self.fluent(call, name, &args, line);
            }
        }
        if !statik {
            return None;
        }
        let text = match name {
            "assertEquals"
            | "assertNotEquals"
            | "assertArrayEquals"
            | "assertSame"
            | "assertNotSame"
            | "assertIterableEquals"
            | "assertLinesMatch" => {
                let negated = name.contains("Not");
                let (expected, actual) = self.compared(&args)?;
                return Some(equality(
                    self.side(expected),
                    self.side(actual),
                    negated,
                    line,
                ));
            }
            "assertTrue" | "assertFalse" => {
                let cond = self.condition(&args)?;
                self.truth(cond, name == "assertTrue")
            }
            "assertNull" | "assertNotNull" => {
                let subject = self.condition(&args)?;
                let words = if name == "assertNull" {
                    "is null"
                } else {
                    "is not null"
                };
                format!("`{}` {words}", self.code(subject))
            }
            "assertThrows" | "expectThrows" | "assertThrowsExactly" => {
                let (class, body) = (args.first()?, args.get(1)?);
                format!(
                    "`{}` throws {}",
                    self.code(*body),
                    exception_name(*class, text)
                )
            }
            "assertDoesNotThrow" => format!("`{}` does not throw", self.code(*args.first()?)),
            // Hamcrest: `assertThat([reason,] actual, matcher)`.
            "assertThat" if args.len() >= 2 => {
                let (actual, matcher) = (args[args.len() - 2], args[args.len() - 1]);
                let (words, value) = self.hamcrest(matcher)?;
                match value {
                    Some(v) => format!("`{}` {words} {v}", self.code(actual)),
                    None => format!("`{}` {words}", self.code(actual)),
                }
            }
            // An assertion of an assertion class whose comparison is its own
            // (`assertEqualsAndHashCode(a, b)`): the call with its arguments is what must hold.
            // A fluent chain's start (`assertThat(x)` of `.isEqualTo(v)`) is read with the chain.
            _ if name.starts_with("assert") && !args.is_empty() && !starts_chain(call) => {
                let args: Vec<&str> = args.iter().map(|a| text_of(*a, text)).collect();
                format!(
                    "`{}` holds",
                    excerpt(&format!("{name}({})", args.join(", ")))
                )
            }
            _ => return None,
        };
        Some(Expectation { line, text })
    }

    /// The (expected, actual) arguments of a comparison: JUnit puts the expected value
    /// first (after a JUnit 4 message), TestNG second.
    fn compared(&self, args: &[Node<'t>]) -> Option<(Node<'t>, Node<'t>)> {
        if self.framework == Framework::TestNg {
            return Some((*args.get(1)?, *args.first()?));
        }
        let junit4 = !self.text.contains("org.junit.jupiter");
        let message_first = junit4
            && args.len() == 3
            && args[0].kind() == "string_literal"
            && !args[2].kind().contains("floating_point");
        let skip = usize::from(message_first);
        Some((*args.get(skip)?, *args.get(skip + 1)?))
    }

    /// The condition of `assertTrue(cond[, message])` (JUnit 4: `(message, cond)`).
    fn condition(&self, args: &[Node<'t>]) -> Option<Node<'t>> {
        let junit4 = !self.text.contains("org.junit.jupiter");
        match args {
            [message, cond] if junit4 && message.kind() == "string_literal" => Some(*cond),
            [cond, ..] => Some(*cond),
            [] => None,
        }
    }

    /// `a == 5` -> `` `a` is 5 ``; `s.equals("x")` -> `` `s` is "x" ``; else the
    /// condition holds (or does not).
    fn truth(&self, cond: Node, holds: bool) -> String {
        let text = self.text;
        let sides = match cond.kind() {
            "binary_expression" => {
                let op = cond
                    .child_by_field_name("operator")
                    .map_or("", |o| text_of(o, text));
                match (
                    op,
                    cond.child_by_field_name("left"),
                    cond.child_by_field_name("right"),
                ) {
                    ("==", Some(l), Some(r)) => Some((l, r, holds)),
                    ("!=", Some(l), Some(r)) => Some((l, r, !holds)),
                    _ => None,
                }
            }
            "method_invocation" => {
                let name = cond
                    .child_by_field_name("name")
                    .map_or("", |n| text_of(n, text));
                let args = cond
                    .child_by_field_name("arguments")
                    .map(named_children)
                    .unwrap_or_default();
                match (name, cond.child_by_field_name("object"), args.as_slice()) {
                    ("equals", Some(o), [a]) => Some((o, *a, holds)),
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some((l, r, equal)) = sides {
            if let Some(words) = literal_comparison(self.side(l), self.side(r), equal) {
                return words;
            }
        }
        let words = if holds { "holds" } else { "does not hold" };
        format!("`{}` {words}", self.code(cond))
    }

    /// A Hamcrest matcher as words and the value it compares with: `is(4)`,
    /// `equalTo("a")`, `not(equalTo(1))`, `containsString("x")`, `nullValue()`.
    fn hamcrest(&self, matcher: Node) -> Option<(String, Option<String>)> {
        let text = self.text;
        if matcher.kind() != "method_invocation" {
            return Some(("matches".to_string(), Some(self.code(matcher))));
        }
        let name = text_of(matcher.child_by_field_name("name")?, text);
        let args = named_children(matcher.child_by_field_name("arguments")?);
        let inner = args
            .first()
            .filter(|a| a.kind() == "method_invocation" && self.literal_of(**a).is_none());
        match (name, inner) {
            ("is", Some(m)) => self.hamcrest(*m),
            ("not", Some(m)) => {
                let (words, v) = self.hamcrest(*m)?;
                Some((negate(&words), v))
            }
            ("is" | "equalTo" | "sameInstance" | "theInstance", None) => {
                Some(("is".to_string(), Some(self.value(*args.first()?))))
            }
            ("not", None) => Some(("is not".to_string(), Some(self.value(*args.first()?)))),
            ("nullValue", _) => Some(("is null".to_string(), None)),
            ("notNullValue", _) => Some(("is not null".to_string(), None)),
            _ => Some((matcher_words(name), args.first().map(|a| self.value(*a)))),
        }
    }

    /// A value as quoted in an expectation: its literal, else its code.
    fn value(&self, node: Node) -> String {
        self.literal_of(node)
            .map(|(v, _)| v)
            .unwrap_or_else(|| joined_code(&self.code(node)))
    }

    /// AssertJ: `assertThat(x).isEqualTo(lit)`, each link of a chain rooted at
    /// `assertThat`/`assertThatThrownBy`/`assertThatExceptionOfType` is an expectation.
    fn fluent(
        &self,
        call: Node<'t>,
        name: &str,
        args: &[Node<'t>],
        line: u32,
    ) -> Option<Expectation> {
        let text = self.text;
        // Down the chain to its root call.
        let mut root = call.child_by_field_name("object")?;
        while let Some(o) = root
            .child_by_field_name("object")
            .filter(|o| o.kind() == "method_invocation")
        {
            root = o;
        }
        let root_name = text_of(root.child_by_field_name("name")?, text);
        if !matches!(
            root_name,
            "assertThat"
                | "assertThatThrownBy"
                | "assertThatCode"
                | "assertThatExceptionOfType"
                | "then"
        ) || root
            .child_by_field_name("object")
            .is_some_and(|o| !text_of(o, text).ends_with("Assertions"))
        {
            return None;
        }
        // Descriptions and configuration are no checks.
        if matches!(
            name,
            "as" | "describedAs"
                | "withFailMessage"
                | "overridingErrorMessage"
                | "usingComparator"
                | "usingRecursiveComparison"
                | "extracting"
                | "withMessage"
        ) && !(root_name == "assertThatExceptionOfType" && name == "withMessage")
        {
            return None;
        }
        let root_args = named_children(root.child_by_field_name("arguments")?);
        let subject = root_args.first().map(|s| self.code(*s)).unwrap_or_default();
        let value = args.first().map(|a| self.value(*a));
        let text = match (root_name, name) {
            ("assertThatThrownBy" | "assertThatCode", "isInstanceOf" | "isExactlyInstanceOf") => {
                format!(
                    "`{subject}` throws {}",
                    exception_name(*args.first()?, text)
                )
            }
            ("assertThatExceptionOfType", "isThrownBy") => format!(
                "`{}` throws {}",
                self.code(*args.first()?),
                root_args
                    .first()
                    .map(|c| exception_name(*c, text))
                    .unwrap_or_default()
            ),
            ("assertThatExceptionOfType", _) => return None,
            _ => {
                let words = match name {
                    "isEqualTo" | "isSameAs" => "is".to_string(),
                    "isNotEqualTo" | "isNotSameAs" => "is not".to_string(),
                    _ => matcher_words(name),
                };
                match value {
                    Some(v) => format!("`{subject}` {words} {v}"),
                    None => format!("`{subject}` {words}"),
                }
            }
        };
        Some(Expectation { line, text })
    }
}

/// The words of a matcher, negated: `is` -> `is not`, `contains string` -> `not contains
/// string`.
fn negate(words: &str) -> String {
    match words.strip_prefix("is ") {
        Some(rest) => format!("is not {rest}"),
        None if words == "is" => "is not".to_string(),
        None => format!("not {words}"),
    }
}

/// True when `call` is the receiver of a further call: `assertThat(x)` in
/// `assertThat(x).isEqualTo(v)`.
fn starts_chain(call: Node) -> bool {
    call.parent().is_some_and(|p| {
        p.kind() == "method_invocation"
            && p.child_by_field_name("object")
                .is_some_and(|o| o.id() == call.id())
    })
}
