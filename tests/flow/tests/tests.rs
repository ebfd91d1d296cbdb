//! The crate's integration tests, one binary (one link, one process per run); one
//! module per behaviour area. Run one area with `cargo test -p qa-flow-tests --test integration AREA::`.

mod common;

mod acceptance;
mod behaviour;
mod focus;
mod html;
mod inputs;
mod intents;
mod policy;
mod precision;
mod report;
mod routing;
mod shard;
mod trace;
