//! The crate's integration tests, one binary (one link, one process per run); one
//! module per behaviour area. Run one area with `cargo test -p ci --test integration AREA::`.

mod common;

mod github;
mod gitlab;
mod install;
mod yaml;
