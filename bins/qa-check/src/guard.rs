//! The production write guard of browser checks: the host profile's `write_signatures` and
//! `allow_signatures`, applied by the browser driver to every request the page makes on a
//! production environment. It is the second layer, not the boundary: a write that no
//! signature matches is let through, and the evidence says so.

use serde::Serialize;
use serde_json::Value;

/// One signature as the profile writes it; `url` and `body` are JavaScript regular
/// expressions, compiled by the driver with `new RegExp(pattern)` (case-sensitive).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Signature {
    /// An HTTP method, or `*` for any.
    pub method: String,
    pub url: String,
    pub body: Option<String>,
}

/// The signatures a browser check on a production environment runs under: a request is
/// aborted when it matches a write signature and no allow signature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WriteGuard {
    pub write: Vec<Signature>,
    pub allow: Vec<Signature>,
}

impl WriteGuard {
    /// The guard of environment `env` of the (validated, normalized) host `profile`, when
    /// that environment is a production one; None otherwise.
    pub fn of_profile(profile: &Value, env: &str) -> Option<WriteGuard> {
        let kind = profile
            .get("environments")?
            .get(env)?
            .get("kind")?
            .as_str()?;
        if kind != "production" {
            return None;
        }
        let mutation = profile.get("mutation");
        let list = |key: &str| -> Vec<Signature> {
            mutation
                .and_then(|m| m.get(key))
                .and_then(Value::as_array)
                .map(|items| items.iter().filter_map(signature).collect())
                .unwrap_or_default()
        };
        Some(WriteGuard {
            write: list("write_signatures"),
            allow: list("allow_signatures"),
        })
    }
}

fn signature(item: &Value) -> Option<Signature> {
    Some(Signature {
        method: item
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or("*")
            .to_string(),
        url: item.get("url")?.as_str()?.to_string(),
        body: item.get("body").and_then(Value::as_str).map(str::to_string),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn profile(kind: &str) -> Value {
        json!({
            "environments": {"live": {"kind": kind}},
            "mutation": {
                "write_signatures": [
                    {"method": "POST", "url": "/api/", "note": "writes"},
                    {"method": "*", "url": "/graphql", "body": "mutation"}
                ],
                "allow_signatures": [{"method": "POST", "url": "/api/search"}]
            }
        })
    }

    #[test]
    fn a_production_environment_gets_the_profiles_signatures() {
        let guard = WriteGuard::of_profile(&profile("production"), "live").unwrap();
        assert_eq!(guard.write.len(), 2);
        assert_eq!(guard.write[1].body.as_deref(), Some("mutation"));
        assert_eq!(guard.allow[0].url, "/api/search");
    }

    #[test]
    fn another_kind_or_an_unknown_environment_gets_no_guard() {
        assert_eq!(WriteGuard::of_profile(&profile("qa"), "live"), None);
        assert_eq!(
            WriteGuard::of_profile(&profile("production"), "other"),
            None
        );
    }
}
