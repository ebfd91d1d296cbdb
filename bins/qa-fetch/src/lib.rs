//! qa-fetch: see the crate description and `qa-fetch --help`.

pub mod cli;

/// The `by` value of every record this stage writes.
pub const BY: &str = concat!("qa-fetch/", env!("CARGO_PKG_VERSION"));
