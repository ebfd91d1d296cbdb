//! The crate's integration tests, one binary (one link, one process per run); one
//! module per behaviour area. Run one area with `cargo test -p qa-records --test integration AREA::`.
//!
//! Each test here raises a real signal, and the cancellation flag it sets is process-wide
//! and never cleared, so each runs its body in a process of its own ([`own_process`]):
//! `cargo test` runs a binary's tests as threads of one process.

mod cancelled_reading;
mod reading_grace;

/// Runs `body` in a fresh run of this test binary that runs only `test` (its full path),
/// and fails when that run fails. Inside that run (`QA_OWN_PROCESS` set) it runs `body`.
pub fn own_process(test: &str, body: impl FnOnce()) {
    if std::env::var_os("QA_OWN_PROCESS").is_some() {
        body();
        return;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = std::process::Command::new(exe)
        .args([test, "--exact", "--test-threads=1", "--nocapture"])
        .env("QA_OWN_PROCESS", "1")
        .output()
        .expect("running the test binary again");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("1 passed"),
        "{test} in its own process: {}\n{text}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}
