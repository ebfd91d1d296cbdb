//! The acceptance-flow record payloads (`plan`, `criterion`, `target.spec`, `check.spec`,
//! check `route`s, `target`, `target.verify`, `observation`, `verdict`, `event`): written by
//! one stage, read by the ones after it.
//!
//! Enumerations serialize to the names in `schema/<kind>.schema.json`. Durations and
//! timestamps appear only in `event` records, never in hashed evidence of other kinds.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::change::Action;
use crate::shard::Shard;

/// What a plan's target names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TargetKind {
    File,
    Directory,
    Url,
}

/// A plan's target, as declared (`target.spec` data).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetSpec {
    pub kind: TargetKind,
    /// Repository-relative path, or the URL.
    pub value: String,
    /// The operator's label for the deployed build: recorded, never attested.
    pub build_id: Option<String>,
    /// The host-profile environment and app whose URL `value` was resolved from
    /// (`{kind: url, env: qa, app: storefront}` in the plan); None for a plain target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app: Option<String>,
}

/// Where a criterion comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceKind {
    /// An explicit statement in the plan.
    Request,
    /// A repository file holding a ticket export, with a verbatim quote.
    Ticket,
    /// A repository specification file, with a verbatim quote.
    Spec,
    /// Supplied by inference: labelled, and never enough to pass a run.
    Inferred,
}

/// A criterion's source, as checked by `qa-intent --plan`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    pub kind: SourceKind,
    /// Repository-relative file (ticket, spec).
    pub path: Option<String>,
    /// The verbatim quote that must be in `path`.
    pub quote: Option<String>,
    /// The inline text (request, inferred).
    pub text: Option<String>,
    /// SHA-256 of the source file's bytes.
    pub sha256: Option<String>,
    /// True when the quote was found verbatim (always true for request and inferred).
    pub found: bool,
}

/// `plan` data: the plan file and what it holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlanData {
    pub path: String,
    pub sha256: String,
    pub target: TargetSpec,
    pub criteria: u32,
    pub checks: u32,
}

/// `criterion` data.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CriterionData {
    pub id: String,
    pub expected: String,
    pub source: Source,
    pub inferred: bool,
}

/// `check.spec` data: one check of the plan, kept whole for the stage that runs it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CheckSpecData {
    pub id: String,
    pub criterion: String,
    /// As written in the plan (`file`, `http`, `mcp`, `browser`, or an unknown kind).
    pub kind: String,
    /// The check object exactly as the plan gives it.
    pub spec: Value,
}

impl CheckSpecData {
    /// Whether this is an mcp check that talks to `target_url` itself: its `path` is the
    /// target URL's path, or it has none and the target URL is more than a bare origin.
    /// Streamable HTTP reserves GET on an MCP endpoint for an event stream, so no stage
    /// fetches such a URL.
    pub fn is_mcp_endpoint(&self, target_url: &str) -> bool {
        if self.kind != "mcp" {
            return false;
        }
        let Some((_, rest)) = target_url.split_once("://") else {
            return false;
        };
        let path = rest.find('/').map_or("", |at| &rest[at..]);
        let path = path.split(['?', '#']).next().unwrap_or_default();
        match self.spec.get("path").and_then(Value::as_str) {
            Some(own) => own == path,
            None => !matches!(path, "" | "/"),
        }
    }
}

/// Route decision for a check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckDecision {
    Runnable,
    /// A permission flag it needs was not given.
    Blocked,
    /// No checker for its kind, or an invalid check.
    Unsupported,
}

/// `route` data for a check.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CheckRouteData {
    /// The `check.spec` record id.
    pub subject: String,
    pub check: String,
    pub criterion: String,
    pub decision: CheckDecision,
    pub reason: String,
    /// Permission flags the check needs (`--allow-network`, ...).
    pub needs: Vec<String>,
    /// The needed flags that were not given.
    pub missing: Vec<String>,
    pub action: Action,
}

/// What happened when a target was captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TargetStatus {
    Captured,
    /// Not fetched: a permission flag was missing (`--allow-network`).
    Blocked,
    /// Could not be captured (limit hit, symlink, unreachable, redirect): see `reason`.
    Failed,
    /// Not captured because SIGINT or SIGTERM stopped the run (before or during the
    /// capture): see `reason`.
    Cancelled,
}

