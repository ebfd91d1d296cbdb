//! Framework adapters: routes, screens, endpoints and their entrypoint edges, built on
//! the files and imports the language layer read.

pub mod cli;
pub mod django;
pub mod express;
pub mod nextjs;
pub mod python_web;
pub mod react_router;

use crate::model::{Edge, Fragment, Located, Module, Node, NodeKey};
use qa_records::change::Confidence;
use qa_records::graph::{EdgeKind, NodeKind};
use std::collections::{BTreeMap, BTreeSet};

/// Adds a route rendering a screen implemented by `file`: route -entrypoint-> screen
/// -implemented-by-> source file, with `at` as the evidence of both.
pub fn add_route(
    fragment: &mut Fragment,
    route: &str,
    screen: &str,
    file: &str,
    at: Located,
    confidence: Confidence,
) {
    let screen = NodeKey::new(NodeKind::Screen, screen);
    let route = NodeKey::new(NodeKind::Route, route);
    let link = |edge| (edge, at.clone(), confidence);
    add_node(fragment, route, link(EdgeKind::Entrypoint), screen.clone());
    add_node(
        fragment,
        screen,
        link(EdgeKind::ImplementedBy),
        NodeKey::file(file),
    );
}

/// Adds an entrypoint (endpoint or command) implemented by `file`.
pub fn add_entrypoint(
    fragment: &mut Fragment,
    kind: NodeKind,
    name: &str,
    file: &str,
    at: Located,
    confidence: Confidence,
) {
    let link = (EdgeKind::ImplementedBy, at, confidence);
    add_node(
        fragment,
        NodeKey::new(kind, name),
        link,
        NodeKey::file(file),
    );
}

/// Adds an entrypoint declared in `declared_in` whose handler lives in `handler`: it
/// starts at the handler's module alone when that is another file, so a change reaching
/// the declaring module (which imports every handler) does not reach every entrypoint
/// it declares; else it is implemented by the declaring module.
pub fn add_handled_entrypoint(
    fragment: &mut Fragment,
    kind: NodeKind,
    name: &str,
    declared_in: &str,
    handler: Option<&str>,
    at: Located,
    confidence: Confidence,
) {
    match handler {
        Some(file) if file != declared_in => add_node(
            fragment,
            NodeKey::new(kind, name),
            (EdgeKind::Entrypoint, at, confidence),
            NodeKey::file(file),
        ),
        _ => add_entrypoint(fragment, kind, name, declared_in, at, confidence),
    }
}

/// A module of routes mounted under a path prefix by another module (Express
/// `app.use('/api', router)`, Django `path('api/', include('shop.urls'))`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mount {
    pub from: String,
    pub prefix: String,
    pub target: String,
}

/// How deep mounts nest before the rest is ignored, and how many prefixes one module
/// may take: mounts are followed to name routes, not to enumerate every path.
const MOUNT_DEPTH: usize = 8;
const MOUNT_PREFIXES: usize = 16;

/// The prefixes each mounted module's routes take, through nested mounts, joined with
/// `join`; a module nobody mounts is absent (its routes keep their own paths).
pub fn mounted_prefixes(
    mounts: &[Mount],
    join: fn(&str, &str) -> String,
) -> BTreeMap<String, BTreeSet<String>> {
    let mut prefixes: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mounted: BTreeSet<&str> = mounts.iter().map(|m| m.target.as_str()).collect();
    // Round by round, so a cycle stops at the depth bound instead of looping.
    for _ in 0..MOUNT_DEPTH {
        let mut next = prefixes.clone();
        for m in mounts {
            let outer: Vec<String> = match prefixes.get(&m.from) {
                Some(set) => set.iter().cloned().collect(),
                None if mounted.contains(m.from.as_str()) => continue,
                None => vec![String::new()],
            };
            let set = next.entry(m.target.clone()).or_default();
            for p in outer {
                if set.len() < MOUNT_PREFIXES {
                    set.insert(join(&p, &m.prefix));
                }
            }
        }
        if next == prefixes {
            break;
        }
        prefixes = next;
    }
    prefixes
}

/// How far a call's arguments are scanned: a route table entry, not a whole file.
const ARGUMENTS_SPAN: usize = 4096;

/// The top-level arguments of the call whose `(` is at byte `open` of `code` (commas
/// inside brackets, braces and string literals do not split), trimmed, and the offset
/// just past its `)`; None when the call does not close within a bounded span.
pub fn arguments(code: &str, open: usize) -> Option<(Vec<&str>, usize)> {
    let bytes = code.as_bytes();
    if bytes.get(open) != Some(&b'(') {
        return None;
    }
    let end = code.len().min(open + ARGUMENTS_SPAN);
    let mut args = Vec::new();
    let (mut depth, mut start, mut quote) = (0usize, open + 1, None::<u8>);
    let mut i = open + 1;
    while i < end {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'\'' | b'"' | b'`' => quote = Some(b),
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' if depth > 0 => depth -= 1,
                b')' => {
                    let last = code[start..i].trim();
                    if !last.is_empty() || !args.is_empty() {
                        args.push(last);
                    }
                    return Some((args, i + 1));
                }
                b',' if depth == 0 => {
                    args.push(code[start..i].trim());
                    start = i + 1;
                }
                _ => {}
            },
        }
        i += 1;
    }
    None
}

