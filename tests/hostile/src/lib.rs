//! The hostile-input suite's harness: the stages and how each takes a stream, a stage run
//! bounded in time in its own process group (stdin and stdout from any file, a signal
//! after a delay), and the contract every run is held to.

pub mod contract;
pub mod launch;
pub mod records;
pub mod stages;

pub use contract::{Expect, Verdicts};
pub use launch::{run_all, Launch, Outcome, BOUND};
pub use stages::{launch, Arg, Fixture, Stage, STAGES};
