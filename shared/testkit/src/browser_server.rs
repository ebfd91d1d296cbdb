//! One Playwright browser server (the test peers' playwright-core and Chromium) for the
//! browser checks of a test run: qa-check runs under test connect to it with
//! `--browser-endpoint` instead of each launching Chromium (~0.7 s of CPU a launch). Each
//! check still gets a fresh browser context, so nothing carries over between checks.
//!
//! `browser_server/serve.mjs` is started by the first test that asks ([`crate::once`]),
//! publishes its endpoint in a 0600 file in the temp folder, and stops when the test
//! runner that ran that test exits (nextest, or cargo under `cargo test`) or after 60 s
//! without a test asking. One server per user, runner process, version of the script and
//! set of Chromium switches: two runs never share one.

use crate::{once, peers};
use serde_json::{json, Value};
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

/// The running server's WebSocket endpoint (its path is the secret), the server started
/// first when there is none; Chromium runs with `args` (qa-check's own launch switches).
pub fn endpoint(args: &[&str]) -> String {
    let file = endpoint_file(args);
    let config = json!({
        "module": peers::playwright_module(),
        "executable": peers::chromium(),
        "args": args,
        "file": file,
        "owner": runner(),
    });
    let mut server = Command::new("node");
    server.arg(script()).arg(config.to_string());
    once::reach_or_start(
        &file.with_extension("lock"),
        || published(&file),
        server,
        "the shared browser server (browser_server/serve.mjs)",
    )
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/browser_server/serve.mjs")
}

/// The test runner's pid: the parent of this test process.
fn runner() -> u32 {
    std::os::unix::process::parent_id()
}

/// Where the server of this runner, script, peers and switches publishes its endpoint.
fn endpoint_file(args: &[&str]) -> PathBuf {
    let mut key = std::fs::read(script()).expect("reading browser_server/serve.mjs");
    key.extend(peers::playwright_module().as_os_str().as_encoded_bytes());
    key.extend(peers::chromium().as_os_str().as_encoded_bytes());
    key.extend(args.join("\n").as_bytes());
    let uid = std::fs::metadata("/proc/self")
        .map(|m| m.uid())
        .unwrap_or(0);
    let hash = qa_records::hash::sha256_hex(&key);
    std::env::temp_dir().join(format!(
        "qapipe-browser-{uid}-{}-{}.json",
        &hash[..16],
        runner()
    ))
}

/// The endpoint a live server published in `file`, which is touched (the server's idle
/// clock restarts); None when there is no file or its server is gone.
fn published(file: &Path) -> Option<String> {
    let text = std::fs::read_to_string(file).ok()?;
    let published: Value = serde_json::from_str(&text).ok()?;
    let pid = published["pid"].as_u64()?;
    if !Path::new(&format!("/proc/{pid}")).exists() {
        return None;
    }
    std::fs::File::options()
        .append(true)
        .open(file)
        .and_then(|f| f.set_modified(SystemTime::now()))
        .ok()?;
    published["endpoint"].as_str().map(str::to_string)
}
