//! The contract both agent interfaces (an MCP server, a WebMCP page) are checked against:
//! what a session must offer (list tools, call one, observe the effect) and why it stops.

use qa_records::acceptance::{
    CallStatus, InterfaceEvidence, Moment, ObservationEvidence, ObservationStatus,
};
use qa_records::hash::sha256_hex;
use qa_records::Exit;
use serde::Deserialize;
use serde_json::Value;

use crate::checks::Outcome;
use crate::excerpt;
use crate::secret::{redact, Secret};

/// A tool as the interface lists it, kept verbatim for schema comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    pub name: String,
    /// The listed description, when it is a string.
    pub description: Option<String>,
    /// The listed input schema (`inputSchema`), whatever its type.
    pub input_schema: Option<Value>,
}

impl Tool {
    /// A tool as MCP's tools/list and WebMCP's getTools list it: None without a string
    /// `name`.
    pub fn from_listed(item: &Value) -> Option<Tool> {
        Some(Tool {
            name: item.get("name")?.as_str()?.to_string(),
            description: item
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_string),
            input_schema: item.get("inputSchema").cloned(),
        })
    }
}

/// The tools an interface listed while looking for one.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    pub tools: Vec<Tool>,
    /// Pages read (1 for an interface that does not page).
    pub pages: u32,
    /// Why the listing stopped before its end (page or tool cap, a repeated cursor), if it did.
    pub cut: Option<String>,
}

/// How a tool call came back.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A result that does not say it is an error.
    Result(Value),
    /// A result with `isError: true` (MCP), or a rejected/throwing `executeTool` (WebMCP).
    ToolError(String),
    /// A JSON-RPC error response.
    RpcError { code: i64, message: String },
}

/// Why a session step ended the check early.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The interface could not be checked (unsupported protocol, unreachable, timed out).
    Unverified(String),
    /// The interface answered against its protocol (garbage, oversize, wrong shape).
    Fail(String),
    /// SIGINT or SIGTERM arrived.
    Cancelled(Exit),
}

/// A connected session with one agent interface. Every method is bounded in time by the
/// plan deadline and in bytes by the interface's caps.
pub trait Session {
    /// Lists tools until `wanted` is found or the listing ends or is capped.
    fn tools(&mut self, wanted: &str) -> Result<Listing, Stop>;
    /// Calls `tool` with the object `input`.
    fn call(&mut self, tool: &str, input: &Value) -> Result<Reply, Stop>;
    /// The observable state the check looks at: a same-origin GET's body (MCP) or a CSS
    /// selector's text (WebMCP).
    fn observe(&mut self) -> Result<String, Stop>;
    /// Ends the session (best effort, bounded); a note on how it ended, if worth keeping.
    fn close(&mut self) -> Option<String>;
    /// Keeps a picture of what the interface shows at `moment` (a page's screenshot), where
    /// there is one to take. Failing to take it is the session's note, not the check's
    /// failure: only a signal stops the check.
    fn picture(&mut self, _moment: Moment) -> Result<(), Stop> {
        Ok(())
    }
}

/// An mcp or browser check as the plan writes it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentSpec {
    pub tool: String,
    /// MCP: the endpoint's same-origin path (when absent: the target URL itself, or `/mcp`
    /// under a bare origin).
    /// Browser: the page's same-origin path (the target URL itself when absent).
    pub path: Option<String>,
    /// The inputSchema the tool must publish, exactly.
    pub schema: Option<Value>,
    /// The call's arguments; absent means discovery only.
    pub input: Option<Value>,
    /// MCP: a same-origin path to GET; browser: a CSS selector (`body` by default).
    pub observe_path: Option<String>,
    pub observe_contains: Option<String>,
    pub read_only: Option<bool>,
    pub expect_error: Option<bool>,
}

/// Which agent interface a check speaks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interface {
    Mcp,
    Browser,
}

/// The CSS selector a browser check observes when the plan names none.
pub const DEFAULT_SELECTOR: &str = "body";

