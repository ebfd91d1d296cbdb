//! qa-check: see the crate description and `qa-check --help`.

pub mod cli;

/// The `by` value of every record this stage writes.
pub const BY: &str = concat!("qa-check/", env!("CARGO_PKG_VERSION"));
