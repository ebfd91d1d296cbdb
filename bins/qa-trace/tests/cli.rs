//! --help, --version and the man page, which must not drift from --help.

use std::path::Path;
use std::process::Command;

#[test]
fn help_shows_examples_and_exit_status() {
    let out = Command::new(env!("CARGO_BIN_EXE_qa-trace"))
        .arg("--help")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8(out.stdout).unwrap();
    for needle in ["--in <FILE>", "Examples:", "Exit status:", " 65  "] {
        assert!(help.contains(needle), "--help lacks {needle:?}");
    }
}

#[test]
fn unknown_flags_are_usage_errors() {
    let out = Command::new(env!("CARGO_BIN_EXE_qa-trace"))
        .arg("--no-such-flag")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
}

#[test]
fn man_page_matches_help() {
    use qa_trace::cli;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../man/qa-trace.1");
    qa_shared::man::assert_current(&path, cli::command(), cli::EXAMPLES, cli::EXIT_STATUS);
}
