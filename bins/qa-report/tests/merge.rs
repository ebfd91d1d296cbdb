//! --merge's refusals before any shard is joined: a folder that does not exist (66), one
//! that is not a run folder or whose SHA256SUMS does not hold (65), and flags that do not
//! go with it (64). Whole sharded runs merged are tested end to end in tests/flow/shard.rs.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn merge(args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qa-report"))
        .arg("--merge")
        .args(args)
        .output()
        .expect("running qa-report")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts the merge of `dir` alone exits `code` with `needle` on stderr.
fn assert_refused(dir: &Path, code: i32, needle: &str) {
    let out = merge(&[dir]);
    assert_eq!(out.status.code(), Some(code), "{}", stderr(&out));
    assert!(stderr(&out).contains(needle), "{}", stderr(&out));
}

/// A SHA256SUMS in `dir` listing records.ndjson with a made-up checksum.
fn list_records(dir: &Path) {
    let sha = "0".repeat(64);
    fs::write(dir.join("SHA256SUMS"), format!("{sha}  records.ndjson\n")).unwrap();
}

#[test]
fn a_folder_that_does_not_exist_is_66_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    assert_refused(&dir.path().join("shard-9"), 66, "shard-9");
}

#[test]
fn a_folder_without_a_run_folder_is_65() {
    let dir = tempfile::tempdir().unwrap();
    assert_refused(dir.path(), 65, "no SHA256SUMS");
}

#[test]
fn a_folder_holding_two_run_folders_is_65_asking_for_one() {
    let dir = tempfile::tempdir().unwrap();
    for run in ["a", "b"] {
        fs::create_dir(dir.path().join(run)).unwrap();
        fs::write(dir.path().join(run).join("SHA256SUMS"), "").unwrap();
    }
    let out = merge(&[dir.path()]);
    assert_eq!(out.status.code(), Some(65), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("holds 2 run folders"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_file_listed_in_sha256sums_but_gone_is_65_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    list_records(dir.path());
    assert_refused(dir.path(), 65, "records.ndjson: does not exist");
}

#[test]
fn a_sha256sums_without_the_records_is_65() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("report.md"), "# report\n").unwrap();
    let sha = qa_records::hash::sha256_hex(b"# report\n");
    fs::write(dir.path().join("SHA256SUMS"), format!("{sha}  report.md\n")).unwrap();
    assert_refused(dir.path(), 65, "does not list records.ndjson");
}

#[test]
fn a_symlink_listed_in_sha256sums_is_refused_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("records.ndjson")).unwrap();
    list_records(dir.path());
    assert_refused(dir.path(), 65, "symlink");
}

#[test]
fn merge_does_not_go_with_verify_or_acceptance() {
    let dir = tempfile::tempdir().unwrap();
    for flag in ["--verify", "--acceptance", "--status"] {
        let out = Command::new(env!("CARGO_BIN_EXE_qa-report"))
            .arg(flag)
            .arg("--merge")
            .arg(dir.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(64), "{flag}: {}", stderr(&out));
    }
}
