//! The WebMCP browser session against real pages (`tests/pages/`) served over HTTP on
//! 127.0.0.1, in a real headless Chromium driven through the installed playwright-core:
//! discovery, calls, DOM observation, unsupported APIs, missing parts, deadlines,
//! cancellation, and no browser process outliving its session.

use crate::common;

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use qa_check::agent::{Listing, Reply, Session, Stop, Tool};
use qa_check::browser::{Browser, BrowserSession, Chromium, CHROMIUM_ARGS};
use qa_check::endpoint::BrowserEndpoint;
use qa_records::Exit;
use qa_testkit::http::Server;
use qa_testkit::{browser_server, peers};
use serde_json::{json, Value};

fn serve() -> Server {
    common::serve_pages()
}

/// A browser connected to the test run's shared browser server (testkit's
/// `browser_server`): each page still in a fresh browser context.
fn browser() -> Browser {
    let endpoint = browser_server::endpoint(CHROMIUM_ARGS);
    Browser {
        chromium: Chromium::Connect(BrowserEndpoint::parse(&endpoint).unwrap()),
        ..launching()
    }
}

/// A browser launched for the session, for the tests about launching and ending it.
fn launching() -> Browser {
    Browser {
        node: PathBuf::from("node"),
        module: peers::playwright_module(),
        chromium: Chromium::Launch(peers::chromium()),
        guard: None,
        screenshots: None,
    }
}

fn never() -> Option<Exit> {
    None
}

fn in_30_s() -> Instant {
    Instant::now() + Duration::from_secs(30)
}

/// A session on `path` of `server`, observing `selector`.
fn open(server: &Server, path: &str, selector: &str) -> BrowserSession {
    browser()
        .open(&server.url(path), selector, in_30_s(), never)
        .unwrap_or_else(|stop| panic!("opening {path}: {stop:?}"))
}

/// A session on `path` of `server` in a browser launched for it.
fn launched(server: &Server, path: &str, selector: &str) -> BrowserSession {
    launching()
        .open(&server.url(path), selector, in_30_s(), never)
        .unwrap_or_else(|stop| panic!("opening {path}: {stop:?}"))
}

/// Why opening `url` stopped.
fn refused(browser: &Browser, url: &str) -> Stop {
    match browser.open(url, "body", in_30_s(), never) {
        Ok(_) => panic!("{url} opened"),
        Err(stop) => stop,
    }
}

fn unverified(stop: Stop) -> String {
    match stop {
        Stop::Unverified(why) => why,
        other => panic!("not unverified: {other:?}"),
    }
}

/// How many live processes name a user data dir inside the session's folder `dir`
/// (counted by `pgrep`, not by the code under test).
fn chromium_processes(dir: &Path) -> usize {
    let output = Command::new("pgrep")
        .args(["-c", "-f", "--"])
        // The slash anchors it: session dirs are numbered, and `...-1` must not count `...-12`.
        .arg(format!("--user-data-dir={}/", dir.display()))
        .output()
        .expect("running pgrep");
    String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .expect("pgrep's count")
}

