//! File checks on real project repos with captured manifests.

use crate::common;

use common::{
    directory_target, file_target, observations, only_observation, records, routed, run_in,
};
use qa_records::acceptance::TargetData;
use qa_testkit::Repo;
use serde_json::{json, Value};

fn check(repo: &Repo, target: &TargetData, spec: Value) -> Value {
    only_observation(&run_in(repo, &routed(target, &[spec]), &[]))
}

fn site() -> Repo {
    let repo = Repo::new();
    repo.write(
        "site/index.html",
        "<h1>Welcome</h1>\n<p>Hello, visitor</p>\n",
    );
    repo.write("site/about/team.html", "<p>Our team</p>\n");
    repo.write("site/.env", "TOKEN=hunter2\n");
    repo
}

#[test]
fn text_present_in_a_captured_file_passes_with_its_evidence() {
    let repo = site();
    let target = directory_target(&repo, "site", &[".env"]);
    let obs = check(
        &repo,
        &target,
        json!({"id": "home", "kind": "file", "path": "index.html", "contains": "Welcome"}),
    );
    assert_eq!(obs["status"], "pass", "{obs:#}");
    assert_eq!(obs["expected"], "index.html contains \"Welcome\"");
    assert_eq!(obs["evidence"]["path"], "site/index.html");
    let bytes = std::fs::read(repo.path().join("site/index.html")).unwrap();
    assert_eq!(
        obs["evidence"]["sha256"],
        qa_records::hash::sha256_hex(&bytes)
    );
    assert_eq!(obs["evidence"]["bytes"], bytes.len());
    assert!(obs["evidence"]["excerpt"]
        .as_str()
        .unwrap()
        .contains("Welcome"));
    assert_eq!(obs["reason"], Value::Null);
}

#[test]
fn text_absent_from_a_captured_file_fails_with_the_start_as_excerpt() {
    let repo = site();
    let target = directory_target(&repo, "site", &[".env"]);
    let obs = check(
        &repo,
        &target,
        json!({"id": "home", "kind": "file", "path": "index.html", "contains": "Goodbye"}),
    );
    assert_eq!(obs["status"], "fail", "{obs:#}");
    assert!(obs["observed"]
        .as_str()
        .unwrap()
        .contains("does not contain"));
    assert!(obs["evidence"]["excerpt"]
        .as_str()
        .unwrap()
        .starts_with("<h1>Welcome"));
}

#[test]
fn a_file_in_a_subdirectory_is_found_by_its_target_relative_path() {
    let repo = site();
    let target = directory_target(&repo, "site", &[".env"]);
    let obs = check(
        &repo,
        &target,
        json!({"id": "team", "kind": "file", "path": "about/team.html", "contains": "Our team"}),
    );
    assert_eq!(obs["status"], "pass", "{obs:#}");
    assert_eq!(obs["evidence"]["path"], "site/about/team.html");
}

#[test]
fn the_excerpt_of_a_large_file_surrounds_a_late_match() {
    let repo = Repo::new();
    let text = format!("{}MARKER{}", "a".repeat(20_000), "b".repeat(20_000));
    repo.write("site/big.txt", &text);
    let target = directory_target(&repo, "site", &[]);
    let obs = check(
        &repo,
        &target,
        json!({"id": "big", "kind": "file", "path": "big.txt", "contains": "MARKER"}),
    );
    assert_eq!(obs["status"], "pass");
    let excerpt = obs["evidence"]["excerpt"].as_str().unwrap();
    assert_eq!(excerpt.chars().count(), 4096);
    assert!(excerpt.contains("MARKER"));
}

#[test]
fn an_excluded_path_is_unverified_not_read() {
    let repo = site();
    let target = directory_target(&repo, "site", &[".env"]);
    let obs = check(
        &repo,
        &target,
        json!({"id": "env", "kind": "file", "path": ".env", "contains": "hunter2"}),
    );
    assert_eq!(obs["status"], "unverified", "{obs:#}");
    assert!(obs["reason"]
        .as_str()
        .unwrap()
        .starts_with("not captured: excluded .env"));
    assert_eq!(obs["evidence"]["excerpt"], Value::Null);
    assert_eq!(obs["evidence"]["sha256"], Value::Null);
}

#[test]
fn a_path_under_an_excluded_directory_is_unverified() {
    let repo = site();
    repo.write("site/node_modules/lib/index.js", "module.exports = 1;\n");
    let target = directory_target(&repo, "site", &[".env", "node_modules"]);
    let obs = check(
        &repo,
        &target,
        json!({"id": "lib", "kind": "file", "path": "node_modules/lib/index.js", "contains": "module"}),
    );
    assert_eq!(obs["status"], "unverified");
    assert!(obs["reason"]
        .as_str()
        .unwrap()
        .starts_with("not captured: excluded node_modules"));
}

