//! The crate's integration tests, one binary (one link, one process per run); one
//! module per behaviour area. Run one area with `cargo test -p qa-hostile-tests --test integration AREA::`.

mod files;
mod repository_text;
mod repository_writes;
mod sources;
mod streams;
