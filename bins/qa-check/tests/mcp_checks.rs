//! mcp checks against real peers on 127.0.0.1: a server built on the official MCP Python
//! SDK (stateful and stateless, JSON responses, paginated tools, a tool whose effect shows
//! on a plain GET route) and small hostile servers for what a real server will not do.

use crate::common;

use common::{observations, only_observation, qa_check, records, routed, url_target};
use qa_records::acceptance::TargetStatus;
use qa_testkit::mcp::{hostile, sdk_server, Mode, Peer};
use qa_testkit::Run;
use serde_json::{json, Value};

const CALLS: &[&str] = &["--allow-network", "--allow-tool-calls"];

/// qa-check on `checks` against the MCP endpoint `/mcp` of `peer`, with `flags`.
fn run_at(peer: &Peer, checks: &[Value], flags: &[&str]) -> Run {
    let target = url_target(&peer.url("/mcp"), TargetStatus::Captured, None);
    qa_check()
        .invocation()
        .args(flags)
        .stdin(routed(&target, checks).bytes())
        .run()
}

fn one(peer: &Peer, check: Value, flags: &[&str]) -> Value {
    only_observation(&run_at(peer, &[check], flags))
}

fn mcp(id: &str, extra: Value) -> Value {
    let mut check = json!({"id": id, "criterion": "volume", "kind": "mcp"});
    for (k, v) in extra.as_object().unwrap() {
        check[k] = v.clone();
    }
    check
}

fn state(peer: &Peer) -> String {
    peer.exchange(
        "GET",
        "/test/player-state",
        &[],
        "",
        std::time::Duration::from_secs(10),
    )
    .unwrap()
    .text()
}

// --- discovery ---

#[test]
fn discovery_finds_a_tool_past_the_first_page_with_its_contract() {
    let peer = sdk_server(Mode::Stateful);
    let obs = one(
        &peer,
        mcp("find", json!({"tool": "set_volume"})),
        &["--allow-network"],
    );
    assert_eq!(obs["status"], "pass", "{obs:#}");
    let seen = &obs["evidence"]["interface"];
    assert_eq!(seen["protocol_version"], "2025-11-25");
    assert_eq!(seen["session_issued"], true);
    assert_eq!(seen["tool_found"], true);
    assert!(seen["pages"].as_u64().unwrap() > 1, "{seen:#}");
    assert_eq!(seen["call"], "not-called");
    assert!(
        seen["closed"]
            .as_str()
            .unwrap()
            .starts_with("session deleted"),
        "{seen:#}"
    );
    assert_eq!(obs["evidence"]["url"], peer.url("/mcp"));
}

#[test]
fn discovery_of_a_tool_the_server_does_not_list_fails() {
    let peer = sdk_server(Mode::Stateful);
    let obs = one(
        &peer,
        mcp("find", json!({"tool": "no_such_tool"})),
        &["--allow-network"],
    );
    assert_eq!(obs["status"], "fail");
    assert!(
        obs["observed"].as_str().unwrap().contains("is not listed"),
        "{obs:#}"
    );
}

#[test]
fn a_stateless_server_issues_no_session_and_nothing_is_deleted() {
    let peer = sdk_server(Mode::Stateless);
    let obs = one(
        &peer,
        mcp("find", json!({"tool": "get_volume"})),
        &["--allow-network"],
    );
    assert_eq!(obs["status"], "pass", "{obs:#}");
    let seen = &obs["evidence"]["interface"];
    assert_eq!(seen["session_issued"], false);
    assert_eq!(seen["closed"], Value::Null);
}

#[test]
fn the_plans_schema_must_equal_the_published_one_exactly() {
    let peer = sdk_server(Mode::Stateless);
    let published = peer_schema(&peer, "set_volume");
    let same = one(
        &peer,
        mcp(
            "same",
            json!({"tool": "set_volume", "schema": published.clone()}),
        ),
        &["--allow-network"],
    );
    assert_eq!(same["status"], "pass", "{same:#}");
    let mut other = published;
    other["properties"]["level"]["maximum"] = json!(11);
    let differs = one(
        &peer,
        mcp("differs", json!({"tool": "set_volume", "schema": other})),
        &["--allow-network"],
    );
    assert_eq!(differs["status"], "fail");
    assert!(
        differs["observed"]
            .as_str()
            .unwrap()
            .contains("/properties/level/maximum"),
        "{differs:#}"
    );
}

