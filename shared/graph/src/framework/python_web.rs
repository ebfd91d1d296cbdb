//! FastAPI and Flask handlers: `@app.get("/items")`, `@router.post(..)` and
//! `@bp.route("/x", methods=[..])` decorators in modules importing fastapi or flask,
//! each an endpoint (`GET /items`) implemented by its module. A decorator is read from
//! the module's Python syntax tree, so one quoted in a docstring or a string (Flask's own
//! documentation holds many) is no endpoint; a text search first spares the parse of a
//! module holding no decorator-like line.

use super::add_entrypoint;
use crate::adapter::{holds, Adapter, Context, Detection, Layer, Memo, TextTest};
use crate::language::{files_with, python, Lines};
use crate::model::{Fragment, Located};
use crate::tree::Snapshot;
use git2::Oid;
use qa_records::change::Confidence;
use qa_records::code_pattern;
use qa_records::graph::{NodeKind, Support};
use qa_syntax::tree_sitter::Node;
use qa_syntax::{text_of, Grammar};
use regex::Regex;
use std::sync::{Arc, LazyLock};

/// The FastAPI/Flask framework adapter.
#[derive(Debug)]
pub struct PythonWeb {
    web_modules: TextTest,
    /// A module's endpoints by blob: a module both trees hold is parsed once.
    endpoints: Memo<Arc<[(String, u32)]>>,
}

impl Default for PythonWeb {
    fn default() -> PythonWeb {
        PythonWeb {
            web_modules: TextTest::new(python::EXTENSIONS, web_module),
            endpoints: Memo::default(),
        }
    }
}

static WEB_IMPORT: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r"(?m)^[ \t]*(?:from|import)[ \t]+(fastapi|flask)\b"));
/// A line that may start a route decorator (its `@` the group): only a module holding one
/// is parsed, and only there is the tree asked for a decorator.
static DECORATOR_LINE: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(
        r"(?m)^[ \t]*(@)[ \t]*\w+[ \t]*\.[ \t]*(?:get|post|put|patch|delete|head|options|route|api_route)\b",
    )
});

fn web_module(text: &str) -> bool {
    // The names first: the line-anchored pattern has no literal to skip ahead with.
    (holds(text, "fastapi") || holds(text, "flask")) && WEB_IMPORT.is_match(text)
}

impl Adapter for PythonWeb {
    fn id(&self) -> &'static str {
        "python-web"
    }

    fn layer(&self) -> Layer {
        Layer::Framework
    }

    /// Structural: endpoints are found, what a handler calls is not followed.
    fn support(&self) -> Support {
        Support::Structural
    }

    fn detect(&self, snapshot: &Snapshot) -> Detection {
        match files_with(snapshot, python::EXTENSIONS)
            .find(|p| self.web_modules.passes(snapshot, p))
        {
            Some(path) => Detection::Accept(format!("{path} imports fastapi or flask")),
            None => Detection::Decline("no module imports fastapi or flask".to_string()),
        }
    }

    fn analyze(&self, cx: &Context) -> anyhow::Result<Fragment> {
        let mut fragment = Fragment::default();
        for path in files_with(cx.snapshot, python::EXTENSIONS) {
            if !self.web_modules.passes(cx.snapshot, path) {
                continue;
            }
            let Some(found) = self.endpoints.get(cx.snapshot, path, endpoint_lines) else {
                continue;
            };
            for (name, line) in found.iter() {
                add_entrypoint(
                    &mut fragment,
                    NodeKind::Endpoint,
                    name,
                    path,
                    Located::new(path, *line),
                    Confidence::High,
                );
            }
        }
        Ok(fragment)
    }

    fn look(&self, path: &str, blob: Oid, text: &str) {
        self.web_modules.look(path, blob, text);
    }
}

/// (`METHOD /path`, line) of each route decorator of a Python module.
fn endpoint_lines(text: &str) -> Arc<[(String, u32)]> {
    let lines = Lines::new(text);
    endpoints(text)
        .into_iter()
        .map(|(name, offset)| (name, lines.of(offset)))
        .collect()
}

