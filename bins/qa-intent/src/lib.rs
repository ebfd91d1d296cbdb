//! qa-intent: see the crate description and `qa-intent --help`.

pub mod cli;

/// The `by` value of every record this stage writes.
pub const BY: &str = concat!("qa-intent/", env!("CARGO_PKG_VERSION"));
