//! The MCP client of mcp checks: protocol revision 2025-11-25 over Streamable HTTP with
//! JSON responses only (an SSE reply, OAuth and server-initiated requests are unsupported),
//! every request bounded in bytes, JSON depth and the plan deadline.

use std::collections::HashSet;
use std::io::Read;
use std::time::{Duration, Instant};

use qa_records::Exit;
use serde_json::{json, Value};
use ureq::http::header::{ACCEPT, CONTENT_TYPE};

use crate::agent::{Listing, Reply, Session, Stop, Tool};
use crate::checks::TIMED_OUT;
use crate::http::{self, Failure};
use crate::secret::Secret;
use crate::waiting::{self, Interrupted};

/// The one protocol revision this client speaks.
pub const PROTOCOL_VERSION: &str = "2025-11-25";
/// The endpoint's path when neither the check nor the target URL names one.
pub const DEFAULT_PATH: &str = "/mcp";
/// The most bytes read of one MCP response (4 MiB: a full 1,000-tool listing fits).
pub const MAX_RESPONSE_BYTES: u64 = 4 << 20;
/// tools/list pages followed at most.
pub const MAX_PAGES: u32 = 10;
/// Tools kept from a listing at most.
pub const MAX_TOOLS: usize = 1000;
/// The longest the closing DELETE may take.
const CLOSE_BOUND: Duration = Duration::from_secs(2);

const SESSION_HEADER: &str = "mcp-session-id";
const VERSION_HEADER: &str = "mcp-protocol-version";

/// A session with one MCP endpoint; nothing is sent before [`McpSession::initialize`].
pub struct McpSession {
    agent: ureq::Agent,
    endpoint: String,
    /// The same-origin URL an observation GETs.
    observe_url: Option<String>,
    token: Option<Secret>,
    deadline: Instant,
    cancelled: fn() -> Option<Exit>,
    session_id: Option<String>,
    protocol: Option<String>,
    next_id: u64,
}

/// A response as far as it was read.
struct Raw {
    status: u16,
    content_type: String,
    session_id: Option<String>,
    body: Vec<u8>,
    oversize: bool,
}

/// A JSON-RPC response's outcome.
enum Answer {
    Result(Value),
    Error { code: i64, message: String },
}

impl McpSession {
    pub fn new(
        agent: ureq::Agent,
        endpoint: String,
        observe_url: Option<String>,
        token: Option<Secret>,
        deadline: Instant,
        cancelled: fn() -> Option<Exit>,
    ) -> McpSession {
        McpSession {
            agent,
            endpoint,
            observe_url,
            token,
            deadline,
            cancelled,
            session_id: None,
            protocol: None,
            next_id: 1,
        }
    }

    /// The protocol version the server answered `initialize` with.
    pub fn protocol_version(&self) -> Option<&str> {
        self.protocol.as_deref()
    }

    /// Whether the server issued an `MCP-Session-Id`.
    pub fn session_issued(&self) -> bool {
        self.session_id.is_some()
    }

