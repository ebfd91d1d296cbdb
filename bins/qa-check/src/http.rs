//! HTTP checks: one GET on the target's origin per check through one keep-alive agent,
//! redirects rejected, no proxy from the environment, the body capped at 1 MiB, each
//! request bounded by what is left of the whole-plan deadline.

use std::io::Read;
use std::time::{Duration, Instant};

use qa_records::acceptance::{ObservationEvidence, ObservationStatus};
use qa_records::hash::sha256_hex;
use qa_records::Exit;
use ureq::http::Uri;

use crate::checks::{HttpSpec, Outcome, TIMED_OUT};
use crate::excerpt;
use crate::secret::{redact, Secret};
use crate::waiting::{self, Interrupted};

/// The most body bytes read per response (1 MiB).
pub const MAX_BODY_BYTES: u64 = 1 << 20;

/// The shared HTTP client of one run.
pub struct Client {
    agent: ureq::Agent,
    token: Option<Secret>,
}

/// A response as far as it was read.
pub struct Response {
    pub status: u16,
    pub location: Option<String>,
    pub body: Vec<u8>,
    pub truncated: bool,
}

/// Why a request produced no response.
pub enum Failure {
    TimedOut,
    Broken(String),
}

impl Client {
    /// The agent every request of this run goes through (MCP sessions share it).
    pub fn agent(&self) -> &ureq::Agent {
        &self.agent
    }

    pub fn new(token: Option<Secret>) -> Client {
        let agent = ureq::Agent::config_builder()
            // A 3xx comes back as the response: following it could leave the origin.
            .max_redirects(0)
            // A proxy from the environment is not one the user chose for this run.
            .proxy(None)
            // Every status is an observation to compare, not a transport error.
            .http_status_as_error(false)
            .user_agent(crate::BY)
            .build()
            .new_agent();
        Client { agent, token }
    }

    /// Runs an http check against the target URL's origin. The request runs on its own
    /// thread so that a signal cancels the check at once instead of after the response;
    /// `cancelled` is polled while waiting.
    pub fn check(
        &self,
        target_url: &str,
        spec: &HttpSpec,
        deadline: Instant,
        cancelled: impl Fn() -> Option<Exit>,
    ) -> Outcome {
        let url = match check_url(target_url, spec.path.as_deref()) {
            Ok(url) => url,
            Err(why) => return Outcome::error(why, ObservationEvidence::default()),
        };
        let Some(left) = deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
        else {
            return Outcome::unverified(TIMED_OUT);
        };
        let agent = self.agent.clone();
        let token = self.token.clone();
        let request_url = url.clone();
        let waited = waiting::wait_for(
            move || get(&agent, &request_url, token.as_ref(), left),
            cancelled,
        );
        let result = match waited {
            Ok(result) => result,
            Err(Interrupted::Cancelled(exit)) => return Outcome::cancelled(exit),
            Err(Interrupted::Lost) => {
                return Outcome::error(
                    "the request thread ended without a result",
                    evidence_of(&url),
                )
            }
        };
        match result {
            Ok(response) => self.judge(&url, spec, response),
            Err(Failure::TimedOut) => Outcome::unverified(TIMED_OUT),
            Err(Failure::Broken(why)) => {
                Outcome::error(format!("GET {url}: {why}"), evidence_of(&url))
            }
        }
    }

    /// Compares a response with what the check expects.
    fn judge(&self, url: &str, spec: &HttpSpec, response: Response) -> Outcome {
        let token = self.token.as_ref();
        let text = String::from_utf8_lossy(&response.body);
        let evidence = ObservationEvidence {
            excerpt: Some(excerpt::head(&redact(token, &text))),
            sha256: Some(sha256_hex(&response.body)),
            bytes: response.body.len() as u64,
            truncated: response.truncated,
            http_status: Some(response.status),
            ..evidence_of(url)
        };
        let mut observed = vec![format!("status {}", response.status)];
        if (300..400).contains(&response.status) {
            let to = response
                .location
                .as_deref()
                .unwrap_or("(no Location header)");
            observed.push(format!("redirect to {to} rejected"));
            return Outcome::judged(false, observed.join("; "), evidence);
        }
        let status_ok = spec.status.is_none_or(|s| s == response.status);
        let found = spec.contains.as_ref().map(|needle| {
            let found = text.contains(needle.as_str());
            let verb = if found {
                "contains"
            } else {
                "does not contain"
            };
            observed.push(format!("body {verb} {needle:?}"));
            found
        });
        if response.truncated {
            observed.push(format!("body truncated at {MAX_BODY_BYTES} bytes"));
        }
        let observed = observed.join("; ");
        if status_ok && found == Some(false) && response.truncated {
            // The text may be in the part that was not read: neither pass nor fail.
            let needle = spec.contains.as_deref().unwrap_or_default();
            return Outcome {
                status: ObservationStatus::Unverified,
                observed,
                evidence,
                reason: Some(format!(
                    "the body is over {MAX_BODY_BYTES} bytes and {needle:?} is not in the part read"
                )),
            };
        }
        Outcome::judged(status_ok && found != Some(false), observed, evidence)
    }
}

fn evidence_of(url: &str) -> ObservationEvidence {
    ObservationEvidence {
        url: Some(url.to_string()),
        ..ObservationEvidence::default()
    }
}

