//! The deployed build of a profile environment: its `sha_source` fetched and read (a JSON
//! dot path, or a JavaScript regular expression's one capture group, bounded in input and
//! time), and read again by `--verify` so a deploy during the run makes it stale.

use qa_records::acceptance::{BuildData, BuildFormat, BuildVerifyData, TargetStatus};
use qa_records::waiting::{self, Interrupted};
use qa_records::Exit;
use serde_json::Value;
use std::time::Instant;

use crate::http::Http;

/// A regex sees at most this many bytes of the body: a backtracking pattern's run time
/// grows with its input, and a build id sits near the top of a page.
pub const MAX_REGEX_TEXT: usize = 64 * 1024;

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
/// reason when the body cannot be fetched or does not yield a value within the --timeout
/// (counted from the request). Err(exit) when SIGINT or SIGTERM came first.
pub fn identify(http: Option<&Http>, env: &str, source: &ShaSource) -> Result<BuildData, Exit> {
    let mut data = unread(
        env,
        source,
        TargetStatus::Blocked,
        "needs --allow-network".to_string(),
    );
    let Some(http) = http else { return Ok(data) };
    let started = Instant::now();
    match http.get_or_cancel(&source.url)? {
        Err(refused) => {
            data.status = TargetStatus::Failed;
            data.reason = Some(refused.reason);
        }
        Ok(fetched) => {
            data.body_sha256 = Some(fetched.sha256.clone());
            match extract_within(fetched.body, source, started, http)? {
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
    Ok(data)
}

/// The build record of a read that SIGINT or SIGTERM (`exit`) stopped: `during` the read,
/// or before it began.
pub fn cancelled(env: &str, source: &ShaSource, exit: Exit, during: bool) -> BuildData {
    let when = if during {
        "while reading the build"
    } else {
        "before the build was read"
    };
    let signal = crate::events::signal_name(exit);
    unread(
        env,
        source,
        TargetStatus::Cancelled,
        format!("cancelled by {signal} {when}"),
    )
}

/// A build record without a value, for `reason`.
fn unread(env: &str, source: &ShaSource, status: TargetStatus, reason: String) -> BuildData {
    BuildData {
        env: env.to_string(),
        url: source.url.clone(),
        format: source.format,
        json_path: source.json_path.clone(),
        regex: source.regex.clone(),
        status,
        value: None,
        body_sha256: None,
        reason: Some(reason),
    }
}

/// [`extract`] on its own thread, given up at the end of the --timeout counted from
/// `started` (a regex may backtrack for hours and cannot be stopped) or at a signal.
fn extract_within(
    body: Vec<u8>,
    source: &ShaSource,
    started: Instant,
    http: &Http,
) -> Result<Result<String, String>, Exit> {
    let owned = source.clone();
    let deadline = started + http.timeout();
    match waiting::wait_until(
        move || extract(&body, &owned),
        deadline,
        qa_records::cancel::requested,
    ) {
        Ok(Some(read)) => Ok(read),
        Ok(None) => Ok(Err(format!(
            "{} did not finish within the {} s timeout: the build is unverified",
            reader_name(source),
            http.timeout().as_secs()
        ))),
        Err(Interrupted::Cancelled(exit)) => Err(exit),
        Err(Interrupted::Lost) => Ok(Err(format!(
            "{} ended without a value (an internal error)",
            reader_name(source)
        ))),
    }
}

/// `regex `P`` or `json_path `P``: the reader a message is about.
fn reader_name(source: &ShaSource) -> String {
    match (&source.regex, &source.json_path) {
        (Some(pattern), _) => format!("regex `{pattern}`"),
        (None, Some(path)) => format!("json_path `{path}`"),
        (None, None) => "the sha_source reader".to_string(),
    }
}

/// The build read again, compared with what `before` recorded; Err(exit) on a signal.
pub fn reverify(http: Option<&Http>, before: &BuildData) -> Result<BuildVerifyData, Exit> {
    let source = ShaSource {
        url: before.url.clone(),
        json_path: before.json_path.clone(),
        regex: before.regex.clone(),
        format: before.format,
    };
    if before.status != TargetStatus::Captured {
        return Ok(BuildVerifyData {
            env: before.env.clone(),
            before: None,
            after: None,
            same: true,
            reason: Some("not captured".to_string()),
        });
    }
    let after = identify(http, &before.env, &source)?;
    Ok(BuildVerifyData {
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
    })
}

/// The value a body gives for `source`; a regex sees the body's first
/// [`MAX_REGEX_TEXT`] bytes.
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
    let (text, seen) = match head(text, MAX_REGEX_TEXT) {
        head if head.len() < text.len() => (head, "the first 64 KiB of the sha_source body"),
        whole => (whole, "the sha_source body"),
    };
    let found = re
        .find(text)
        .ok_or_else(|| format!("regex `{pattern}` does not match {seen}"))?;
    let group = found
        .group(1)
        .ok_or_else(|| format!("regex `{pattern}` has no capture group 1"))?;
    Ok(text[group].to_string())
}

/// The longest start of `text` of at most `max` bytes that ends on a character boundary.
fn head(text: &str, max: usize) -> &str {
    let mut end = max.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
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
        let data = identify(None, "qa", &source(Some("commit"), None)).unwrap();
        assert_eq!(data.status, TargetStatus::Blocked);
        assert_eq!(data.value, None);
    }

    #[test]
    fn a_regex_sees_only_the_first_64_kib_of_the_body() {
        let s = source(None, Some(r"build-([0-9a-f]+)"));
        let mut near = "build-abc1 ".to_string();
        near.push_str(&" ".repeat(MAX_REGEX_TEXT));
        assert_eq!(extract(near.as_bytes(), &s).unwrap(), "abc1");
        let far = format!("{}build-abc1", " ".repeat(MAX_REGEX_TEXT));
        assert_eq!(
            extract(far.as_bytes(), &s).unwrap_err(),
            "regex `build-([0-9a-f]+)` does not match the first 64 KiB of the sha_source body"
        );
    }

    #[test]
    fn the_cut_never_splits_a_character() {
        let text = format!("{}é", "a".repeat(MAX_REGEX_TEXT - 1));
        assert_eq!(head(&text, MAX_REGEX_TEXT).len(), MAX_REGEX_TEXT - 1);
        assert_eq!(head("short", MAX_REGEX_TEXT), "short");
    }
}
