//! Network mocks from an OpenAPI (or Swagger) document: only a safe, exact example of the
//! one operation a located request matches; status codes and schemas without an example
//! stay contract evidence and never become invented payloads.

use std::path::Path;
use std::sync::LazyLock;

use anyhow::{Context, Result};
use qa_records::exit::{failure, Exit};
use regex::Regex;
use serde_json::Value;

/// Largest OpenAPI document read.
const MAX_BYTES: u64 = 4 << 20;

/// An OpenAPI document as the user named it (`--openapi FILE`, JSON).
#[derive(Debug)]
pub struct OpenApi {
    /// The path as given: it names the document in records.
    pub name: String,
    doc: Value,
}

/// A request a changed line makes: `fetch("/api/settings", { method: "POST" })`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Uppercase; None when the line does not say (an ambiguous operation is not mocked).
    pub method: Option<String>,
    pub path: String,
}

/// A mock the spec sets up: the operation's example, verbatim.
#[derive(Debug, Clone, PartialEq)]
pub struct Mock {
    pub method: String,
    pub path: String,
    pub status: u16,
    pub body: Value,
    /// `FILE#/json/pointer` of the example.
    pub source: String,
}

impl OpenApi {
    pub fn read(path: &Path) -> Result<OpenApi> {
        let name = path.display().to_string();
        let meta = std::fs::metadata(path).map_err(|e| {
            let exit = if e.kind() == std::io::ErrorKind::NotFound {
                Exit::NoInput
            } else {
                Exit::DataErr
            };
            failure(exit, format!("--openapi {name}: {e}"))
        })?;
        if meta.len() > MAX_BYTES {
            return Err(failure(
                Exit::DataErr,
                format!("--openapi {name}: larger than {MAX_BYTES} bytes"),
            ));
        }
        let bytes = std::fs::read(path).with_context(|| format!("--openapi {name}"))?;
        let doc: Value = serde_json::from_slice(&bytes).map_err(|e| {
            failure(
                Exit::DataErr,
                format!("--openapi {name}: not a JSON OpenAPI document: {e}"),
            )
        })?;
        if !doc.get("paths").is_some_and(Value::is_object) {
            return Err(failure(
                Exit::DataErr,
                format!("--openapi {name}: no `paths` object"),
            ));
        }
        Ok(OpenApi { name, doc })
    }

    /// Builds a document from a value (tests).
    pub fn from_value(name: &str, doc: Value) -> OpenApi {
        OpenApi {
            name: name.to_string(),
            doc,
        }
    }

    /// The mock for `request`, or why there is none.
    pub fn mock(&self, request: &Request) -> Result<Mock, String> {
        let paths = self.doc["paths"].as_object().ok_or("no paths")?;
        let matching: Vec<&String> = paths
            .keys()
            .filter(|template| template_matches(template, &request.path))
            .collect();
        let [template] = matching.as_slice() else {
            return Err(format!(
                "{} matches {} OpenAPI paths in {}",
                request.path,
                matching.len(),
                self.name
            ));
        };
        let item = &paths[*template];
        const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];
        let method = match &request.method {
            Some(m) => m.to_ascii_lowercase(),
            None => {
                let declared: Vec<&str> = METHODS
                    .into_iter()
                    .filter(|m| item.get(*m).is_some())
                    .collect();
                match declared.as_slice() {
                    [one] => one.to_string(),
                    _ => {
                        return Err(format!(
                            "{template}: the request's method is not located and the path has {} operations",
                            declared.len()
                        ))
                    }
                }
            }
        };
        let op = item
            .get(&method)
            .ok_or_else(|| format!("{template} has no {} operation", method.to_uppercase()))?;
        let responses = op["responses"].as_object().ok_or("no responses")?;
        let mut codes: Vec<(&String, &Value)> = responses
            .iter()
            .filter(|(code, _)| code.starts_with('2') && code.len() == 3)
            .collect();
        codes.sort_by_key(|(c, _)| c.as_str());
        let pointer_base = format!(
            "/paths/{}/{method}/responses",
            template.replace('~', "~0").replace('/', "~1")
        );
        for (code, response) in codes {
            let (example, at) =
                if let Some(e) = response.pointer("/content/application~1json/example") {
                    (e, "/content/application~1json/example".to_string())
                } else if let Some(e) = response.pointer("/examples/application~1json") {
                    // Swagger 2.
                    (e, "/examples/application~1json".to_string())
                } else if let Some(all) = response
                    .pointer("/content/application~1json/examples")
                    .and_then(Value::as_object)
                {
                    let [(key, one)] = all.iter().collect::<Vec<_>>()[..] else {
                        return Err(format!(
                            "{} {template} {code}: {} examples, none chosen",
                            method.to_uppercase(),
                            all.len()
                        ));
                    };
                    let Some(value) = one.get("value") else {
                        continue;
                    };
                    (
                        value,
                        format!("/content/application~1json/examples/{key}/value"),
                    )
                } else {
                    continue;
                };
            if let Some(key) = unsafe_key(example) {
                return Err(format!(
                    "{} {template} {code}: the example holds `{key}`, which is not mocked",
                    method.to_uppercase()
                ));
            }
            return Ok(Mock {
                method: method.to_uppercase(),
                path: request.path.clone(),
                status: code.parse().map_err(|_| "bad status")?,
                body: example.clone(),
                source: format!("{}#{pointer_base}/{code}{at}", self.name),
            });
        }
        Err(format!(
            "{} {template}: no exact JSON example in a 2xx response",
            method.to_uppercase()
        ))
    }
}

