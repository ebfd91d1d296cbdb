//! browser checks end to end through the qa-check binary: a real headless Chromium driven
//! through the installed playwright-core, against pages served on 127.0.0.1 that register
//! WebMCP tools natively (`tests/pages/webmcp.html`) or have no WebMCP API.

use crate::common;

use common::shared::{SharedRun, BUDGET};
use common::{observations, only_observation, qa_check, records, routed, url_target};
use qa_check::browser::CHROMIUM_ARGS;
use qa_records::acceptance::TargetStatus;
use qa_testkit::http::Server;
use qa_testkit::{browser_server, peers, Run};
use serde_json::{json, Value};
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn serve() -> Server {
    common::serve_pages()
}

/// The browser flags of a run in the test run's shared browser server (`--browser-endpoint`,
/// testkit's `browser_server`): a fresh browser context per check, as in a launched one.
/// Tests about launching the browser use [`launching_flags`].
fn browser_flags() -> Vec<String> {
    vec![
        "--browser-module".into(),
        peers::playwright_module().to_string_lossy().into_owned(),
        "--browser-endpoint".into(),
        browser_server::endpoint(CHROMIUM_ARGS),
    ]
}

/// The browser flags of a run that launches its own Chromium.
fn launching_flags() -> Vec<String> {
    vec![
        "--browser-module".into(),
        peers::playwright_module().to_string_lossy().into_owned(),
        "--browser".into(),
        peers::chromium().to_string_lossy().into_owned(),
    ]
}

/// qa-check on `checks` against `page` of `server`, in the shared browser server, with
/// `flags` and no screenshots (browser_screenshots.rs is about those), in a project of
/// its own.
fn run_on(server: &Server, page: &str, checks: &[Value], flags: &[&str]) -> Run {
    let project = tempfile::tempdir().unwrap();
    run_in_project(server, project.path(), page, checks, flags)
}

/// [`run_on`] with `project` as the `--repo`.
fn run_in_project(
    server: &Server,
    project: &Path,
    page: &str,
    checks: &[Value],
    flags: &[&str],
) -> Run {
    let target = url_target(&server.url(page), TargetStatus::Captured, None);
    qa_check()
        .invocation()
        .arg("--repo")
        .arg(project)
        .args(browser_flags())
        .arg("--no-screenshots")
        .args(flags)
        .stdin(routed(&target, checks).bytes())
        .run()
}

const CALLS: &[&str] = &["--allow-network", "--allow-tool-calls"];

fn browser(id: &str, extra: Value) -> Value {
    let mut check = json!({"id": id, "criterion": "list", "kind": "browser"});
    for (k, v) in extra.as_object().unwrap() {
        check[k] = v.clone();
    }
    check
}

fn one(server: &Server, check: Value, flags: &[&str]) -> Value {
    only_observation(&run_on(server, "/webmcp.html", &[check], flags))
}

/// The run of webmcp.html's discovery checks with `--allow-network` only, shared by the
/// tests that read one check of it each (common's `SharedRun`).
fn discovered() -> SharedRun {
    SharedRun::get("browser-discovery", |server, repo| {
        let checks = [
            browser("find", json!({"tool": "add_item"})),
            browser("find-missing", json!({"tool": "checkout"})),
            browser(
                "add-uncalled",
                json!({"tool": "add_item", "input": {"text": "bread"}, "observeContains": "bread"}),
            ),
            // Checks of other pages of the target's origin (a check's own `path`).
            browser("plain", json!({"tool": "add_item", "path": "/plain.html"})),
            browser(
                "odd-api",
                json!({"tool": "add_item", "path": "/odd-api.html"}),
            ),
        ];
        let flags = [&["--allow-network"][..], &BUDGET].concat();
        run_in_project(server, repo, "/webmcp.html", &checks, &flags)
    })
}

