//! What every qapipe binary shares: the record envelope, canonical hashing, NDJSON
//! streaming, exit codes, command-line plumbing, `diag` records and the untrusted-text
//! boundary.

pub mod acceptance;
pub mod cancel;
pub mod canonical;
pub mod change;
pub mod cli;
pub mod clock;
pub mod code_pattern;
pub mod diag;
pub mod envelope;
pub mod execution;
pub mod exit;
pub mod graph;
pub mod hash;
pub mod kind;
#[cfg(feature = "man")]
pub mod man;
pub mod manifest;
pub mod ndjson;
pub mod output;
pub mod regular_file;
pub mod secret;
pub mod shard;
pub mod steps;
pub mod untrusted;
pub mod validation;
pub mod version;
pub mod waiting;

pub use envelope::{Envelope, Record};
pub use exit::{Exit, Failure};
pub use kind::Kind;