impl AgentSpec {
    /// Parses and checks the fields' combination for `interface`.
    pub fn parse(spec: &Value, interface: Interface) -> Result<AgentSpec, String> {
        let parsed = AgentSpec::deserialize(spec).map_err(|e| e.to_string())?;
        if parsed.tool.is_empty() {
            return Err("`tool` is empty".to_string());
        }
        if let Some(input) = &parsed.input {
            if !input.is_object() {
                return Err("`input` must be an object (the tool's arguments)".to_string());
            }
        }
        if parsed.schema.as_ref().is_some_and(|s| !s.is_object()) {
            return Err("`schema` must be an object (the tool's inputSchema)".to_string());
        }
        let read_only = parsed.read_only == Some(true);
        let negative = parsed.expect_error == Some(true);
        let observes = match interface {
            Interface::Mcp => parsed.observe_path.is_some(),
            Interface::Browser => true,
        };
        if parsed.input.is_none() {
            if negative || read_only || parsed.observe_contains.is_some() {
                return Err(
                    "`expectError`, `readOnly` and `observeContains` need `input` (a call)"
                        .to_string(),
                );
            }
        } else if !negative {
            let proves = observes && (parsed.observe_contains.is_some() || read_only);
            if !proves {
                let needs = match interface {
                    Interface::Mcp => "`observePath` with `observeContains`, or `observePath` with `readOnly: true`",
                    Interface::Browser => "`observeContains`, or `readOnly: true`",
                };
                return Err(format!(
                    "a positive invocation needs {needs}: a tool's result alone proves no effect"
                ));
            }
        }
        if parsed.observe_contains.is_some() && !observes {
            return Err("`observeContains` needs `observePath`".to_string());
        }
        Ok(parsed)
    }

    pub fn negative(&self) -> bool {
        self.expect_error == Some(true)
    }

    pub fn read_only(&self) -> bool {
        self.read_only == Some(true)
    }

    /// Whether the check observes state around its call.
    pub fn observes(&self) -> bool {
        self.input.is_some() && (self.read_only() || self.observe_contains.is_some())
    }

    /// What the check expects, in words.
    pub fn expected(&self) -> String {
        let mut parts = vec![format!(
            "tool `{}` listed with a description and an object inputSchema",
            self.tool
        )];
        if self.schema.is_some() {
            parts.push("its inputSchema equal to the plan's schema".to_string());
        }
        if let Some(input) = &self.input {
            let input = serde_json::to_string(input).unwrap_or_default();
            if self.negative() {
                parts.push(format!("a call with {input} rejected (an error)"));
            } else {
                parts.push(format!("a call with {input} succeeding"));
            }
            if self.read_only() {
                parts.push("the observation unchanged by the call".to_string());
            }
            if let Some(text) = &self.observe_contains {
                parts.push(format!("the observation containing {text:?} after it"));
            }
        }
        parts.join("; ")
    }
}

/// The outcome of a check whose session could not be opened.
pub fn stopped(stop: Stop) -> Outcome {
    match stop {
        Stop::Unverified(why) => Outcome::unverified(why),
        Stop::Fail(why) => Outcome::judged(false, why, ObservationEvidence::default()),
        Stop::Cancelled(exit) => Outcome::cancelled(exit),
    }
}

/// The flag a tool call needs on qa-check (and on qa-route to route it runnable).
pub const ALLOW_TOOL_CALLS: &str = "--allow-tool-calls";

/// Checks `spec` against an open session: discovery, then (with input) validation, the
/// call and its observation. `evidence` collects what was seen; the outcome's observed
/// text says how far the check got.
pub fn judge(
    session: &mut dyn Session,
    spec: &AgentSpec,
    allow_tool_calls: bool,
    token: Option<&Secret>,
    evidence: &mut InterfaceEvidence,
) -> Outcome {
    let mut seen = Vec::new();
    let mut result = judged(session, spec, allow_tool_calls, token, evidence, &mut seen);
    // The page at the end of the check; or, for a check that failed before getting there,
    // where it failed.
    let moment = match &result {
        Ok(_) => Some(Moment::After),
        Err(Stop::Fail(_)) => Some(Moment::Failure),
        Err(_) => None,
    };
    if let Some(moment) = moment {
        if let Err(stop) = session.picture(moment) {
            result = Err(stop);
        }
    }
    let observed = if seen.is_empty() {
        "not run".to_string()
    } else {
        seen.join("; ")
    };
    let (status, reason, text) = match result {
        Ok((passed, text)) => (
            if passed {
                ObservationStatus::Pass
            } else {
                ObservationStatus::Fail
            },
            None,
            text,
        ),
        Err(Stop::Fail(why)) => (ObservationStatus::Fail, Some(why), None),
        Err(Stop::Unverified(why)) => (ObservationStatus::Unverified, Some(why), None),
        Err(Stop::Cancelled(exit)) => return Outcome::cancelled(exit),
    };
    let mut found = ObservationEvidence::default();
    if let Some(text) = text {
        found.excerpt = Some(excerpt::head(&redact(token, &text)));
        found.sha256 = Some(sha256_hex(text.as_bytes()));
        found.bytes = text.len() as u64;
    }
    // A failure that stopped the check early is said in `observed` too.
    let observed = match (&reason, status) {
        (Some(why), ObservationStatus::Fail) => format!("{observed}; {why}"),
        _ => observed,
    };
    let reason = if status == ObservationStatus::Fail {
        None
    } else {
        reason
    };
    Outcome {
        status,
        observed: observed.trim_start_matches("; ").to_string(),
        evidence: found,
        reason,
    }
}

