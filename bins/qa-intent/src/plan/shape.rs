//! The shape of a plan: every key, type and rule checked by hand over a parsed JSON value,
//! so the first error names the JSON pointer of the value that breaks it.

use std::collections::HashMap;
use std::fmt;

use qa_records::acceptance::{CheckSpecData, SourceKind, TargetKind, TargetSpec};
use serde_json::{Map, Value};

use super::PlanError;

/// What the plan declares, before any source file is read.
#[derive(Debug)]
pub struct Declared {
    pub target: TargetSpec,
    pub criteria: Vec<DeclaredCriterion>,
    pub checks: Vec<CheckSpecData>,
}

/// A criterion as written in the plan.
#[derive(Debug)]
pub struct DeclaredCriterion {
    /// Its pointer (`/criteria/1`), for errors and warnings about its source.
    pub at: Pointer,
    pub id: String,
    pub expected: String,
    pub source: DeclaredSource,
}

/// A criterion's source as written in the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeclaredSource {
    /// `request` or `inferred`: inline text.
    Inline { kind: SourceKind, text: String },
    /// `ticket` or `spec`: a repository file and the quote it must hold.
    File {
        kind: SourceKind,
        path: String,
        quote: String,
    },
}

/// A JSON pointer (RFC 6901) to a value of the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pointer(String);

impl fmt::Display for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Pointer {
    pub fn root() -> Pointer {
        Pointer(String::new())
    }

    pub fn key(&self, key: &str) -> Pointer {
        Pointer(format!(
            "{}/{}",
            self.0,
            key.replace('~', "~0").replace('/', "~1")
        ))
    }

    pub fn index(&self, index: usize) -> Pointer {
        Pointer(format!("{}/{index}", self.0))
    }

    pub fn error(&self, message: impl Into<String>) -> PlanError {
        PlanError {
            pointer: Some(self.0.clone()),
            message: message.into(),
        }
    }
}

// `$comment` (as in JSON Schema) is allowed in every object of a plan: plans are written
// by hand, and JSON has no other comments.
const TOP_KEYS: &[&str] = &["$schema", "$comment", "target", "criteria", "checks"];
const TARGET_KEYS: &[&str] = &["$comment", "kind", "value", "buildId", "env", "app"];
const CRITERION_KEYS: &[&str] = &["$comment", "id", "expected", "source"];
const SOURCE_KEYS: &[&str] = &["$comment", "kind", "text", "path", "quote"];

/// Parses and checks a plan; the first problem is the error.
pub fn parse(bytes: &[u8]) -> Result<Declared, PlanError> {
    let value = super::json::parse(bytes)?;
    let Value::Object(map) = &value else {
        return Err(PlanError {
            pointer: None,
            message: format!("a plan is a JSON object, not {}", type_name(&value)),
        });
    };
    let top = Object {
        map,
        at: Pointer::root(),
    };
    top.only(TOP_KEYS)?;
    top.optional_string("$schema")?;
    let target = target(&top.object("target")?)?;
    let criteria = criteria(&top.array("criteria")?)?;
    let checks = checks(&top.array("checks")?, &target, &criteria)?;
    Ok(Declared {
        target,
        criteria,
        checks,
    })
}

fn target(t: &Object) -> Result<TargetSpec, PlanError> {
    t.only(TARGET_KEYS)?;
    let kind = match t.string("kind")? {
        "file" => TargetKind::File,
        "directory" => TargetKind::Directory,
        "url" => TargetKind::Url,
        other => {
            return Err(t.at.key("kind").error(format!(
                "unknown target kind `{other}` (expected file, directory or url)"
            )))
        }
    };
    let build_id = t.optional_string("buildId")?.map(str::to_string);
    // A url target may name a host-profile environment's app instead of a URL: the URL is
    // resolved from the profile record later (`qa-profile P --ndjson | qa-intent --plan X
    // --in -`).
    match (t.optional_string("env")?, t.optional_string("app")?) {
        (Some(env), Some(app)) => {
            if kind != TargetKind::Url {
                return Err(t
                    .at
                    .key("env")
                    .error("only a url target can name an environment's app"));
            }
            if t.optional_string("value")?.is_some() {
                return Err(t
                    .at
                    .key("value")
                    .error("give either value or env and app, not both"));
            }
            return Ok(TargetSpec {
                kind,
                value: String::new(),
                build_id,
                env: Some(env.to_string()),
                app: Some(app.to_string()),
            });
        }
        (Some(_), None) => return Err(t.at.key("app").error("missing: env and app go together")),
        (None, Some(_)) => return Err(t.at.key("env").error("missing: env and app go together")),
        (None, None) => {}
    }
    let value = t.string("value")?;
    let rule = match kind {
        TargetKind::Url => url_problem(value),
        TargetKind::File | TargetKind::Directory => path_problem(value),
    };
    if let Some(problem) = rule {
        return Err(t.at.key("value").error(problem));
    }
    Ok(TargetSpec {
        kind,
        value: value.to_string(),
        build_id,
        env: None,
        app: None,
    })
}

