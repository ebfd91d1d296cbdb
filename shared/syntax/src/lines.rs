//! What each line of a parsed file says: its calls, declarations, imports, literals, JSX
//! text and comment, read from the nodes that start on it, so a string, comment, regex or
//! JSX text spread over lines is never mistaken for code.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use tree_sitter::{Node, Tree};

use crate::walk::{descend, descend_with, parent_in};
use crate::{text_of, Grammar};

/// What one line says, with strings, comments, regex literals and JSX understood.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineFacts {
    /// Callees in the order their calls start (an outer call before the calls in its
    /// callee), deduplicated: `saveCart`, `store.save` (for
    /// `this.store.save(`), `res.status`, `Foo::new`, `println!`. A method called on an
    /// unnamed receiver (a call result, a literal, a regex) is `.name`: `.then`, `.test`.
    pub calls: Vec<String>,
    /// Symbols this line declares (functions, methods, classes, types, constants and
    /// variables) whose name stands on the line.
    pub declared: Vec<String>,
    /// `export ...`, `pub ...` or Java's `public`.
    pub exported: bool,
    /// Identifiers in code (never in strings, comments or regexes), receivers (`this`,
    /// `self`) left out, deduplicated, in order of appearance.
    pub identifiers: Vec<String>,
    /// String literal contents that may be user-visible text, JSX text included; blank
    /// ones, module specifiers, attribute arguments and matcher vocabulary are left out.
    pub strings: Vec<String>,
    /// Matcher vocabulary: strings given to `new RegExp`, `re.compile`, `Regex::new`,
    /// `regexp.MustCompile`, `.match`, `.test`, `.includes`, `.startsWith`, `.contains` and
    /// kin, plus the source of every regex literal.
    pub matcher_strings: Vec<String>,
    /// Module specifiers named on the line: `import ... from "x"`, `require("x")`, Go
    /// imports, Python `import a.b` / `from a.b import c`, Rust `use a::b`, Java imports.
    pub imports: Vec<String>,
    /// Text between JSX tags (or in a component's markup): `<p>Saved!</p>` gives `Saved!`.
    pub jsx_text: Vec<String>,
    /// JSX attributes with literal values that name an element (`data-testid`, `aria-label`,
    /// `role`, `placeholder`, `name`, `id`, ...), plus event attributes with the handler
    /// they call: `onClick={() => save(cart)}` gives `("onClick", "save")`.
    pub jsx_attrs: Vec<(String, String)>,
    /// The text of the comment on the line, markers stripped.
    pub comment: Option<String>,
    /// The line lies inside test code the file holds itself (Rust's `#[cfg(test)]`
    /// module or `#[test]` function): evidence of what the tests do, never of the
    /// product's conditions, failures or state.
    pub test_code: bool,
}

/// The parent of a node among those the walk is inside.
type Up<'a, 't> = &'a dyn Fn(Node<'t>) -> Option<Node<'t>>;

/// Names that stand for the receiver or a literal, not for something changed.
const RECEIVERS: &[&str] = &["self", "this", "super", "cls", "Self"];

/// JSX attributes whose literal value names an element.
const NAMING_ATTRS: &[&str] = &[
    "data-testid",
    "data-test",
    "data-cy",
    "data-qa",
    "aria-label",
    "role",
    "placeholder",
    "name",
    "id",
    "title",
    "alt",
    "label",
];

/// Callees whose string arguments are patterns to match, not text to show.
const MATCHERS: &[&str] = &[
    "RegExp",
    "compile",
    "match",
    "fullmatch",
    "search",
    "test",
    "exec",
    "includes",
    "startsWith",
    "endsWith",
    "startswith",
    "endswith",
    "contains",
    "starts_with",
    "ends_with",
    "MustCompile",
    "Compile",
    "HasPrefix",
    "HasSuffix",
    "Contains",
    "matches",
    "new",
];

