//! The deployed build of a profile environment: its `sha_source` fetched and read (a JSON
//! dot path, or a JavaScript regular expression's one capture group), and read again by
//! `--verify` so a deploy during the run makes it stale.

use qa_shared::acceptance::{BuildData, BuildFormat, BuildVerifyData, TargetStatus};
use serde_json::Value;

use crate::http::Http;

/// Where an environment's build is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShaSource {
    pub url: String,
    pub json_path: Option<String>,
    pub regex: Option<String>,
    pub format: BuildFormat,
}

/// The `sha_source` of environment `env` in a normalized profile (qa-profile's output, so
/// its shape is already checked; what is missing here is still an error, not a panic).
pub fn source_of(profile: &Value, env: &str) -> Result<ShaSource, String> {
    let environment = profile
        .get("environments")
        .and_then(|e| e.get(env))
        .ok_or_else(|| format!("--env {env}: the profile has no environment `{env}`"))?;
    let source = environment
        .get("sha_source")
        .ok_or_else(|| format!("--env {env}: the environment has no sha_source"))?;
    let text = |key: &str| source.get(key).and_then(Value::as_str).map(str::to_string);
    let url = text("url").ok_or_else(|| format!("--env {env}: sha_source.url is missing"))?;
    let format = match text("format").as_deref() {
        None | Some("commit") => BuildFormat::Commit,
        Some("build-id") => BuildFormat::BuildId,
        Some(other) => {
            return Err(format!(
                "--env {env}: sha_source.format `{other}` is not commit or build-id"
            ))
        }
    };
    let (json_path, regex) = (text("json_path"), text("regex"));
    if json_path.is_some() == regex.is_some() {
        return Err(format!(
            "--env {env}: sha_source needs exactly one of json_path and regex"
        ));
    }
    Ok(ShaSource {
        url,
        json_path,
        regex,
        format,
    })
}

/// Reads the build `source` names: blocked without `--allow-network`, failed with the
/// reason when the body cannot be fetched or does not yield a value.
pub fn identify(http: Option<&Http>, env: &str, source: &ShaSource) -> BuildData {
    let mut data = BuildData {
        env: env.to_string(),
        url: source.url.clone(),
        format: source.format,
        json_path: source.json_path.clone(),
        regex: source.regex.clone(),
        status: TargetStatus::Blocked,
        value: None,
        body_sha256: None,
        reason: Some("needs --allow-network".to_string()),
    };
    let Some(http) = http else { return data };
    match http.get(&source.url) {
        Err(refused) => {
            data.status = TargetStatus::Failed;
            data.reason = Some(refused.reason);
        }
        Ok(fetched) => {
            data.body_sha256 = Some(fetched.sha256.clone());
            match extract(&fetched.body, source) {
                Ok(value) => {
                    data.status = TargetStatus::Captured;
                    data.value = Some(value);
                    data.reason = None;
                }
                Err(why) => {
                    data.status = TargetStatus::Failed;
                    data.reason = Some(why);
                }
            }
        }
    }
    data
}

/// The build read again, compared with what `before` recorded.
pub fn reverify(http: Option<&Http>, before: &BuildData) -> BuildVerifyData {
    let source = ShaSource {
        url: before.url.clone(),
        json_path: before.json_path.clone(),
        regex: before.regex.clone(),
        format: before.format,
    };
    if before.status != TargetStatus::Captured {
        return BuildVerifyData {
            env: before.env.clone(),
            before: None,
            after: None,
            same: true,
            reason: Some("not captured".to_string()),
        };
    }
    let after = identify(http, &before.env, &source);
    BuildVerifyData {
        env: before.env.clone(),
        same: after.value == before.value,
        before: before.value.clone(),
        reason: match (&after.value, &after.reason) {
            (Some(_), _) if after.value != before.value => Some(format!(
                "the deployed build of {} changed during the run",
                before.env
            )),
            (None, Some(why)) => Some(format!("the build could not be read again: {why}")),
            _ => None,
        },
        after: after.value,
    }
}

/// The value a body gives for `source`.
pub fn extract(body: &[u8], source: &ShaSource) -> Result<String, String> {
    let text =
        std::str::from_utf8(body).map_err(|_| "the sha_source body is not UTF-8".to_string())?;
    if let Some(path) = &source.json_path {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| format!("the sha_source body is not JSON: {e}"))?;
        let found = path
            .split('.')
            .try_fold(&value, |v, key| match v {
                Value::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
                _ => v.get(key),
            })
            .ok_or_else(|| format!("json_path `{path}` is not in the sha_source body"))?;
        return match found {
            Value::String(s) if !s.trim().is_empty() => Ok(s.trim().to_string()),
            Value::Number(n) => Ok(n.to_string()),
            _ => Err(format!("json_path `{path}` is not a string or number")),
        };
    }
    let pattern = source.regex.as_deref().unwrap_or_default();
    // The profile's patterns are JavaScript regular expressions (ECMAScript semantics).
    let re = regress::Regex::new(pattern).map_err(|e| format!("regex `{pattern}`: {e}"))?;
    let found = re
        .find(text)
        .ok_or_else(|| format!("regex `{pattern}` does not match the sha_source body"))?;
    let group = found
        .group(1)
        .ok_or_else(|| format!("regex `{pattern}` has no capture group 1"))?;
    Ok(text[group].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(json_path: Option<&str>, regex: Option<&str>) -> ShaSource {
        ShaSource {
            url: "http://127.0.0.1/version.json".into(),
            json_path: json_path.map(str::to_string),
            regex: regex.map(str::to_string),
            format: BuildFormat::Commit,
        }
    }

    #[test]
    fn a_json_dot_path_reads_the_commit() {
        let body = br#"{"build": {"commit": "abc1234", "n": 7}, "list": ["x"]}"#;
        assert_eq!(
            extract(body, &source(Some("build.commit"), None)).unwrap(),
            "abc1234"
        );
        assert_eq!(extract(body, &source(Some("build.n"), None)).unwrap(), "7");
        assert_eq!(extract(body, &source(Some("list.0"), None)).unwrap(), "x");
        assert!(extract(body, &source(Some("build.missing"), None)).is_err());
        assert!(extract(body, &source(Some("build"), None)).is_err());
    }

    #[test]
    fn a_javascript_regex_reads_its_capture_group() {
        let body = br#"<script src="/assets/index-Ab_3-x.js"></script>"#;
        let s = source(None, Some(r"assets/index-([A-Za-z0-9_-]+)\.js"));
        assert_eq!(extract(body, &s).unwrap(), "Ab_3-x");
        assert!(extract(b"no bundle here", &s).is_err());
    }

    #[test]
    fn the_environment_must_exist_and_name_exactly_one_reader() {
        let profile: Value = serde_json::json!({"environments": {"qa": {"sha_source": {
            "url": "http://127.0.0.1/v", "json_path": "commit"}}}});
        assert_eq!(
            source_of(&profile, "qa").unwrap().json_path.as_deref(),
            Some("commit")
        );
        assert!(source_of(&profile, "prod").is_err());
        let both: Value = serde_json::json!({"environments": {"qa": {"sha_source": {
            "url": "http://127.0.0.1/v", "json_path": "commit", "regex": "(x)"}}}});
        assert!(source_of(&both, "qa").is_err());
    }

    #[test]
    fn without_network_the_build_is_blocked_not_fetched() {
        let data = identify(None, "qa", &source(Some("commit"), None));
        assert_eq!(data.status, TargetStatus::Blocked);
        assert_eq!(data.value, None);
    }
}
