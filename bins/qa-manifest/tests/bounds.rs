//! The manifest is read as qa-intent reads it: a regular file of at most 1 MiB, never a
//! symlink, FIFO or device. A refusal is one line, at once, and nothing is written.

use crate::common;
use common::*;
use qa_testkit::process::Group;
use qa_testkit::Repo;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// Far more than a refusal takes, even on a loaded machine.
const PROMPTLY: Duration = Duration::from_secs(20);

/// `qa-manifest --repo REPO ARGS...` under a 1 GiB address-space limit (so an unbounded
/// read fails instead of taking the machine's memory), stdin empty: (exit code, stderr),
/// or None when it still ran after [`PROMPTLY`] (then it is killed).
fn bounded(repo: &Repo, args: &[&str]) -> Option<(Option<i32>, String)> {
    let mut command = Command::new("sh");
    command
        .args(["-c", "ulimit -v 1048576; exec \"$@\"", "sh"])
        .arg(env!("CARGO_BIN_EXE_qa-manifest"))
        .arg("--repo")
        .arg(repo.path())
        .args(args)
        .current_dir(repo.outside());
    let output = Group::spawn(command).wait(PROMPTLY)?;
    Some((output.status.code(), output.stderr))
}

/// Asserts exit `code` with one stderr line holding every needle.
fn assert_refused_at_once(outcome: Option<(Option<i32>, String)>, code: i32, needles: &[&str]) {
    let (exit, stderr) = outcome.expect("qa-manifest still ran after 20 s");
    assert_eq!(exit, Some(code), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "{needle:?} not in: {stderr}");
    }
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

/// The shop repository with `.qa/manifest.yaml` committed as a symlink to `target`.
fn shop_with_manifest_link(target: &str) -> Repo {
    let mut r = shop(None);
    std::fs::create_dir_all(r.path().join(".qa")).unwrap();
    symlink(target, manifest_path(&r)).unwrap();
    r.commit("chore: team policy");
    r
}

#[test]
fn validate_refuses_a_manifest_symlinked_to_dev_zero() {
    let r = shop_with_manifest_link("/dev/zero");
    assert_refused_at_once(
        bounded(&r, &["validate"]),
        65,
        &[".qa/manifest.yaml", "is a symlink, not a regular file"],
    );
}

#[test]
fn validate_refuses_a_fifo_manifest_at_once() {
    let r = shop(None);
    std::fs::create_dir_all(r.path().join(".qa")).unwrap();
    mkfifo(&manifest_path(&r));
    assert_refused_at_once(
        bounded(&r, &["validate"]),
        66,
        &[".qa/manifest.yaml", "is a FIFO, not a regular file"],
    );
}

#[test]
fn validate_refuses_a_manifest_over_1_mib() {
    let r = shop(Some(&format!("version: 1\n{}", "#\n".repeat(1 << 19))));
    assert_refused_at_once(
        bounded(&r, &["validate"]),
        65,
        &[".qa/manifest.yaml", "over the 1 MiB limit"],
    );
}

#[test]
fn validate_reads_a_manifest_just_under_1_mib() {
    let r = shop(Some(&format!(
        "version: 1\n{}",
        "#\n".repeat((1 << 19) - 8)
    )));
    let (code, stderr) = bounded(&r, &["validate"]).expect("validate ends");
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn validate_refuses_a_device_given_with_the_manifest_flag() {
    let r = shop(None);
    assert_refused_at_once(
        bounded(&r, &["validate", "--manifest", "/dev/zero"]),
        66,
        &["/dev/zero is a device, not a regular file"],
    );
}

#[test]
fn validate_refuses_a_fifo_given_with_the_manifest_flag_at_once() {
    let r = shop(None);
    let fifo = r.outside().join("policy.yaml");
    mkfifo(&fifo);
    assert_refused_at_once(
        bounded(&r, &["validate", "--manifest", fifo.to_str().unwrap()]),
        66,
        &["policy.yaml is a FIFO"],
    );
}

#[test]
fn accept_refuses_to_edit_a_symlinked_manifest_and_leaves_the_link() {
    let r = shop(None);
    let (saved, before) = save_flow(&r, "run.ndjson");
    r.write("policy/manifest.yaml", "version: 1\n");
    std::fs::create_dir_all(r.path().join(".qa")).unwrap();
    symlink("../policy/manifest.yaml", manifest_path(&r)).unwrap();
    let run = accept_scenario(&r, &saved, &before, AVATAR);
    assert_refused(&run, 65, "is a symlink");
    let link = std::fs::symlink_metadata(manifest_path(&r)).unwrap();
    assert!(link.file_type().is_symlink(), "the link is left as it was");
    assert_eq!(
        std::fs::read_to_string(r.path().join("policy/manifest.yaml")).unwrap(),
        "version: 1\n"
    );
}