/// The facts of every line in `lines` (1-based) of a file parsed from `text`: each line
/// in `lines` has an entry, empty when nothing stands on it. Only the nodes overlapping
/// the lines are walked; a node's facts belong to the line it starts on.
pub fn read(
    grammar: Grammar,
    tree: &Tree,
    text: &str,
    lines: &BTreeSet<u32>,
) -> BTreeMap<u32, LineFacts> {
    read_node(grammar, tree.root_node(), text, lines)
}

/// [`read`] below `root`, a node of a tree parsed from `text` (the whole file).
pub fn read_node<'t>(
    grammar: Grammar,
    root: Node<'t>,
    text: &str,
    lines: &BTreeSet<u32>,
) -> BTreeMap<u32, LineFacts> {
    let mut out: BTreeMap<u32, LineFacts> =
        lines.iter().map(|&l| (l, LineFacts::default())).collect();
    if lines.is_empty() {
        return out;
    }
    let ranges = line_ranges(text, lines);
    descend_with(root, |node, open| {
        if node != root && !touches(&ranges, node) {
            return false;
        }
        let row = first_line(node, text);
        if let Some(f) = out.get_mut(&row) {
            // Only Rust's test items (`#[test]`, `#[cfg(test)] mod`) stand in a product
            // file: other grammars are not asked, node by node and up the open items.
            if grammar == Grammar::Rust && !f.test_code {
                f.test_code = std::iter::once(&node)
                    .chain(open)
                    .any(|&n| crate::suite::is_test_item(n, text));
            }
            // A node inside a string, comment, regex or JSX text is read with its parent.
            if !open.last().is_some_and(|p| leaf_like(*p)) {
                visit(grammar, node, text, f, &|n| parent_in(open, node, n));
            }
        }
        true
    });
    for f in out.values_mut() {
        dedup(&mut f.identifiers);
        dedup(&mut f.calls);
        dedup(&mut f.declared);
        dedup(&mut f.strings);
    }
    out
}

/// [`read`] for a Vue or Svelte component: its script lines by the script's grammar, its
/// markup's text and naming attributes by the HTML grammar (a `{{ .. }}` or `{ .. }`
/// expression left out); a style block says nothing.
pub fn read_component(text: &str, lines: &BTreeSet<u32>) -> BTreeMap<u32, LineFacts> {
    let mut out: BTreeMap<u32, LineFacts> =
        lines.iter().map(|&l| (l, LineFacts::default())).collect();
    let Some(html) = crate::sfc::parse_html(text) else {
        return out;
    };
    let component = crate::sfc::split_tree(&html, text);
    for script in &component.scripts {
        let Some(tree) = crate::sfc::parse_script(text, script) else {
            continue;
        };
        let last = crate::end_line_of(tree.root_node()).max(script.line);
        let own: BTreeSet<u32> = lines.range(script.line..=last).copied().collect();
        out.extend(read_node(script.grammar, tree.root_node(), text, &own));
    }
    let root = html.root_node();
    let ranges = line_ranges(text, lines);
    descend(root, |node| {
        let markup = component
            .markup
            .iter()
            .any(|m| node.start_byte() < m.end && node.end_byte() > m.start);
        if node != root && !(markup && touches(&ranges, node)) {
            return false;
        }
        let row = first_line(node, text);
        if let Some(f) = out.get_mut(&row) {
            markup_facts(node, text, f);
        }
        true
    });
    out
}

/// What a node of a component's markup shows: its text, and an attribute naming it.
fn markup_facts(node: Node, text: &str, f: &mut LineFacts) {
    match node.kind() {
        "text" => {
            // `Total: {{ total }}` shows `Total:`; the expression is the script's.
            let shown = text_of(node, text);
            let mut rest = shown;
            let mut pieces = Vec::new();
            while let Some(open) = rest.find('{') {
                pieces.push(&rest[..open]);
                rest = match rest[open..].find('}') {
                    Some(close) => rest[open + close + 1..].trim_start_matches('}'),
                    None => "",
                };
            }
            pieces.push(rest);
            for piece in pieces {
                let t = piece.split_whitespace().collect::<Vec<_>>().join(" ");
                if !t.is_empty() {
                    f.jsx_text.push(t.clone());
                    f.strings.push(t);
                }
            }
        }
        "attribute" => {
            let name = crate::reading::child_of_kind(node, &["attribute_name"]);
            let value = crate::reading::child_of_kind(node, &["quoted_attribute_value"])
                .and_then(|v| crate::reading::child_of_kind(v, &["attribute_value"]));
            if let (Some(name), Some(value)) = (name, value) {
                let name = text_of(name, text);
                if NAMING_ATTRS.contains(&name) {
                    f.jsx_attrs
                        .push((name.to_string(), text_of(value, text).to_string()));
                }
            }
        }
        _ => {}
    }
}