fn criteria(list: &Array) -> Result<Vec<DeclaredCriterion>, PlanError> {
    let mut seen: HashMap<&str, Pointer> = HashMap::new();
    let mut out = Vec::with_capacity(list.items.len());
    for (i, item) in list.items.iter().enumerate() {
        let c = Object::of(item, list.at.index(i), "a criterion")?;
        c.only(CRITERION_KEYS)?;
        let id = c.identifier("id")?;
        if let Some(first) = seen.insert(id, c.at.key("id")) {
            return Err(c.at.key("id").error(format!(
                "duplicate criterion id `{id}` (first at {})",
                first
            )));
        }
        let expected = c.string("expected")?;
        let source = source(&c.object("source")?)?;
        out.push(DeclaredCriterion {
            at: c.at.clone(),
            id: id.to_string(),
            expected: expected.to_string(),
            source,
        });
    }
    Ok(out)
}

fn source(s: &Object) -> Result<DeclaredSource, PlanError> {
    s.only(SOURCE_KEYS)?;
    let kind = match s.string("kind")? {
        "request" => SourceKind::Request,
        "ticket" => SourceKind::Ticket,
        "spec" => SourceKind::Spec,
        "inferred" => SourceKind::Inferred,
        other => {
            return Err(s.at.key("kind").error(format!(
                "unknown source kind `{other}` (expected request, ticket, spec or inferred)"
            )))
        }
    };
    match kind {
        SourceKind::Request | SourceKind::Inferred => {
            let text = s.string("text")?;
            for key in ["path", "quote"] {
                s.absent(key, "only ticket and spec sources name a file and a quote")?;
            }
            Ok(DeclaredSource::Inline {
                kind,
                text: text.to_string(),
            })
        }
        SourceKind::Ticket | SourceKind::Spec => {
            let path = s.string("path")?;
            if let Some(problem) = path_problem(path) {
                return Err(s.at.key("path").error(problem));
            }
            let quote = s.string("quote")?;
            s.absent(
                "text",
                "ticket and spec sources quote their file: use `quote`",
            )?;
            Ok(DeclaredSource::File {
                kind,
                path: path.to_string(),
                quote: quote.to_string(),
            })
        }
    }
}

fn checks(
    list: &Array,
    target: &TargetSpec,
    criteria: &[DeclaredCriterion],
) -> Result<Vec<CheckSpecData>, PlanError> {
    let mut seen: HashMap<&str, Pointer> = HashMap::new();
    let mut out = Vec::with_capacity(list.items.len());
    for (i, item) in list.items.iter().enumerate() {
        let c = Object::of(item, list.at.index(i), "a check")?;
        let id = c.identifier("id")?;
        if let Some(first) = seen.insert(id, c.at.key("id")) {
            return Err(c
                .at
                .key("id")
                .error(format!("duplicate check id `{id}` (first at {})", first)));
        }
        let criterion = c.identifier("criterion")?;
        if !criteria.iter().any(|k| k.id == criterion) {
            return Err(c
                .at
                .key("criterion")
                .error(format!("no criterion `{criterion}` in the plan")));
        }
        let kind = c.identifier("kind")?;
        match kind {
            "file" => file_check(&c, target.kind)?,
            "http" => http_check(&c)?,
            "mcp" | "browser" => tool_check(&c, kind == "mcp")?,
            // Unknown kinds are routed as unsupported, not refused.
            _ => {}
        }
        // The check is kept verbatim in a hashed record, and hashed data has no floats.
        no_floats(item, &c.at)?;
        out.push(CheckSpecData {
            id: id.to_string(),
            criterion: criterion.to_string(),
            kind: kind.to_string(),
            spec: item.clone(),
        });
    }
    Ok(out)
}

