//! --verify: targets, the plan file and source files compared again after the checks; a
//! change is a `same: false` record naming what changed, never an error.

use crate::support;

use qa_records::acceptance::TargetKind;
use qa_records::hash::sha256_hex;
use serde_json::Value;
use std::fs;
use std::path::Path;
use support::{criterion, of_kind, plan, run, spec, Response, Server};

fn write(root: &Path, path: &str, content: &str) {
    let path = root.join(path);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, content).unwrap();
}

/// The capture stage's whole output for `specs`.
fn captured(repo: &Path, args: &[&str], specs: &str) -> Vec<u8> {
    let out = run(repo, args, specs);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

/// The `target.verify` data after `change` ran between capture and verify.
fn verified(repo: &Path, args: &[&str], specs: &str, change: impl FnOnce()) -> Vec<Value> {
    let stream = captured(repo, args, specs);
    change();
    let mut verify_args = vec!["--verify"];
    verify_args.extend_from_slice(args);
    let out = run(repo, &verify_args, stream.clone());
    assert!(
        out.stdout.starts_with(&stream),
        "the input is forwarded first"
    );
    support::validate_all(&out);
    of_kind(&out, "target.verify")
        .into_iter()
        .map(|r| r["data"].clone())
        .collect()
}

fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "site/index.html", "Welcome");
    write(dir.path(), "site/about.html", "About");
    dir
}

#[test]
fn an_unchanged_directory_is_the_same() {
    let dir = site();
    let specs = spec(TargetKind::Directory, "site", None);
    let v = verified(dir.path(), &[], &specs, || {});
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["subject"], "target");
    assert_eq!(v[0]["same"], true);
    assert_eq!(v[0]["before"], v[0]["after"]);
    assert_eq!(v[0]["reason"], Value::Null);
}

#[test]
fn a_changed_directory_lists_added_removed_and_edited_paths() {
    let dir = site();
    let root = dir.path().to_path_buf();
    let specs = spec(TargetKind::Directory, "site", None);
    let v = verified(dir.path(), &[], &specs, || {
        write(&root, "site/index.html", "Welcome back");
        write(&root, "site/new.html", "new");
        fs::remove_file(root.join("site/about.html")).unwrap();
    });
    assert_eq!(v[0]["same"], false);
    assert_ne!(v[0]["before"], v[0]["after"]);
    assert_eq!(
        v[0]["changed"],
        serde_json::json!(["about.html", "index.html", "new.html"])
    );
    assert_eq!(v[0]["reason"], "3 paths changed");
}

#[test]
fn at_most_64_changed_paths_are_listed() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..70 {
        write(dir.path(), &format!("site/f{i:02}"), "a");
    }
    let root = dir.path().to_path_buf();
    let specs = spec(TargetKind::Directory, "site", None);
    let v = verified(dir.path(), &[], &specs, || {
        for i in 0..70 {
            write(&root, &format!("site/f{i:02}"), "b");
        }
    });
    assert_eq!(v[0]["changed"].as_array().unwrap().len(), 64);
    assert_eq!(v[0]["changed"][63], "f63");
    assert_eq!(v[0]["reason"], "70 paths changed, the first 64 listed");
}

#[test]
fn an_edited_file_target_is_not_the_same() {
    let dir = site();
    let root = dir.path().to_path_buf();
    let specs = spec(TargetKind::File, "site/index.html", None);
    let v = verified(dir.path(), &[], &specs, || {
        write(&root, "site/index.html", "Bye")
    });
    assert_eq!(v[0]["same"], false);
    assert_eq!(v[0]["changed"], serde_json::json!(["index.html"]));
}

#[test]
fn a_target_that_can_no_longer_be_captured_is_not_the_same() {
    let dir = site();
    let root = dir.path().to_path_buf();
    let specs = spec(TargetKind::Directory, "site", None);
    let v = verified(dir.path(), &[], &specs, || {
        std::os::unix::fs::symlink("/etc/hostname", root.join("site/link")).unwrap();
    });
    assert_eq!(v[0]["same"], false);
    assert_eq!(v[0]["after"], Value::Null);
    let reason = v[0]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("not captured again (failed): site/link"),
        "{reason}"
    );
}

#[test]
fn a_url_whose_body_changed_is_not_the_same() {
    let server = Server::start(|_, n| Response::ok(format!("version {n}")));
    let dir = tempfile::tempdir().unwrap();
    let specs = spec(TargetKind::Url, &server.url("/"), None);
    let v = verified(dir.path(), &["--allow-network"], &specs, || {});
    assert_eq!(v[0]["same"], false);
    assert_eq!(v[0]["before"], sha256_hex(b"version 0"));
    assert_eq!(v[0]["after"], sha256_hex(b"version 1"));
    assert_eq!(v[0]["reason"], "the response body changed");
}

