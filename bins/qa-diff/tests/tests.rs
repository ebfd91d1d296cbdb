//! The crate's integration tests, one binary (one link, one process per run); one
//! module per behaviour area. Run one area with `cargo test -p qa-diff --test integration AREA::`.

mod common;

mod attributes;
mod base_resolution;
mod cli;
mod closed_pipe;
mod differential;
mod forwarding;
mod path_bytes;
mod range_records;
mod worktree;