fn file_check(c: &Object, target: TargetKind) -> Result<(), PlanError> {
    c.string("contains")?;
    match (target, c.optional_string("path")?) {
        (TargetKind::Directory, None) => Err(c
            .at
            .key("path")
            .error("missing: a file check on a directory target names the file (`path`)")),
        (TargetKind::File, Some(_)) => Err(c
            .at
            .key("path")
            .error("not allowed for a file target: the check reads the target file itself")),
        (_, Some(path)) => match path_problem(path) {
            Some(problem) => Err(c.at.key("path").error(problem)),
            None => Ok(()),
        },
        (_, None) => Ok(()),
    }
}

fn http_check(c: &Object) -> Result<(), PlanError> {
    if let Some(path) = c.optional_string("path")? {
        if let Some(problem) = request_path_problem(path) {
            return Err(c.at.key("path").error(problem));
        }
    }
    let status = match c.get("status") {
        None => None,
        Some(v) => match v.as_u64() {
            Some(s) if (100..=599).contains(&s) => Some(s),
            _ => {
                return Err(c
                    .at
                    .key("status")
                    .error("must be an integer HTTP status from 100 to 599"))
            }
        },
    };
    let contains = c.optional_string("contains")?;
    if status.is_none() && contains.is_none() {
        return Err(c
            .at
            .error("an http check needs `status`, `contains` or both"));
    }
    Ok(())
}

/// An mcp or browser check: the fields' types (whether they add up to a check that can
/// prove something is qa-check's to judge, so a hand-made stream gets the same answer).
fn tool_check(c: &Object, mcp: bool) -> Result<(), PlanError> {
    c.identifier("tool")?;
    if let Some(path) = c.optional_string("path")? {
        if let Some(problem) = request_path_problem(path) {
            return Err(c.at.key("path").error(problem));
        }
    }
    if let Some(observe) = c.optional_string("observePath")? {
        // An mcp check GETs it on the target's origin; a browser check reads it as a CSS selector.
        if mcp {
            if let Some(problem) = request_path_problem(observe) {
                return Err(c.at.key("observePath").error(problem));
            }
        }
    }
    c.optional_string("observeContains")?;
    for key in ["schema", "input"] {
        if let Some(value) = c.get(key) {
            Object::of(value, c.at.key(key), &format!("`{key}`"))?;
        }
    }
    for key in ["readOnly", "expectError"] {
        match c.get(key) {
            None | Some(Value::Bool(_)) => {}
            Some(other) => {
                return Err(c
                    .at
                    .key(key)
                    .error(format!("must be a boolean, not {}", type_name(other))))
            }
        }
    }
    Ok(())
}

/// Why `path` is not a repository-relative path, if it is not.
pub fn path_problem(path: &str) -> Option<&'static str> {
    if path.contains('\0') {
        return Some("NUL characters are not allowed");
    }
    if path.chars().any(char::is_control) {
        return Some("control characters are not allowed");
    }
    if path.contains('\\') {
        return Some("backslashes are not allowed (use /)");
    }
    let bytes = path.as_bytes();
    let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    if path.starts_with('/') || drive {
        return Some("absolute paths are not allowed");
    }
    if path.split('/').any(|part| part == "..") {
        return Some("`..` is not allowed: paths stay inside the repository");
    }
    None
}

/// Why `path` is not a same-origin request path, if it is not.
fn request_path_problem(path: &str) -> Option<&'static str> {
    if !path.starts_with('/') {
        return Some("must start with `/` (a path on the target's origin)");
    }
    if path.starts_with("//") {
        return Some("must not start with `//`: that names another host");
    }
    if path.contains('\\') {
        return Some("backslashes are not allowed");
    }
    if path.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Some("whitespace and control characters are not allowed (percent-encode them)");
    }
    None
}

