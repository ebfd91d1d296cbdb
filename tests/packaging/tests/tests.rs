//! The crate's integration tests, one binary (one link, one process per run); one
//! module per behaviour area. Run one area with `cargo test -p qa-packaging --test integration AREA::`.

mod common;

mod completions;
mod dist;
mod first_contact;
mod suite_tmpdir;
mod version;