#[test]
fn a_path_absent_from_the_manifest_is_unverified() {
    let repo = site();
    let target = directory_target(&repo, "site", &[".env"]);
    // Written after the capture: on disk, but not captured evidence.
    repo.write("site/late.html", "Welcome");
    let obs = check(
        &repo,
        &target,
        json!({"id": "late", "kind": "file", "path": "late.html", "contains": "Welcome"}),
    );
    assert_eq!(obs["status"], "unverified");
    assert_eq!(
        obs["reason"],
        "not captured: late.html is not in the target manifest"
    );
}

#[test]
fn a_file_edited_since_capture_is_an_error_not_a_pass() {
    let repo = site();
    let target = directory_target(&repo, "site", &[".env"]);
    repo.write("site/index.html", "<h1>Welcome back</h1>\n");
    let obs = check(
        &repo,
        &target,
        json!({"id": "home", "kind": "file", "path": "index.html", "contains": "Welcome"}),
    );
    assert_eq!(obs["status"], "error", "{obs:#}");
    assert!(obs["reason"]
        .as_str()
        .unwrap()
        .starts_with("changed since capture: site/index.html"));
}

#[test]
fn a_file_deleted_since_capture_is_an_error() {
    let repo = site();
    let target = directory_target(&repo, "site", &[".env"]);
    std::fs::remove_file(repo.path().join("site/index.html")).unwrap();
    let obs = check(
        &repo,
        &target,
        json!({"id": "home", "kind": "file", "path": "index.html", "contains": "Welcome"}),
    );
    assert_eq!(obs["status"], "error");
    assert_eq!(
        obs["reason"],
        "changed since capture: site/index.html no longer exists"
    );
}

#[cfg(unix)]
#[test]
fn a_file_replaced_by_a_symlink_since_capture_is_not_followed() {
    let repo = site();
    let target = directory_target(&repo, "site", &[".env"]);
    std::fs::remove_file(repo.path().join("site/index.html")).unwrap();
    std::os::unix::fs::symlink(
        repo.path().join("site/about/team.html"),
        repo.path().join("site/index.html"),
    )
    .unwrap();
    let obs = check(
        &repo,
        &target,
        json!({"id": "home", "kind": "file", "path": "index.html", "contains": "team"}),
    );
    assert_eq!(obs["status"], "error");
    assert!(obs["reason"]
        .as_str()
        .unwrap()
        .contains("no longer a regular file"));
}

#[test]
fn a_captured_file_that_is_not_utf8_is_an_error() {
    let repo = Repo::new();
    repo.write("site/logo.bin", [0x57, 0x65, 0xff, 0xfe, 0x00]);
    let target = directory_target(&repo, "site", &[]);
    let obs = check(
        &repo,
        &target,
        json!({"id": "logo", "kind": "file", "path": "logo.bin", "contains": "We"}),
    );
    assert_eq!(obs["status"], "error");
    assert_eq!(
        obs["reason"],
        "site/logo.bin is not UTF-8 text: invalid byte at offset 2"
    );
}

#[test]
fn a_file_target_is_checked_without_a_path() {
    let repo = site();
    let target = file_target(&repo, "site/index.html");
    let obs = check(
        &repo,
        &target,
        json!({"id": "home", "kind": "file", "contains": "Hello, visitor"}),
    );
    assert_eq!(obs["status"], "pass", "{obs:#}");
    assert_eq!(obs["evidence"]["path"], "site/index.html");
    assert_eq!(
        obs["expected"],
        "the target file contains \"Hello, visitor\""
    );
}

#[test]
fn a_file_check_never_executes_the_file() {
    let repo = Repo::new();
    let marker = repo.path().join("ran");
    repo.write(
        "site/run.sh",
        format!("#!/bin/sh\ntouch '{}'\necho ok\n", marker.display()),
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let script = repo.path().join("site/run.sh");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let target = directory_target(&repo, "site", &[]);
    let obs = check(
        &repo,
        &target,
        json!({"id": "script", "kind": "file", "path": "run.sh", "contains": "echo ok"}),
    );
    assert_eq!(obs["status"], "pass");
    assert!(!marker.exists(), "the script ran");
}

#[test]
fn checks_run_in_plan_order_with_one_event_each() {
    let repo = site();
    let target = directory_target(&repo, "site", &[".env"]);
    let stream = routed(
        &target,
        &[
            json!({"id": "b-second", "kind": "file", "path": "index.html", "contains": "Welcome"}),
            json!({"id": "a-first", "kind": "file", "path": "index.html", "contains": "nope"}),
        ],
    );
    let run = run_in(&repo, &stream, &[]);
    let all = records(&run, 0);
    let ids: Vec<String> = observations(&all)
        .iter()
        .map(|o| o["check"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids, ["b-second", "a-first"]);
    let events = qa_testkit::of_kind(&all, "event");
    assert_eq!(events.len(), 2);
    assert_eq!(events[0]["data"]["phase"], "check");
    assert_eq!(events[0]["data"]["detail"], "pass");
    assert_eq!(events[1]["data"]["detail"], "fail");
}