/// The run of webmcp.html's tool calls with the calling flags, shared by the tests that
/// read one or two checks of it each.
fn called() -> SharedRun {
    SharedRun::get("browser-calls", |server, repo| {
        let checks = [
            browser(
                "add",
                json!({"tool": "add_item", "input": {"text": "bread"},
                       "observePath": "#items", "observeContains": "bread"}),
            ),
            browser(
                "lie",
                json!({"tool": "lying_add", "input": {"text": "bread"},
                       "observePath": "#items", "observeContains": "bread"}),
            ),
            browser(
                "add-body",
                json!({"tool": "add_item", "input": {"text": "cheese"}, "observeContains": "cheese"}),
            ),
            browser(
                "count",
                json!({"tool": "count_items", "input": {}, "readOnly": true, "observePath": "#items"}),
            ),
            browser(
                "sneaky",
                json!({"tool": "sneaky_count", "input": {}, "readOnly": true, "observePath": "#items"}),
            ),
            browser(
                "neg",
                json!({"tool": "reject_all", "input": {}, "expectError": true}),
            ),
            browser(
                "neg2",
                json!({"tool": "add_item", "input": {"text": "x"}, "expectError": true}),
            ),
            browser(
                "empty",
                json!({"tool": "add_item", "input": {"text": ""}, "observeContains": "never"}),
            ),
            // storage.html (a check's own `path`): one check keeps, the next looks.
            on_page(keep("tea"), "/storage.html"),
            on_page(look(), "/storage.html"),
        ];
        let flags = [CALLS, &BUDGET].concat();
        run_in_project(server, repo, "/webmcp.html", &checks, &flags)
    })
}

#[test]
fn discovery_finds_a_natively_registered_tool() {
    let run = discovered();
    let obs = run.observation("find");
    assert_eq!(obs["status"], "pass", "{obs:#}");
    let seen = &obs["evidence"]["interface"];
    assert_eq!(seen["tool_found"], true);
    assert_eq!(seen["call"], "not-called");
    assert_eq!(seen["protocol_version"], Value::Null);
    assert_eq!(obs["evidence"]["url"], run.url("/webmcp.html"));
}

#[test]
fn discovery_of_a_tool_the_page_does_not_register_fails() {
    let obs = discovered().observation("find-missing");
    assert_eq!(obs["status"], "fail", "{obs:#}");
}

#[test]
fn a_call_passes_when_its_effect_shows_in_the_selected_text() {
    let obs = called().observation("add");
    assert_eq!(obs["status"], "pass", "{obs:#}");
    let seen = &obs["evidence"]["interface"];
    assert_eq!(seen["observe"], "#items");
    assert_eq!(seen["call"], "result");
    assert!(obs["evidence"]["excerpt"]
        .as_str()
        .unwrap()
        .contains("bread"));
}

#[test]
fn a_call_whose_result_lies_about_its_effect_fails() {
    // The control is a_call_passes_when_its_effect_shows_in_the_selected_text: the same
    // input and observation in the same run, through the honest tool.
    let obs = called().observation("lie");
    assert_eq!(obs["status"], "fail", "{obs:#}");
}

#[test]
fn the_body_is_observed_when_no_selector_is_given() {
    let obs = called().observation("add-body");
    assert_eq!(obs["status"], "pass", "{obs:#}");
    assert_eq!(obs["evidence"]["interface"]["observe"], "body");
}

#[test]
fn a_read_only_call_passes_when_the_text_is_unchanged_and_fails_when_it_changes() {
    let run = called();
    let obs = [run.observation("count"), run.observation("sneaky")];
    assert_eq!(obs[0]["status"], "pass", "{:#}", obs[0]);
    assert_eq!(obs[1]["status"], "fail", "{:#}", obs[1]);
}

#[test]
fn a_negative_case_passes_on_a_rejection_and_fails_on_acceptance() {
    let run = called();
    let obs = [run.observation("neg"), run.observation("neg2")];
    assert_eq!(obs[0]["status"], "pass", "{:#}", obs[0]);
    assert_eq!(obs[0]["evidence"]["interface"]["call"], "tool-error");
    assert_eq!(obs[1]["status"], "fail", "{:#}", obs[1]);
}

#[test]
fn schema_invalid_input_fails_a_positive_case_without_calling() {
    let obs = called().observation("empty");
    assert_eq!(obs["status"], "fail", "{obs:#}");
    assert_eq!(obs["evidence"]["interface"]["call"], "not-called");
    assert_eq!(obs["evidence"]["interface"]["input_valid"], false);
}

#[test]
fn a_call_is_unverified_without_the_tool_call_flag() {
    // The control is a_call_passes_when_its_effect_shows_in_the_selected_text: the same
    // call with --allow-tool-calls.
    let obs = discovered().observation("add-uncalled");
    assert_eq!(obs["status"], "unverified", "{obs:#}");
    assert!(obs["reason"]
        .as_str()
        .unwrap()
        .contains("--allow-tool-calls"));
}