/// Why `url` is not an http(s) URL with a host, if it is not.
pub fn url_problem(url: &str) -> Option<&'static str> {
    let lower = url.to_ascii_lowercase();
    let Some(rest) = lower
        .strip_prefix("http://")
        .or_else(|| lower.strip_prefix("https://"))
    else {
        return Some("must be an http:// or https:// URL");
    };
    if url.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Some("whitespace and control characters are not allowed");
    }
    if url.contains('\\') {
        return Some("backslashes are not allowed");
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.contains('@') {
        return Some("credentials in URLs are not allowed (use --auth-env NAME)");
    }
    let (host, port) = match authority.strip_prefix('[') {
        Some(v6) => match v6.split_once(']') {
            Some((host, after)) => (host, after.strip_prefix(':')),
            None => return Some("has an unclosed `[` in its host"),
        },
        None => match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        },
    };
    if host.is_empty() {
        return Some("has no host");
    }
    if let Some(port) = port {
        if !port.bytes().all(|b| b.is_ascii_digit()) || !matches!(port.parse::<u16>(), Ok(1..)) {
            return Some("has an invalid port (1 to 65535)");
        }
    }
    None
}

/// The first number in `value` that cannot be hashed (a float, `-0`, an integer beyond
/// 64 bits: see `qa_records::canonical`), as an error at its pointer naming what it is.
fn no_floats(value: &Value, at: &Pointer) -> Result<(), PlanError> {
    use qa_records::canonical::{self, Reason};
    let Err(refused) = canonical::to_vec(value) else {
        return Ok(());
    };
    let message = match refused.reason {
        Reason::Float => "floating-point numbers are not allowed (use integers)",
        Reason::NegativeZero => "negative zero is not allowed (write 0)",
        Reason::BeyondSixtyFourBits => {
            "integers beyond 64 bits are not allowed (from -2^63 to 2^64-1; write a larger one as a string)"
        }
    };
    Err(PlanError {
        pointer: Some(format!("{at}{}", refused.pointer)),
        message: message.to_string(),
    })
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A JSON object of the plan and where it is.
struct Object<'a> {
    map: &'a Map<String, Value>,
    at: Pointer,
}

/// A JSON array of the plan and where it is.
struct Array<'a> {
    items: &'a [Value],
    at: Pointer,
}

impl<'a> Object<'a> {
    fn of(value: &'a Value, at: Pointer, what: &str) -> Result<Object<'a>, PlanError> {
        match value {
            Value::Object(map) => Ok(Object { map, at }),
            other => Err(at.error(format!(
                "{what} must be an object, not {}",
                type_name(other)
            ))),
        }
    }

    /// Refuses the first key not in `known`.
    fn only(&self, known: &[&str]) -> Result<(), PlanError> {
        match self.map.keys().find(|k| !known.contains(&k.as_str())) {
            Some(key) => Err(self
                .at
                .key(key)
                .error(format!("unknown key (known: {})", known.join(", ")))),
            None => Ok(()),
        }
    }

    /// The value of `key`; null counts as absent.
    fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    fn required(&self, key: &str, what: &str) -> Result<&'a Value, PlanError> {
        self.get(key).ok_or_else(|| {
            self.at
                .key(key)
                .error(format!("missing: {what} is required"))
        })
    }

