//! --help, usage errors and the man page, which must not drift from --help.

use std::path::Path;

#[test]
fn help_usage_errors_and_missing_input_follow_the_stage_contract() {
    qa_testkit::cli::assert_stage_basics(
        env!("CARGO_BIN_EXE_qa-fetch"),
        &[
            "--repo <DIR>",
            "--verify",
            "--allow-network",
            "--auth-env <NAME>",
            "130",
            "143",
        ],
    );
}

#[test]
fn man_page_matches_help() {
    use qa_fetch::cli;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../man/qa-fetch.1");
    qa_cli::man::assert_current(&path, cli::command(), cli::EXAMPLES, cli::EXIT_STATUS);
}

#[test]
fn a_missing_repo_directory_is_exit_66() {
    let code = qa_testkit::cli::exit_code(
        env!("CARGO_BIN_EXE_qa-fetch"),
        &["--repo", "/nonexistent/repo"],
    );
    assert_eq!(code, Some(66));
}

#[test]
fn a_timeout_over_five_minutes_is_exit_64() {
    let bin = env!("CARGO_BIN_EXE_qa-fetch");
    assert_eq!(
        qa_testkit::cli::exit_code(bin, &["--timeout", "301"]),
        Some(64)
    );
    assert_eq!(
        qa_testkit::cli::exit_code(bin, &["--timeout", "300"]),
        Some(0)
    );
}