/// The Chromium processes of `dir` still alive once those just killed had up to 5 s to
/// exit (a loaded machine takes a moment to finish off a killed process).
fn chromium_left(dir: &Path) -> usize {
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let left = chromium_processes(dir);
        if left == 0 || Instant::now() >= until {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

// --- the tour: one session in the shared browser server visiting a page per step ---

/// The steps of the tour: its name, the page (a path on the pages server, or a URL), the
/// selector observed there, and what is done on the page once it is opened.
enum Step {
    Tools,
    Observe,
    CallThenObserve(&'static str, Value),
}

fn steps() -> Vec<(&'static str, &'static str, &'static str, Step)> {
    // webmcp.html's `#items` after a call: (step, tool, input).
    let calls = [
        ("add", "add_item", json!({"text": "eggs"})),
        ("lie", "lying_add", json!({"text": "eggs"})),
        ("sneaky", "sneaky_count", json!({})),
        ("count", "count_items", json!({})),
        ("reject", "reject_all", json!({})),
        ("unlisted", "remove_item", json!({})),
    ];
    // The tools pages list: (step, page, selector).
    let listings = [
        ("listing", "/webmcp.html", "#items"),
        ("plain", "/plain.html", "body"),
        ("insecure", "data:text/html,<p>plain</p>", "body"),
        ("property", "/odd-api.html?shape=property", "body"),
        ("number", "/odd-api.html?shape=number", "body"),
        ("nameless", "/odd-api.html?shape=nameless", "body"),
    ];
    let mut steps = vec![
        ("observe", "/webmcp.html", "#items", Step::Observe),
        ("no-match", "/webmcp.html", "#basket", Step::Observe),
    ];
    for (name, tool, input) in calls {
        steps.push((
            name,
            "/webmcp.html",
            "#items",
            Step::CallThenObserve(tool, input),
        ));
    }
    for (name, page, selector) in listings {
        steps.push((name, page, selector, Step::Tools));
    }
    steps
}

/// What each step of the tour came to (by its name), the tour taken once per test run
/// (testkit's `once::made`) for the tests that read one step each: one session, so one
/// node driver loads playwright-core for them all instead of one per test (bench/README.md,
/// issue 28, eleventh pass). Each step is a [`BrowserSession::visit`]: a page in a new
/// browser context, nothing kept from the step before; the tests about opening, launching
/// and ending a session keep sessions of their own.
fn toured(step: &str) -> Value {
    let base = std::env::temp_dir().join("qa-check-shared-runs");
    let dir = qa_testkit::once::made(&base, "browser-session-tour", |dir| {
        let server = serve();
        let url = |page: &str| {
            if page.starts_with('/') {
                server.url(page)
            } else {
                page.to_string()
            }
        };
        let deadline = Instant::now() + Duration::from_secs(120);
        let mut session = browser()
            .open(&server.url("/webmcp.html"), "body", deadline, never)
            .unwrap_or_else(|stop| panic!("opening the tour: {stop:?}"));
        let mut results = serde_json::Map::new();
        for (name, page, selector, step) in steps() {
            let result = match session.visit(&url(page), selector) {
                Err(stop) => json!({"visit": stop_json(&stop)}),
                Ok(()) => match step {
                    Step::Tools => json!({"tools": listing_json(session.tools("add_item"))}),
                    Step::Observe => json!({"observe": text_json(session.observe())}),
                    Step::CallThenObserve(tool, input) => json!({
                        "call": reply_json(session.call(tool, &input)),
                        "observe": text_json(session.observe()),
                    }),
                },
            };
            results.insert(name.to_string(), result);
        }
        assert_eq!(session.close(), None, "the tour's session closes cleanly");
        std::fs::write(dir.join("steps.json"), Value::Object(results).to_string()).unwrap();
    });
    let text = std::fs::read_to_string(dir.join("steps.json")).unwrap();
    let mut results: Value = serde_json::from_str(&text).unwrap();
    let result = results[step].take();
    assert!(
        result.get("visit").is_none(),
        "the tour could not open {step}: {result}"
    );
    result
}

fn stop_json(stop: &Stop) -> Value {
    match stop {
        Stop::Unverified(why) => json!({"unverified": why}),
        Stop::Fail(why) => json!({"fail": why}),
        Stop::Cancelled(exit) => json!({"cancelled": format!("{exit:?}")}),
    }
}

fn stop_of(value: &Value) -> Stop {
    let text = |key: &str| value[key].as_str().map(str::to_string);
    if let Some(why) = text("unverified") {
        Stop::Unverified(why)
    } else if let Some(why) = text("fail") {
        Stop::Fail(why)
    } else {
        panic!("the tour was cancelled: {value}")
    }
}

fn text_json(text: Result<String, Stop>) -> Value {
    match text {
        Ok(text) => json!({"ok": text}),
        Err(stop) => json!({"err": stop_json(&stop)}),
    }
}

fn text_of(value: &Value) -> Result<String, Stop> {
    match value["ok"].as_str() {
        Some(text) => Ok(text.to_string()),
        None => Err(stop_of(&value["err"])),
    }
}

fn reply_json(reply: Result<Reply, Stop>) -> Value {
    match reply {
        Ok(Reply::Result(value)) => json!({"ok": {"result": value}}),
        Ok(Reply::ToolError(why)) => json!({"ok": {"tool_error": why}}),
        Ok(Reply::RpcError { code, message }) => {
            json!({"ok": {"rpc_error": {"code": code, "message": message}}})
        }
        Err(stop) => json!({"err": stop_json(&stop)}),
    }
}

fn reply_of(value: &Value) -> Result<Reply, Stop> {
    let Some(reply) = value.get("ok") else {
        return Err(stop_of(&value["err"]));
    };
    if let Some(result) = reply.get("result") {
        Ok(Reply::Result(result.clone()))
    } else if let Some(why) = reply["tool_error"].as_str() {
        Ok(Reply::ToolError(why.to_string()))
    } else {
        let error = &reply["rpc_error"];
        Ok(Reply::RpcError {
            code: error["code"].as_i64().unwrap(),
            message: error["message"].as_str().unwrap().to_string(),
        })
    }
}

fn listing_json(listing: Result<Listing, Stop>) -> Value {
    match listing {
        Ok(listing) => {
            let tools: Vec<Value> = listing
                .tools
                .iter()
                .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.input_schema}))
                .collect();
            json!({"ok": {"tools": tools, "pages": listing.pages, "cut": listing.cut}})
        }
        Err(stop) => json!({"err": stop_json(&stop)}),
    }
}

