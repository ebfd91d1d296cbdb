//! --help, usage errors and the man page, which must not drift from --help.

use qa_testkit::cli::{assert_help_lists, exit_code};
use std::path::Path;

const BIN: &str = env!("CARGO_BIN_EXE_qa-intent");

#[test]
fn help_shows_examples_and_exit_status() {
    assert_help_lists(
        BIN,
        &[
            "--in <FILE>",
            "--allow-network",
            "Examples:",
            "Exit status:",
            " 65  ",
        ],
    );
}

#[test]
fn unknown_flags_are_usage_errors() {
    assert_eq!(exit_code(BIN, &["--no-such-flag"]), Some(64));
}

#[test]
fn a_missing_input_file_is_exit_66() {
    assert_eq!(
        exit_code(BIN, &["--in", "/nonexistent/stream.ndjson"]),
        Some(66)
    );
}

#[test]
fn man_page_matches_help() {
    use qa_intent::cli;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../man/qa-intent.1");
    qa_shared::man::assert_current(&path, cli::command(), cli::EXAMPLES, cli::EXIT_STATUS);
}
