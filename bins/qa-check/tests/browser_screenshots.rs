//! Screenshots as evidence: browser checks through the qa-check binary, in a real headless
//! Chromium driven through the installed playwright-core, against pages served on
//! 127.0.0.1 (`tests/pages/`), keep PNGs of the page under `<repo>/.qa/screenshots/` and
//! name them in the observation.

use crate::common;

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;

use common::shared::{SharedRun, BUDGET};
use common::{only_observation, qa_check, routed, url_target};
use qa_check::browser::CHROMIUM_ARGS;
use qa_records::acceptance::TargetStatus;
use qa_records::hash::sha256_hex;
use qa_testkit::http::Server;
use qa_testkit::run::Invocation;
use qa_testkit::{browser_server, peers, Run};
use serde_json::{json, Value};
use tempfile::TempDir;

const CALLS: &[&str] = &["--allow-network", "--allow-tool-calls"];

/// qa-check in the shared browser server on one browser check `spec` against `page`, in the
/// project `repo`; the caller adds flags.
fn invocation(repo: &Path, server: &Server, page: &str, spec: Value) -> Invocation {
    checks_invocation(repo, server, page, &[("shot", spec)])
}

/// [`invocation`] of several checks, each `(id, spec)`.
fn checks_invocation(
    repo: &Path,
    server: &Server,
    page: &str,
    specs: &[(&str, Value)],
) -> Invocation {
    let checks: Vec<Value> = specs
        .iter()
        .map(|(id, spec)| {
            let mut check = json!({"id": id, "criterion": "page", "kind": "browser"});
            for (k, v) in spec.as_object().unwrap() {
                check[k] = v.clone();
            }
            check
        })
        .collect();
    let target = url_target(&server.url(page), TargetStatus::Captured, None);
    qa_check()
        .invocation()
        .arg("--repo")
        .arg(repo)
        .arg("--browser-module")
        .arg(peers::playwright_module())
        // The test run's shared browser server: a fresh browser context per check.
        .arg("--browser-endpoint")
        .arg(browser_server::endpoint(CHROMIUM_ARGS))
        .stdin(routed(&target, &checks).bytes())
}

fn run_in(repo: &Path, server: &Server, page: &str, spec: Value, flags: &[&str]) -> Run {
    invocation(repo, server, page, spec).args(flags).run()
}

/// The one observation (schema-validated) of a check in a new project, and the project.
fn observe(page: &str, spec: Value, flags: &[&str]) -> (Value, TempDir) {
    let server = common::serve_pages();
    let repo = tempfile::tempdir().unwrap();
    let obs = only_observation(&run_in(repo.path(), &server, page, spec, flags));
    (obs, repo)
}

/// A call of `set_headline`, whose effect is a big coloured heading.
/// headline.html's call whose effect shows ("shot") and one whose expected text never
/// shows ("unmet"), with the calling flags: one run shared by the tests that read it.
fn called() -> SharedRun {
    SharedRun::get("screenshots-calls", |server, repo| {
        let unmet = json!({"tool": "set_headline", "input": {"text": "Sold out"},
                           "observePath": "#headline", "observeContains": "In stock"});
        checks_invocation(
            repo,
            server,
            "/headline.html",
            &[("shot", headline_call()), ("unmet", unmet)],
        )
        .args(CALLS)
        .args(BUDGET)
        .run()
    })
}

/// headline.html's discovery of a tool it registers ("shot") and of one it does not
/// ("missing"), with the network flag only: one run shared by the tests that read it.
fn discovered() -> SharedRun {
    SharedRun::get("screenshots-discovery", |server, repo| {
        checks_invocation(
            repo,
            server,
            "/headline.html",
            &[
                ("shot", json!({"tool": "set_headline"})),
                ("missing", json!({"tool": "checkout"})),
            ],
        )
        .arg("--allow-network")
        .args(BUDGET)
        .run()
    })
}

fn headline_call() -> Value {
    json!({"tool": "set_headline", "input": {"text": "Sold out"},
           "observePath": "#headline", "observeContains": "Sold out"})
}

/// The observation's screenshot taken at `moment`.
fn shot<'a>(obs: &'a Value, moment: &str) -> &'a Value {
    obs["evidence"]["screenshots"]
        .as_array()
        .unwrap_or_else(|| panic!("no screenshots: {obs:#}"))
        .iter()
        .find(|s| s["moment"] == moment)
        .unwrap_or_else(|| panic!("no {moment} screenshot: {obs:#}"))
}