fn listing_of(value: &Value) -> Result<Listing, Stop> {
    let Some(listing) = value.get("ok") else {
        return Err(stop_of(&value["err"]));
    };
    let text = |v: &Value| v.as_str().map(str::to_string);
    Ok(Listing {
        tools: listing["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| Tool {
                name: text(&t["name"]).unwrap(),
                description: text(&t["description"]),
                input_schema: Some(t["input_schema"].clone()).filter(|s| !s.is_null()),
            })
            .collect(),
        pages: listing["pages"].as_u64().unwrap() as u32,
        cut: text(&listing["cut"]),
    })
}

/// The tour step `step`'s listing of the tools.
fn toured_tools(step: &str) -> Result<Listing, Stop> {
    listing_of(&toured(step)["tools"])
}

/// The tour step `step`'s observation.
fn toured_observe(step: &str) -> Result<String, Stop> {
    text_of(&toured(step)["observe"])
}

/// The tour step `step`'s reply to its call, and the observation after.
fn toured_call(step: &str) -> (Result<Reply, Stop>, Result<String, Stop>) {
    let result = toured(step);
    (reply_of(&result["call"]), text_of(&result["observe"]))
}

#[test]
fn discovery_lists_every_tool_the_page_registered() {
    let listing = toured_tools("listing").expect("the listing");
    let mut names: Vec<&str> = listing.tools.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "add_item",
            "count_items",
            "lying_add",
            "reject_all",
            "sneaky_count"
        ]
    );
    assert_eq!(listing.pages, 1);
    assert_eq!(listing.cut, None);
    let add = listing.tools.iter().find(|t| t.name == "add_item").unwrap();
    assert_eq!(
        add.description.as_deref(),
        Some("Appends an item to the list.")
    );
    assert_eq!(
        add.input_schema,
        Some(json!({
            "type": "object",
            "properties": {"text": {"type": "string", "minLength": 1}},
            "required": ["text"]
        }))
    );
}

#[test]
fn observe_reads_the_text_of_the_selected_element() {
    assert_eq!(toured_observe("observe"), Ok("milk".to_string()));
}

#[test]
fn a_page_visited_after_another_finds_nothing_the_first_kept_in_the_browser() {
    let server = serve();
    let mut session = open(&server, "/storage.html", "#kept");
    session
        .call("keep", &json!({"text": "bread"}))
        .expect("keep");
    // The control: the page itself finds what it kept.
    assert_eq!(
        session.observe(),
        Ok("kept: bread, cookie: bread".to_string())
    );
    session
        .visit(&server.url("/storage.html"), "#kept")
        .expect("the second visit");
    assert_eq!(session.observe(), Ok("nothing kept".to_string()));
}

#[test]
fn observing_a_selector_that_matches_nothing_is_unverified() {
    let why = unverified(toured_observe("no-match").unwrap_err());
    assert!(why.contains("no element matches #basket"), "{why}");
}

#[test]
fn calling_add_item_appends_to_the_dom_and_returns_its_parsed_json_result() {
    let (reply, text) = toured_call("add");
    assert_eq!(
        reply,
        Ok(Reply::Result(json!({"added": "eggs", "count": 2})))
    );
    assert_eq!(text, Ok("milk\neggs".to_string()));
}

#[test]
fn lying_add_resolves_added_and_leaves_the_dom_as_it_was() {
    let (reply, text) = toured_call("lie");
    assert_eq!(reply, Ok(Reply::Result(json!("added"))));
    assert_eq!(text, Ok("milk".to_string()));
}

#[test]
fn sneaky_count_changes_the_dom_it_claims_only_to_read() {
    let (reply, text) = toured_call("sneaky");
    assert_eq!(reply, Ok(Reply::Result(json!({"count": 1}))));
    assert_eq!(text, Ok("milk\nsneaky".to_string()));
}

