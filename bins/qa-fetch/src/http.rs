//! Fetching a URL target: one GET with no proxy, no redirects, a global timeout and a
//! 1 MiB body limit; what is kept is the status, the body's SHA-256, ETag and X-Build-Id.

use qa_records::hash;
use qa_records::secret::Secret as Bearer;
use qa_records::waiting::{self, Interrupted};
use qa_records::Exit;
use sha2::{Digest, Sha256};
use std::io::Read;
use std::time::Duration;

/// At most this many body bytes are read; a longer body fails the capture.
pub const MAX_BODY_BYTES: u64 = 1 << 20;

/// A response as captured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    pub status: u16,
    pub sha256: String,
    /// The body itself (at most 1 MiB): a build's `sha_source` is read from it.
    pub body: Vec<u8>,
    pub etag: Option<String>,
    pub x_build_id: Option<String>,
}

/// Why a fetch produced no capture: a reason for the `target` record, token redacted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub reason: String,
    /// The status line's code, when a response arrived (a redirect).
    pub status: Option<u16>,
}

/// The one HTTP client a run uses (a clone shares its connections).
#[derive(Clone)]
pub struct Http {
    agent: ureq::Agent,
    timeout: Duration,
    bearer: Option<Bearer>,
}

impl Http {
    pub fn new(timeout: Duration, bearer: Option<Bearer>) -> Http {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            // A redirect is returned, never followed: it would leave the declared target.
            .max_redirects(0)
            // The environment's proxy is not the user's choice for this run.
            .proxy(None)
            // Any status is an observation, not an error.
            .http_status_as_error(false)
            .build();
        Http {
            agent: ureq::Agent::new_with_config(config),
            timeout,
            bearer,
        }
    }

    /// The --timeout every request is bounded by.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// [`get`](Self::get) on its own thread, waited for while polling SIGINT/SIGTERM:
    /// Err(exit) when a signal came first. The abandoned request ends on its own timeout.
    pub fn get_or_cancel(&self, url: &str) -> Result<Result<Fetched, Refused>, Exit> {
        let (http, owned) = (self.clone(), url.to_string());
        match waiting::wait_for(move || http.get(&owned), qa_records::cancel::requested) {
            Ok(got) => Ok(got),
            Err(Interrupted::Cancelled(exit)) => Err(exit),
            Err(Interrupted::Lost) => Ok(Err(
                self.refused("the request ended without an answer (an internal error)".to_string())
            )),
        }
    }

    /// GETs `url` once.
    pub fn get(&self, url: &str) -> Result<Fetched, Refused> {
        self.fetch(url).map_err(|mut refused| {
            if let Some(bearer) = &self.bearer {
                refused.reason = bearer.redact(&refused.reason).into_owned();
            }
            refused
        })
    }

    fn fetch(&self, url: &str) -> Result<Fetched, Refused> {
        let scheme = url.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
        if !matches!(scheme.as_deref(), Some("http" | "https")) {
            return Err(self.refused(format!("{url} is not an http or https URL")));
        }
        let mut request = self.agent.get(url);
        if let Some(bearer) = &self.bearer {
            request = request.header("Authorization", bearer.bearer());
        }
        let mut response = request.call().map_err(|e| self.refused(self.describe(e)))?;
        let status = response.status().as_u16();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        if (300..400).contains(&status) {
            let reason = match header("location") {
                Some(location) => format!("redirect to {location} rejected"),
                None => format!("redirect ({status}) without a location rejected"),
            };
            return Err(Refused {
                reason,
                status: Some(status),
            });
        }
        // A server may reflect the token in any header: never record it.
        let clean = |value: Option<String>| match (&self.bearer, value) {
            (Some(bearer), Some(v)) => Some(bearer.redact(&v).into_owned()),
            (_, v) => v,
        };
        let etag = clean(header("etag"));
        let x_build_id = clean(header("x-build-id"));
        let streams = header("content-type")
            .is_some_and(|t| t.to_ascii_lowercase().starts_with("text/event-stream"));
        if streams {
            // An event stream (an MCP endpoint's GET, say) may never end: its identity is
            // the status and headers, with the hash of an empty body.
            return Ok(Fetched {
                status,
                sha256: hash::sha256_hex(b""),
                body: Vec::new(),
                etag,
                x_build_id,
            });
        }
        let mut reader = response
            .body_mut()
            .with_config()
            .limit(MAX_BODY_BYTES)
            .reader();
        let mut hasher = Sha256::new();
        let mut buf = vec![0u8; 64 * 1024];
        let mut body = Vec::new();
        loop {
            match reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    hasher.update(&buf[..n]);
                    body.extend_from_slice(&buf[..n]);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Err(Refused {
                        reason: self.describe(ureq::Error::from(e)),
                        status: Some(status),
                    })
                }
            }
        }
        Ok(Fetched {
            status,
            sha256: hash::hex(&hasher.finalize()),
            body,
            etag,
            x_build_id,
        })
    }

    fn refused(&self, reason: String) -> Refused {
        Refused {
            reason,
            status: None,
        }
    }

    fn describe(&self, error: ureq::Error) -> String {
        match error {
            ureq::Error::Timeout(_) => {
                format!("timed out after the {} s timeout", self.timeout.as_secs())
            }
            ureq::Error::BodyExceedsLimit(_) => "the body is over the 1 MiB limit".to_string(),
            other => format!("request failed: {other}"),
        }
    }
}
