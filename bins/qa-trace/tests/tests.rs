//! The crate's integration tests, one binary (one link, one process per run); one
//! module per behaviour area. Run one area with `cargo test -p qa-trace --test integration AREA::`.

mod cli;
mod criteria;
mod playwright_drafts;
mod stream;
