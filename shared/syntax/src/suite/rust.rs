//! Rust tests: `#[test]` functions and those the repository's test macros define, with
//! the values their `assert*!` macros, `#[should_panic]` and command runs expect.

use std::collections::HashMap;

use tree_sitter::Node;

use super::{arrange, literal, Arg, Call, Expectation, Framework, Test};
use crate::walk::Walk;
use crate::{excerpt, line_of, text_of};

/// A leaf token of a Rust subtree: literals are kept whole.
struct Tok<'t> {
    kind: &'t str,
    text: &'t str,
    line: u32,
    bytes: (usize, usize),
}

fn rust_tokens<'t>(node: Node<'t>, text: &'t str, out: &mut Vec<Tok<'t>>) {
    let kind = node.kind();
    if node.child_count() == 0
        || matches!(
            kind,
            "string_literal" | "raw_string_literal" | "char_literal" | "integer_literal"
        )
    {
        out.push(Tok {
            kind,
            text: text_of(node, text),
            line: line_of(node),
            bytes: (node.start_byte(), node.end_byte()),
        });
        return;
    }
    let mut walk = node.walk();
    let children: Vec<Node> = node.children(&mut walk).collect();
    for c in children {
        if !c.kind().contains("comment") {
            rust_tokens(c, text, out);
        }
    }
}

fn rust_literal(kind: &str) -> bool {
    matches!(
        kind,
        "string_literal"
            | "raw_string_literal"
            | "char_literal"
            | "integer_literal"
            | "float_literal"
            | "true"
            | "false"
    )
}

/// An assertion macro: `assert*!`, `debug_assert*!`, and `*eq*!` helpers like `eqnice!`.
pub(super) fn is_assert_macro(name: &str) -> bool {
    let bare = name.trim_start_matches("debug_");
    bare.starts_with("assert") || name.contains("eq")
}

/// The `#[test]` functions of the walk (and those `test_macros` define), read.
pub(super) fn tests(walk: &Walk, text: &str, test_macros: &[String]) -> Vec<Test> {
    let mut out = Vec::new();
    for &node in &walk.all {
        match node.kind() {
            "function_item" => {
                let attrs = preceding_attributes(node, text);
                let has = |want: &str| {
                    attrs
                        .iter()
                        .any(|(name, _)| name == want || name.ends_with(&format!("::{want}")))
                };
                // rstest_reuse: `#[apply(t)]` runs a function as the cases of template
                // `t`; the `#[template]` itself (often `#[rstest]` too) is no test.
                let applied = has("apply") && text.contains("rstest_reuse");
                let is_test = applied
                    || attrs.iter().any(|(name, _)| {
                        name == "test" || name.ends_with("::test") || name.ends_with("test")
                    });
                if !is_test || has("template") {
                    continue;
                }
                let name = node
                    .child_by_field_name("name")
                    .map(|n| text_of(n, text).to_string())
                    .unwrap_or_default();
                let mut t = rust_test(node, text, name);
                t.cases = applied || has("rstest") && (has("case") || case_parameters(node, text));
                if let Some(b) = node.child_by_field_name("body") {
                    arrange::read(b, text, &[], &mut t);
                }
                for (attr, whole) in &attrs {
                    if attr == "ignore" {
                        t.skipped = Some(format!("#[{whole}]"));
                    }
                    if attr == "should_panic" {
                        let message = whole
                            .split_once('"')
                            .map(|(_, rest)| format!("\"{}", rest.trim_end_matches(')')));
                        t.expects.insert(
                            0,
                            Expectation {
                                line: t.line,
                                text: match message {
                                    Some(m) => format!("panics with {}", literal(&m)),
                                    None => "panics".to_string(),
                                },
                            },
                        );
                    }
                }
                out.push(t);
            }
            "macro_invocation" => {
                let item_level = node.parent().is_some_and(|p| {
                    matches!(p.kind(), "source_file" | "declaration_list")
                        || p.kind() == "expression_statement"
                            && p.parent().is_some_and(|g| {
                                matches!(g.kind(), "source_file" | "declaration_list")
                            })
                });
                let Some(mac) = node.child_by_field_name("macro") else {
                    continue;
                };
                let mac = text_of(mac, text);
                if !item_level || !test_macros.iter().any(|m| m == mac) {
                    continue;
                }
                let mut toks = Vec::new();
                rust_tokens(node, text, &mut toks);
                // `name!(test_name, |dir, cmd| { ... })`: the first identifier inside.
                let name = toks
                    .iter()
                    .skip(2)
                    .find(|t| t.kind == "identifier")
                    .map(|t| t.text.to_string())
                    .unwrap_or_else(|| mac.to_string());
                out.push(rust_test(node, text, name));
            }
            _ => {}
        }
    }
    out
}