#[test]
fn a_page_that_registers_no_tools_fails_discovery() {
    // Chromium with WebMCP gives every secure page the API; this one registers nothing.
    // The control is discovery_finds_a_natively_registered_tool, in the same run.
    let obs = discovered().observation("plain");
    assert_eq!(obs["status"], "fail", "{obs:#}");
    assert!(
        obs["observed"].as_str().unwrap().contains("0 tools listed"),
        "{obs:#}"
    );
}

#[test]
fn a_page_whose_api_has_another_shape_is_unverified_not_guessed() {
    let obs = discovered().observation("odd-api");
    assert_eq!(obs["status"], "unverified", "{obs:#}");
    assert!(
        obs["reason"].as_str().unwrap().contains("WebMCP"),
        "{obs:#}"
    );
}

#[test]
fn without_the_network_flag_no_browser_starts() {
    let server = serve();
    let obs = one(&server, browser("find", json!({"tool": "add_item"})), &[]);
    assert_eq!(obs["status"], "unverified");
    assert_eq!(obs["reason"], "needs --allow-network");
    assert!(server.requests().is_empty());
}

#[test]
fn a_missing_module_is_unverified_and_exits_69_when_every_check_needed_it() {
    let server = serve();
    let target = url_target(&server.url("/webmcp.html"), TargetStatus::Captured, None);
    let run = qa_check()
        .invocation()
        .args([
            "--allow-network",
            "--browser-module",
            "/nonexistent/index.mjs",
        ])
        .stdin(routed(&target, &[browser("find", json!({"tool": "add_item"}))]).bytes())
        .run();
    let obs = observations(&records(&run, 69));
    assert_eq!(obs[0]["status"], "unverified");
    assert!(obs[0]["reason"]
        .as_str()
        .unwrap()
        .contains("/nonexistent/index.mjs"));
    // The person running the stage reads why in one line, too.
    let stderr = &run.stderr;
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("qa-check: no check could run: ")
            && stderr.contains("/nonexistent/index.mjs"),
        "{stderr}"
    );
}

#[test]
fn a_missing_module_with_another_check_beside_it_exits_0() {
    let server = serve();
    let target = url_target(&server.url("/webmcp.html"), TargetStatus::Captured, None);
    let checks = [
        browser("find", json!({"tool": "add_item"})),
        json!({"id": "page", "criterion": "list", "kind": "http", "path": "/webmcp.html", "status": 200}),
    ];
    let run = qa_check()
        .invocation()
        .args(["--allow-network"])
        .stdin(routed(&target, &checks).bytes())
        .run();
    let obs = observations(&records(&run, 0));
    assert_eq!(obs[0]["status"], "unverified");
    assert!(obs[0]["reason"]
        .as_str()
        .unwrap()
        .contains("--browser-module"));
    assert_eq!(obs[1]["status"], "pass");
}

// --- one browser per run, a fresh browser context per check ---