    /// `initialize`, then `notifications/initialized`. Another protocol version than
    /// [`PROTOCOL_VERSION`] is recorded and makes the check unverified.
    pub fn initialize(&mut self) -> Result<(), Stop> {
        let params = json!({
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "qa-check", "version": env!("CARGO_PKG_VERSION")},
        });
        let (raw, answer) = self.request("initialize", params)?;
        let result = match answer {
            Answer::Result(result) => result,
            Answer::Error { code, message } => {
                return Err(Stop::Unverified(format!(
                    "initialize was refused: JSON-RPC error {code}: {message}"
                )))
            }
        };
        if let Some(id) = raw.session_id {
            // The spec allows visible ASCII only; anything else cannot be echoed safely.
            if id.is_empty() || !id.bytes().all(|b| (0x21..=0x7e).contains(&b)) {
                return Err(Stop::Fail(
                    "initialize: the MCP-Session-Id is not visible ASCII".to_string(),
                ));
            }
            self.session_id = Some(id);
        }
        let Some(version) = result.get("protocolVersion").and_then(Value::as_str) else {
            return Err(Stop::Fail(
                "initialize: the result has no protocolVersion".to_string(),
            ));
        };
        self.protocol = Some(version.to_string());
        if version != PROTOCOL_VERSION {
            return Err(Stop::Unverified(format!(
                "the server answered protocol version {version}; this client supports {PROTOCOL_VERSION} only"
            )));
        }
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let raw = self.post(&note, "notifications/initialized")?;
        if !(200..300).contains(&raw.status) {
            return Err(Stop::Fail(format!(
                "notifications/initialized: HTTP {} (202 expected)",
                raw.status
            )));
        }
        Ok(())
    }

    /// One request and its JSON-RPC answer.
    fn request(&mut self, method: &str, params: Value) -> Result<(Raw, Answer), Stop> {
        let id = self.next_id;
        self.next_id += 1;
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let raw = self.post(&message, method)?;
        if !(200..300).contains(&raw.status) {
            return Err(Stop::Fail(format!("{method}: HTTP {}", raw.status)));
        }
        if !raw.content_type.starts_with("application/json") {
            return Err(Stop::Fail(format!(
                "{method}: the response's Content-Type is {:?}, not application/json",
                raw.content_type
            )));
        }
        if raw.oversize {
            return Err(Stop::Fail(format!(
                "{method}: the response is over {MAX_RESPONSE_BYTES} bytes"
            )));
        }
        let answer = answer_of(method, id, &raw.body)?;
        Ok((raw, answer))
    }

    /// POSTs `message`; statuses and content types that end every exchange are handled
    /// here (401/403, an SSE stream), the rest is the caller's.
    fn post(&self, message: &Value, method: &str) -> Result<Raw, Stop> {
        let left = self.left()?;
        let mut request = self
            .agent
            .post(&self.endpoint)
            .config()
            .timeout_global(Some(left))
            .build()
            .header(ACCEPT, "application/json, text/event-stream")
            .header(CONTENT_TYPE, "application/json");
        if let Some(version) = &self.protocol {
            request = request.header(VERSION_HEADER, version.as_str());
        }
        if let Some(id) = &self.session_id {
            let mut value = ureq::http::HeaderValue::from_str(id)
                .map_err(|_| Stop::Fail("the MCP-Session-Id is not a header value".into()))?;
            value.set_sensitive(true);
            request = request.header(SESSION_HEADER, value);
        }
        if let Some(secret) = &self.token {
            let value = http::bearer(secret).map_err(|f| self.broken(method, f))?;
            request = request.header(ureq::http::header::AUTHORIZATION, value);
        }
        let body = serde_json::to_vec(message).expect("a JSON value serializes");
        let sent = waiting::wait_for(
            move || -> Result<Raw, Failure> {
                let response = request.send(&body[..]).map_err(http::failure_of)?;
                read(response)
            },
            self.cancelled,
        );
        let raw = match sent {
            Ok(Ok(raw)) => raw,
            Ok(Err(failure)) => return Err(self.broken(method, failure)),
            Err(Interrupted::Cancelled(exit)) => return Err(Stop::Cancelled(exit)),
            Err(Interrupted::Lost) => {
                return Err(Stop::Fail(format!(
                    "{method}: the request thread ended without a result"
                )))
            }
        };
        if raw.content_type.starts_with("text/event-stream") {
            return Err(Stop::Unverified(format!(
                "{method}: the server answered with an SSE stream (text/event-stream); this client supports JSON responses only"
            )));
        }
        if raw.status == 401 || raw.status == 403 {
            return Err(Stop::Unverified(format!(
                "{method}: HTTP {}: the server asks for authorization (OAuth is unsupported; --auth-env sends a bearer token)",
                raw.status
            )));
        }
        if raw.status == 404 && self.session_id.is_some() {
            return Err(Stop::Fail(format!(
                "{method}: HTTP 404: the server no longer knows the session"
            )));
        }
        Ok(raw)
    }

    /// What is left of the plan deadline, or a timed-out stop.
    fn left(&self) -> Result<Duration, Stop> {
        self.deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
            .ok_or_else(|| Stop::Unverified(TIMED_OUT.to_string()))
    }

    fn broken(&self, method: &str, failure: Failure) -> Stop {
        match failure {
            Failure::TimedOut => Stop::Unverified(format!("{TIMED_OUT} ({method})")),
            Failure::Broken(why) => {
                Stop::Unverified(format!("{method}: POST {}: {why}", self.endpoint))
            }
        }
    }
}

impl Session for McpSession {
    fn tools(&mut self, wanted: &str) -> Result<Listing, Stop> {
        let mut listing = Listing::default();
        let mut cursors = HashSet::new();
        let mut cursor: Option<String> = None;
        loop {
            let params = match &cursor {
                Some(c) => json!({"cursor": c}),
                None => json!({}),
            };
            let (_, answer) = self.request("tools/list", params)?;
            listing.pages += 1;
            let result = match answer {
                Answer::Result(result) => result,
                Answer::Error { code, message } => {
                    return Err(Stop::Fail(format!(
                        "tools/list: JSON-RPC error {code}: {message}"
                    )))
                }
            };
            let Some(tools) = result.get("tools").and_then(Value::as_array) else {
                return Err(Stop::Fail(
                    "tools/list: the result has no `tools` array".to_string(),
                ));
            };
            for tool in tools {
                if listing.tools.len() == MAX_TOOLS {
                    listing.cut = Some(format!("the listing goes past {MAX_TOOLS} tools"));
                    return Ok(listing);
                }
                listing.tools.push(tool_of(tool)?);
            }
            if listing.tools.iter().any(|t| t.name == wanted) {
                return Ok(listing);
            }
            cursor = match result.get("nextCursor") {
                // Some servers end a listing with an empty cursor rather than none.
                None | Some(Value::Null) => return Ok(listing),
                Some(Value::String(next)) if next.is_empty() => return Ok(listing),
                Some(Value::String(next)) => Some(next.clone()),
                Some(other) => {
                    return Err(Stop::Fail(format!(
                        "tools/list: nextCursor is not a string: {other}"
                    )))
                }
            };
            let next = cursor.clone().unwrap_or_default();
            if !cursors.insert(next) {
                listing.cut = Some("the server repeated a cursor".to_string());
                return Ok(listing);
            }
            if listing.pages == MAX_PAGES {
                listing.cut = Some(format!("the listing goes past {MAX_PAGES} pages"));
                return Ok(listing);
            }
        }
    }

