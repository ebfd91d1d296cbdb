//! The crate's integration tests, one binary (one link, one process per run); one
//! module per behaviour area. Run one area with `cargo test -p qa-manifest --test integration AREA::`.

mod common;

mod bounds;
mod commands;
mod concurrency;
mod corrections;
mod edits;
