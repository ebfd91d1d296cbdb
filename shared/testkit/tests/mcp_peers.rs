//! The MCP peers of tests/peers behave as qa-check's tests rely on: the SDK server's
//! tools, pagination and sessions, each hostile behaviour's one departure, and the
//! processes' start and stop.

use qa_testkit::mcp::{hostile, sdk_server, Mode, Peer, Response};
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant};

const PROTOCOL: &str = "2025-11-25";

fn request(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn initialize_request() -> Value {
    request(
        1,
        "initialize",
        json!({"protocolVersion": PROTOCOL, "capabilities": {},
               "clientInfo": {"name": "testkit", "version": "1"}}),
    )
}

/// An initialized session: the session id the peer issued, if any.
struct Session<'a> {
    peer: &'a Peer,
    id: Option<String>,
}

impl<'a> Session<'a> {
    fn open(peer: &'a Peer) -> Session<'a> {
        let answer = peer.post_mcp(&initialize_request(), &[]);
        assert_eq!(answer.status, 200, "initialize: {}", answer.text());
        let session = Session {
            peer,
            id: answer.header("mcp-session-id").map(str::to_string),
        };
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(session.post(&initialized).status, 202);
        session
    }

    /// The headers every request after initialize carries.
    fn headers(&self) -> Vec<(&str, &str)> {
        let mut headers = vec![("MCP-Protocol-Version", PROTOCOL)];
        if let Some(id) = &self.id {
            headers.push(("MCP-Session-Id", id));
        }
        headers
    }

    fn post(&self, message: &Value) -> Response {
        self.peer.post_mcp(message, &self.headers())
    }

    fn post_within(&self, message: &Value, timeout: Duration) -> std::io::Result<Response> {
        self.peer.try_post_mcp(message, &self.headers(), timeout)
    }

    /// The status of the DELETE that ends the session.
    fn delete(&self) -> u16 {
        let deleted = self.peer.exchange(
            "DELETE",
            "/mcp",
            &self.headers(),
            "",
            Duration::from_secs(10),
        );
        deleted
            .unwrap_or_else(|e| panic!("DELETE /mcp: {e}"))
            .status
    }

    /// The `result` of a request that must succeed.
    fn call(&self, method: &str, params: Value) -> Value {
        let answer = self.post(&request(7, method, params)).json();
        answer
            .get("result")
            .cloned()
            .unwrap_or_else(|| panic!("{method} failed: {answer}"))
    }

    fn tool(&self, name: &str, arguments: Value) -> Value {
        self.call("tools/call", json!({"name": name, "arguments": arguments}))
    }

    /// Every tool name, following nextCursor; and how many pages that took.
    fn all_tools(&self) -> (Vec<Value>, usize) {
        let (mut tools, mut pages, mut cursor) = (Vec::new(), 0, None::<String>);
        loop {
            let params = cursor.map_or(json!({}), |c| json!({"cursor": c}));
            let page = self.call("tools/list", params);
            pages += 1;
            tools.extend(page["tools"].as_array().expect("tools").iter().cloned());
            match page.get("nextCursor").and_then(Value::as_str) {
                Some(next) => cursor = Some(next.to_string()),
                None => return (tools, pages),
            }
        }
    }
}

fn names(tools: &[Value]) -> Vec<&str> {
    tools
        .iter()
        .map(|t| t["name"].as_str().expect("name"))
        .collect()
}

fn text_of(result: &Value) -> &str {
    result["content"][0]["text"]
        .as_str()
        .expect("a text content")
}

fn get(peer: &Peer, path: &str) -> Response {
    peer.exchange("GET", path, &[], "", Duration::from_secs(10))
        .unwrap_or_else(|e| panic!("GET {path}: {e}"))
}

fn timed_out(answer: std::io::Result<Response>) -> bool {
    matches!(answer, Err(e) if e.kind() == std::io::ErrorKind::TimedOut)
}

fn player_state(peer: &Peer) -> String {
    get(peer, "/test/player-state").text()
}

// --- the SDK server ------------------------------------------------------------------

#[test]
fn the_stateful_sdk_server_answers_initialize_in_json_with_a_session() {
    let peer = sdk_server(Mode::Stateful);
    let answer = peer.post_mcp(&initialize_request(), &[]);
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("content-type"), Some("application/json"));
    assert_eq!(answer.json()["result"]["protocolVersion"], PROTOCOL);
    assert!(answer
        .header("mcp-session-id")
        .is_some_and(|id| !id.is_empty()));
}