fn moments(obs: &Value) -> Vec<&str> {
    obs["evidence"]["screenshots"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| s["moment"].as_str().unwrap())
        .collect()
}

/// Width and height from a PNG's IHDR chunk, read here rather than by the code under test.
fn png_dimensions(png: &[u8]) -> (u64, u64) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG signature");
    assert_eq!(&png[12..16], b"IHDR");
    let word = |at: usize| u64::from(u32::from_be_bytes(png[at..at + 4].try_into().unwrap()));
    (word(16), word(20))
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn the_after_screenshot_is_the_png_the_observation_names() {
    let run = called();
    let obs = run.observation("shot");
    assert_eq!(obs["status"], "pass", "{obs:#}");
    let after = shot(&obs, "after");
    let path = after["path"].as_str().unwrap();
    let sha = after["sha256"].as_str().unwrap();
    assert_eq!(path, format!(".qa/screenshots/{sha}.png"));
    let png = std::fs::read(run.repo.join(path)).unwrap();
    assert_eq!(sha256_hex(&png), sha);
    assert_eq!(after["bytes"], png.len());
    let (width, height) = png_dimensions(&png);
    assert_eq!(
        (after["width"].as_u64(), after["height"].as_u64()),
        (Some(width), Some(height))
    );
    assert_eq!((width, height), (1280, 800), "the viewport");
}

#[test]
fn a_call_that_changes_the_page_has_a_before_screenshot_that_differs_from_after() {
    let run = called();
    let obs = run.observation("shot");
    assert_eq!(moments(&obs), ["before", "after"], "{obs:#}");
    let (before, after) = (shot(&obs, "before"), shot(&obs, "after"));
    assert_ne!(before["sha256"], after["sha256"]);
    let read = |s: &Value| std::fs::read(run.repo.join(s["path"].as_str().unwrap())).unwrap();
    let before_png = read(before);
    assert_eq!(sha256_hex(&before_png), before["sha256"].as_str().unwrap());
    assert_ne!(before_png, read(after));
}

#[test]
fn a_discovery_check_keeps_only_an_after_screenshot() {
    let obs = discovered().observation("shot");
    assert_eq!(obs["status"], "pass", "{obs:#}");
    assert_eq!(moments(&obs), ["after"]);
}

#[test]
fn a_check_that_fails_before_its_observation_keeps_a_failure_screenshot() {
    // The tool is not listed: the check fails at discovery, before any call.
    let run = discovered();
    let obs = run.observation("missing");
    assert_eq!(obs["status"], "fail", "{obs:#}");
    assert_eq!(moments(&obs), ["failure"]);
    let failure = shot(&obs, "failure");
    let png = std::fs::read(run.repo.join(failure["path"].as_str().unwrap())).unwrap();
    assert_eq!(sha256_hex(&png), failure["sha256"].as_str().unwrap());
}

#[test]
fn a_failed_observation_keeps_its_after_screenshot() {
    let obs = called().observation("unmet");
    assert_eq!(obs["status"], "fail", "{obs:#}");
    assert_eq!(moments(&obs), ["before", "after"]);
}

#[test]
fn no_screenshots_leaves_no_field_and_no_directory() {
    let mut flags = CALLS.to_vec();
    flags.push("--no-screenshots");
    let (obs, repo) = observe("/headline.html", headline_call(), &flags);
    assert_eq!(obs["status"], "pass", "{obs:#}");
    assert!(obs["evidence"].get("screenshots").is_none(), "{obs:#}");
    assert!(!repo.path().join(".qa").exists());
}

#[test]
fn screenshots_are_0600_files_in_a_0700_directory() {
    let run = called();
    let dir = run.repo.join(".qa/screenshots");
    assert_eq!(mode(&dir), 0o700);
    let mut named = std::collections::BTreeSet::new();
    for id in ["shot", "unmet"] {
        for shot in run.observation(id)["evidence"]["screenshots"]
            .as_array()
            .unwrap()
        {
            let path = run.repo.join(shot["path"].as_str().unwrap());
            assert_eq!(mode(&path), 0o600);
            named.insert(path);
        }
    }
    let files: std::collections::BTreeSet<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    assert_eq!(
        files, named,
        "the PNGs the observations name and nothing else (no temp file left)"
    );
}

