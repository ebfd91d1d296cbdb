//! --help, --version and the man page, which must not drift from --help.

use std::path::Path;
use std::process::Command;

#[test]
fn help_shows_examples_and_exit_status() {
    qa_testkit::cli::assert_help_lists(
        env!("CARGO_BIN_EXE_qa-diff"),
        &[
            "--worktree",
            "--base <REF>",
            "Examples:",
            "qa-diff | qa-report --verify",
            "Exit status:",
            " 66  ",
        ],
    );
}

#[test]
fn version_names_the_binary_and_its_commit() {
    let out = Command::new(env!("CARGO_BIN_EXE_qa-diff"))
        .arg("--version")
        .output()
        .unwrap();
    let line = String::from_utf8(out.stdout).unwrap();
    assert!(
        line.starts_with(concat!("qa-diff ", env!("CARGO_PKG_VERSION"), " ("))
            && line.ends_with(")\n"),
        "{line:?}"
    );
}

#[test]
fn man_page_matches_help() {
    use qa_diff::cli;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../man/qa-diff.1");
    qa_cli::man::assert_current(&path, cli::command(), cli::EXAMPLES, cli::EXIT_STATUS);
}