/// The attributes right above an item: (path, whole text inside `#[...]`).
fn preceding_attributes(node: Node, text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut prev = node.prev_sibling();
    while let Some(p) = prev {
        match p.kind() {
            "attribute_item" => {
                let whole = text_of(p, text)
                    .trim_start_matches("#[")
                    .trim_end_matches(']')
                    .trim()
                    .to_string();
                let path: String = whole
                    .split(|c: char| c == '(' || c == '=' || c.is_whitespace())
                    .next()
                    .unwrap_or("")
                    .to_string();
                out.push((path, whole));
            }
            k if k.contains("comment") => {}
            _ => break,
        }
        prev = p.prev_sibling();
    }
    out
}

/// Whether a parameter of function `node` takes rstest's values: `#[case]`, `#[values(..)]`,
/// `#[files(..)]` (each value a case of its own).
fn case_parameters(node: Node, text: &str) -> bool {
    let Some(params) = node.child_by_field_name("parameters") else {
        return false;
    };
    let mut cursor = params.walk();
    let found = params.children(&mut cursor).any(|p| {
        p.kind() == "attribute_item" && {
            let attr = text_of(p, text).trim_start_matches("#[");
            ["case", "values", "files"].iter().any(|w| {
                attr.strip_prefix(w)
                    .is_some_and(|r| r.starts_with([']', '(']))
            })
        }
    });
    found
}

