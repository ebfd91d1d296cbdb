//! --help, the man page (which must not drift from --help), the pipeline-wide flags, and
//! the exit codes of bad invocations.

use crate::common;

use common::{intent, ndjson, qa_route, scenario, Stubs, Tree};
use qa_records::change::{Confidence, Priority, Relation};
use std::path::Path;

#[test]
fn help_shows_examples_and_exit_status() {
    qa_testkit::cli::assert_help_lists(
        env!("CARGO_BIN_EXE_qa-route"),
        &[
            "--repo <DIR>",
            "--in <FILE>",
            "Examples:",
            "Exit status:",
            " 65  ",
            " 66  ",
            " 70  ",
        ],
    );
}

#[test]
fn man_page_matches_help() {
    use qa_route::cli;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../man/qa-route.1");
    qa_cli::man::assert_current(&path, cli::command(), cli::EXAMPLES, cli::EXIT_STATUS);
}

#[test]
fn the_pipeline_wide_flags_are_accepted_and_change_no_scenario_route() {
    // --allow-network matters for http check routes only (tests/checks.rs).
    let tree = Tree::new();
    tree.write("Cargo.toml", "[package]\nname = \"shop\"\n");
    let stubs = Stubs::new(&["cargo"]);
    let i = intent(&["src/login.rs"], &[], Confidence::High);
    let s = scenario(
        &i,
        "a",
        Priority::Critical,
        &[("src/login.rs", 3, Relation::Direct)],
    );
    let input = ndjson(&[&i, &s]);
    let plain = qa_route(tree.path(), &stubs, &input, &[]);
    let flagged = qa_route(
        tree.path(),
        &stubs,
        &input,
        &[
            "--allow-network",
            "--allow-tool-calls",
            "--allow-exec",
            "--timeout",
            "30",
            "--auth-env",
            "TOKEN",
        ],
    );
    assert_eq!(flagged.code(), 0, "{}", flagged.stderr());
    assert_eq!(plain.records().len(), 8);
    assert_eq!(plain.output.stdout, flagged.output.stdout);
}

#[test]
fn an_unknown_flag_is_a_usage_error() {
    let tree = Tree::new();
    let run = qa_route(tree.path(), &Stubs::new(&[]), b"", &["--exec"]);
    assert_eq!(run.code(), 64);
}

#[test]
fn a_missing_repository_or_input_file_is_exit_66() {
    let tree = Tree::new();
    let stubs = Stubs::new(&[]);
    let gone = tree.path().join("gone");
    let run = qa_route(&gone, &stubs, b"", &[]);
    assert_eq!(run.code(), 66, "{}", run.stderr());
    assert!(
        run.stderr().starts_with("qa-route: error: repository"),
        "{}",
        run.stderr()
    );
    let run = qa_route(tree.path(), &stubs, b"", &["--in", gone.to_str().unwrap()]);
    assert_eq!(run.code(), 66, "{}", run.stderr());
}