/// The 1-based line a node's facts belong to: where it starts, or for text between tags
/// (which starts right after the `>`), where its first visible character stands.
fn first_line(node: Node, text: &str) -> u32 {
    let mut row = node.start_position().row;
    if matches!(node.kind(), "jsx_text" | "text") {
        let t = text_of(node, text);
        row += t[..t.len() - t.trim_start().len()].matches('\n').count();
    }
    u32::try_from(row + 1).unwrap_or(u32::MAX)
}

/// The byte ranges of `lines` (1-based) in `text`, consecutive lines merged.
fn line_ranges(text: &str, lines: &BTreeSet<u32>) -> Vec<Range<usize>> {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let at = |line: usize| {
        starts
            .get(line)
            .copied()
            .unwrap_or(text.len())
            .min(text.len())
    };
    let mut out: Vec<Range<usize>> = Vec::new();
    for &l in lines {
        let Some(row) = (l as usize).checked_sub(1) else {
            continue;
        };
        let (start, end) = (at(row), at(row + 1));
        let r = if end > start {
            start..end
        } else {
            start.saturating_sub(1)..(start + 1).min(text.len())
        };
        match out.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ if !r.is_empty() => out.push(r),
            _ => {}
        }
    }
    out
}

fn touches(ranges: &[Range<usize>], n: Node) -> bool {
    ranges
        .iter()
        .any(|r| n.start_byte() < r.end && n.end_byte() > r.start)
}

/// Nodes whose inside is text, not code: read whole.
fn leaf_like(node: Node) -> bool {
    matches!(
        node.kind(),
        "string"
            | "template_string"
            | "string_literal"
            | "raw_string_literal"
            | "interpreted_string_literal"
            | "comment"
            | "line_comment"
            | "block_comment"
            | "regex"
            | "jsx_text"
    )
}

fn dedup(list: &mut Vec<String>) {
    let mut seen = BTreeSet::new();
    list.retain(|x| seen.insert(x.clone()));
}