#[test]
fn count_items_answers_without_changing_the_dom() {
    let (reply, text) = toured_call("count");
    assert_eq!(reply, Ok(Reply::Result(json!({"count": 1}))));
    assert_eq!(text, Ok("milk".to_string()));
}

#[test]
fn a_rejecting_tool_is_a_tool_error() {
    match toured_call("reject").0 {
        Ok(Reply::ToolError(why)) => assert!(!why.is_empty()),
        other => panic!("not a tool error: {other:?}"),
    }
}

#[test]
fn calling_a_tool_the_page_does_not_list_is_a_tool_error() {
    assert_eq!(
        toured_call("unlisted").0,
        Ok(Reply::ToolError(
            "getTools lists no tool named \"remove_item\"".to_string()
        ))
    );
}

#[test]
fn a_page_that_registers_nothing_lists_no_tools() {
    assert!(toured_tools("plain").expect("the listing").tools.is_empty());
}

/// Why the tour step `step`'s listing of the tools is unverified.
fn unlisted(step: &str) -> String {
    unverified(toured_tools(step).unwrap_err())
}

#[test]
fn a_page_outside_a_secure_context_has_no_api_and_is_unverified() {
    // Chromium gives document.modelContext to secure contexts only: a data: URL is not one.
    assert_eq!(
        unlisted("insecure"),
        "unsupported WebMCP API: document.modelContext is absent"
    );
}

#[test]
fn a_get_tools_that_is_not_a_function_is_unverified() {
    assert_eq!(
        unlisted("property"),
        "unsupported WebMCP API: document.modelContext.getTools is not a function"
    );
}

#[test]
fn a_get_tools_resolving_to_a_number_is_unverified() {
    assert_eq!(
        unlisted("number"),
        "unsupported WebMCP API: getTools returned a number (42)"
    );
}

#[test]
fn a_get_tools_listing_a_nameless_tool_is_unverified() {
    assert_eq!(
        unlisted("nameless"),
        "unsupported WebMCP API: getTools returned an array whose item 0 (an object) has no string name"
    );
}

#[test]
fn a_page_answering_404_is_unverified() {
    let server = serve();
    let url = server.url("/missing.html");
    let why = unverified(refused(&browser(), &url));
    assert_eq!(
        why,
        format!("the page {url} could not be loaded: HTTP status 404")
    );
}

#[test]
fn a_missing_playwright_module_is_unverified_naming_its_path() {
    let server = serve();
    let browser = Browser {
        module: PathBuf::from("/nonexistent/playwright-core/index.mjs"),
        ..browser()
    };
    let why = unverified(refused(&browser, &server.url("/webmcp.html")));
    assert!(
        why.contains("/nonexistent/playwright-core/index.mjs"),
        "{why}"
    );
}

/// A package in a temp dir whose `index.mjs` and `index.js` each export a chromium that
/// refuses to launch, saying which file it came from; `package.json` is `manifest`.
fn two_entry_package(manifest: &Value) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let refusing =
        |from: &str| format!("launch: async () => {{ throw new Error('launched from {from}'); }}");
    std::fs::write(
        dir.path().join("index.mjs"),
        format!("export const chromium = {{ {} }};\n", refusing("index.mjs")),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("index.js"),
        format!(
            "module.exports = {{ chromium: {{ {} }} }};\n",
            refusing("index.js")
        ),
    )
    .unwrap();
    std::fs::write(dir.path().join("package.json"), manifest.to_string()).unwrap();
    dir
}

/// Why opening a page with the module `file` of `package` stopped.
fn launch_refusal(package: &tempfile::TempDir, file: &str) -> String {
    let browser = Browser {
        module: package.path().join(file),
        ..launching()
    };
    unverified(refused(&browser, "http://127.0.0.1:9/never-loaded"))
}

#[test]
fn an_es_module_entry_with_a_commonjs_twin_is_loaded_through_the_twin() {
    let package = two_entry_package(&json!({
        "exports": {".": {"import": "./index.mjs", "require": "./index.js"}}
    }));
    let why = launch_refusal(&package, "index.mjs");
    assert!(why.ends_with("launched from index.js"), "{why}");
}

#[test]
fn an_es_module_the_package_does_not_pair_with_a_twin_is_imported_itself() {
    // No "require" entry: nothing says index.js exports the same thing.
    let package = two_entry_package(&json!({"exports": {".": {"import": "./index.mjs"}}}));
    let why = launch_refusal(&package, "index.mjs");
    assert!(why.ends_with("launched from index.mjs"), "{why}");
}

