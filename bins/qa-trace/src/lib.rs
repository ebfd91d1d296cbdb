//! qa-trace: see the crate description and `qa-trace --help`.

pub mod cli;

/// The `by` value of every record this stage writes.
pub const BY: &str = concat!("qa-trace/", env!("CARGO_PKG_VERSION"));
