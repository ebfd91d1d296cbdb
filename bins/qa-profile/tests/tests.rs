//! The crate's integration tests, one binary (one link, one process per run); one
//! module per behaviour area. Run one area with `cargo test -p qa-profile --test integration AREA::`.

mod common;

mod auth;
mod bounds;
mod cli;
mod context;
mod cross_app;
mod environments;
mod evidence;
mod mutation;
mod normalized;
mod production;
mod sections;
mod sha_source;
mod stabilization;
mod statuses;
mod top_level;
