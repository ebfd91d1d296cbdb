//! Command-line checks every binary's tests share: --help content and exit codes.

use std::process::Command;

/// Runs `bin --help`, which must exit 0, and checks its text holds every needle.
pub fn assert_help_lists(bin: &str, needles: &[&str]) {
    let out = Command::new(bin)
        .arg("--help")
        .output()
        .expect("the binary starts");
    assert_eq!(out.status.code(), Some(0), "{bin} --help failed");
    let help = String::from_utf8(out.stdout).expect("--help is UTF-8");
    for needle in needles {
        assert!(help.contains(needle), "{bin} --help lacks {needle:?}");
    }
}

/// The exit code of `bin args...` with stdin closed.
pub fn exit_code(bin: &str, args: &[&str]) -> Option<i32> {
    Command::new(bin)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the binary starts")
        .status
        .code()
}

/// What every stage's command line promises: --help with these needles, examples and exit
/// status; 64 for an unknown flag; 66 for a missing --in file.
pub fn assert_stage_basics(bin: &str, needles: &[&str]) {
    let mut all = vec!["--in <FILE>", "Examples:", "Exit status:", " 65  "];
    all.extend_from_slice(needles);
    assert_help_lists(bin, &all);
    assert_eq!(exit_code(bin, &["--no-such-flag"]), Some(64));
    assert_eq!(
        exit_code(bin, &["--in", "/nonexistent/stream.ndjson"]),
        Some(66)
    );
}