/// (`METHOD /path`, byte offset) of each route decorator of a Python module.
fn endpoints(text: &str) -> Vec<(String, usize)> {
    let ats: Vec<usize> = DECORATOR_LINE
        .captures_iter(text)
        .filter_map(|c| c.get(1).map(|at| at.start()))
        .collect();
    if ats.is_empty() {
        return Vec::new();
    }
    let Some(tree) = qa_syntax::parse(Grammar::Python, text) else {
        return Vec::new();
    };
    let root = tree.root_node();
    // The `@` of a decorator is a token of its own whose parent is the decorator; in a
    // string or comment it is a byte of the literal, and no decorator stands there.
    ats.into_iter()
        .filter_map(|at| {
            let decorator = root
                .descendant_for_byte_range(at, at + 1)?
                .parent()
                .filter(|p| p.kind() == "decorator")?;
            Some((endpoint(decorator, text)?, decorator.start_byte()))
        })
        .collect()
}

/// `METHOD /path` of a decorator `@x.verb("/path", ..)`; a `route`/`api_route` takes the
/// first of its `methods=[..]`, else GET.
fn endpoint(decorator: Node, text: &str) -> Option<String> {
    let call = decorator.named_child(0).filter(|c| c.kind() == "call")?;
    let function = call
        .child_by_field_name("function")
        .filter(|f| f.kind() == "attribute")?;
    function
        .child_by_field_name("object")
        .filter(|o| o.kind() == "identifier")?;
    let verb = text_of(function.child_by_field_name("attribute")?, text);
    let arguments = call.child_by_field_name("arguments")?;
    let mut cursor = arguments.walk();
    let mut arguments = arguments.named_children(&mut cursor);
    let path = string_value(arguments.next()?, text)?;
    let method = match verb {
        "route" | "api_route" => arguments
            .find_map(|a| methods_head(a, text))
            .map_or("GET".to_string(), str::to_uppercase),
        "get" | "post" | "put" | "patch" | "delete" | "head" | "options" => verb.to_uppercase(),
        _ => return None,
    };
    Some(format!("{method} {path}"))
}

/// The first method of a `methods=[..]` (or tuple) argument.
fn methods_head<'a>(argument: Node, text: &'a str) -> Option<&'a str> {
    if argument.kind() != "keyword_argument"
        || text_of(argument.child_by_field_name("name")?, text) != "methods"
    {
        return None;
    }
    let list = argument
        .child_by_field_name("value")
        .filter(|v| matches!(v.kind(), "list" | "tuple"))?;
    string_value(list.named_child(0)?, text)
}

/// The text of a string literal without prefix and quotes (an f-string's as written).
fn string_value<'a>(node: Node, text: &'a str) -> Option<&'a str> {
    if node.kind() != "string" {
        return None;
    }
    let start = node.child(0).filter(|c| c.kind() == "string_start")?;
    let end = node
        .child(node.child_count().checked_sub(1)?)
        .filter(|c| c.kind() == "string_end")?;
    text.get(start.end_byte()..end.start_byte())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decorators_name_method_and_path() {
        let text = "@app.get(\"/items\")\ndef items(): ...\n@bp.route('/orders', methods=['POST'])\ndef order(): ...\n@app.route('/')\ndef home(): ...\n";
        let got: Vec<String> = endpoints(text).into_iter().map(|(n, _)| n).collect();
        assert_eq!(got, ["GET /items", "POST /orders", "GET /"]);
    }

    #[test]
    fn decorators_spanning_lines_are_read_at_their_line() {
        let text = "import flask\n\n@bp.route(\n    '/orders',\n    methods=('PUT', 'POST'),\n)\ndef order(): ...\n";
        assert_eq!(endpoints(text), [("PUT /orders".to_string(), 14)]);
    }

    #[test]
    fn other_decorators_are_not_endpoints() {
        assert!(endpoints(
            "@pytest.fixture('x')\ndef f(): ...\n@app.middleware('http')\ndef g(): ...\n"
        )
        .is_empty());
    }

    #[test]
    fn a_decorator_quoted_in_a_docstring_is_no_endpoint() {
        let text = "def register():\n    \"\"\"Use it as:\n\n    @app.route('/docs')\n    def docs(): ...\n    \"\"\"\n";
        assert!(endpoints(text).is_empty());
    }

    #[test]
    fn a_decorator_in_a_string_is_no_endpoint() {
        let text = "SNIPPET = '''\n@app.get('/snippet')\ndef snippet(): ...\n'''\n";
        assert!(endpoints(text).is_empty());
    }

    #[test]
    fn only_modules_importing_a_web_framework_count() {
        assert!(web_module("from fastapi import FastAPI\n"));
        assert!(web_module("import flask\n"));
        assert!(!web_module("# from flask import x\nimport flasky\n"));
    }
}
