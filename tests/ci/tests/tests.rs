//! The crate's integration tests, one binary (one link, one process per run); one
//! module per behaviour area. Run one area with `cargo test -p qa-ci-tests --test integration AREA::`.

mod common;

mod github;
mod gitlab;
mod hostile_repository;
mod install;
mod release;
mod yaml;