/// The inputSchema the server publishes for `tool`, read with the peer's own client.
fn peer_schema(peer: &Peer, tool: &str) -> Value {
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"}}});
    peer.post_mcp(&init, &[]);
    let mut cursor: Option<String> = None;
    for _ in 0..20 {
        let params = match &cursor {
            Some(c) => json!({"cursor": c}),
            None => json!({}),
        };
        let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": params});
        let page = peer
            .post_mcp(&list, &[("MCP-Protocol-Version", "2025-11-25")])
            .json();
        let result = &page["result"];
        if let Some(t) = result["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == tool)
        {
            return t["inputSchema"].clone();
        }
        cursor = result["nextCursor"].as_str().map(str::to_string);
    }
    panic!("{tool} not listed");
}

// --- invocation ---

#[test]
fn a_call_is_unverified_without_the_tool_call_flag_and_sends_nothing() {
    let peer = sdk_server(Mode::Stateful);
    let check = mcp(
        "set",
        json!({"tool": "set_volume", "input": {"level": 20},
               "observePath": "/test/player-state", "observeContains": "\"volume\":20"}),
    );
    let obs = one(&peer, check, &["--allow-network"]);
    assert_eq!(obs["status"], "unverified");
    assert!(
        obs["reason"]
            .as_str()
            .unwrap()
            .contains("--allow-tool-calls"),
        "{obs:#}"
    );
    assert!(!state(&peer).contains("\"volume\":20"));
}

#[test]
fn a_positive_call_passes_on_its_observed_effect() {
    let peer = sdk_server(Mode::Stateful);
    let check = mcp(
        "set",
        json!({"tool": "set_volume", "input": {"level": 20},
               "observePath": "/test/player-state", "observeContains": "\"volume\":20"}),
    );
    let obs = one(&peer, check, CALLS);
    assert_eq!(obs["status"], "pass", "{obs:#}");
    let seen = &obs["evidence"]["interface"];
    assert_eq!(seen["call"], "result");
    assert_eq!(seen["input_valid"], true);
    assert_eq!(seen["observe"], peer.url("/test/player-state"));
    assert_ne!(seen["before_sha256"], seen["after_sha256"]);
    assert!(obs["evidence"]["excerpt"]
        .as_str()
        .unwrap()
        .contains("\"volume\":20"));
}

#[test]
fn a_tool_whose_result_claims_success_without_the_effect_fails() {
    let peer = sdk_server(Mode::Stateful);
    let check = mcp(
        "lie",
        json!({"tool": "lying_set", "input": {"level": 20},
               "observePath": "/test/player-state", "observeContains": "\"volume\":20"}),
    );
    let obs = one(&peer, check, CALLS);
    assert_eq!(obs["status"], "fail", "{obs:#}");
    assert_eq!(obs["evidence"]["interface"]["call"], "result");
    assert!(
        obs["observed"]
            .as_str()
            .unwrap()
            .contains("does not contain"),
        "{obs:#}"
    );
}

#[test]
fn schema_invalid_input_fails_a_positive_case_without_calling() {
    let peer = sdk_server(Mode::Stateful);
    let check = mcp(
        "set",
        json!({"tool": "set_volume", "input": {"level": "loud"},
               "observePath": "/test/player-state", "observeContains": "loud"}),
    );
    let obs = one(&peer, check, CALLS);
    assert_eq!(obs["status"], "fail", "{obs:#}");
    let seen = &obs["evidence"]["interface"];
    assert_eq!(seen["input_valid"], false);
    assert_eq!(seen["call"], "not-called");
    assert!(
        obs["observed"].as_str().unwrap().contains("not called"),
        "{obs:#}"
    );
}

#[test]
fn a_negative_case_passes_when_the_server_rejects_the_input() {
    let peer = sdk_server(Mode::Stateful);
    let check = mcp(
        "too-loud",
        json!({"tool": "set_volume", "input": {"level": 900}, "expectError": true}),
    );
    let obs = one(&peer, check, CALLS);
    assert_eq!(obs["status"], "pass", "{obs:#}");
    let seen = &obs["evidence"]["interface"];
    assert_eq!(seen["input_valid"], false);
    assert!(
        ["tool-error", "rpc-error"].contains(&seen["call"].as_str().unwrap()),
        "{seen:#}"
    );
    assert!(obs["observed"]
        .as_str()
        .unwrap()
        .contains("rejected as expected"));
}

#[test]
fn a_negative_case_fails_when_the_server_accepts_the_input() {
    let peer = sdk_server(Mode::Stateful);
    let check = mcp(
        "accepted",
        json!({"tool": "set_volume", "input": {"level": 30}, "expectError": true}),
    );
    let obs = one(&peer, check, CALLS);
    assert_eq!(obs["status"], "fail", "{obs:#}");
    assert_eq!(obs["evidence"]["interface"]["call"], "result");
}

#[test]
fn a_tool_that_rejects_everything_fails_its_positive_pair() {
    let peer = sdk_server(Mode::Stateful);
    let negative = mcp(
        "neg",
        json!({"tool": "reject_all", "input": {"level": 900}, "expectError": true}),
    );
    let positive = mcp(
        "pos",
        json!({"tool": "reject_all", "input": {"level": 20},
               "observePath": "/test/player-state", "observeContains": "\"volume\":20"}),
    );
    let obs = observations(&records(&run_at(&peer, &[negative, positive], CALLS), 0));
    assert_eq!(obs[0]["status"], "pass", "{:#}", obs[0]);
    assert_eq!(obs[1]["status"], "fail", "{:#}", obs[1]);
    assert_eq!(obs[1]["evidence"]["interface"]["call"], "tool-error");
}

#[test]
fn a_read_only_call_passes_when_the_observation_is_unchanged() {
    let peer = sdk_server(Mode::Stateful);
    let check = mcp(
        "get",
        json!({"tool": "get_volume", "input": {}, "readOnly": true,
               "observePath": "/test/player-state"}),
    );
    let obs = one(&peer, check, CALLS);
    assert_eq!(obs["status"], "pass", "{obs:#}");
    let seen = &obs["evidence"]["interface"];
    assert_eq!(seen["before_sha256"], seen["after_sha256"]);
}

#[test]
fn a_read_only_call_that_changes_the_observation_fails() {
    let peer = sdk_server(Mode::Stateful);
    let check = mcp(
        "sneaky",
        json!({"tool": "sneaky_read", "input": {}, "readOnly": true,
               "observePath": "/test/player-state"}),
    );
    let obs = one(&peer, check, CALLS);
    assert_eq!(obs["status"], "fail", "{obs:#}");
    assert!(
        obs["observed"]
            .as_str()
            .unwrap()
            .contains("observation changed"),
        "{obs:#}"
    );
}

#[test]
fn a_draft_07_schema_is_applied_by_its_own_rules() {
    let peer = sdk_server(Mode::Stateless);
    let bad = mcp(
        "bad",
        json!({"tool": "draft7_tool", "input": {"name": ""}, "readOnly": true,
               "observePath": "/test/player-state"}),
    );
    let good = mcp(
        "good",
        json!({"tool": "draft7_tool", "input": {"name": "x"}, "readOnly": true,
               "observePath": "/test/player-state"}),
    );
    let obs = observations(&records(&run_at(&peer, &[bad, good], CALLS), 0));
    assert_eq!(
        obs[0]["evidence"]["interface"]["input_valid"], false,
        "{:#}",
        obs[0]
    );
    assert_eq!(obs[0]["status"], "fail");
    assert_eq!(
        obs[1]["evidence"]["interface"]["input_valid"], true,
        "{:#}",
        obs[1]
    );
}

#[test]
fn a_2020_12_schema_is_applied_by_its_own_rules() {
    let peer = sdk_server(Mode::Stateless);
    let published = peer_schema(&peer, "modern_tool");
    assert_eq!(
        published["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    let input = valid_modern_input(&published);
    let check = mcp(
        "modern",
        json!({"tool": "modern_tool", "input": input, "readOnly": true,
               "observePath": "/test/player-state"}),
    );
    let obs = one(&peer, check, CALLS);
    assert_eq!(obs["evidence"]["interface"]["input_valid"], true, "{obs:#}");
}

/// An input that satisfies the peer's `modern_tool` schema, built from its required
/// properties (the peer's documented shape: `pair` is a [string, integer] tuple).
fn valid_modern_input(schema: &Value) -> Value {
    assert!(schema.to_string().contains("prefixItems"), "{schema:#}");
    let mut input = json!({});
    for (name, property) in schema["properties"].as_object().unwrap() {
        if let Some(items) = property["prefixItems"].as_array() {
            let tuple: Vec<Value> = items
                .iter()
                .map(|item| match item["type"].as_str() {
                    Some("string") => json!("a"),
                    Some("integer") | Some("number") => json!(1),
                    Some("boolean") => json!(true),
                    _ => Value::Null,
                })
                .collect();
            input[name] = json!(tuple);
        }
    }
    input
}

// --- the protocol as the client speaks it ---

/// A discovery check of `tool` against the hostile peer `behaviour`: the peer (for its
/// request log) and the observation.
fn discovered(behaviour: &str, tool: &str) -> (Peer, Value) {
    let peer = hostile(behaviour);
    let obs = one(
        &peer,
        mcp("find", json!({"tool": tool})),
        &["--allow-network"],
    );
    (peer, obs)
}

#[test]
fn every_post_carries_the_streamable_http_headers_and_the_session_is_deleted() {
    let (peer, obs) = discovered("good", "echo");
    assert_eq!(obs["status"], "pass", "{obs:#}");
    let log = peer.requests();
    let posts: Vec<&Value> = log.iter().filter(|r| r["method"] == "POST").collect();
    let methods: Vec<&str> = posts
        .iter()
        .map(|r| r["body"]["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        methods,
        ["initialize", "notifications/initialized", "tools/list"]
    );
    for post in &posts {
        let h = &post["headers"];
        assert_eq!(h["accept"], "application/json, text/event-stream");
        assert_eq!(h["content-type"], "application/json");
    }
    assert_eq!(posts[0]["headers"].get("mcp-session-id"), None);
    assert_eq!(posts[0]["headers"].get("mcp-protocol-version"), None);
    for later in &posts[1..] {
        assert_eq!(later["headers"]["mcp-session-id"], "s-123");
        assert_eq!(later["headers"]["mcp-protocol-version"], "2025-11-25");
    }
    assert_eq!(posts[0]["body"]["params"]["protocolVersion"], "2025-11-25");
    assert_eq!(posts[0]["body"]["params"]["clientInfo"]["name"], "qa-check");
    let last = log.last().unwrap();
    assert_eq!(last["method"], "DELETE");
    assert_eq!(last["headers"]["mcp-session-id"], "s-123");
    assert!(log.iter().all(|r| r["method"] != "GET"), "{log:#?}");
}

#[test]
fn no_session_header_is_sent_when_the_server_issued_none() {
    let (peer, obs) = discovered("good-no-session", "echo");
    assert_eq!(obs["status"], "pass", "{obs:#}");
    let log = peer.requests();
    assert!(
        log.iter()
            .all(|r| r["headers"].get("mcp-session-id").is_none()),
        "{log:#?}"
    );
    assert!(log.iter().all(|r| r["method"] == "POST"), "{log:#?}");
}

#[test]
fn a_server_that_refuses_delete_with_405_is_recorded_not_failed() {
    let (_peer, obs) = discovered("good-405", "echo");
    assert_eq!(obs["status"], "pass", "{obs:#}");
    assert!(obs["evidence"]["interface"]["closed"]
        .as_str()
        .unwrap()
        .contains("405"));
}

#[test]
fn the_mcp_endpoint_is_never_fetched_with_get() {
    let (peer, obs) = discovered("get-trap", "echo");
    assert_eq!(obs["status"], "pass", "{obs:#}");
    let log = peer.requests();
    assert!(
        !log.iter()
            .any(|r| r["method"] == "GET" && r["path"] == "/mcp"),
        "{log:#?}"
    );
}

#[test]
fn the_auth_env_token_is_sent_as_a_bearer_and_never_written() {
    let peer = hostile("good");
    let target = url_target(&peer.url("/mcp"), TargetStatus::Captured, None);
    let run = qa_check()
        .invocation()
        .args(["--allow-network", "--auth-env", "MCP_TOKEN"])
        .env("MCP_TOKEN", "s3cr3t-mcp-token")
        .stdin(routed(&target, &[mcp("echo", json!({"tool": "echo"}))]).bytes())
        .run();
    let obs = only_observation(&run);
    assert_eq!(obs["status"], "pass", "{obs:#}");
    let posts: Vec<Value> = peer
        .requests()
        .into_iter()
        .filter(|r| r["method"] == "POST")
        .collect();
    assert!(posts
        .iter()
        .all(|r| r["headers"]["authorization"] == "Bearer s3cr3t-mcp-token"));
    assert!(!String::from_utf8_lossy(&run.stdout).contains("s3cr3t-mcp-token"));
}

// --- what the client does not support is unverified, never a pass ---

/// The observation of a discovery check against the hostile peer `behaviour`: its status
/// is `status`, and its reason (unverified) or observed text (fail) says `words`.
fn ends_as(behaviour: &str, status: &str, words: &str) {
    let peer = hostile(behaviour);
    let obs = one(
        &peer,
        mcp("echo", json!({"tool": "echo"})),
        &["--allow-network", "--timeout", "20"],
    );
    assert_eq!(obs["status"], status, "{behaviour}: {obs:#}");
    let field = if status == "unverified" {
        "reason"
    } else {
        "observed"
    };
    let said = obs[field].as_str().unwrap();
    assert!(said.contains(words), "{behaviour}: {said}");
}

fn unverified_because(behaviour: &str, words: &str) {
    ends_as(behaviour, "unverified", words);
}

#[test]
fn an_sse_reply_to_initialize_is_unsupported() {
    unverified_because("sse", "SSE");
}

#[test]
fn an_sse_reply_to_tools_list_is_unsupported() {
    unverified_because("sse-on-list", "SSE");
}

#[test]
fn an_older_protocol_version_is_recorded_and_unsupported() {
    let (_peer, obs) = discovered("old-version", "echo");
    assert_eq!(obs["status"], "unverified");
    assert_eq!(
        obs["evidence"]["interface"]["protocol_version"],
        "2024-11-05"
    );
    assert!(obs["reason"].as_str().unwrap().contains("2024-11-05"));
}

#[test]
fn a_future_protocol_version_is_unsupported() {
    unverified_because("future-version", "2099-01-01");
}

#[test]
fn oauth_is_unsupported() {
    unverified_because("oauth", "authorization");
}

#[test]
fn a_server_request_instead_of_a_response_is_unsupported() {
    let peer = hostile("server-request");
    let check = mcp(
        "echo",
        json!({"tool": "echo", "input": {"text": "hi"}, "expectError": true}),
    );
    let obs = one(&peer, check, CALLS);
    assert_eq!(obs["status"], "unverified", "{obs:#}");
    assert!(obs["reason"].as_str().unwrap().contains("server-initiated"));
}

#[test]
fn an_endless_cursor_stops_after_ten_pages() {
    let (_peer, obs) = discovered("endless-cursor", "wanted");
    assert_eq!(obs["status"], "unverified", "{obs:#}");
    assert_eq!(obs["evidence"]["interface"]["pages"], 10);
    assert!(obs["reason"].as_str().unwrap().contains("10 pages"));
}

#[test]
fn a_repeated_cursor_stops_the_listing() {
    let (_peer, obs) = discovered("same-cursor", "wanted");
    assert_eq!(obs["status"], "unverified", "{obs:#}");
    assert!(obs["reason"]
        .as_str()
        .unwrap()
        .contains("repeated a cursor"));
}

#[test]
fn a_flood_of_tools_stops_at_one_thousand() {
    let (_peer, obs) = discovered("flood-tools", "wanted");
    assert_eq!(obs["status"], "unverified", "{obs:#}");
    assert_eq!(obs["evidence"]["interface"]["tools_listed"], 1000);
    assert!(obs["reason"].as_str().unwrap().contains("1000 tools"));
}

// --- garbage fails, stalls time out, and the rest of the plan goes on ---

fn fails_because(behaviour: &str, words: &str) {
    ends_as(behaviour, "fail", words);
}

#[test]
fn an_oversize_listing_fails_at_the_byte_cap() {
    fails_because("oversize", "over 4194304 bytes");
}

#[test]
fn a_malformed_body_fails() {
    fails_because("malformed", "not JSON");
}

#[test]
fn json_nested_too_deep_fails() {
    fails_because("deep-json", "not JSON");
}

#[test]
fn a_reply_to_another_request_id_fails() {
    fails_because("wrong-id", "does not match");
}

#[test]
fn a_stalled_server_times_out_within_the_plan_budget() {
    let peer = hostile("stall");
    let started = std::time::Instant::now();
    let run = run_at(
        &peer,
        &[
            mcp("x", json!({"tool": "echo"})),
            json!({"id": "after", "criterion": "volume", "kind": "http", "path": "/test/state", "status": 200}),
        ],
        &["--allow-network", "--timeout", "2"],
    );
    let obs = observations(&records(&run, 0));
    assert_eq!(obs.len(), 2);
    assert_eq!(obs[0]["status"], "unverified", "{:#}", obs[0]);
    assert!(obs[0]["reason"].as_str().unwrap().contains("timed out"));
    assert_eq!(obs[1]["status"], "unverified");
    assert!(started.elapsed() < std::time::Duration::from_secs(15));
}

#[test]
fn a_malformed_server_does_not_stop_the_checks_after_it() {
    let peer = hostile("malformed");
    let run = run_at(
        &peer,
        &[
            mcp("first", json!({"tool": "echo"})),
            json!({"id": "after", "criterion": "volume", "kind": "http", "path": "/test/state", "status": 200}),
        ],
        &["--allow-network"],
    );
    let obs = observations(&records(&run, 0));
    let statuses: Vec<&str> = obs.iter().map(|o| o["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["fail", "pass"], "{obs:#?}");
}

#[test]
fn an_unreachable_endpoint_is_unverified() {
    let peer = hostile("good");
    let url = peer.url("/mcp");
    drop(peer);
    let target = url_target(&url, TargetStatus::Captured, None);
    let run = qa_check()
        .invocation()
        .args(["--allow-network"])
        .stdin(routed(&target, &[mcp("x", json!({"tool": "echo"}))]).bytes())
        .run();
    let obs = only_observation(&run);
    assert_eq!(obs["status"], "unverified", "{obs:#}");
}

#[test]
fn a_listing_that_never_answers_times_out() {
    let peer = hostile("stall-list");
    let obs = one(
        &peer,
        mcp("x", json!({"tool": "echo"})),
        &["--allow-network", "--timeout", "2"],
    );
    assert_eq!(obs["status"], "unverified", "{obs:#}");
    assert!(
        obs["reason"].as_str().unwrap().contains("timed out"),
        "{obs:#}"
    );
    // It got as far as the listing: initialize was answered.
    assert_eq!(
        obs["evidence"]["interface"]["protocol_version"],
        "2025-11-25"
    );
}

#[test]
fn a_body_that_trickles_past_the_deadline_times_out() {
    let peer = hostile("trickle");
    let started = std::time::Instant::now();
    let obs = one(
        &peer,
        mcp("x", json!({"tool": "echo"})),
        &["--allow-network", "--timeout", "2"],
    );
    assert_eq!(obs["status"], "unverified", "{obs:#}");
    assert!(
        obs["reason"].as_str().unwrap().contains("timed out"),
        "{obs:#}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}
