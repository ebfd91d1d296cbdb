//! What the packaging tests share: the workspace root and `make` runs isolated from an
//! outer make.

#![allow(dead_code)]

use qa_testkit::run::{Invocation, Program};
use std::path::{Path, PathBuf};

/// The workspace root (the Makefile's folder).
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("tests/packaging/ lives inside the workspace")
        .to_path_buf()
}

/// `make ARGS` in the workspace, as a user runs it: an outer `make test`'s flags, job
/// server and level are not inherited, and nothing is built (`BUILD_BINS=true`): the
/// binaries of QA_BIN_DIR (or target/debug) are used.
pub fn make<S: AsRef<std::ffi::OsStr>>(args: impl IntoIterator<Item = S>) -> Invocation {
    let bins = qa_testkit::run::bin_dir();
    Program::at("make")
        .invocation()
        .dir(workspace())
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .env_remove("MAKELEVEL")
        .args(args)
        .arg("BUILD_BINS=true")
        .arg(format!("DEBUG_DIR={}", bins.display()))
}

/// Whether `program` is on PATH.
pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}
