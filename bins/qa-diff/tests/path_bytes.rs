//! Paths that are not UTF-8, committed in real repositories: each keeps a lossless escaped
//! path and its raw bytes, and no two file records share a path.

use crate::common;
use common::*;
use serde_json::{json, Value};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt as _;

/// Writes `content` at the raw path `name` in `repo`'s working tree.
fn write_raw(repo: &Repo, name: &[u8], content: &str) {
    std::fs::write(repo.path().join(OsStr::from_bytes(name)), content).unwrap();
}

fn files(records: &[Value]) -> Vec<&Value> {
    of_kind(records, "file")
        .into_iter()
        .map(|r| &r["data"])
        .collect()
}

/// A repository with one commit on main, on a new branch `feature`.
fn on_a_feature_branch() -> Repo {
    let mut r = Repo::new();
    r.write("README.md", "x\n");
    r.commit("chore: init");
    r.branch("feature");
    r
}

/// A repository whose second commit adds `a\xff` and `a\xfe`: lossy decoding makes both
/// `a\u{FFFD}`.
fn two_non_utf8_names() -> Repo {
    let mut r = on_a_feature_branch();
    write_raw(&r, b"a\xff", "one\n");
    write_raw(&r, b"a\xfe", "two\n");
    r.commit("feat: two names");
    r
}

#[test]
fn names_that_differ_only_outside_utf8_stay_two_distinct_paths() {
    let r = two_non_utf8_names();
    let records = r.qa_diff(&["--base", "main"], &[]).records();
    let files = files(&records);
    let paths: Vec<(&Value, &Value)> = files
        .iter()
        .map(|f| (&f["path"], &f["path_bytes"]))
        .collect();
    assert_eq!(
        paths,
        vec![
            (&json!("a\\xfe"), &json!("61fe")),
            (&json!("a\\xff"), &json!("61ff"))
        ]
    );
    assert_eq!(files[0]["sha256"], qa_records::hash::sha256_hex(b"two\n"));
    assert_eq!(files[1]["sha256"], qa_records::hash::sha256_hex(b"one\n"));
    let commit = one(&records, "commit");
    assert_eq!(commit["files"], json!(["a\\xfe", "a\\xff"]));
}

#[test]
fn a_utf8_path_records_no_bytes() {
    let mut r = on_a_feature_branch();
    r.write("src/ñ.rs", "fn main() {}\n");
    r.commit("feat: ñ");
    let records = r.qa_diff(&["--base", "main"], &[]).records();
    let file = files(&records)[0].clone();
    assert_eq!(file["path"], "src/ñ.rs");
    assert!(file.get("path_bytes").is_none(), "{file}");
}

#[test]
fn an_untracked_non_utf8_file_is_read_by_its_raw_name() {
    let r = two_non_utf8_names();
    write_raw(&r, b"new\xff.txt", "fresh\n");
    let records = r.qa_diff(&["--base", "HEAD", "--worktree"], &[]).records();
    let files = files(&records);
    let fresh = files
        .iter()
        .find(|f| f["path"] == "new\\xff.txt")
        .unwrap_or_else(|| panic!("{files:?}"));
    assert_eq!(fresh["path_bytes"], "6e6577ff2e747874");
    assert_eq!(fresh["sha256"], qa_records::hash::sha256_hex(b"fresh\n"));
    assert_eq!(fresh["added"], 1);
}

#[test]
fn a_renamed_non_utf8_path_keeps_the_bytes_of_both_names() {
    let mut r = two_non_utf8_names();
    r.git(&["checkout", "-q", "-b", "rename"]);
    std::fs::rename(
        r.path().join(OsStr::from_bytes(b"a\xff")),
        r.path().join(OsStr::from_bytes(b"b\xff")),
    )
    .unwrap();
    r.commit("refactor: rename");
    let records = r.qa_diff(&["--base", "feature"], &[]).records();
    let renamed = files(&records)[0].clone();
    assert_eq!(renamed["status"], "renamed");
    assert_eq!(renamed["path"], "b\\xff");
    assert_eq!(renamed["path_bytes"], "62ff");
    assert_eq!(renamed["old_path"], "a\\xff");
    assert_eq!(renamed["old_path_bytes"], "61ff");
}

#[test]
fn a_utf8_name_that_reads_like_an_escaped_one_never_gives_two_records_for_one_path() {
    let mut r = on_a_feature_branch();
    // The literal text `a\xff` (UTF-8) and the byte name a+0xff escape alike.
    r.write("a\\xff", "literal\n");
    write_raw(&r, b"a\xff", "raw\n");
    r.commit("feat: look-alikes");
    let records = r.qa_diff(&["--base", "main"], &[]).records();
    let files = files(&records);
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(files[0]["path"], "a\\xff");
    let diags: Vec<&Value> = of_kind(&records, "diag")
        .into_iter()
        .filter(|d| {
            d["data"]["message"]
                .as_str()
                .unwrap()
                .contains("names two paths")
        })
        .collect();
    assert_eq!(diags.len(), 1, "{records:?}");
    assert_eq!(
        diags[0]["data"]["severity"], "warning",
        "a changed file left out is a warning, not an info note"
    );
}