/// The judging steps; `seen` collects what each step observed. Ok: pass or fail, with the
/// last observed state.
fn judged(
    session: &mut dyn Session,
    spec: &AgentSpec,
    allow_tool_calls: bool,
    token: Option<&Secret>,
    evidence: &mut InterfaceEvidence,
    seen: &mut Vec<String>,
) -> Result<(bool, Option<String>), Stop> {
    let listing = session.tools(&spec.tool)?;
    evidence.tools_listed = listing.tools.len() as u64;
    evidence.pages = listing.pages;
    let pages = match listing.pages {
        1 => "1 page".to_string(),
        n => format!("{n} pages"),
    };
    let Some(tool) = listing.tools.iter().find(|t| t.name == spec.tool) else {
        let listed = format!("{} tools listed in {pages}", listing.tools.len());
        return match listing.cut {
            Some(cut) => Err(Stop::Unverified(format!(
                "tool `{}` not among the first {listed}: {cut}",
                spec.tool
            ))),
            None => Err(Stop::Fail(format!(
                "tool `{}` is not listed ({listed})",
                spec.tool
            ))),
        };
    };
    evidence.tool_found = true;
    seen.push(format!("tool `{}` listed ({pages})", tool.name));
    discovery(tool, spec)?;
    let Some(input) = &spec.input else {
        // Discovery only: what was observed is the tool's published contract.
        let contract = serde_json::json!({
            "name": tool.name,
            "description": tool.description,
            "inputSchema": tool.input_schema,
        });
        return Ok((true, Some(compact(&contract))));
    };
    if !allow_tool_calls {
        return Err(Stop::Unverified(format!(
            "the call needs {ALLOW_TOOL_CALLS}, which was not given"
        )));
    }
    let schema = tool.input_schema.as_ref().expect("discovery checked it");
    let valid = validate(schema, input)?;
    evidence.input_valid = Some(valid.is_ok());
    match (&valid, spec.negative()) {
        (Err(why), false) => {
            return Err(Stop::Fail(format!(
                "the input does not match the tool's inputSchema ({why}): not called"
            )))
        }
        (Err(why), true) => seen.push(format!("input invalid for the inputSchema ({why})")),
        (Ok(()), true) => seen.push("input valid for the inputSchema".to_string()),
        (Ok(()), false) => {}
    }
    let before = if spec.observes() {
        Some(session.observe()?)
    } else {
        None
    };
    evidence.before_sha256 = before.as_ref().map(|t| sha256_hex(t.as_bytes()));
    session.picture(Moment::Before)?;
    let reply = session.call(&spec.tool, input)?;
    let (call, said) = match &reply {
        Reply::Result(value) => (CallStatus::Result, format!("result {}", compact(value))),
        Reply::ToolError(text) => (CallStatus::ToolError, format!("tool error: {text}")),
        Reply::RpcError { code, message } => (
            CallStatus::RpcError,
            format!("JSON-RPC error {code}: {message}"),
        ),
    };
    evidence.call = call;
    evidence.reply_excerpt = Some(excerpt::head(&redact(token, &said)));
    let after = if spec.observes() {
        Some(session.observe()?)
    } else {
        None
    };
    evidence.after_sha256 = after.as_ref().map(|t| sha256_hex(t.as_bytes()));
    let errored = call != CallStatus::Result;
    let mut passed = errored == spec.negative();
    seen.push(match (errored, spec.negative()) {
        (true, true) => format!("rejected as expected ({})", short(&said)),
        (false, true) => format!(
            "accepted input the case expects rejected ({})",
            short(&said)
        ),
        (true, false) => format!("the call failed ({})", short(&said)),
        (false, false) => format!("the call succeeded ({})", short(&said)),
    });
    if let (Some(before), Some(after)) = (&before, &after) {
        if spec.read_only() {
            let same = before == after;
            passed &= same;
            seen.push(if same {
                "the observation is unchanged".to_string()
            } else {
                format!(
                    "the observation changed: {} -> {}",
                    short(before),
                    short(after)
                )
            });
        }
        if let Some(text) = &spec.observe_contains {
            let found = after.contains(text.as_str());
            passed &= found;
            let already = if before.contains(text.as_str()) {
                " (it already did before the call)"
            } else {
                ""
            };
            seen.push(if found {
                format!("the observation contains {text:?}{already}")
            } else {
                format!("the observation does not contain {text:?}")
            });
        }
    }
    // Without an observation, the reply is what was observed.
    Ok((passed, after.or(Some(said))))
}

