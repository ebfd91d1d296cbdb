//! Test fixtures shared by qapipe's integration tests: real git repositories in temp
//! dirs, runs of the built binaries, NDJSON parsing and schema validation of records.
//!
//! Test-only: it is a dev-dependency of stages and libraries, and a dependency of the
//! test crates under tests/, never a (normal) dependency of a stage or a library. It may
//! use qa-records; it runs the stages as built binaries and must not depend on a stage's
//! crate.

pub mod browser_server;
pub mod cli;
pub mod documents;
pub mod filter;
pub mod http;
pub mod mcp;
pub mod once;
pub mod page;
pub mod peers;
pub mod process;
pub mod records;
pub mod repo;
pub mod run;
pub mod schemas;
pub mod tree;
pub mod webmcp;
pub mod workspace;

pub use records::{file, of_kind, one, parse, paths};
pub use repo::Repo;
pub use run::{Invocation, Program, Run, ToolStubs};
pub use schemas::{schema_dir, Schemas};
pub use tree::Tree;
