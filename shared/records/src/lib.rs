//! The record contract every qapipe stage shares: the envelope and its kinds, canonical
//! JSON and ids, NDJSON reading and writing, exit codes, cancellation and interruptible
//! waits, the clock, `diag` records, private folders written without following symlinks, the untrusted-text boundary, secrets, bounded
//! regular-file reads, and the typed payloads of every record kind (with scenario steps,
//! shard assignment and code patterns) and the words a person reads for their values.
//!
//! It is the bottom of the library stack: it must not depend on any other qapipe crate
//! (libraries under `shared/` nor stages under `bins/`), nor on heavy dependencies (git2,
//! ureq, jsonschema, tree-sitter, clap, YAML or TOML parsers).

pub mod acceptance;
pub mod base64;
pub mod cancel;
pub mod canonical;
pub mod change;
pub mod clock;
pub mod code_pattern;
pub mod diag;
pub mod envelope;
pub mod execution;
pub mod exit;
pub mod graph;
pub mod hash;
pub mod kind;
pub mod ndjson;
pub mod output;
pub mod private_dir;
pub mod regular_file;
pub mod secret;
pub mod shard;
pub mod steps;
pub mod untrusted;
pub mod waiting;
pub mod words;

pub use envelope::{Envelope, Record};
pub use exit::{Exit, Failure};
pub use kind::Kind;
