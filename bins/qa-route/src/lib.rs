//! qa-route: routes each QA scenario to a decision (required, recommended, review-only),
//! the repository's existing validation commands, and an action contract; adds one
//! capability receipt per reasoning stage; routes each acceptance check (runnable,
//! blocked, unsupported).

pub mod action;
pub mod capability;
pub mod checks;
pub mod cli;
pub mod commands;
pub mod path;
pub mod routing;
pub mod sections;
pub mod stage;
pub mod targets;
pub mod tree;

/// The `by` value of every record this stage writes.
pub const BY: &str = concat!("qa-route/", env!("CARGO_PKG_VERSION"));