/// The named tool's published contract: a description, an object inputSchema, and the
/// plan's schema exactly when it gives one.
fn discovery(tool: &Tool, spec: &AgentSpec) -> Result<(), Stop> {
    if tool
        .description
        .as_deref()
        .is_none_or(|d| d.trim().is_empty())
    {
        return Err(Stop::Fail(format!(
            "tool `{}` has no description",
            tool.name
        )));
    }
    let schema = match &tool.input_schema {
        Some(Value::Object(schema)) => schema,
        Some(other) => {
            return Err(Stop::Fail(format!(
                "tool `{}`'s inputSchema is not an object: {}",
                tool.name,
                short(&compact(other))
            )))
        }
        None => {
            return Err(Stop::Fail(format!(
                "tool `{}` has no inputSchema",
                tool.name
            )))
        }
    };
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        return Err(Stop::Fail(format!(
            "tool `{}`'s inputSchema does not have `type: \"object\"`",
            tool.name
        )));
    }
    if let Some(expected) = &spec.schema {
        let published = tool.input_schema.as_ref().expect("matched above");
        if published != expected {
            return Err(Stop::Fail(format!(
                "tool `{}`'s inputSchema differs from the plan's schema at {}: published {}",
                tool.name,
                difference(expected, published),
                short(&compact(published))
            )));
        }
    }
    Ok(())
}

/// Validates `input` against `schema` (its `$schema` picks the draft; 2020-12 when absent).
/// Outer error: the schema itself cannot be used, so nothing is called (fail closed).
fn validate(schema: &Value, input: &Value) -> Result<Result<(), String>, Stop> {
    let validator = jsonschema::validator_for(schema).map_err(|e| {
        Stop::Fail(format!(
            "the tool's inputSchema is not a JSON Schema this client can apply ({e}): not called"
        ))
    })?;
    let first = validator.iter_errors(input).next();
    Ok(match first {
        None => Ok(()),
        Some(e) => {
            let at = e.instance_path().to_string();
            let at = if at.is_empty() { "/".to_string() } else { at };
            Err(format!("at {at}: {e}"))
        }
    })
}

/// The first JSON pointer where `a` and `b` differ.
fn difference(a: &Value, b: &Value) -> String {
    fn walk(a: &Value, b: &Value, at: String) -> Option<String> {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
                keys.sort();
                keys.dedup();
                keys.into_iter().find_map(|k| match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => walk(p, q, format!("{at}/{k}")),
                    _ => Some(format!("{at}/{k}")),
                })
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
                .iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (p, q))| walk(p, q, format!("{at}/{i}"))),
            _ if a == b => None,
            _ => Some(if at.is_empty() { "/".to_string() } else { at }),
        }
    }
    walk(a, b, String::new()).unwrap_or_else(|| "/".to_string())
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// At most 200 characters of `text`, for the one-line `observed`.
fn short(text: &str) -> String {
    const MAX: usize = 200;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}
