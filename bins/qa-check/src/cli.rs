//! qa-check's flags, help text and man-page sections.

use clap::{CommandFactory, Parser};
use qa_shared::cli::{after_help, Example};
use qa_shared::Exit;
use std::path::PathBuf;

/// (skeleton: being built)
#[derive(Debug, Parser)]
#[command(name = "qa-check", version)]
pub struct Args {
    /// Read records from FILE instead of stdin (`-` is stdin).
    #[arg(long = "in", value_name = "FILE", default_value = "-")]
    pub input: PathBuf,
}

pub const EXAMPLES: &[Example] = &[];

pub const EXIT_STATUS: &[(Exit, &str)] = &[(Exit::Success, "records written")];

/// The clap command, with examples and exit status after the options.
pub fn command() -> clap::Command {
    Args::command().after_help(after_help(EXAMPLES, EXIT_STATUS))
}