fn visit<'t>(grammar: Grammar, node: Node<'t>, text: &str, f: &mut LineFacts, up: Up<'_, 't>) {
    let kind = node.kind();
    match kind {
        "identifier"
        | "property_identifier"
        | "field_identifier"
        | "type_identifier"
        | "shorthand_property_identifier"
        | "shorthand_property_identifier_pattern"
        | "package_identifier"
        | "private_property_identifier" => {
            let name = text_of(node, text);
            if !RECEIVERS.contains(&name) {
                f.identifiers.push(name.to_string());
            }
        }
        "comment" | "line_comment" | "block_comment" => {
            let t = text_of(node, text)
                .trim_start_matches(['/', '*', '#', '!'])
                .trim_end_matches(['/', '*'])
                .trim();
            if !t.is_empty() {
                f.comment = Some(t.to_string());
            }
        }
        "jsx_text" => {
            let t = text_of(node, text)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            if !t.is_empty() {
                f.jsx_text.push(t.clone());
                f.strings.push(t);
            }
        }
        "regex" => {
            if let Some(p) = node.child_by_field_name("pattern") {
                f.matcher_strings.push(text_of(p, text).to_string());
            }
        }
        "string"
        | "template_string"
        | "string_literal"
        | "raw_string_literal"
        | "interpreted_string_literal" => string(grammar, node, text, f, up),
        "call_expression"
        | "call"
        | "macro_invocation"
        | "new_expression"
        | "method_invocation"
        | "object_creation_expression" => {
            if let Some(callee) = callee(node, text) {
                f.calls.push(callee);
            }
        }
        "jsx_attribute" => jsx_attribute(node, text, f),
        "import_statement"
        | "import_from_statement"
        | "import_spec"
        | "use_declaration"
        | "import_declaration" => import(grammar, node, text, f),
        "import" if grammar == Grammar::Kotlin => import(grammar, node, text, f),
        "export_statement" => f.exported = true,
        "visibility_modifier" if text_of(node, text) == "pub" => f.exported = true,
        // Java's `public` keyword among a declaration's modifiers.
        "public" if up(node).is_some_and(|p| p.kind() == "modifiers") => f.exported = true,
        _ => {}
    }
    if let Some(name) = declared(node, text) {
        f.declared.push(name);
    }
    // Go: `order, err := repo.Find(id)` declares `order` and `err`.
    if kind == "short_var_declaration" {
        if let Some(left) = node.child_by_field_name("left") {
            let mut walk = left.walk();
            for name in left.named_children(&mut walk) {
                let name = text_of(name, text);
                if name != "_" && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    f.declared.push(name.to_string());
                }
            }
        }
    }
    // Java: a declaration's name on its own line, below its annotations.
    if grammar == Grammar::Java && kind == "identifier" {
        let named = up(node).filter(|p| {
            matches!(
                p.kind(),
                "method_declaration"
                    | "constructor_declaration"
                    | "class_declaration"
                    | "interface_declaration"
                    | "enum_declaration"
                    | "record_declaration"
                    | "annotation_type_declaration"
            ) && p.child_by_field_name("name") == Some(node)
        });
        if named.is_some() {
            f.declared.push(text_of(node, text).to_string());
        }
    }
}

/// The text of a string literal, its quotes and prefixes dropped.
fn string_text<'t>(node: Node, text: &'t str) -> &'t str {
    let t = text_of(node, text);
    let t = t.trim_start_matches(|c: char| c.is_ascii_alphabetic() || c == '#');
    let quote = t.chars().next().unwrap_or('"');
    let t = t.trim_start_matches(quote).trim_end_matches('#');
    t.trim_end_matches(quote)
}

fn string<'t>(grammar: Grammar, node: Node<'t>, text: &str, f: &mut LineFacts, up: Up<'_, 't>) {
    let value = string_text(node, text).to_string();
    if value.trim().is_empty() {
        return;
    }
    // `require("x")`, `import("x")`: a module specifier.
    let call = up(node)
        .filter(|p| matches!(p.kind(), "arguments" | "argument_list"))
        .and_then(up);
    let callee = call.and_then(|c| {
        c.child_by_field_name("function")
            // Java: `Pattern.compile("x")`, `new Error("x")`.
            .or_else(|| c.child_by_field_name("name"))
            .or_else(|| c.child_by_field_name("type"))
            .or_else(|| c.child(0))
    });
    let callee_name = callee.map(|c| last_segment(text_of(c, text)));
    // A matcher is a method or a constructor (`s.includes(..)`, `new RegExp(..)`,
    // `Regex::new(..)`): a bare `test("title", ..)` is a test, not a matcher.
    let method = call.is_some_and(|c| {
        matches!(c.kind(), "new_expression" | "object_creation_expression")
            || c.child_by_field_name("object").is_some()
    }) || callee.is_some_and(|c| text_of(c, text).contains(['.', ':']));
    match callee_name {
        Some("require" | "import") => {
            f.imports.push(value);
            return;
        }
        Some(name) if MATCHERS.contains(&name) && (method || name == "RegExp") => {
            f.matcher_strings.push(value);
            return;
        }
        _ => {}
    }
    if in_import(node, up) {
        if grammar != Grammar::Go {
            f.imports.push(value);
        }
        return;
    }
    // Rust attributes (`#[serde(rename = "id")]`, `#[doc = ".."]`) name no user text.
    let mut at = up(node);
    for _ in 0..4 {
        match at {
            Some(p) if matches!(p.kind(), "attribute_item" | "inner_attribute_item") => return,
            Some(p) if matches!(p.kind(), "attribute" | "token_tree") => at = up(p),
            _ => break,
        }
    }
    f.strings.push(value);
}