#[test]
fn a_screenshots_directory_that_is_a_symlink_is_not_followed() {
    // `.qa/screenshots` points outside the project: qa-check opens each directory with
    // O_NOFOLLOW, so it refuses the link and keeps no screenshot; the check still passes.
    let server = common::serve_pages();
    let repo = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir(repo.path().join(".qa")).unwrap();
    std::os::unix::fs::symlink(outside.path(), repo.path().join(".qa/screenshots")).unwrap();
    let run = run_in(
        repo.path(),
        &server,
        "/headline.html",
        headline_call(),
        CALLS,
    );
    let obs = only_observation(&run);
    assert_eq!(obs["status"], "pass", "{obs:#}");
    assert!(obs["evidence"].get("screenshots").is_none(), "{obs:#}");
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
    let observed = obs["observed"].as_str().unwrap();
    assert!(
        observed.contains("screenshot after not kept")
            && observed.contains(".qa/screenshots is a symlink, not followed"),
        "{observed}"
    );
}

#[test]
fn a_screenshot_over_2_mib_is_not_kept_and_the_observation_says_so() {
    let (obs, repo) = observe("/noise.html", json!({"tool": "noop"}), &["--allow-network"]);
    assert_eq!(obs["status"], "pass", "{obs:#}");
    assert!(obs["evidence"].get("screenshots").is_none(), "{obs:#}");
    let observed = obs["observed"].as_str().unwrap();
    assert!(
        observed.contains("screenshot after not kept: the PNG is")
            && observed.contains("over the 2097152-byte bound"),
        "{observed}"
    );
    let dir = repo.path().join(".qa/screenshots");
    assert!(!dir.exists() || std::fs::read_dir(&dir).unwrap().count() == 0);
}

/// The value `tests/pages/headline.html` shows.
const SHOWN_TOKEN: &str = "qa-visible-token-5a1t";

/// A discovery check of headline.html with `token` as the --auth-env token.
fn with_token(token: &str) -> (Value, Run, TempDir) {
    let server = common::serve_pages();
    with_token_on(&server, "/headline.html", "set_headline", token)
}

/// A discovery check of `tool` on `page` with `token` as the --auth-env token.
fn with_token_on(server: &Server, page: &str, tool: &str, token: &str) -> (Value, Run, TempDir) {
    let repo = tempfile::tempdir().unwrap();
    let run = invocation(repo.path(), server, page, json!({"tool": tool}))
        .env("QA_SHOT_TOKEN", token)
        .args(["--allow-network", "--auth-env", "QA_SHOT_TOKEN"])
        .run();
    (only_observation(&run), run, repo)
}

#[test]
fn a_page_showing_the_auth_token_is_not_photographed() {
    let (obs, run, repo) = with_token(SHOWN_TOKEN);
    assert_eq!(obs["status"], "pass", "{obs:#}");
    assert!(obs["evidence"].get("screenshots").is_none(), "{obs:#}");
    assert!(
        obs["observed"]
            .as_str()
            .unwrap()
            .contains("screenshot after not kept: the page shows the --auth-env token"),
        "{obs:#}"
    );
    assert!(!repo.path().join(".qa/screenshots").exists());
    assert!(
        !run.text().contains(SHOWN_TOKEN),
        "the token is in a record"
    );
}

#[test]
fn a_page_not_showing_the_auth_token_is_photographed() {
    // The control of the test above: a token the page does not show stops nothing.
    let (obs, run, _repo) = with_token("qa-hidden-token-9b2u");
    assert_eq!(obs["status"], "pass", "{obs:#}");
    assert_eq!(moments(&obs), ["after"]);
    assert!(!run.text().contains("qa-hidden-token-9b2u"));
}

#[test]
fn the_token_never_enters_the_page_and_a_page_cannot_hide_it_from_the_check() {
    // prying.html shows a token in a form field, patches the prototypes a comparison in
    // the page would use (reporting every string they are handed to GET /leak) and fakes
    // innerText and input values. The comparison runs outside the page's world.
    let token = "qa-pried-token-7c3v";
    let server = common::serve_pages();
    let (obs, run, _repo) = with_token_on(&server, "/prying.html", "noop", token);
    assert_eq!(obs["status"], "pass", "{obs:#}");
    assert!(obs["evidence"].get("screenshots").is_none(), "{obs:#}");
    assert!(!run.text().contains(token));
    let leaked: Vec<String> = server
        .requests()
        .into_iter()
        .filter(|r| r.contains("/leak"))
        .collect();
    assert!(
        leaked.iter().all(|r| !r.contains(token)),
        "the page was handed the token: {leaked:#?}"
    );
}
