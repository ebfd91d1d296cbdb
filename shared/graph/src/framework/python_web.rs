//! FastAPI and Flask handlers: `@app.get("/items")`, `@router.post(..)` and
//! `@bp.route("/x", methods=[..])` decorators in modules importing fastapi or flask,
//! each an endpoint (`GET /items`) implemented by its module.

use super::add_entrypoint;
use crate::adapter::{Adapter, Context, Detection, Layer, TextTest};
use crate::language::{files_with, python, Lines};
use crate::model::{Fragment, Located};
use crate::tree::Snapshot;
use git2::Oid;
use qa_records::change::Confidence;
use qa_records::code_pattern;
use qa_records::graph::{NodeKind, Support};
use regex::Regex;
use std::sync::LazyLock;

/// The FastAPI/Flask framework adapter.
#[derive(Debug)]
pub struct PythonWeb {
    web_modules: TextTest,
}

impl Default for PythonWeb {
    fn default() -> PythonWeb {
        PythonWeb {
            web_modules: TextTest::new(python::EXTENSIONS, web_module),
        }
    }
}

static WEB_IMPORT: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r"(?m)^[ \t]*(?:from|import)[ \t]+(fastapi|flask)\b"));
static DECORATOR: LazyLock<Regex> = LazyLock::new(|| {
    code_pattern::regex(
        r#"(?m)^[ \t]*@\w+\.(get|post|put|patch|delete|head|options|route|api_route)\(\s*[rf]?['"]([^'"]*)['"]([^)]*)\)"#,
    )
});
static METHODS: LazyLock<Regex> =
    LazyLock::new(|| code_pattern::regex(r#"methods\s*=\s*[\[(]\s*['"](\w+)['"]"#));

fn web_module(text: &str) -> bool {
    WEB_IMPORT.is_match(text)
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
            let Some(text) = cx.snapshot.text(path) else {
                continue;
            };
            let lines = Lines::new(&text);
            for (name, offset) in endpoints(&text) {
                let at = Located::new(path, lines.of(offset));
                add_entrypoint(
                    &mut fragment,
                    NodeKind::Endpoint,
                    &name,
                    path,
                    at,
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

/// (`METHOD /path`, byte offset) of each route decorator.
fn endpoints(text: &str) -> Vec<(String, usize)> {
    DECORATOR
        .captures_iter(text)
        .map(|c| {
            let method = match &c[1] {
                "route" | "api_route" => METHODS
                    .captures(&c[3])
                    .map_or("GET".to_string(), |m| m[1].to_uppercase()),
                verb => verb.to_uppercase(),
            };
            (
                format!("{method} {}", &c[2]),
                c.get(0).map_or(0, |m| m.start()),
            )
        })
        .collect()
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
    fn other_decorators_are_not_endpoints() {
        assert!(endpoints("@pytest.fixture('x')\n@app.middleware('http')\n").is_empty());
    }

    #[test]
    fn only_modules_importing_a_web_framework_count() {
        assert!(web_module("from fastapi import FastAPI\n"));
        assert!(web_module("import flask\n"));
        assert!(!web_module("# from flask import x\nimport flasky\n"));
    }
}