    fn call(&mut self, tool: &str, input: &Value) -> Result<Reply, Stop> {
        let (_, answer) = self.request("tools/call", json!({"name": tool, "arguments": input}))?;
        Ok(match answer {
            Answer::Error { code, message } => Reply::RpcError { code, message },
            Answer::Result(result) if result.get("isError") == Some(&Value::Bool(true)) => {
                Reply::ToolError(content_text(&result))
            }
            Answer::Result(result) => Reply::Result(result),
        })
    }

    fn observe(&mut self) -> Result<String, Stop> {
        let Some(url) = self.observe_url.clone() else {
            return Err(Stop::Unverified("no observePath to observe".to_string()));
        };
        let left = self.left()?;
        let agent = self.agent.clone();
        let token = self.token.clone();
        let target = url.clone();
        let got = waiting::wait_for(
            move || http::get(&agent, &target, token.as_ref(), left),
            self.cancelled,
        );
        let response = match got {
            Ok(Ok(response)) => response,
            Ok(Err(Failure::TimedOut)) => {
                return Err(Stop::Unverified(format!("{TIMED_OUT} (GET {url})")))
            }
            Ok(Err(Failure::Broken(why))) => {
                return Err(Stop::Unverified(format!("observation GET {url}: {why}")))
            }
            Err(Interrupted::Cancelled(exit)) => return Err(Stop::Cancelled(exit)),
            Err(Interrupted::Lost) => {
                return Err(Stop::Fail(format!("observation GET {url}: no result")))
            }
        };
        if !(200..300).contains(&response.status) {
            return Err(Stop::Unverified(format!(
                "observation GET {url} answered HTTP {}",
                response.status
            )));
        }
        if response.truncated {
            return Err(Stop::Unverified(format!(
                "observation GET {url}: the body is over {} bytes",
                http::MAX_BODY_BYTES
            )));
        }
        Ok(String::from_utf8_lossy(&response.body).into_owned())
    }

    fn close(&mut self) -> Option<String> {
        let id = self.session_id.take()?;
        // Best effort, bounded even when the plan deadline has passed or a signal came.
        let left = self
            .deadline
            .checked_duration_since(Instant::now())
            .unwrap_or_default()
            .clamp(Duration::from_millis(500), CLOSE_BOUND);
        let mut request = self
            .agent
            .delete(&self.endpoint)
            .config()
            .timeout_global(Some(left))
            .build()
            .header(SESSION_HEADER, id.as_str());
        if let Some(version) = &self.protocol {
            request = request.header(VERSION_HEADER, version.as_str());
        }
        if let Some(secret) = &self.token {
            if let Ok(value) = http::bearer(secret) {
                request = request.header(ureq::http::header::AUTHORIZATION, value);
            }
        }
        Some(match request.call() {
            Ok(response) => match response.status().as_u16() {
                405 => "DELETE answered 405: the server keeps sessions until they expire".into(),
                status if (200..300).contains(&status) => {
                    format!("session deleted (HTTP {status})")
                }
                status => format!("DELETE answered HTTP {status}"),
            },
            Err(e) => match http::failure_of(e) {
                Failure::TimedOut => format!("DELETE timed out after {} ms", left.as_millis()),
                Failure::Broken(why) => format!("DELETE failed: {why}"),
            },
        })
    }
}

