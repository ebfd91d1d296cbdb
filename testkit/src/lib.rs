//! Test fixtures shared by qapipe's integration tests: real git repositories in temp
//! dirs, runs of the built binaries, NDJSON parsing and schema validation of records.

pub mod cli;
pub mod documents;
pub mod filter;
pub mod http;
pub mod mcp;
pub mod peers;
pub mod process;
pub mod records;
pub mod repo;
pub mod run;
pub mod schemas;
pub mod tree;

pub use records::{file, of_kind, one, parse, paths};
pub use repo::Repo;
pub use run::{Invocation, Program, Run, ToolStubs};
pub use schemas::{schema_dir, Schemas};
pub use tree::Tree;
