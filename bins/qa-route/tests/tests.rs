//! The crate's integration tests, one binary (one link, one process per run); one
//! module per behaviour area. Run one area with `cargo test -p qa-route --test integration AREA::`.

mod common;

mod checks;
mod cli;
mod delivery;
mod installed;
mod repositories;
mod repository;
mod runners;
mod stream;
