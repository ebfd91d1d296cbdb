//! --help, usage errors and the man page, which must not drift from --help.

use std::path::Path;

#[test]
fn help_usage_errors_and_missing_input_follow_the_stage_contract() {
    qa_testkit::cli::assert_stage_basics(env!("CARGO_BIN_EXE_qa-trace"), &["--allow-network"]);
}

#[test]
fn man_page_matches_help() {
    use qa_trace::cli;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../man/qa-trace.1");
    qa_cli::man::assert_current(&path, cli::command(), cli::EXAMPLES, cli::EXIT_STATUS);
}
