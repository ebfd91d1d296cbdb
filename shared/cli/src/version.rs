//! The version line of every binary: its package version and the git commit it was built from.

/// `<short hash> <YYYY-MM-DD>` of the commit built, or `unknown commit` (set by build.rs).
pub const COMMIT: &str = env!("QAPIPE_COMMIT");

/// What `--version` shows after the binary's name: `0.1.0 (abc1234 2026-12-01)`.
pub fn line(version: &str) -> String {
    format!("{version} ({COMMIT})")
}
