//! qa-diff's view of the shared test kit: the kit itself, plus running this package's
//! own binary with the CI variables that would steer base resolution cleared.
#![allow(dead_code)]

use std::path::Path;

pub use qa_testkit::*;

/// Environment variables that would leak the test machine's CI into base resolution.
pub use qa_diff::base::CI_VARIABLES;

/// This package's binary.
pub fn qa_diff_program() -> Program {
    Program::at(env!("CARGO_BIN_EXE_qa-diff"))
}

/// Runs qa-diff in `dir` with `home` as HOME, `args`, and `env` set after the CI
/// variables are cleared.
pub fn qa_diff_in(dir: &Path, home: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut run = qa_diff_program()
        .invocation()
        .dir(dir)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home)
        .args(args);
    for var in CI_VARIABLES {
        run = run.env_remove(var);
    }
    for (k, v) in env {
        run = run.env(k, v);
    }
    run.run()
}

/// `repo.qa_diff(args, env)`: qa-diff run inside a test repository.
pub trait RunQaDiff {
    fn qa_diff(&self, args: &[&str], env: &[(&str, &str)]) -> Run;
}

impl RunQaDiff for Repo {
    fn qa_diff(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        qa_diff_in(self.path(), self.home(), args, env)
    }
}