fn rust_test(node: Node, text: &str, name: String) -> Test {
    let mut toks = Vec::new();
    rust_tokens(node, text, &mut toks);
    let mut bindings: HashMap<&str, (&str, u32)> = HashMap::new();
    let mut expects = Vec::new();
    let mut calls = Vec::new();
    let mut helper_calls = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        // `let [mut] name [: T] = LITERAL;`
        if t.text == "let" {
            let mut j = i + 1;
            if toks.get(j).is_some_and(|t| t.text == "mut") {
                j += 1;
            }
            if let Some(name) = toks.get(j).filter(|t| t.kind == "identifier") {
                let eq = (j + 1..toks.len().min(j + 12)).find(|&k| toks[k].text == "=");
                if let Some(eq) = eq {
                    if let (Some(v), Some(end)) = (toks.get(eq + 1), toks.get(eq + 2)) {
                        if rust_literal(v.kind) && end.text == ";" {
                            bindings.insert(name.text, (v.text, v.line));
                        }
                    }
                }
            }
        }
        // `cmd.arg("x").assert_exit_code(0)`: a method assertion on what the line built.
        // A command-line test builder's `.assert()` (a method of the builder, read by
        // what follows it: the outcomes it expects of the command line it built).
        if t.kind == "field_identifier" && t.text == "assert" && i > 0 && toks[i - 1].text == "." {
            let start = (0..i - 1)
                .rev()
                .find(|&k| matches!(toks[k].text, ";" | "{" | "}" | "=>" | "="))
                .map_or(0, |k| k + 1);
            expects.extend(cli_runs::expectations(&toks, start, i));
        }
        if t.kind == "identifier"
            && t.text.starts_with("assert")
            && i > 0
            && toks[i - 1].text == "."
            && toks.get(i + 1).is_some_and(|n| n.text == "(")
        {
            let start = (0..i - 1)
                .rev()
                .find(|&k| matches!(toks[k].text, ";" | "{" | "}" | "=>" | "="))
                .map_or(0, |k| k + 1);
            let receiver = match (toks.get(start), toks.get(i - 2)) {
                (Some(a), Some(b)) if start < i - 1 => {
                    excerpt(text.get(a.bytes.0..b.bytes.1).unwrap_or(""))
                }
                _ => String::new(),
            };
            let call = group_args(&toks, i + 1)
                .and_then(|(_, end)| text.get(t.bytes.0..toks.get(end - 1)?.bytes.1))
                .map(excerpt)
                .unwrap_or_else(|| t.text.to_string());
            // Inside a macro every name is an identifier: a builder's `.assert()` there
            // is read the same way.
            let runs = cli_runs::expectations(&toks, start, i);
            if !runs.is_empty() {
                expects.extend(runs);
            } else if !receiver.is_empty() {
                expects.push(Expectation {
                    line: t.line,
                    text: format!("`{receiver}` passes `{call}`"),
                });
            }
        }
        if t.kind == "identifier" || t.kind == "field_identifier" {
            match toks.get(i + 1).map(|n| n.text) {
                Some("(") if i == 0 || toks[i - 1].text != "fn" => {
                    // Method names are no product items of their own here.
                    if t.kind == "identifier" {
                        calls.push(t.text.to_string());
                    }
                    if let Some((args, _)) = group_args(&toks, i + 1) {
                        let args: Vec<Arg> = args
                            .iter()
                            .map(|a| {
                                // `let expected = "..";` then `helper(args, expected)`: the
                                // name passes the literal it was bound to.
                                if let Some((bound, _)) = bound_literal(a, &bindings) {
                                    return Arg {
                                        keyword: None,
                                        text: literal(bound),
                                        literal: true,
                                    };
                                }
                                let is = rust_literal_arg(a);
                                let code = match (a.first(), a.last()) {
                                    (Some(x), Some(y)) => {
                                        text.get(x.bytes.0..y.bytes.1).unwrap_or("")
                                    }
                                    _ => "",
                                };
                                Arg {
                                    keyword: None,
                                    text: if is { literal(code) } else { excerpt(code) },
                                    literal: is,
                                }
                            })
                            .collect();
                        if args.iter().any(|a| a.literal) {
                            helper_calls.push(Call {
                                name: t.text.to_string(),
                                line: t.line,
                                args,
                            });
                        }
                    }
                }
                Some("!") if t.kind == "identifier" && is_assert_macro(t.text) => {
                    // The arguments are scanned on for the calls they make.
                    if let Some((args, _)) = group_args(&toks, i + 2) {
                        expects.extend(rust_expectations(t.text, &args, &bindings, t.line, text));
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    Test {
        title: name.clone(),
        name,
        framework: Framework::Rust,
        line: line_of(node),
        end: node.end_position().row as u32 + 1,
        expects,
        skipped: None,
        calls,
        setup: None,
        helper_calls,
        act: None,
        cases: false,
        setup_calls: Vec::new(),
    }
}

/// The literal a test-local name was bound to (`let want = "x";`), when the argument is
/// that name alone (`want`, `&want`).
fn bound_literal<'t>(
    arg: &[Tok],
    bindings: &HashMap<&str, (&'t str, u32)>,
) -> Option<(&'t str, u32)> {
    match arg {
        [name] | [Tok { text: "&", .. }, name] if name.kind == "identifier" => {
            bindings.get(name.text).copied()
        }
        _ => None,
    }
}

/// A Rust argument made of literals only: `"x"`, `&["a", "b"]`, `vec!["a"]`, `-1`,
/// `"x".to_string()`.
fn rust_literal_arg(arg: &[Tok]) -> bool {
    arg.iter().any(|t| rust_literal(t.kind))
        && arg.iter().all(|t| {
            rust_literal(t.kind)
                || matches!(
                    t.text,
                    "&" | "[" | "]" | "," | "(" | ")" | "!" | "." | "::" | "-"
                )
                || t.kind == "identifier"
                    && matches!(
                        t.text,
                        "vec" | "Some" | "to_string" | "to_owned" | "into" | "String" | "from"
                    )
        })
}

/// The top-level comma-separated arguments of the bracket group opening at `open`, and
/// the index after its close.
fn group_args<'a, 't>(toks: &'a [Tok<'t>], open: usize) -> Option<(Vec<&'a [Tok<'t>]>, usize)> {
    if !matches!(toks.get(open)?.text, "(" | "[" | "{") {
        return None;
    }
    let mut depth = 0;
    let mut args = Vec::new();
    let mut start = open + 1;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t.text {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth -= 1;
                if depth == 0 {
                    if k > start {
                        args.push(&toks[start..k]);
                    }
                    return Some((args, k + 1));
                }
            }
            "," if depth == 1 => {
                args.push(&toks[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    None
}

fn rust_expectations(
    mac: &str,
    args: &[&[Tok]],
    bindings: &HashMap<&str, (&str, u32)>,
    line: u32,
    source: &str,
) -> Vec<Expectation> {
    let value = |arg: &[Tok]| -> Option<(String, u32)> {
        match arg {
            [t] if rust_literal(t.kind) => Some((literal(t.text), t.line)),
            [t] if t.kind == "identifier" => bindings.get(t.text).map(|(v, l)| (literal(v), *l)),
            // `&"x"`, `"x".to_string()`, `String::from("x")`: the one literal inside.
            _ => {
                let lits: Vec<&Tok> = arg.iter().filter(|t| rust_literal(t.kind)).collect();
                (lits.len() == 1 && arg.len() <= 6).then(|| (literal(lits[0].text), lits[0].line))
            }
        }
    };
    // The source between the first and the last token, as written.
    let code = |arg: &[Tok]| match (arg.first(), arg.last()) {
        (Some(a), Some(b)) => excerpt(source.get(a.bytes.0..b.bytes.1).unwrap_or("")),
        _ => String::new(),
    };
    let negated = mac.contains("_ne");
    let mut out = Vec::new();
    // `assert_snapshot!(actual, @"expected")`: an argument written `@LITERAL` is an inline
    // snapshot, the value the first argument must render to.
    let snapshot = args.iter().skip(1).find_map(|a| match a {
        [at, lit] if at.text == "@" && rust_literal(lit.kind) => Some(lit),
        _ => None,
    });
    if let (Some(lit), Some(first)) = (snapshot, args.first()) {
        out.push(Expectation {
            line: lit.line,
            text: format!("`{}` is {}", code(first), inline_snapshot(lit.text)),
        });
    } else if mac.contains("eq") || mac.contains("ne") && mac.starts_with("assert") {
        // The literal side of a two-sided comparison; the other side is what is checked.
        let sides: Vec<Option<(String, u32)>> = args.iter().take(2).map(|a| value(a)).collect();
        for (k, side) in sides.iter().enumerate() {
            if let Some((v, l)) = side {
                let other = args.get(1 - k).map(|a| code(a)).unwrap_or_default();
                let text = match (negated, other.is_empty()) {
                    (true, _) => format!("`{other}` is not {v}"),
                    (false, true) => v.clone(),
                    (false, false) => format!("`{other}` is {v}"),
                };
                out.push(Expectation { line: *l, text });
                break;
            }
        }
        if out.is_empty() && args.len() >= 2 {
            out.push(Expectation {
                line,
                text: format!("`{}` equals `{}`", code(args[0]), code(args[1])),
            });
        }
    } else if let Some(first) = args.first() {
        // `assert!(a == b)`: the literal side; else the asserted expression itself.
        let eq = first.iter().position(|t| t.text == "==" || t.text == "!=");
        let text = match eq {
            Some(p) => {
                let (l, r) = (&first[..p], &first[p + 1..]);
                let op = if first[p].text == "==" {
                    "is"
                } else {
                    "is not"
                };
                match (value(l), value(r)) {
                    (_, Some((v, _))) => format!("`{}` {op} {v}", code(l)),
                    (Some((v, _)), None) => format!("`{}` {op} {v}", code(r)),
                    _ => format!("`{}` holds", code(first)),
                }
            }
            None => format!("`{}` holds", code(first)),
        };
        out.push(Expectation { line, text });
    }
    out
}

/// An inline snapshot's literal as the value it stands for: the text inside the quotes,
/// without the blank first and last lines and the indent every line shares (how snapshot
/// tools read it), quoted again.
fn inline_snapshot(lit: &str) -> String {
    let body = lit.trim_start_matches('r').trim_start_matches('#');
    let body = body.strip_prefix('"').unwrap_or(body);
    let body = body.trim_end_matches('#');
    let body = body.strip_suffix('"').unwrap_or(body);
    let lines: Vec<&str> = body.lines().collect();
    let first = lines.iter().position(|l| !l.trim().is_empty());
    let last = lines.iter().rposition(|l| !l.trim().is_empty());
    let (Some(first), Some(last)) = (first, last) else {
        return "\"\"".to_string();
    };
    let lines = &lines[first..=last];
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let text: Vec<&str> = lines
        .iter()
        .map(|l| l.get(indent..).unwrap_or(""))
        .collect();
    literal(&format!("\"{}\"", text.join("\n")))
}

mod cli_runs;
