//! Release packaging for `make dist`: the binaries an archive ships and their shell completions.

pub mod completions;

/// Every binary `make dist` ships, by name, with the clap command its `main` parses.
pub fn commands() -> Vec<(&'static str, clap::Command)> {
    vec![
        ("qa-diff", qa_diff::cli::command()),
        ("qa-intent", qa_intent::cli::command()),
        ("qa-route", qa_route::cli::command()),
        ("qa-trace", qa_trace::cli::command()),
        ("qa-fetch", qa_fetch::cli::command()),
        ("qa-check", qa_check::cli::command()),
        ("qa-report", qa_report::cli::command()),
        ("qa-profile", qa_profile::cli::command()),
        ("qa-manifest", qa_manifest::cli::command()),
        ("qa-mcp", qa_mcp::cli::command()),
    ]
}