/// The string literal an argument is (`'/items'`, `"x"`, `r"^a/$"`), without quotes.
pub fn string_literal(arg: &str) -> Option<&str> {
    let arg = arg.trim_start_matches(['r', 'f', 'b']);
    let quote = arg
        .chars()
        .next()
        .filter(|c| matches!(c, '\'' | '"' | '`'))?;
    let inner = arg.strip_prefix(quote)?.strip_suffix(quote)?;
    (!inner.contains(quote)).then_some(inner)
}

/// The leading identifier of a dotted or `::` path argument (`views.items` -> `views`,
/// `handlers::export::run` -> `handlers`); None for anything else (a literal, a lambda).
pub fn leading_name(arg: &str) -> Option<&str> {
    let end = arg
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(arg.len());
    let name = &arg[..end];
    let rest = &arg[end..];
    let is_path =
        rest.is_empty() || rest.starts_with('.') || rest.starts_with("::") || rest.starts_with('(');
    // An inline handler (`function (req, res) {..}`, `lambda args: ..`) names no module.
    let keyword = matches!(name, "function" | "async" | "await" | "new" | "lambda");
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit()) && is_path && !keyword)
        .then_some(name)
}

/// The module a handler expression written in `file` names: each segment of its
/// leading path (`views.items`, `crate::export::run`, `handlers.list`) followed through
/// the imports of the module reached so far; `file` itself for a name it declares;
/// None for an inline handler or a name from outside the tree.
pub fn handler_module(
    modules: &BTreeMap<String, Module>,
    file: &str,
    expr: &str,
) -> Option<String> {
    let mut rest = expr.trim();
    for root in ["crate::", "self::", "super::"] {
        rest = rest.strip_prefix(root).unwrap_or(rest);
    }
    let first = leading_name(rest)?;
    let path_end = rest
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '$' | '.' | ':')))
        .unwrap_or(rest.len());
    let mut found: Option<String> = None;
    let mut current = file.to_string();
    // Bounded by the expression's own segments; a segment that names nothing ends it.
    for segment in rest[..path_end].split(['.', ':']).filter(|s| !s.is_empty()) {
        let Some(next) = modules.get(&current).and_then(|m| m.source_of(segment)) else {
            break;
        };
        current = next.to_string();
        found = Some(current.clone());
    }
    found.or_else(|| {
        modules
            .get(file)
            .is_some_and(|m| m.declares(first))
            .then(|| file.to_string())
    })
}

/// Adds `node`, and an edge of the link's kind from it to `to`; the link's evidence
/// and confidence serve both.
fn add_node(
    fragment: &mut Fragment,
    node: NodeKey,
    (kind, at, confidence): (EdgeKind, Located, Confidence),
    to: NodeKey,
) {
    fragment
        .nodes
        .push(Node::new(node.clone(), confidence, at.clone()));
    fragment
        .edges
        .push(Edge::new(kind, node, to, at, confidence));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_split_at_top_level_commas_only() {
        let code = "f('/a, b', g(1, 2), { x: 1, y: 2 }) + 1";
        let (args, end) = arguments(code, 1).unwrap();
        assert_eq!(args, ["'/a, b'", "g(1, 2)", "{ x: 1, y: 2 }"]);
        assert_eq!(&code[end..], " + 1");
    }

    #[test]
    fn an_unclosed_call_has_no_arguments() {
        assert_eq!(arguments("f(a, b", 1), None);
        assert_eq!(arguments("f a", 1), None);
    }

    #[test]
    fn leading_names_are_paths_not_inline_handlers() {
        assert_eq!(leading_name("views.items"), Some("views"));
        assert_eq!(leading_name("export::run(args)"), Some("export"));
        assert_eq!(leading_name("(req, res) => res.send()"), None);
        assert_eq!(leading_name("function (req) {}"), None);
        assert_eq!(string_literal("r'^a/$'"), Some("^a/$"));
        assert_eq!(string_literal("path"), None);
    }

    fn mount(from: &str, prefix: &str, target: &str) -> Mount {
        Mount {
            from: from.to_string(),
            prefix: prefix.to_string(),
            target: target.to_string(),
        }
    }

    #[test]
    fn nested_mounts_join_their_prefixes() {
        let join = |a: &str, b: &str| format!("{a}{b}");
        let mounts = [mount("app", "/api", "v1"), mount("v1", "/v1", "items")];
        let prefixes = mounted_prefixes(&mounts, join);
        assert_eq!(prefixes["items"], BTreeSet::from(["/api/v1".to_string()]));
        assert!(!prefixes.contains_key("app"));
    }

    #[test]
    fn a_mount_cycle_ends_without_prefixes() {
        let join = |a: &str, b: &str| format!("{a}{b}");
        let mounts = [mount("a", "/x", "b"), mount("b", "/y", "a")];
        assert!(mounted_prefixes(&mounts, join).is_empty());
    }
}
