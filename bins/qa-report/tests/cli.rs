//! --help, --version and the man page, which must not drift from --help.

use std::path::Path;

#[test]
fn help_shows_examples_and_exit_status() {
    qa_testkit::cli::assert_help_lists(
        env!("CARGO_BIN_EXE_qa-report"),
        &[
            "--verify",
            "--format <FORMAT>",
            "--out <DIR>",
            "--in <FILE>",
            "Examples:",
            "Exit status:",
            " 65  ",
        ],
    );
}

#[test]
fn man_page_matches_help() {
    use qa_report::cli;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../man/qa-report.1");
    qa_cli::man::assert_current(&path, cli::command(), cli::EXAMPLES, cli::EXIT_STATUS);
}