#[test]
fn the_stateless_sdk_server_issues_no_session_and_serves_requests_alone() {
    let peer = sdk_server(Mode::Stateless);
    let answer = peer.post_mcp(&initialize_request(), &[]);
    assert_eq!(answer.header("content-type"), Some("application/json"));
    assert_eq!(answer.header("mcp-session-id"), None);
    let session = Session {
        peer: &peer,
        id: None,
    };
    assert_eq!(
        text_of(&session.tool("get_volume", json!({}))),
        "volume is 50"
    );
}

#[test]
fn the_sdk_tools_are_paged_four_at_a_time_with_the_volume_tools_past_the_first_page() {
    let peer = sdk_server(Mode::Stateful);
    let session = Session::open(&peer);
    let first = session.call("tools/list", json!({}));
    let first_names = names(first["tools"].as_array().unwrap()).join(",");
    assert_eq!(first_names, "filler_00,filler_01,filler_02,filler_03");
    assert!(first["nextCursor"].is_string());

    let (tools, pages) = session.all_tools();
    let all = names(&tools);
    assert!(all.len() > 20 && pages > 5, "{pages} pages: {all:?}");
    for wanted in [
        "set_volume",
        "get_volume",
        "mute",
        "reject_all",
        "lying_set",
        "sneaky_read",
    ] {
        assert!(all.contains(&wanted), "{wanted} missing from {all:?}");
    }
    for tool in &tools {
        assert!(tool["description"].is_string(), "{tool}");
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
    }
}

#[test]
fn an_sdk_cursor_the_server_did_not_issue_is_invalid_params() {
    let peer = sdk_server(Mode::Stateful);
    let session = Session::open(&peer);
    let answer = session
        .post(&request(3, "tools/list", json!({"cursor": "not-ours"})))
        .json();
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
}