#[test]
fn a_missing_browser_executable_is_unverified_naming_its_path() {
    let server = serve();
    let browser = Browser {
        chromium: Chromium::Launch(PathBuf::from("/nonexistent/chromium")),
        ..launching()
    };
    let why = unverified(refused(&browser, &server.url("/webmcp.html")));
    assert!(why.contains("/nonexistent/chromium"), "{why}");
}

#[test]
fn a_missing_node_is_unverified_naming_it() {
    let server = serve();
    let browser = Browser {
        node: PathBuf::from("/nonexistent/node"),
        ..browser()
    };
    let why = unverified(refused(&browser, &server.url("/webmcp.html")));
    assert!(why.contains("/nonexistent/node"), "{why}");
}

#[test]
fn a_deadline_already_past_is_timed_out_before_anything_starts() {
    let server = serve();
    let past = Instant::now() - Duration::from_millis(1);
    let stop = browser().open(&server.url("/webmcp.html"), "body", past, never);
    assert_eq!(stop.err(), Some(Stop::Unverified("timed out".to_string())));
    assert_eq!(server.calls("/webmcp.html"), 0);
}

#[test]
fn a_tool_that_never_settles_times_out_at_the_deadline_and_leaves_no_chromium() {
    let server = serve();
    // The deadline also bounds the launch: far enough that a loaded machine still opens
    // the page before it (a launch has taken over 6 s under a load of 10).
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut session = launching()
        .open(&server.url("/limits.html"), "body", deadline, never)
        .expect("the page opens");
    let dir = session.dir().to_path_buf();
    assert!(chromium_processes(&dir) > 0, "the browser runs");
    let stop = session.call("wait_forever", &json!({}));
    assert_eq!(stop, Err(Stop::Unverified("timed out".to_string())));
    // It waited for the deadline, not less (how soon after it stops is the machine's
    // speed, not a behaviour: no upper bound is asserted).
    assert!(Instant::now() >= deadline, "stopped before the deadline");
    assert_eq!(chromium_left(&dir), 0);
    assert!(!dir.exists(), "the user data dir is removed");
}

static SIGNALLED: AtomicBool = AtomicBool::new(false);

fn interrupted_once_signalled() -> Option<Exit> {
    SIGNALLED
        .load(Ordering::SeqCst)
        .then_some(Exit::Interrupted)
}

#[test]
fn a_signal_during_a_call_cancels_it_and_leaves_no_chromium() {
    let server = serve();
    let mut session = launching()
        .open(
            &server.url("/limits.html"),
            "body",
            in_30_s(),
            interrupted_once_signalled,
        )
        .expect("the page opens");
    let dir = session.dir().to_path_buf();
    assert!(chromium_processes(&dir) > 0, "the browser runs");
    std::thread::spawn(|| {
        std::thread::sleep(Duration::from_millis(300));
        SIGNALLED.store(true, Ordering::SeqCst);
    });
    let started = Instant::now();
    let stop = session.call("wait_forever", &json!({}));
    assert_eq!(stop, Err(Stop::Cancelled(Exit::Interrupted)));
    assert!(
        // Far below the 30 s deadline the never-settling call would otherwise wait for.
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(chromium_left(&dir), 0);
    // The session stays ended: a later step stops the same way without a browser.
    assert_eq!(session.observe(), Err(Stop::Cancelled(Exit::Interrupted)));
}

#[test]
fn a_result_over_the_reply_cap_fails() {
    let server = serve();
    let mut session = open(&server, "/limits.html", "body");
    match session.call("huge_result", &json!({})) {
        Err(Stop::Fail(why)) => assert!(why.contains("4194304 bytes"), "{why}"),
        other => panic!("not a failure: {other:?}"),
    }
}

#[test]
fn closing_is_clean_and_removes_the_browser_and_its_profile() {
    let server = serve();
    let mut session = launched(&server, "/webmcp.html", "#items");
    let dir = session.dir().to_path_buf();
    assert!(chromium_processes(&dir) > 0, "the browser runs");
    let mode = std::fs::metadata(&dir).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o700, "the profile is private");
    assert_eq!(session.close(), None);
    assert_eq!(chromium_left(&dir), 0);
    assert!(!dir.exists(), "the user data dir is removed");
}

#[test]
fn dropping_a_session_leaves_no_chromium() {
    let server = serve();
    let session = launched(&server, "/webmcp.html", "#items");
    let dir = session.dir().to_path_buf();
    assert!(chromium_processes(&dir) > 0, "the browser runs");
    drop(session);
    assert_eq!(chromium_left(&dir), 0);
}