/// One file of a content manifest.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Entry {
    pub path: String,
    pub size: u64,
    pub sha256: String,
}

/// A path left out of a capture, and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Excluded {
    pub path: String,
    pub reason: String,
}

/// `target` data: the captured identity of a target.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TargetData {
    pub kind: TargetKind,
    pub value: String,
    pub build_id: Option<String>,
    pub status: TargetStatus,
    /// Manifest hash (file, directory) or body hash (url).
    pub sha256: Option<String>,
    pub entries: Vec<Entry>,
    pub excluded: Vec<Excluded>,
    /// Why the capture is blocked or failed.
    pub reason: Option<String>,
    pub http_status: Option<u16>,
    pub etag: Option<String>,
    pub x_build_id: Option<String>,
}

/// What `qa-fetch --verify` compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VerifySubject {
    Target,
    Plan,
    Source,
}

/// `target.verify` data: a recapture after the checks.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TargetVerifyData {
    pub subject: VerifySubject,
    /// The target value, plan path or source path.
    pub value: String,
    pub before: Option<String>,
    pub after: Option<String>,
    /// True when nothing changed; a false one makes the run stale.
    pub same: bool,
    /// Paths that were added, removed or changed (directory targets), at most 64.
    pub changed: Vec<String>,
    pub reason: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ObservationStatus {
    Pass,
    Fail,
    /// The check ran but the observation itself broke (unreachable, malformed reply).
    Error,
    /// The check could not run (blocked, unsupported, target not captured): never a pass.
    Unverified,
    Cancelled,
    /// Another shard of a sharded run (`qa-check --shard I/N`) owns the check: not run
    /// here, never a pass; the reason names the owning shard.
    Skipped,
}

/// What an observation keeps as evidence: bounded excerpts plus full-content hashes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObservationEvidence {
    /// At most 4,096 characters of what was observed (secrets redacted).
    pub excerpt: Option<String>,
    /// SHA-256 of the whole observed content (up to the byte cap).
    pub sha256: Option<String>,
    pub bytes: u64,
    /// True when the content was cut at the byte cap.
    pub truncated: bool,
    pub url: Option<String>,
    pub path: Option<String>,
    pub http_status: Option<u16>,
    /// What an mcp or browser check saw of the agent interface; absent for other kinds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interface: Option<InterfaceEvidence>,
    /// The screenshots a browser check kept, in the order taken; absent when there are
    /// none (other kinds, `--no-screenshots`).
    #[serde(
        default,
        deserialize_with = "null_as_empty",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub screenshots: Vec<Screenshot>,
}

/// When a browser check's screenshot was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Moment {
    /// The page before the tool call.
    Before,
    /// The page after the observation (the end of the check).
    After,
    /// The page where the check failed, before it got to its observation.
    Failure,
}

impl fmt::Display for Moment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Moment::Before => "before",
            Moment::After => "after",
            Moment::Failure => "failure",
        })
    }
}

/// A screenshot a browser check kept, as its observation's `evidence.screenshots` names
/// it: `qa-check` writes the PNG under the project root (`--repo`), `qa-report` carries it
/// into the run folder once its bytes match `sha256`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Screenshot {
    pub moment: Moment,
    /// `.qa/screenshots/<sha256>.png`, relative to the project root ([`Screenshot::path_of`]).
    pub path: String,
    /// SHA-256 of the PNG's bytes.
    pub sha256: String,
    /// The PNG's size, at most [`Screenshot::MAX_BYTES`].
    pub bytes: u64,
    pub width: u32,
    pub height: u32,
}

impl Screenshot {
    /// The largest screenshot kept or carried (2 MiB).
    pub const MAX_BYTES: u64 = 2 << 20;

    /// Where screenshots are kept, relative to the project root.
    pub const DIR: &str = ".qa/screenshots";

    /// The eight bytes every PNG starts with.
    pub const PNG_SIGNATURE: &[u8; 8] = b"\x89PNG\r\n\x1a\n";