#[test]
fn set_volume_changes_the_player_state_and_get_volume_reads_it() {
    let peer = sdk_server(Mode::Stateful);
    let session = Session::open(&peer);
    assert_eq!(player_state(&peer), r#"{"volume":50,"muted":false}"#);
    let set = session.tool("set_volume", json!({"level": 20}));
    assert_eq!(set["isError"], false);
    assert_eq!(
        text_of(&session.tool("get_volume", json!({}))),
        "volume is 20"
    );
    assert!(player_state(&peer).contains(r#""volume":20"#));
}

#[test]
fn set_volume_rejects_out_of_range_and_mistyped_levels_with_a_tool_error() {
    let peer = sdk_server(Mode::Stateful);
    let session = Session::open(&peer);
    for arguments in [
        json!({"level": 101}),
        json!({"level": -1}),
        json!({"level": "20"}),
        json!({}),
        json!({"level": 20, "extra": 1}),
    ] {
        let result = session.tool("set_volume", arguments.clone());
        assert_eq!(result["isError"], true, "{arguments}: {result}");
    }
    assert_eq!(player_state(&peer), r#"{"volume":50,"muted":false}"#);
}

#[test]
fn mute_changes_the_player_state() {
    let peer = sdk_server(Mode::Stateful);
    let session = Session::open(&peer);
    session.tool("mute", json!({"muted": true}));
    assert_eq!(player_state(&peer), r#"{"volume":50,"muted":true}"#);
}

#[test]
fn reject_all_always_answers_a_tool_error() {
    let peer = sdk_server(Mode::Stateful);
    let session = Session::open(&peer);
    let result = session.tool("reject_all", json!({"level": 20}));
    assert_eq!(result["isError"], true);
    assert_eq!(text_of(&result), "rejected");
}

#[test]
fn lying_set_claims_success_but_changes_nothing() {
    let peer = sdk_server(Mode::Stateful);
    let session = Session::open(&peer);
    let result = session.tool("lying_set", json!({"level": 20}));
    assert_eq!(result["isError"], false);
    assert_eq!(text_of(&result), "volume set to 20");
    assert!(!player_state(&peer).contains(r#""volume":20"#));
}

#[test]
fn sneaky_read_is_annotated_read_only_but_changes_the_state_unlike_get_volume() {
    let peer = sdk_server(Mode::Stateful);
    let session = Session::open(&peer);
    let (tools, _) = session.all_tools();
    let annotation = |name: &str| {
        let tool = tools.iter().find(|t| t["name"] == name).expect(name);
        tool["annotations"]["readOnlyHint"].clone()
    };
    assert_eq!(annotation("sneaky_read"), true);
    assert_eq!(annotation("get_volume"), true);
    assert_eq!(annotation("set_volume"), Value::Null);

    session.tool("get_volume", json!({}));
    assert_eq!(player_state(&peer), r#"{"volume":50,"muted":false}"#);
    session.tool("sneaky_read", json!({}));
    assert_eq!(player_state(&peer), r#"{"volume":51,"muted":false}"#);
}

#[test]
fn the_schema_tools_declare_their_dialects_and_are_validated_in_them() {
    let peer = sdk_server(Mode::Stateful);
    let session = Session::open(&peer);
    let (tools, _) = session.all_tools();
    let schema =
        |name: &str| tools.iter().find(|t| t["name"] == name).expect(name)["inputSchema"].clone();
    assert_eq!(
        schema("draft7_tool")["$schema"],
        "http://json-schema.org/draft-07/schema#"
    );
    assert_eq!(
        schema("modern_tool")["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert!(schema("modern_tool")["properties"]["point"]["prefixItems"].is_array());

    assert_eq!(
        session.tool("draft7_tool", json!({"name": "ann"}))["isError"],
        false
    );
    assert_eq!(
        session.tool("draft7_tool", json!({"name": ""}))["isError"],
        true
    );
    assert_eq!(
        session.tool("modern_tool", json!({"point": [1, 2]}))["isError"],
        false
    );
    assert_eq!(
        session.tool("modern_tool", json!({"point": [1, "a"]}))["isError"],
        true
    );
}

#[test]
fn an_unknown_sdk_tool_is_invalid_params() {
    let peer = sdk_server(Mode::Stateful);
    let session = Session::open(&peer);
    let answer = session
        .post(&request(
            4,
            "tools/call",
            json!({"name": "nope", "arguments": {}}),
        ))
        .json();
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
}

#[test]
fn deleting_the_sdk_session_ends_it() {
    let peer = sdk_server(Mode::Stateful);
    let session = Session::open(&peer);
    assert!(session.id.is_some());
    assert_eq!(session.delete(), 200);
    assert_eq!(
        session.post(&request(5, "tools/list", json!({}))).status,
        404
    );
}

#[test]
fn the_sdk_server_answers_its_plain_routes() {
    let peer = sdk_server(Mode::Stateless);
    assert_eq!(get(&peer, "/health").text(), "ok");
    assert_eq!(get(&peer, "/nope").status, 404);
}

// --- the hostile servers -------------------------------------------------------------

const BEHAVIOURS: [&str; 20] = [
    "good",
    "good-no-session",
    "good-405",
    "sse",
    "sse-on-list",
    "old-version",
    "future-version",
    "endless-cursor",
    "same-cursor",
    "flood-tools",
    "oversize",
    "malformed",
    "deep-json",
    "wrong-id",
    "stall",
    "stall-list",
    "trickle",
    "server-request",
    "oauth",
    "get-trap",
];

#[test]
fn every_hostile_behaviour_starts_and_serves_its_state_route() {
    for behaviour in BEHAVIOURS {
        let peer = hostile(behaviour);
        let state = get(&peer, "/test/state");
        assert_eq!(state.status, 200, "{behaviour}");
        assert_eq!(state.text(), "calls=0\nlast=\n", "{behaviour}");
    }
}

#[test]
fn the_good_server_runs_a_whole_session_and_logs_every_request() {
    let peer = hostile("good");
    let session = Session::open(&peer);
    assert_eq!(session.id.as_deref(), Some("s-123"));
    let (tools, pages) = session.all_tools();
    assert_eq!((names(&tools), pages), (vec!["echo"], 1));
    assert_eq!(text_of(&session.tool("echo", json!({"text": "hi"}))), "hi");
    assert_eq!(get(&peer, "/test/state").text(), "calls=1\nlast=hi\n");
    assert_eq!(session.delete(), 204);

    let log = peer.requests();
    let methods: Vec<String> = log
        .iter()
        .map(|r| {
            format!(
                "{} {} {}",
                r["method"].as_str().unwrap(),
                r["path"].as_str().unwrap(),
                r["body"]["method"].as_str().unwrap_or("-")
            )
        })
        .collect();
    assert_eq!(
        methods,
        [
            "POST /mcp initialize",
            "POST /mcp notifications/initialized",
            "POST /mcp tools/list",
            "POST /mcp tools/call",
            "GET /test/state -",
            "DELETE /mcp -",
        ]
    );
    assert_eq!(log[2]["headers"]["mcp-session-id"], "s-123");
    assert_eq!(
        log[0]["headers"]["accept"],
        "application/json, text/event-stream"
    );
}

#[test]
fn the_good_server_wants_its_session_back() {
    let peer = hostile("good");
    Session::open(&peer);
    let without = peer.post_mcp(&request(2, "tools/list", json!({})), &[]);
    assert_eq!(without.status, 400);
    let unknown = peer.post_mcp(
        &request(2, "tools/list", json!({})),
        &[("MCP-Session-Id", "s-999")],
    );
    assert_eq!(unknown.status, 404);
}

#[test]
fn the_good_server_wants_both_media_types_accepted() {
    let peer = hostile("good");
    let headers = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json"),
    ];
    let body = initialize_request().to_string();
    let answer = peer
        .exchange("POST", "/mcp", &headers, &body, Duration::from_secs(5))
        .unwrap();
    assert_eq!(answer.status, 406);
}

#[test]
fn good_no_session_issues_no_session_id_and_needs_none() {
    let peer = hostile("good-no-session");
    let session = Session::open(&peer);
    assert_eq!(session.id, None);
    assert_eq!(text_of(&session.tool("echo", json!({"text": "a"}))), "a");
}

#[test]
fn good_405_refuses_to_delete_its_session() {
    let peer = hostile("good-405");
    assert_eq!(Session::open(&peer).delete(), 405);
}

#[test]
fn sse_answers_requests_as_an_event_stream() {
    let peer = hostile("sse");
    let answer = peer.post_mcp(&initialize_request(), &[]);
    assert_eq!(answer.header("content-type"), Some("text/event-stream"));
    let text = answer.text();
    let data = text
        .strip_prefix("event: message\ndata: ")
        .expect("an SSE frame");
    let message: Value = serde_json::from_str(data.trim_end()).unwrap();
    assert_eq!(message["result"]["protocolVersion"], PROTOCOL);
}

#[test]
fn sse_on_list_answers_initialize_in_json_and_tools_list_as_an_event_stream() {
    let peer = hostile("sse-on-list");
    let session = Session::open(&peer);
    let list = session.post(&request(2, "tools/list", json!({})));
    assert_eq!(list.header("content-type"), Some("text/event-stream"));
    assert!(list.text().starts_with("event: message\ndata: {"));
}

#[test]
fn the_version_behaviours_answer_another_protocol_version() {
    for (behaviour, version) in [
        ("old-version", "2024-11-05"),
        ("future-version", "2099-01-01"),
        ("good", PROTOCOL),
    ] {
        let peer = hostile(behaviour);
        let answer = peer.post_mcp(&initialize_request(), &[]).json();
        assert_eq!(answer["result"]["protocolVersion"], version, "{behaviour}");
    }
}

/// The first `pages` pages of tools/list, each following the previous nextCursor.
fn pages(session: &Session, pages: usize) -> Vec<Value> {
    let mut cursor = None::<String>;
    (0..pages)
        .map(|_| {
            let params = cursor.as_ref().map_or(json!({}), |c| json!({"cursor": c}));
            let page = session.call("tools/list", params);
            cursor = page["nextCursor"].as_str().map(str::to_string);
            page
        })
        .collect()
}

#[test]
fn endless_cursor_hands_out_a_new_cursor_every_page() {
    let peer = hostile("endless-cursor");
    let session = Session::open(&peer);
    let cursors: Vec<Value> = pages(&session, 5)
        .iter()
        .map(|p| p["nextCursor"].clone())
        .collect();
    let mut distinct = cursors.clone();
    distinct.dedup();
    assert_eq!(distinct.len(), 5, "{cursors:?}");
}

#[test]
fn same_cursor_hands_out_the_same_cursor_every_page() {
    let peer = hostile("same-cursor");
    let session = Session::open(&peer);
    let pages = pages(&session, 3);
    assert!(pages[0]["nextCursor"].is_string());
    assert!(pages
        .iter()
        .all(|p| p["nextCursor"] == pages[0]["nextCursor"]));
}

#[test]
fn flood_tools_lists_500_unwanted_tools_a_page() {
    let peer = hostile("flood-tools");
    let session = Session::open(&peer);
    for page in pages(&session, 2) {
        let tools = page["tools"].as_array().unwrap();
        assert_eq!(tools.len(), 500);
        assert!(!names(tools).contains(&"echo"));
        assert!(page["nextCursor"].is_string());
    }
}

#[test]
fn oversize_lists_tools_in_a_body_over_20_mib() {
    let peer = hostile("oversize");
    let session = Session::open(&peer);
    let list = session.post(&request(2, "tools/list", json!({})));
    assert!(
        list.body.len() > 20 * 1024 * 1024,
        "{} bytes",
        list.body.len()
    );
    assert_eq!(list.json()["result"]["tools"][0]["name"], "big");
}

#[test]
fn malformed_lists_tools_in_a_json_typed_body_that_is_not_json() {
    let peer = hostile("malformed");
    let session = Session::open(&peer);
    let list = session.post(&request(2, "tools/list", json!({})));
    assert_eq!(list.header("content-type"), Some("application/json"));
    assert!(serde_json::from_slice::<Value>(&list.body).is_err());
}

#[test]
fn deep_json_nests_its_answer_beyond_a_parser_recursion_limit() {
    let peer = hostile("deep-json");
    let session = Session::open(&peer);
    let list = session.post(&request(2, "tools/list", json!({})));
    assert!(list.text().contains(&"[".repeat(100_000)));
    let error = serde_json::from_slice::<Value>(&list.body).unwrap_err();
    assert!(error.to_string().contains("recursion limit"), "{error}");
}

#[test]
fn wrong_id_answers_with_another_id_than_asked() {
    let peer = hostile("wrong-id");
    let answer = peer.post_mcp(&initialize_request(), &[]).json();
    assert!(answer["result"].is_object());
    assert_ne!(answer["id"], 1);
}

#[test]
fn stall_never_answers_initialize_but_a_good_server_does_at_once() {
    let wait = Duration::from_millis(500);
    let stalled = hostile("stall").try_post_mcp(&initialize_request(), &[], wait);
    assert!(timed_out(stalled));
    let answered = hostile("good").try_post_mcp(&initialize_request(), &[], wait);
    assert_eq!(answered.unwrap().status, 200);
}

#[test]
fn stall_list_initializes_but_never_answers_tools_list() {
    let peer = hostile("stall-list");
    let session = Session::open(&peer);
    let list = request(2, "tools/list", json!({}));
    assert!(timed_out(
        session.post_within(&list, Duration::from_millis(500))
    ));
}

#[test]
fn trickle_sends_tools_list_a_byte_a_second() {
    let peer = hostile("trickle");
    let session = Session::open(&peer);
    let list = request(2, "tools/list", json!({}));
    let start = Instant::now();
    assert!(timed_out(
        session.post_within(&list, Duration::from_millis(1500))
    ));
    assert!(start.elapsed() >= Duration::from_millis(1500));
}

#[test]
fn server_request_answers_tools_call_with_a_sampling_request() {
    let peer = hostile("server-request");
    let session = Session::open(&peer);
    let answer = session
        .post(&request(
            3,
            "tools/call",
            json!({"name": "echo", "arguments": {"text": "x"}}),
        ))
        .json();
    assert_eq!(answer["id"], "srv-1");
    assert_eq!(answer["method"], "sampling/createMessage");
    assert!(answer.get("result").is_none());
    assert_eq!(get(&peer, "/test/state").text(), "calls=0\nlast=\n");
}

#[test]
fn oauth_challenges_every_post_with_its_resource_metadata() {
    let peer = hostile("oauth");
    let answer = peer.post_mcp(&initialize_request(), &[]);
    assert_eq!(answer.status, 401);
    let expected = format!(
        "Bearer resource_metadata=\"{}\"",
        peer.url("/.well-known/oauth-protected-resource")
    );
    assert_eq!(answer.header("www-authenticate"), Some(expected.as_str()));
}

#[test]
fn get_trap_fails_and_logs_a_get_of_the_endpoint_where_good_answers_405() {
    let trap = hostile("get-trap");
    Session::open(&trap);
    assert_eq!(get(&trap, "/mcp").status, 500);
    let gets = trap
        .requests()
        .into_iter()
        .filter(|r| r["method"] == "GET" && r["path"] == "/mcp");
    assert_eq!(gets.count(), 1);

    let good = hostile("good");
    assert_eq!(get(&good, "/mcp").status, 405);
}

// --- the processes -------------------------------------------------------------------

fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

#[test]
fn dropping_a_peer_kills_and_reaps_it() {
    for peer in [sdk_server(Mode::Stateful), hostile("stall")] {
        let pid = peer.pid();
        assert!(alive(pid));
        drop(peer);
        assert!(!alive(pid), "pid {pid} is still there");
    }
}

#[test]
fn sigterm_stops_the_peers_promptly_even_mid_stall() {
    let sdk = sdk_server(Mode::Stateful);
    Session::open(&sdk);
    assert!(sdk.terminate(Duration::from_secs(5)).is_some());

    let stalled = hostile("stall");
    let wait = Duration::from_millis(200);
    assert!(timed_out(stalled.try_post_mcp(
        &initialize_request(),
        &[],
        wait
    )));
    let status = stalled
        .terminate(Duration::from_secs(5))
        .expect("ended by SIGTERM");
    assert!(status.success(), "{status:?}");
}

#[test]
#[should_panic(expected = "invalid choice")]
fn a_peer_that_prints_no_port_panics_with_its_stderr() {
    hostile("no-such-behaviour");
}
