//! The crate's integration tests, one binary (one link, one process per run); one
//! module per behaviour area. Run one area with `cargo test -p qa-check --test integration AREA::`.

mod common;

mod browser_checks;
mod browser_screenshots;
mod browser_session;
mod cancel;
mod cli;
mod exec;
mod exec_counts;
mod file_checks;
mod gaps;
mod http_checks;
mod mcp_checks;
mod shard;
mod speed;
mod stream;