fn in_import<'t>(node: Node<'t>, up: Up<'_, 't>) -> bool {
    let mut at = up(node);
    for _ in 0..4 {
        match at {
            Some(p)
                if matches!(
                    p.kind(),
                    "import_statement"
                        | "import_clause"
                        | "import_from_statement"
                        | "import_spec"
                        | "use_declaration"
                        | "import_declaration"
                ) =>
            {
                return true
            }
            Some(p) => at = up(p),
            None => return false,
        }
    }
    false
}

fn import(grammar: Grammar, node: Node, text: &str, f: &mut LineFacts) {
    match grammar {
        Grammar::Python => {
            // `import a.b` / `from a.b import c`: the module path.
            let module = node
                .child_by_field_name("module_name")
                .or_else(|| node.child_by_field_name("name"));
            if let Some(m) = module {
                f.imports.push(text_of(m, text).to_string());
            }
        }
        Grammar::Go => {
            if let Some(p) = node.child_by_field_name("path") {
                f.imports.push(string_text(p, text).to_string());
            }
        }
        Grammar::Rust => {
            if let Some(arg) = node.child_by_field_name("argument") {
                let path = text_of(arg, text);
                let path = path
                    .split('{')
                    .next()
                    .unwrap_or(path)
                    .trim_end_matches("::");
                f.imports.push(path.to_string());
            }
        }
        Grammar::Java | Grammar::Kotlin => {
            // `import com.shop.Cart;`, `import static org.junit.Assert.*;`, Kotlin's
            // `import okhttp3.Headers.Companion.headersOf`.
            let mut walk = node.walk();
            let path = node.named_children(&mut walk).find(|c| {
                matches!(
                    c.kind(),
                    "scoped_identifier" | "qualified_identifier" | "identifier"
                )
            });
            if let Some(p) = path {
                f.imports.push(text_of(p, text).to_string());
            }
        }
        // JavaScript and TypeScript read the source string itself.
        _ => {}
    }
}

/// `store.save` for `this.store.save(...)`, `.then` on an unnamed receiver, `Foo::new`,
/// `println!`.
fn callee(node: Node, text: &str) -> Option<String> {
    match node.kind() {
        "macro_invocation" => {
            let m = node.child_by_field_name("macro")?;
            return Some(format!("{}!", last_segment(text_of(m, text))));
        }
        // Java: `cart.save(...)`, `save(...)`, `new Cart<>(...)`.
        "method_invocation" => {
            let name = text_of(node.child_by_field_name("name")?, text);
            return Some(match node.child_by_field_name("object") {
                Some(object) => receiver_call(text_of(object, text), name),
                None => name.to_string(),
            });
        }
        "object_creation_expression" => {
            let ty = text_of(node.child_by_field_name("type")?, text);
            return Some(last_segment(ty.split('<').next().unwrap_or(ty)).to_string());
        }
        // Kotlin: `cart.save(...)`, `save(...)`, `Cart(...)` (no `function` field).
        "call_expression" if node.child_by_field_name("function").is_none() => {
            let f = node.named_child(0)?;
            return match f.kind() {
                "identifier" => Some(text_of(f, text).to_string()),
                "navigation_expression" => {
                    let object = f.named_child(0)?;
                    let name = f.named_child(f.named_child_count().checked_sub(1)? as u32)?;
                    Some(receiver_call(text_of(object, text), text_of(name, text)))
                }
                _ => None,
            };
        }
        _ => {}
    }
    let mut f = node
        .child_by_field_name("function")
        .or_else(|| node.child_by_field_name("constructor"))?;
    // `it.collect::<Vec<_>>()`: the function under its type arguments.
    if f.kind() == "generic_function" {
        f = f.child_by_field_name("function")?;
    }
    match f.kind() {
        "identifier" | "scoped_identifier" => {
            let t = text_of(f, text);
            let parts: Vec<&str> = t.split("::").collect();
            Some(parts[parts.len().saturating_sub(2)..].join("::"))
        }
        "member_expression" | "field_expression" | "attribute" | "selector_expression" => {
            let object = f
                .child_by_field_name("object")
                .or_else(|| f.child_by_field_name("value"))
                .or_else(|| f.child_by_field_name("operand"))?;
            let name = f
                .child_by_field_name("property")
                .or_else(|| f.child_by_field_name("field"))
                .or_else(|| f.child_by_field_name("attribute"))?;
            Some(receiver_call(text_of(object, text), text_of(name, text)))
        }
        _ => None,
    }
}

