//! The crate's integration tests, one binary (one link, one process per run); one
//! module per behaviour area. Run one area with `cargo test -p qa-intent --test integration AREA::`.

mod behavior_graph;
mod citations;
mod cli;
mod common;
mod gates;
mod guard;
mod manifest_bounds;
mod moves;
mod oracle;
mod plan;
mod plan_env;
mod schemas;
mod stream;
mod syntax_facts;
