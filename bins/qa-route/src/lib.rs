//! qa-route: see the crate description and `qa-route --help`.

pub mod cli;

/// The `by` value of every record this stage writes.
pub const BY: &str = concat!("qa-route/", env!("CARGO_PKG_VERSION"));