/// Whether an OpenAPI path template (`/items/{id}`) matches a literal path.
fn template_matches(template: &str, path: &str) -> bool {
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let t: Vec<&str> = template.trim_end_matches('/').split('/').collect();
    let p: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    t.len() == p.len()
        && t.iter()
            .zip(&p)
            .all(|(t, p)| (t.starts_with('{') && t.ends_with('}') && !p.is_empty()) || t == p)
}

/// A key that looks like a credential: such an example is not safe to replay.
fn unsafe_key(value: &Value) -> Option<String> {
    const SECRET: [&str; 7] = [
        "token",
        "secret",
        "password",
        "passwd",
        "authorization",
        "apikey",
        "api_key",
    ];
    match value {
        Value::Object(map) => map.iter().find_map(|(k, v)| {
            let lower = k.to_ascii_lowercase();
            if SECRET.iter().any(|s| lower.contains(s)) {
                Some(k.clone())
            } else {
                unsafe_key(v)
            }
        }),
        Value::Array(items) => items.iter().find_map(unsafe_key),
        _ => None,
    }
}

/// The request a changed line makes, when it names a literal same-origin path.
pub fn request_on(text: &str) -> Option<Request> {
    static FETCH: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"\bfetch\s*\(\s*["'`](/[^"'`$]*)["'`]"#).expect("fetch"));
    static METHOD: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"\bmethod\s*:\s*["'`]([A-Za-z]+)["'`]"#).expect("method"));
    static CLIENT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"\b(?:axios|http|api|client|ky)\s*\.\s*(get|post|put|patch|delete)\s*\(\s*["'`](/[^"'`$]*)["'`]"#)
            .expect("client")
    });
    if let Some(c) = FETCH.captures(text) {
        return Some(Request {
            // fetch defaults to GET only when no options follow the URL.
            method: METHOD
                .captures(text)
                .map(|m| m[1].to_ascii_uppercase())
                .or_else(|| {
                    let rest = &text[c.get(0).expect("match").end()..];
                    rest.trim_start()
                        .starts_with(')')
                        .then(|| "GET".to_string())
                }),
            path: c[1].to_string(),
        });
    }
    CLIENT.captures(text).map(|c| Request {
        method: Some(c[1].to_ascii_uppercase()),
        path: c[2].to_string(),
    })
}

/// Whether a changed line implements the endpoint (`app.post("/api/settings", ...)`): a
/// changed implementation is observed, never intercepted.
pub fn implements(text: &str, request: &Request) -> bool {
    static ROUTE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"\b(?:app|router|server|fastify|api|r)\s*\.\s*(get|post|put|patch|delete|all|route)\s*\(\s*["'`]([^"'`]+)["'`]"#)
            .expect("route")
    });
    ROUTE.captures_iter(text).any(|c| {
        // Express `:id` segments read as templates.
        let template: String = c[2]
            .split('/')
            .map(|s| match s.strip_prefix(':') {
                Some(name) => format!("{{{name}}}"),
                None => s.to_string(),
            })
            .collect::<Vec<_>>()
            .join("/");
        template_matches(&template, &request.path)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc() -> OpenApi {
        OpenApi::from_value(
            "openapi.json",
            json!({"openapi": "3.1.0", "paths": {
                "/api/settings": {
                    "get": {"responses": {"200": {"content": {"application/json": {"example": {"theme": "dark"}}}}}},
                    "post": {"responses": {"204": {"description": "saved"}}}
                },
                "/api/items/{id}": {"get": {"responses": {"200": {"content": {"application/json": {"schema": {"type": "object"}}}}}}},
                "/api/session": {"get": {"responses": {"200": {"content": {"application/json": {"example": {"accessToken": "x"}}}}}}}
            }}),
        )
    }

    #[test]
    fn an_exact_example_of_the_matching_operation_is_the_mock() {
        let m = doc()
            .mock(&request_on(r#"const r = await fetch("/api/settings");"#).unwrap())
            .unwrap();
        assert_eq!((m.method.as_str(), m.status), ("GET", 200));
        assert_eq!(m.body, json!({"theme": "dark"}));
        assert_eq!(
            m.source,
            "openapi.json#/paths/~1api~1settings/get/responses/200/content/application~1json/example"
        );
    }

    #[test]
    fn a_schema_without_an_example_gives_no_mock() {
        let err = doc()
            .mock(&request_on(r#"fetch("/api/items/7")"#).unwrap())
            .unwrap_err();
        assert!(err.contains("no exact JSON example"), "{err}");
    }

    #[test]
    fn an_unlocated_method_on_a_path_with_two_operations_gives_no_mock() {
        let r = request_on(r#"fetch("/api/settings", options)"#).unwrap();
        assert_eq!(r.method, None);
        assert!(doc().mock(&r).unwrap_err().contains("2 operations"));
    }

    #[test]
    fn an_example_with_a_credential_is_not_replayed() {
        let err = doc()
            .mock(&request_on(r#"fetch("/api/session")"#).unwrap())
            .unwrap_err();
        assert!(err.contains("accessToken"), "{err}");
    }

    #[test]
    fn a_changed_route_implements_the_request_and_another_path_does_not() {
        let r = request_on(r#"fetch("/api/items/7")"#).unwrap();
        assert!(implements(
            r#"app.get("/api/items/:id", (req, res) => {"#,
            &r
        ));
        assert!(!implements(
            r#"app.get("/api/users/:id", (req, res) => {"#,
            &r
        ));
    }
}