/// A method call by its receiver: `store.save`, `save` on `self`/`this`, `.then` on an
/// unnamed receiver (a call result, a literal).
fn receiver_call(receiver: &str, name: &str) -> String {
    let named = receiver
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '$');
    if !named || receiver.is_empty() {
        return format!(".{name}");
    }
    let last = last_segment(receiver);
    if RECEIVERS.contains(&last) {
        name.to_string()
    } else {
        format!("{last}.{name}")
    }
}

fn last_segment(path: &str) -> &str {
    path.rsplit(['.', ':'])
        .find(|p| !p.is_empty())
        .unwrap_or(path)
}

/// The name a declaration node declares, when its name sits on the node's first line.
fn declared(node: Node, text: &str) -> Option<String> {
    let named = matches!(
        node.kind(),
        "function_declaration"
            | "generator_function_declaration"
            | "method_definition"
            | "class_declaration"
            | "abstract_class_declaration"
            | "interface_declaration"
            | "type_alias_declaration"
            | "enum_declaration"
            | "variable_declarator"
            | "function_definition"
            | "class_definition"
            | "function_item"
            | "struct_item"
            | "enum_item"
            | "trait_item"
            | "const_item"
            | "static_item"
            | "type_item"
            | "mod_item"
            | "let_declaration"
            | "method_declaration"
            | "type_spec"
            | "var_spec"
            | "const_spec"
    );
    if !named {
        return None;
    }
    let name = node
        .child_by_field_name("name")
        .or_else(|| node.child_by_field_name("pattern"))?;
    let t = text_of(name, text);
    (name.start_position().row == node.start_position().row
        && t.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$'))
    .then(|| t.to_string())
}

/// `data-testid="pay"` -> ("data-testid", "pay"); `onClick={() => save(cart)}` ->
/// ("onClick", "save").
fn jsx_attribute(node: Node, text: &str, f: &mut LineFacts) {
    let mut walk = node.walk();
    let children: Vec<Node> = node.named_children(&mut walk).collect();
    let (Some(name), value) = (children.first(), children.get(1)) else {
        return;
    };
    let name = text_of(*name, text);
    let Some(value) = value else { return };
    if name.starts_with("on") && name.chars().nth(2).is_some_and(char::is_uppercase) {
        // The handler: the called name inside the expression, or the named function.
        let inner = text_of(*value, text)
            .trim_start_matches('{')
            .trim_end_matches('}')
            .trim();
        let handler =
            first_call_name(*value, text).unwrap_or_else(|| last_segment(inner).to_string());
        if !handler.is_empty() {
            f.jsx_attrs.push((name.to_string(), handler));
        }
    } else if NAMING_ATTRS.contains(&name) && value.kind() == "string" {
        f.jsx_attrs
            .push((name.to_string(), string_text(*value, text).to_string()));
    }
}

fn first_call_name(node: Node, text: &str) -> Option<String> {
    if node.kind() == "call_expression" {
        return callee(node, text).map(|c| last_segment(&c).to_string());
    }
    let mut walk = node.walk();
    let children: Vec<Node> = node.named_children(&mut walk).collect();
    children.into_iter().find_map(|c| first_call_name(c, text))
}

#[cfg(test)]
mod tests;