#[test]
fn a_url_with_the_same_body_is_the_same() {
    let server = Server::start(|_, _| Response::ok("stable"));
    let dir = tempfile::tempdir().unwrap();
    let specs = spec(TargetKind::Url, &server.url("/"), None);
    let v = verified(dir.path(), &["--allow-network"], &specs, || {});
    assert_eq!(v[0]["same"], true);
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn a_blocked_target_is_not_compared_or_fetched() {
    let server = Server::start(|_, _| Response::ok("x"));
    let dir = tempfile::tempdir().unwrap();
    let stream = captured(
        dir.path(),
        &[],
        &spec(TargetKind::Url, &server.url("/"), None),
    );
    let out = run(dir.path(), &["--verify", "--allow-network"], stream);
    let v = &of_kind(&out, "target.verify")[0]["data"];
    assert_eq!(v["same"], true);
    assert_eq!(v["reason"], "not captured");
    assert!(server.requests().is_empty());
}

#[test]
fn each_comparison_names_the_record_it_compared() {
    let dir = site();
    let stream = captured(dir.path(), &[], &spec(TargetKind::Directory, "site", None));
    let out = run(dir.path(), &["--verify"], stream);
    let target = &of_kind(&out, "target")[0];
    let verify = &of_kind(&out, "target.verify")[0];
    assert_eq!(verify["from"], serde_json::json!([target["id"]]));
    let events = of_kind(&out, "event");
    let last = events.last().unwrap();
    assert_eq!(last["data"]["phase"], "verify");
    assert_eq!(last["data"]["subject"], verify["id"]);
}

/// A repository with a plan file and a ticket, and the records qa-intent would write.
fn plan_and_ticket() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let plan_text = "{\"criteria\": []}";
    let ticket = "Refunds above 100 EUR require a manager's approval";
    write(dir.path(), ".qa-acceptance.json", plan_text);
    write(dir.path(), "tickets/SHOP-12.md", ticket);
    let records = plan(".qa-acceptance.json", &sha256_hex(plan_text.as_bytes()))
        + &criterion(
            "refunds",
            "tickets/SHOP-12.md",
            &sha256_hex(ticket.as_bytes()),
        )
        + &criterion(
            "again",
            "tickets/SHOP-12.md",
            &sha256_hex(ticket.as_bytes()),
        );
    (dir, records)
}

fn verify_in(repo: &Path, records: String) -> Vec<Value> {
    // The plan path is read from the current directory, as qa-intent read it.
    let out = support::qa_fetch()
        .invocation()
        .dir(repo)
        .args(["--verify", "--repo", "."])
        .stdin(records)
        .run();
    support::validate_all(&out);
    of_kind(&out, "target.verify")
        .into_iter()
        .map(|r| r["data"].clone())
        .collect()
}

#[test]
fn an_unchanged_plan_and_sources_are_the_same() {
    let (dir, records) = plan_and_ticket();
    let v = verify_in(dir.path(), records);
    let subjects: Vec<&str> = v.iter().map(|d| d["subject"].as_str().unwrap()).collect();
    assert_eq!(subjects, vec!["plan", "source", "source"]);
    assert!(v.iter().all(|d| d["same"] == true), "{v:?}");
    assert_eq!(v[1]["value"], "tickets/SHOP-12.md");
}

#[test]
fn an_edited_quote_file_is_not_the_same() {
    let (dir, records) = plan_and_ticket();
    write(dir.path(), "tickets/SHOP-12.md", "Refunds above 500 EUR");
    let v = verify_in(dir.path(), records);
    assert_eq!(v[0]["same"], true);
    assert_eq!(v[1]["same"], false);
    assert_eq!(v[1]["after"], sha256_hex(b"Refunds above 500 EUR"));
    assert_eq!(v[1]["reason"], "content changed");
}

#[test]
fn an_edited_plan_file_is_not_the_same() {
    let (dir, records) = plan_and_ticket();
    write(dir.path(), ".qa-acceptance.json", "{\"criteria\": [1]}");
    let v = verify_in(dir.path(), records);
    assert_eq!(v[0]["subject"], "plan");
    assert_eq!(v[0]["same"], false);
}

#[test]
fn a_removed_source_file_is_not_the_same_with_the_reason() {
    let (dir, records) = plan_and_ticket();
    fs::remove_file(dir.path().join("tickets/SHOP-12.md")).unwrap();
    let v = verify_in(dir.path(), records);
    assert_eq!(v[1]["same"], false);
    assert_eq!(v[1]["after"], Value::Null);
    assert_eq!(v[1]["reason"], "tickets/SHOP-12.md not found");
}

#[test]
fn a_source_replaced_by_a_symlink_is_not_followed() {
    let (dir, records) = plan_and_ticket();
    let ticket = dir.path().join("tickets/SHOP-12.md");
    let copy = dir.path().join("copy.md");
    fs::copy(&ticket, &copy).unwrap();
    fs::remove_file(&ticket).unwrap();
    std::os::unix::fs::symlink(&copy, &ticket).unwrap();
    let v = verify_in(dir.path(), records);
    assert_eq!(v[1]["same"], false);
    assert_eq!(
        v[1]["reason"],
        "tickets/SHOP-12.md is a symlink: not followed"
    );
}

#[test]
fn verify_output_is_deterministic_apart_from_events() {
    let dir = site();
    let stream = captured(dir.path(), &[], &spec(TargetKind::Directory, "site", None));
    let strip = |out: qa_testkit::Run| -> Vec<String> {
        out.text()
            .lines()
            .filter(|l| !l.contains("\"kind\":\"event\""))
            .map(str::to_string)
            .collect()
    };
    let first = strip(run(dir.path(), &["--verify"], stream.clone()));
    let second = strip(run(dir.path(), &["--verify"], stream));
    assert_eq!(first, second);
}
