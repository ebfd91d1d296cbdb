//! The crate's integration tests, one binary (one link, one process per run); one
//! module per behaviour area. Run one area with `cargo test -p qa-report --test integration AREA::`.

mod common;

mod acceptance_run;
mod acceptance_verdict;
mod cancelled;
mod cli;
mod codequality;
mod empty_range;
mod execution;
mod formats;
mod hidden_text;
mod html_acceptance;
mod html_change;
mod incomplete;
mod interrupt;
mod merge;
mod neutralization;
mod out_dir;
mod report_text;
mod scenario_detail;
mod screenshot_budget;
mod screenshot_copies;
mod unmet;
mod verify;
mod vocabulary;