/// Reads a response: status, the headers the client needs, at most
/// [`MAX_RESPONSE_BYTES`] of body.
fn read(response: ureq::http::Response<ureq::Body>) -> Result<Raw, Failure> {
    let header = |name| {
        response
            .headers()
            .get(name)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
    };
    let status = response.status().as_u16();
    let content_type = header(CONTENT_TYPE.as_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let session_id = header(SESSION_HEADER);
    if content_type.starts_with("text/event-stream") {
        // Never read a stream this client cannot use: it may never end.
        return Ok(Raw {
            status,
            content_type,
            session_id,
            body: Vec::new(),
            oversize: false,
        });
    }
    let mut body = Vec::new();
    let read = response
        .into_body()
        .into_with_config()
        .limit(MAX_RESPONSE_BYTES)
        .reader()
        .read_to_end(&mut body);
    let oversize = match read {
        Ok(_) => false,
        Err(e) => match ureq::Error::from(e) {
            ureq::Error::BodyExceedsLimit(_) => true,
            other => return Err(http::failure_of(other)),
        },
    };
    Ok(Raw {
        status,
        content_type,
        session_id,
        body,
        oversize,
    })
}

/// The JSON-RPC answer to request `id` in `body`. serde_json's nesting limit (128) bounds
/// the JSON depth.
fn answer_of(method: &str, id: u64, body: &[u8]) -> Result<Answer, Stop> {
    let message: Value = serde_json::from_slice(body)
        .map_err(|e| Stop::Fail(format!("{method}: the response is not JSON ({e})")))?;
    let Some(object) = message.as_object() else {
        return Err(Stop::Fail(format!(
            "{method}: the response is not a JSON-RPC object"
        )));
    };
    if let Some(request) = object.get("method").and_then(Value::as_str) {
        return Err(Stop::Unverified(format!(
            "{method}: the server sent a request (`{request}`) instead of a response; server-initiated requests are unsupported"
        )));
    }
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(Stop::Fail(format!(
            "{method}: the response is not JSON-RPC 2.0"
        )));
    }
    if object.get("id") != Some(&json!(id)) {
        return Err(Stop::Fail(format!(
            "{method}: the response's id {} does not match the request's {id}",
            object
                .get("id")
                .map_or("(none)".to_string(), Value::to_string)
        )));
    }
    match (object.get("result"), object.get("error")) {
        (Some(result), None) => Ok(Answer::Result(result.clone())),
        (None, Some(error)) => Ok(Answer::Error {
            code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
            message: error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("(no message)")
                .to_string(),
        }),
        _ => Err(Stop::Fail(format!(
            "{method}: the response has not exactly one of `result` and `error`"
        ))),
    }
}

/// A listed tool; a tool without a string name breaks the listing.
fn tool_of(tool: &Value) -> Result<Tool, Stop> {
    Tool::from_listed(tool)
        .ok_or_else(|| Stop::Fail("tools/list: a listed tool has no string `name`".to_string()))
}

/// The text parts of a tool result's `content`, or the whole result when it has none.
fn content_text(result: &Value) -> String {
    let texts: Vec<&str> = result
        .get("content")
        .and_then(Value::as_array)
        .map(|parts| {
            parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default();
    if texts.is_empty() {
        result.to_string()
    } else {
        texts.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fail_reason(r: Result<Answer, Stop>) -> String {
        match r {
            Err(Stop::Fail(why)) | Err(Stop::Unverified(why)) => why,
            _ => panic!("expected a stop"),
        }
    }

    #[test]
    fn a_matching_result_is_an_answer() {
        let body = br#"{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}"#;
        assert!(matches!(
            answer_of("tools/list", 3, body),
            Ok(Answer::Result(_))
        ));
    }

    #[test]
    fn an_error_response_keeps_code_and_message() {
        let body = br#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"bad"}}"#;
        match answer_of("tools/call", 3, body) {
            Ok(Answer::Error { code, message }) => {
                assert_eq!((code, message.as_str()), (-32602, "bad"))
            }
            _ => panic!("expected an error answer"),
        }
    }

    #[test]
    fn another_id_is_a_protocol_failure() {
        let body = br#"{"jsonrpc":"2.0","id":4,"result":{}}"#;
        assert!(fail_reason(answer_of("tools/list", 3, body)).contains("does not match"));
    }

    #[test]
    fn a_server_request_is_unsupported_not_a_failure() {
        let body = br#"{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{}}"#;
        assert!(matches!(
            answer_of("tools/call", 3, body),
            Err(Stop::Unverified(_))
        ));
    }

    #[test]
    fn json_nested_past_the_depth_limit_is_refused() {
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert!(fail_reason(answer_of("tools/list", 1, deep.as_bytes())).contains("not JSON"));
        let shallow = format!("{}{}", "[".repeat(10), "]".repeat(10));
        assert!(fail_reason(answer_of("tools/list", 1, shallow.as_bytes()))
            .contains("not a JSON-RPC object"));
    }

    #[test]
    fn a_tool_without_a_name_breaks_the_listing() {
        assert!(tool_of(&json!({"description": "x"})).is_err());
        assert_eq!(tool_of(&json!({"name": "a"})).unwrap().name, "a");
    }

    #[test]
    fn a_tool_error_says_its_text_content() {
        let result =
            json!({"isError": true, "content": [{"type": "text", "text": "level out of range"}]});
        assert_eq!(content_text(&result), "level out of range");
    }
}