    /// The path of the screenshot whose SHA-256 is `sha256`, relative to the project root:
    /// `.qa/screenshots/<sha256>.png`.
    pub fn path_of(sha256: &str) -> String {
        format!("{}/{sha256}.png", Self::DIR)
    }
}

/// Reads null as an empty list (as `qa-report` has always read `evidence.screenshots`).
fn null_as_empty<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(deserializer)?.unwrap_or_default())
}

/// How a tool call of an mcp or browser check came back.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CallStatus {
    /// Discovery only, or the check stopped before the call.
    #[default]
    NotCalled,
    /// A result that does not say it is an error.
    Result,
    /// A result with `isError: true`, or a rejected WebMCP `executeTool`.
    ToolError,
    /// A JSON-RPC error response.
    RpcError,
}

/// What an mcp or browser check saw of the agent interface (never the session id itself:
/// it can grant access).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterfaceEvidence {
    /// The MCP endpoint or the page URL.
    pub endpoint: String,
    /// The protocol version the MCP server answered `initialize` with.
    pub protocol_version: Option<String>,
    /// Whether the MCP server issued an `MCP-Session-Id`.
    pub session_issued: bool,
    /// Tools listed before the named one was found or the listing stopped.
    pub tools_listed: u64,
    pub pages: u32,
    pub tool_found: bool,
    /// Whether the input matched the tool's inputSchema (absent when there was no input
    /// or no schema to check it against).
    pub input_valid: Option<bool>,
    pub call: CallStatus,
    /// At most 4,096 characters of the tool's reply (secrets redacted).
    pub reply_excerpt: Option<String>,
    /// The observation: a same-origin URL (mcp) or a CSS selector (browser).
    pub observe: Option<String>,
    /// SHA-256 of the observed text before and after the call.
    pub before_sha256: Option<String>,
    pub after_sha256: Option<String>,
    /// How the session ended (MCP: DELETE answered 204 or 405, or why it could not be;
    /// browser: None, or why the page's context or the browser had to be killed).
    pub closed: Option<String>,
    /// The production write guard a browser check ran under; absent elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write_guard: Option<WriteGuardEvidence>,
}

/// What the production write guard of a browser check did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WriteGuardEvidence {
    /// Write signatures and allow signatures the guard applied.
    pub write_signatures: u64,
    pub allow_signatures: u64,
    /// Each request it aborted, as `METHOD URL`.
    pub aborted: Vec<String>,
}

/// `observation` data: one check's result.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ObservationData {
    pub check: String,
    pub criterion: String,
    pub check_kind: String,
    pub status: ObservationStatus,
    pub expected: String,
    pub observed: String,
    pub evidence: ObservationEvidence,
    /// Why the check is unverified, errored, cancelled or skipped.
    pub reason: Option<String>,
    /// The shard of a sharded run that wrote this observation; absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VerdictStatus {
    Pass,
    Fail,
    Incomplete,
    Stale,
    Cancelled,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CriterionStatus {
    Pass,
    Fail,
    Unverified,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub pass: u32,
    pub fail: u32,
    pub unverified: u32,
}

/// One criterion's outcome in the verdict.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CriterionOutcome {
    pub id: String,
    pub status: CriterionStatus,
    pub reasons: Vec<String>,
}

/// `verdict` data: the run's outcome.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct VerdictData {
    pub status: VerdictStatus,
    pub counts: Counts,
    pub reasons: Vec<String>,
    pub criteria: Vec<CriterionOutcome>,
}

/// `event` data: a phase of a run, with its time (events are the only records that carry
/// timestamps and durations).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EventData {
    /// `plan`, `fetch`, `check`, `verify`, `report`, `cancel`.
    pub phase: String,
    /// RFC 3339 UTC time the event was written.
    pub at: String,
    /// The record id (check, target) the event is about.
    pub subject: Option<String>,
    pub duration_ms: Option<u64>,
    pub detail: Option<String>,
}

/// How a deployed build is named by its `sha_source`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BuildFormat {
    /// A git commit the environment serves (preferred).
    Commit,
    /// Any stable per-build fingerprint (a bundle hash): names the bundle, not the commit.
    BuildId,
}

