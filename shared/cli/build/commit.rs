//! Which git commit a source directory was checked out from, and which git files name it.
//!
//! Shared by qa-cli's build script (the commit every binary's `--version` names) and
//! its tests.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What the build knows about the commit it is built from.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Commit {
    /// `<short hash> <commit date, UTC, YYYY-MM-DD>`; None outside a git checkout of this
    /// source (a crates tarball, a copy without `.git`, a directory git does not track).
    pub line: Option<String>,
    /// The git files whose change means another commit: HEAD, the branch's ref, packed-refs.
    pub watch: Vec<PathBuf>,
}

/// The commit `dir` (a package directory holding `Cargo.toml`) is checked out at.
pub fn describe(dir: &Path) -> Commit {
    // A packaged crate (`cargo package`, crates.io) carries this file; it was built from a
    // tarball even when unpacked inside some other repository.
    if dir.join(".cargo_vcs_info.json").exists() {
        return Commit::default();
    }
    // The package's own manifest must be tracked, or the repository found is not this
    // source's (a copy unpacked into another checkout).
    if git(dir, &["ls-files", "--error-unmatch", "Cargo.toml"]).is_none() {
        return Commit::default();
    }
    let line = git(
        dir,
        &[
            "-c",
            "log.showSignature=false",
            "log",
            "-1",
            "--no-color",
            "--format=%h %cd",
            "--date=format-local:%Y-%m-%d",
        ],
    );
    let mut names = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        names.push(branch);
    }
    let watch = names
        .iter()
        .filter_map(|name| git(dir, &["rev-parse", "--git-path", name]))
        .map(|path| dir.join(path))
        // A path that does not exist would make cargo rerun the build script every time.
        .filter(|path| path.exists())
        .collect();
    Commit { line, watch }
}

/// git's trimmed stdout, or None when git is missing or fails.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("TZ", "UTC")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}
