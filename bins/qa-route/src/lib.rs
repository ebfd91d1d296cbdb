//! qa-route: routes each QA scenario to a decision (required, recommended, review-only),
//! the repository's existing validation commands, and an action contract; adds one
//! capability receipt per reasoning stage; routes each acceptance check (runnable,
//! blocked, unsupported).

pub mod action;
pub mod added;
pub mod capability;
pub mod checks;
pub mod cited;
pub mod cli;
pub mod discovered;
pub mod installed;
pub mod repository;
pub mod routing;
pub mod stage;

// Command discovery is shared with `qa-check --exec`, which re-discovers the candidates
// before it runs one: it lives in qa-commands, under the names qa-route has always used.
pub use qa_commands as commands;
pub use qa_commands::{path, sections, targets, tree};

/// The `by` value of every record this stage writes.
pub const BY: &str = concat!("qa-route/", env!("CARGO_PKG_VERSION"));