/// A Chromium that appends a line to `log` each time it is launched, then runs as the
/// real one (`--browser` takes it as any executable).
fn counting_chromium(dir: &Path, log: &Path) -> PathBuf {
    let script = dir.join("chromium");
    let text = format!(
        "#!/bin/sh\necho launched >> '{}'\nexec '{}' \"$@\"\n",
        log.display(),
        peers::chromium().display()
    );
    std::fs::write(&script, text).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// qa-check on `checks` against `page` with the counting Chromium: its observations and
/// how many browsers it launched.
fn counted_run(server: &Server, page: &str, checks: &[Value]) -> (Vec<Value>, usize) {
    let target = url_target(&server.url(page), TargetStatus::Captured, None);
    let project = tempfile::tempdir().unwrap();
    let log = project.path().join("launches.log");
    let chromium = counting_chromium(project.path(), &log);
    let run = qa_check()
        .invocation()
        .arg("--repo")
        .arg(project.path())
        .arg("--browser-module")
        .arg(peers::playwright_module())
        .arg("--browser")
        .arg(&chromium)
        .args(CALLS)
        .stdin(routed(&target, checks).bytes())
        .run();
    let obs = observations(&records(&run, 0));
    let launches = std::fs::read_to_string(&log).map_or(0, |text| text.lines().count());
    (obs, launches)
}

#[test]
fn a_run_launches_one_browser_for_all_its_browser_checks() {
    let server = serve();
    let checks = [
        browser("find", json!({"tool": "add_item"})),
        browser("missing", json!({"tool": "checkout"})),
        browser(
            "add",
            json!({"tool": "add_item", "input": {"text": "bread"},
                   "observePath": "#items", "observeContains": "bread"}),
        ),
    ];
    let (obs, launches) = counted_run(&server, "/webmcp.html", &checks);
    let statuses: Vec<&Value> = obs.iter().map(|o| &o["status"]).collect();
    assert_eq!(statuses, ["pass", "fail", "pass"], "{obs:#?}");
    assert_eq!(launches, 1);
}

#[test]
fn a_check_that_had_to_end_the_browser_leaves_the_next_check_a_new_one() {
    let server = serve();
    let checks = [
        // A reply over the cap ends the session: its browser is killed.
        browser(
            "huge",
            json!({"tool": "huge_result", "path": "/limits.html", "input": {}, "readOnly": true}),
        ),
        browser("find", json!({"tool": "add_item"})),
    ];
    let (obs, launches) = counted_run(&server, "/webmcp.html", &checks);
    assert_eq!(obs[0]["status"], "fail", "{obs:#?}");
    assert_eq!(obs[1]["status"], "pass", "{obs:#?}");
    assert_eq!(launches, 2);
}

/// A check of storage.html that keeps `text` in the page's localStorage and a cookie, and
/// passes when the page then finds both.
fn keep(text: &str) -> Value {
    browser(
        "keep",
        json!({"tool": "keep", "input": {"text": text}, "observePath": "#kept",
               "observeContains": format!("kept: {text}, cookie: {text}")}),
    )
}

/// `check` on `page` of the target's origin rather than the target's own page.
fn on_page(mut check: Value, page: &str) -> Value {
    check["path"] = json!(page);
    check
}

/// A check of storage.html that passes when the page finds nothing kept.
fn look() -> Value {
    browser(
        "look",
        json!({"tool": "look", "input": {},
               "observePath": "#kept", "observeContains": "nothing kept"}),
    )
}

#[test]
fn what_a_checks_page_keeps_in_the_browser_is_not_found_by_the_next_checks_page() {
    let server = serve();
    // The control first: within its own check, the page finds what it kept.
    let checks = [keep("bread"), look()];
    let (obs, launches) = counted_run(&server, "/storage.html", &checks);
    assert_eq!(obs[0]["status"], "pass", "{obs:#?}");
    assert_eq!(obs[1]["status"], "pass", "{obs:#?}");
    assert_eq!(launches, 1, "both pages were in the same browser");
}

/// Live Chromium processes of the qa-check process `pid` (its user data dirs are named
/// `qa-check-browser-<pid>-<n>`); other tests' browsers run at the same time.
fn chromiums_of(pid: u32) -> usize {
    let out = Command::new("pgrep")
        .args(["-f", "--"])
        .arg(format!("--user-data-dir=[^ ]*qa-check-browser-{pid}-"))
        .output()
        .expect("pgrep");
    String::from_utf8_lossy(&out.stdout).lines().count()
}

#[test]
fn sigint_during_a_browser_check_cancels_it_and_leaves_no_browser() {
    let server = serve();
    let target = url_target(&server.url("/limits.html"), TargetStatus::Captured, None);
    let slow = browser(
        "slow",
        json!({"tool": "wait_forever", "input": {}, "readOnly": true}),
    );
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("routed.ndjson");
    std::fs::write(&input, routed(&target, &[slow]).bytes()).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_qa-check"))
        .arg("--repo")
        .arg(dir.path())
        .args(launching_flags())
        .args(CALLS)
        .args(["--timeout", "60", "--in"])
        .arg(&input)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let until = Instant::now() + Duration::from_secs(20);
    while chromiums_of(pid) == 0 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(chromiums_of(pid) > 0, "no browser started");
    std::thread::sleep(Duration::from_millis(1500));
    Command::new("kill")
        .args(["-s", "INT", &child.id().to_string()])
        .status()
        .unwrap();
    let status = child.wait().unwrap();
    let mut stdout = Vec::new();
    std::io::Read::read_to_end(child.stdout.as_mut().unwrap(), &mut stdout).unwrap();
    assert_eq!(status.code(), Some(130));
    let obs = observations(&qa_testkit::parse(&stdout));
    assert_eq!(obs[0]["status"], "cancelled", "{obs:#?}");
    let until = Instant::now() + Duration::from_secs(5);
    while chromiums_of(pid) > 0 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(
        chromiums_of(pid),
        0,
        "a browser outlived the cancelled check"
    );
}

// --- the production write guard (host profile write_signatures / allow_signatures) ---

/// A stream whose plan targets environment `env` of a host profile (`live` is production,
/// `staging` is not), with the routed browser `checks` on the guarded page.
fn profiled_stream(server: &Server, env: &str, checks: &[Value]) -> common::Stream {
    use qa_records::acceptance::{TargetKind, TargetSpec};
    use qa_records::Kind;
    let mut stream = common::Stream::default();
    let profile = json!({
        "environments": {
            "live": {"kind": "production", "apps": {"shop": server.url("/guarded.html")}},
            "staging": {"kind": "staging", "apps": {"shop": server.url("/guarded.html")}}
        },
        "mutation": {
            "write_signatures": [
                {"method": "POST", "url": "/api/"},
                {"method": "*", "url": "/graphql$", "body": "\"query\":\"mutation"}
            ],
            "allow_signatures": [{"method": "POST", "url": "/api/search$"}]
        }
    });
    stream.push(Kind::Profile, vec![], profile);
    let spec = TargetSpec {
        kind: TargetKind::Url,
        value: server.url("/guarded.html"),
        build_id: None,
        env: Some(env.to_string()),
        app: Some("shop".to_string()),
    };
    let spec_id = stream.push(Kind::TargetSpec, vec![], spec);
    let target = url_target(&server.url("/guarded.html"), TargetStatus::Captured, None);
    stream.push(Kind::Target, vec![spec_id], target);
    for check in checks {
        stream.routed(check.clone());
    }
    stream
}

/// The check `id` calling `tool` with `item` on the guarded page, read-only, observing `h1`.
fn guarded_check(id: &str, tool: &str, item: &str) -> Value {
    browser(
        id,
        json!({"tool": tool, "input": {"item": item}, "readOnly": true, "observePath": "h1"}),
    )
}

/// qa-check on `checks` of the guarded page of environment `env`, with `flags`.
fn guarded_run(
    server: &Server,
    project: &Path,
    env: &str,
    checks: &[Value],
    flags: &[&str],
) -> Run {
    qa_check()
        .invocation()
        .arg("--repo")
        .arg(project)
        .args(browser_flags())
        .args(CALLS)
        .args(flags)
        .stdin(profiled_stream(server, env, checks).bytes())
        .run()
}

/// The calls on production's guarded page without screenshots, one run shared by the
/// tests that read one or two checks of it: each check calls a tool whose request goes
/// to a path of its own (`/api/cart`, `/api/search`, `/graphql`), so each test's count of
/// its path's requests is what a run of its check alone would have counted.
fn guarded_on_production() -> SharedRun {
    SharedRun::get("browser-write-guard", |server, repo| {
        let checks = [
            guarded_check("add_to_cart", "add_to_cart", "tea"),
            guarded_check("search", "search", "tea"),
            guarded_check("graphql-write", "graphql", "mutation { addToCart }"),
            guarded_check("graphql-read", "graphql", "query { cart }"),
        ];
        let flags = [&["--no-screenshots"][..], &BUDGET].concat();
        guarded_run(server, repo, "live", &checks, &flags)
    })
}

#[test]
fn on_production_a_request_matching_a_write_signature_is_aborted_and_recorded() {
    let run = guarded_on_production();
    let obs = run.observation("add_to_cart");
    assert_eq!(obs["status"], "pass", "{obs:#}");
    let guard = &obs["evidence"]["interface"]["write_guard"];
    let aborted = guard["aborted"].as_array().unwrap();
    assert_eq!(aborted.len(), 1, "{guard:#}");
    assert_eq!(aborted[0], format!("POST {}", run.url("/api/cart")));
    assert_eq!(guard["write_signatures"], 2);
    assert_eq!(run.calls("/api/cart"), 0, "the write reached the server");
    let observed = obs["observed"].as_str().unwrap();
    assert!(
        observed.contains("a write no signature matches is not prevented"),
        "{observed}"
    );
}

#[test]
fn on_production_a_request_an_allow_signature_matches_goes_through() {
    let run = guarded_on_production();
    let obs = run.observation("search");
    assert_eq!(obs["status"], "pass", "{obs:#}");
    let guard = &obs["evidence"]["interface"]["write_guard"];
    assert_eq!(guard["aborted"], json!([]));
    assert_eq!(run.calls("/api/search"), 1);
}

#[test]
fn off_production_no_guard_runs_and_the_request_goes_through() {
    let server = serve();
    let project = tempfile::tempdir().unwrap();
    let checks = [guarded_check("add_to_cart", "add_to_cart", "tea")];
    let run = guarded_run(
        &server,
        project.path(),
        "staging",
        &checks,
        &["--no-screenshots"],
    );
    let obs = only_observation(&run);
    assert_eq!(obs["status"], "pass", "{obs:#}");
    assert!(
        obs["evidence"]["interface"].get("write_guard").is_none(),
        "{obs:#}"
    );
    assert_eq!(server.calls("/api/cart"), 1);
}

#[test]
fn on_production_a_signature_with_a_body_pattern_aborts_only_matching_bodies() {
    let run = guarded_on_production();
    let write = run.observation("graphql-write");
    assert_eq!(
        write["evidence"]["interface"]["write_guard"]["aborted"],
        json!([format!("POST {}", run.url("/graphql"))]),
        "{write:#}"
    );
    let read = run.observation("graphql-read");
    assert_eq!(
        read["evidence"]["interface"]["write_guard"]["aborted"],
        json!([]),
        "{read:#}"
    );
    assert_eq!(run.calls("/graphql"), 1, "only the read reached the server");
}

#[test]
fn on_production_screenshots_are_taken_with_the_write_guard_still_aborting_writes() {
    // The guard routes every request of the browser context for the whole session: the
    // pictures around the call are taken under it, and the write still never leaves.
    let server = serve();
    let project = tempfile::tempdir().unwrap();
    let checks = [guarded_check("add_to_cart", "add_to_cart", "tea")];
    let obs = only_observation(&guarded_run(&server, project.path(), "live", &checks, &[]));
    assert_eq!(obs["status"], "pass", "{obs:#}");
    let moments: Vec<&Value> = obs["evidence"]["screenshots"]
        .as_array()
        .unwrap_or_else(|| panic!("no screenshots: {obs:#}"))
        .iter()
        .map(|s| &s["moment"])
        .collect();
    assert_eq!(moments, [&json!("before"), &json!("after")]);
    let aborted = &obs["evidence"]["interface"]["write_guard"]["aborted"];
    assert_eq!(aborted.as_array().map(Vec::len), Some(1), "{obs:#}");
    assert_eq!(server.calls("/api/cart"), 0, "the write reached the server");
}

// --- a running browser server (--browser-endpoint) ---

#[test]
fn checks_in_a_browser_server_each_get_a_fresh_context() {
    let run = called();
    // The control first: within its own check, the page finds what it kept.
    let kept = run.observation("keep");
    assert_eq!(kept["status"], "pass", "the control: {kept:#}");
    let looked = run.observation("look");
    assert_eq!(looked["status"], "pass", "{looked:#}");
}

#[test]
fn what_one_run_keeps_in_a_browser_server_is_not_found_by_the_next_run() {
    // The shared calls run kept "tea" in the browser server before this test's own run.
    let kept = called().observation("keep");
    assert_eq!(kept["status"], "pass", "the control: {kept:#}");
    let server = serve();
    let looked = only_observation(&run_on(&server, "/storage.html", &[look()], CALLS));
    assert_eq!(looked["status"], "pass", "{looked:#}");
}

#[test]
fn a_browser_endpoint_that_does_not_answer_is_unverified_without_its_path() {
    let pages = serve();
    // An HTTP server that is no browser server: the WebSocket upgrade is refused.
    let endpoint = pages
        .url("/no-browser-here-0123456789abcdef")
        .replacen("http", "ws", 1);
    let target = url_target(&pages.url("/webmcp.html"), TargetStatus::Captured, None);
    let project = tempfile::tempdir().unwrap();
    let run = qa_check()
        .invocation()
        .arg("--repo")
        .arg(project.path())
        .arg("--browser-module")
        .arg(peers::playwright_module())
        .arg("--browser-endpoint")
        .arg(&endpoint)
        .args(CALLS)
        .stdin(routed(&target, &[browser("find", json!({"tool": "add_item"}))]).bytes())
        .run();
    let obs = only_observation(&run);
    assert_eq!(obs["status"], "unverified", "{obs:#}");
    let reason = obs["reason"].as_str().unwrap();
    let redacted = format!(
        "{}/[redacted]",
        pages
            .url("")
            .trim_end_matches('/')
            .replacen("http", "ws", 1)
    );
    assert!(
        reason.contains(&format!(
            "the browser server {redacted} could not be connected to"
        )),
        "{reason}"
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(!stdout.contains("0123456789abcdef"), "{stdout}");
    assert!(!run.stderr.contains("0123456789abcdef"), "{}", run.stderr);
}