/// One GET, bounded by `left`, reading at most [`MAX_BODY_BYTES`] of the body.
pub fn get(
    agent: &ureq::Agent,
    url: &str,
    token: Option<&Secret>,
    left: Duration,
) -> Result<Response, Failure> {
    let mut request = agent.get(url).config().timeout_global(Some(left)).build();
    if let Some(secret) = token {
        request = request.header(ureq::http::header::AUTHORIZATION, bearer(secret)?);
    }
    let response = request.call().map_err(failure_of)?;
    let status = response.status().as_u16();
    let location = response
        .headers()
        .get(ureq::http::header::LOCATION)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    let mut body = Vec::new();
    let read = response
        .into_body()
        .into_with_config()
        .limit(MAX_BODY_BYTES)
        .reader()
        .read_to_end(&mut body);
    let truncated = match read {
        Ok(_) => false,
        Err(e) => match ureq::Error::from(e) {
            ureq::Error::BodyExceedsLimit(_) => true,
            other => return Err(failure_of(other)),
        },
    };
    Ok(Response {
        status,
        location,
        body,
        truncated,
    })
}

/// The `Authorization` value for `secret`, marked sensitive so it is never logged.
pub fn bearer(secret: &Secret) -> Result<ureq::http::HeaderValue, Failure> {
    let mut value = ureq::http::HeaderValue::from_str(&secret.bearer())
        .map_err(|_| Failure::Broken("the token is not a valid header value".into()))?;
    value.set_sensitive(true);
    Ok(value)
}

pub fn failure_of(e: ureq::Error) -> Failure {
    match e {
        ureq::Error::Timeout(_) => Failure::TimedOut,
        ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => Failure::TimedOut,
        ureq::Error::ConnectionFailed => Failure::Broken("connection refused or failed".into()),
        other => Failure::Broken(other.to_string()),
    }
}

/// The URL of a check: the target URL's origin plus the check's path (`/` by default).
/// Anything that would leave that origin, or carry credentials in the URL, is refused.
pub fn check_url(target: &str, path: Option<&str>) -> Result<String, String> {
    let origin = origin(target)?;
    let path = path.unwrap_or("/");
    if !path.starts_with('/') || path.starts_with("//") {
        return Err(format!(
            "check path {path:?} must start with a single `/` (same origin only)"
        ));
    }
    if path
        .bytes()
        .any(|b| !b.is_ascii_graphic() || b == b'\\' || b == b'#')
    {
        return Err(format!(
            "check path {path:?} has a space, control character, backslash, `#` or non-ASCII character: percent-encode it"
        ));
    }
    let url = format!("{origin}{path}");
    match origin_of(&url) {
        Ok(o) if o == origin => Ok(url),
        _ => Err(format!("check path {path:?} leaves the origin {origin}")),
    }
}

/// The URL an mcp or browser check talks to: its origin plus the check's `path` when it
/// has one; else the target URL itself, or its origin plus `root_default` when the target
/// URL is the bare origin (an MCP endpoint is conventionally served at `/mcp`).
pub fn endpoint_url(
    target: &str,
    path: Option<&str>,
    root_default: Option<&str>,
) -> Result<String, String> {
    if path.is_some() {
        return check_url(target, path);
    }
    origin(target)?;
    let uri: Uri = target.parse().map_err(|e| format!("not a URL ({e})"))?;
    match root_default {
        Some(default) if matches!(uri.path(), "" | "/") && uri.query().is_none() => {
            check_url(target, Some(default))
        }
        _ => Ok(target.to_string()),
    }
}

/// `scheme://authority` of an http(s) URL without credentials.
fn origin(url: &str) -> Result<String, String> {
    origin_of(url).map_err(|why| format!("target URL {url:?}: {why}"))
}

fn origin_of(url: &str) -> Result<String, String> {
    let uri: Uri = url.parse().map_err(|e| format!("not a URL ({e})"))?;
    let scheme = uri.scheme_str().unwrap_or_default().to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return Err("not an http or https URL".to_string());
    }
    let authority = uri.authority().ok_or("no host")?;
    if authority.as_str().contains('@') {
        return Err("credentials in the URL are refused: use --auth-env".to_string());
    }
    Ok(format!(
        "{scheme}://{}",
        authority.as_str().to_ascii_lowercase()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_check_path_is_joined_to_the_target_origin() {
        assert_eq!(
            check_url("http://127.0.0.1:8080/app/index.html?x=1", Some("/health")),
            Ok("http://127.0.0.1:8080/health".to_string())
        );
        assert_eq!(
            check_url("https://example.test", None),
            Ok("https://example.test/".to_string())
        );
    }

    #[test]
    fn paths_that_leave_the_origin_are_refused() {
        for path in [
            "//evil.test/x",
            "http://evil.test/",
            "health",
            "/a b",
            "/a\\b",
            "/é",
        ] {
            assert!(
                check_url("http://127.0.0.1:8080/", Some(path)).is_err(),
                "{path}"
            );
        }
    }

    #[test]
    fn an_endpoint_is_the_path_the_target_url_or_the_default_under_a_bare_origin() {
        let mcp = Some("/mcp");
        assert_eq!(
            endpoint_url("http://h:1/api/mcp", None, mcp).as_deref(),
            Ok("http://h:1/api/mcp")
        );
        assert_eq!(
            endpoint_url("http://h:1", None, mcp).as_deref(),
            Ok("http://h:1/mcp")
        );
        assert_eq!(
            endpoint_url("http://h:1/", None, mcp).as_deref(),
            Ok("http://h:1/mcp")
        );
        assert_eq!(
            endpoint_url("http://h:1/", None, None).as_deref(),
            Ok("http://h:1/")
        );
        assert_eq!(
            endpoint_url("http://h:1/app", Some("/rpc"), mcp).as_deref(),
            Ok("http://h:1/rpc")
        );
    }

    #[test]
    fn a_target_with_credentials_or_another_scheme_is_refused() {
        assert!(check_url("http://user:pw@example.test/", None)
            .unwrap_err()
            .contains("credentials"));
        assert!(check_url("ftp://example.test/", None).is_err());
    }
}
