//! The crate's integration tests, one binary (one link, one process per run); one
//! module per behaviour area. Run one area with `cargo test -p qa-graph --test integration AREA::`.

mod common;

mod adapters;
mod bounds;
mod cli;
mod commands;
mod django;
mod express;
mod packages;
mod python;
mod records;
mod repository;
mod web;
mod workspaces;
