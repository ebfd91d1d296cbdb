//! --help, --version and the man page, which must not drift from --help.

use std::path::Path;
use std::process::Command;

#[test]
fn help_shows_examples_and_exit_status() {
    let out = Command::new(env!("CARGO_BIN_EXE_qa-report"))
        .arg("--help")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "--verify",
        "--format <FORMAT>",
        "--out <DIR>",
        "--in <FILE>",
        "Examples:",
        "Exit status:",
        " 65  ",
    ] {
        assert!(help.contains(needle), "--help lacks {needle:?}");
    }
}

#[test]
fn man_page_matches_help() {
    use qa_report::cli;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../man/qa-report.1");
    qa_shared::man::assert_current(&path, cli::command(), cli::EXAMPLES, cli::EXIT_STATUS);
}