/// `build` data: the deployed build of a profile environment, read from its `sha_source`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BuildData {
    /// The profile environment.
    pub env: String,
    pub url: String,
    pub format: BuildFormat,
    /// Exactly one of these two, as the profile gives it.
    pub json_path: Option<String>,
    pub regex: Option<String>,
    pub status: TargetStatus,
    /// The commit or build id read; None when not captured.
    pub value: Option<String>,
    pub body_sha256: Option<String>,
    pub reason: Option<String>,
}

/// `build.verify` data: the deployed build read again after the checks.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BuildVerifyData {
    pub env: String,
    pub before: Option<String>,
    pub after: Option<String>,
    /// False when another build answered: the run is stale.
    pub same: bool,
    pub reason: Option<String>,
}

#[cfg(test)]
mod mcp_endpoint_tests {
    use super::*;
    use serde_json::json;

    fn check(kind: &str, spec: Value) -> CheckSpecData {
        CheckSpecData {
            id: "c".into(),
            criterion: "k".into(),
            kind: kind.into(),
            spec,
        }
    }

    #[test]
    fn an_mcp_check_without_a_path_talks_to_a_target_url_with_one() {
        let c = check("mcp", json!({"tool": "t"}));
        assert!(c.is_mcp_endpoint("http://h:1/mcp"));
        assert!(c.is_mcp_endpoint("http://h:1/api/mcp?x=1"));
        assert!(!c.is_mcp_endpoint("http://h:1/"));
        assert!(!c.is_mcp_endpoint("http://h:1"));
    }

    #[test]
    fn an_mcp_check_with_a_path_talks_to_the_target_only_at_that_path() {
        let c = check("mcp", json!({"tool": "t", "path": "/mcp"}));
        assert!(c.is_mcp_endpoint("http://h:1/mcp"));
        assert!(!c.is_mcp_endpoint("http://h:1/"));
    }

    #[test]
    fn other_kinds_never_name_an_mcp_endpoint() {
        let c = check("http", json!({"path": "/mcp"}));
        assert!(!c.is_mcp_endpoint("http://h:1/mcp"));
    }
}

#[cfg(test)]
mod screenshot_tests {
    use super::*;
    use serde_json::json;

    fn shot() -> Screenshot {
        Screenshot {
            moment: Moment::Failure,
            path: Screenshot::path_of(&"a".repeat(64)),
            sha256: "a".repeat(64),
            bytes: 70,
            width: 1,
            height: 1,
        }
    }

    #[test]
    fn evidence_without_screenshots_has_no_screenshots_field() {
        let value = serde_json::to_value(ObservationEvidence::default()).unwrap();
        assert!(value.get("screenshots").is_none(), "{value}");
    }

    #[test]
    fn a_screenshot_serializes_as_the_observation_schema_names_it() {
        let evidence = ObservationEvidence {
            screenshots: vec![shot()],
            ..ObservationEvidence::default()
        };
        let value = serde_json::to_value(&evidence).unwrap();
        let sha = "a".repeat(64);
        assert_eq!(
            value["screenshots"],
            json!([{"moment": "failure", "path": format!(".qa/screenshots/{sha}.png"),
                    "sha256": sha, "bytes": 70, "width": 1, "height": 1}])
        );
        let back: ObservationEvidence = serde_json::from_value(value).unwrap();
        assert_eq!(back, evidence);
    }

    #[test]
    fn absent_or_null_screenshots_read_as_none() {
        let mut value = serde_json::to_value(ObservationEvidence::default()).unwrap();
        let absent: ObservationEvidence = serde_json::from_value(value.clone()).unwrap();
        assert!(absent.screenshots.is_empty());
        value["screenshots"] = Value::Null;
        let null: ObservationEvidence = serde_json::from_value(value).unwrap();
        assert!(null.screenshots.is_empty());
    }

    #[test]
    fn a_moment_displays_as_it_serializes() {
        for moment in [Moment::Before, Moment::After, Moment::Failure] {
            assert_eq!(
                json!(moment.to_string()),
                serde_json::to_value(moment).unwrap()
            );
        }
    }
}
