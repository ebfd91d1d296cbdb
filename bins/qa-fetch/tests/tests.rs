//! The crate's integration tests, one binary (one link, one process per run); one
//! module per behaviour area. Run one area with `cargo test -p qa-fetch --test integration AREA::`.

mod support;

mod build;
mod cancel;
mod cli;
mod directory;
mod stream;
mod url;
mod verify;
