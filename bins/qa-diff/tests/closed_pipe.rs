//! A closed stdout (`qa-diff | head -1`) ends qa-diff quietly with 0.

use crate::common;
use common::*;
use std::io::Read;
use std::process::{Command, Stdio};

#[test]
fn closing_stdout_early_is_not_an_error() {
    let mut r = Repo::new();
    r.write("seed.txt", "x\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    // Enough output that qa-diff is still writing when the reader goes away.
    for i in 0..300 {
        r.write(
            &format!("src/f{i}.txt"),
            format!("{}\n", "line\n".repeat(200)),
        );
    }
    r.commit("many files");
    let mut child = Command::new(env!("CARGO_BIN_EXE_qa-diff"))
        .current_dir(r.path())
        .env("HOME", r.home())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn a_pipefail_pipeline_into_head_succeeds() {
    let mut r = Repo::new();
    r.write("seed.txt", "x\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    for i in 0..200 {
        r.write(&format!("f{i}.txt"), "line\n".repeat(100));
    }
    r.commit("many files");
    let script = format!(
        "set -o pipefail; '{}' | head -1 > /dev/null",
        env!("CARGO_BIN_EXE_qa-diff")
    );
    let status = Command::new("bash")
        .args(["-c", &script])
        .current_dir(r.path())
        .env("HOME", r.home())
        .status()
        .unwrap();
    assert!(status.success());
}