    fn object(&self, key: &str) -> Result<Object<'a>, PlanError> {
        let value = self.required(key, "an object")?;
        Object::of(value, self.at.key(key), &format!("`{key}`"))
    }

    fn array(&self, key: &str) -> Result<Array<'a>, PlanError> {
        let at = self.at.key(key);
        match self.required(key, "an array")? {
            Value::Array(items) => Ok(Array { items, at }),
            other => Err(at.error(format!("must be an array, not {}", type_name(other)))),
        }
    }

    /// A required non-blank string.
    fn string(&self, key: &str) -> Result<&'a str, PlanError> {
        self.required(key, "a non-empty string")?;
        self.optional_string(key)
            .map(|s| s.expect("required just above"))
    }

    /// An optional string; when present it must not be blank.
    fn optional_string(&self, key: &str) -> Result<Option<&'a str>, PlanError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) if s.trim().is_empty() => {
                Err(self.at.key(key).error("must not be empty or blank"))
            }
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(self
                .at
                .key(key)
                .error(format!("must be a string, not {}", type_name(other)))),
        }
    }

    /// A required string used as a name in reports: no control characters, no
    /// surrounding whitespace.
    fn identifier(&self, key: &str) -> Result<&'a str, PlanError> {
        let s = self.string(key)?;
        if s.chars().any(char::is_control) || s.trim() != s {
            return Err(self
                .at
                .key(key)
                .error("must not hold control characters or surrounding whitespace"));
        }
        Ok(s)
    }

    /// Refuses `key` when present (null included), saying `why`.
    fn absent(&self, key: &str, why: &str) -> Result<(), PlanError> {
        match self.map.get(key) {
            Some(_) => Err(self.at.key(key).error(format!("not allowed here: {why}"))),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_escape_tilde_and_slash_in_keys() {
        let p = Pointer::root().key("checks").index(2).key("a/b~c");
        assert_eq!(p.0, "/checks/2/a~1b~0c");
    }

    #[test]
    fn repository_relative_paths_are_accepted() {
        for ok in [
            "site",
            "site/index.html",
            "./docs/spec.md",
            ".",
            "a/.b/c",
            "a..b",
        ] {
            assert_eq!(path_problem(ok), None, "{ok}");
        }
    }

    #[test]
    fn escaping_or_platform_specific_paths_are_refused() {
        for (bad, why) in [
            ("/etc/passwd", "absolute"),
            ("C:/x", "absolute"),
            ("../x", "`..`"),
            ("a/../../x", "`..`"),
            ("a/..", "`..`"),
            ("a\\b", "backslash"),
            ("a\0b", "NUL"),
            ("a\nb", "control"),
        ] {
            let problem = path_problem(bad).unwrap_or_else(|| panic!("{bad:?} accepted"));
            assert!(problem.contains(why), "{bad:?}: {problem}");
        }
    }

    #[test]
    fn http_and_https_urls_with_a_host_are_accepted() {
        for ok in [
            "http://localhost",
            "https://shop.example/",
            "HTTPS://Shop.Example:8443/a?b#c",
            "http://127.0.0.1:8080",
            "http://[::1]:3000/x",
        ] {
            assert_eq!(url_problem(ok), None, "{ok}");
        }
    }

    #[test]
    fn other_schemes_hostless_urls_credentials_and_bad_ports_are_refused() {
        for (bad, why) in [
            ("ftp://x", "http"),
            ("site/index.html", "http"),
            ("http://", "no host"),
            ("https:///path", "no host"),
            ("http://user:pw@x", "credentials"),
            ("http://x:0", "port"),
            ("http://x:99999", "port"),
            ("http://x:8o", "port"),
            ("http://[::1", "unclosed"),
            ("http://x y", "whitespace"),
        ] {
            let problem = url_problem(bad).unwrap_or_else(|| panic!("{bad:?} accepted"));
            assert!(problem.contains(why), "{bad:?}: {problem}");
        }
    }

    #[test]
    fn request_paths_must_stay_on_the_origin() {
        assert_eq!(request_path_problem("/health?x=1"), None);
        assert!(request_path_problem("health").is_some());
        assert!(request_path_problem("//evil.example/").is_some());
        assert!(request_path_problem("/a b").is_some());
        assert!(request_path_problem("/a\\b").is_some());
    }

    #[test]
    fn floats_are_found_at_their_pointer_and_integers_pass() {
        let at = Pointer::root().key("checks").index(0);
        let ok = serde_json::json!({"input": {"level": 20, "list": [1, -2]}});
        assert_eq!(no_floats(&ok, &at), Ok(()));
        let bad = serde_json::json!({"input": {"list": [1, 2.5]}});
        let err = no_floats(&bad, &at).unwrap_err();
        assert_eq!(err.pointer.as_deref(), Some("/checks/0/input/list/1"));
    }

    #[test]
    fn negative_zero_and_integers_beyond_64_bits_are_named_as_such() {
        let at = Pointer::root().key("checks").index(0);
        let zero: Value = serde_json::from_str(r#"{"input": {"n": -0}}"#).unwrap();
        assert_eq!(
            no_floats(&zero, &at).unwrap_err().to_string(),
            "/checks/0/input/n: negative zero is not allowed (write 0)"
        );
        let big: Value = serde_json::from_str(r#"{"input": [18446744073709551616]}"#).unwrap();
        assert!(no_floats(&big, &at)
            .unwrap_err()
            .to_string()
            .starts_with("/checks/0/input/0: integers beyond 64 bits are not allowed"));
    }
}
