//! A report page (report.html) opened in the real headless Chromium of the test peers
//! (playwright-core, Debian's Chromium) by `page/open.mjs`: what the page made of itself,
//! and the assertion that nothing in it was active.

use crate::peers;
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

/// What `open.mjs` saw of `report`; with `filter`, the cards left visible after clicking
/// that filter; with `shot`, a full-page PNG written there.
pub fn open(report: &Path, filter: Option<&str>, shot: Option<&Path>) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/page/open.mjs");
    let config = json!({
        "module": peers::playwright_module(),
        "executable": peers::chromium(),
        "file": report,
        "filter": filter,
        "shot": shot,
    });
    let out = Command::new("node")
        .arg(script)
        .arg(config.to_string())
        .output()
        .expect("node runs (Node.js is a test peer)");
    assert!(
        out.status.success(),
        "open.mjs failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("open.mjs prints one JSON object")
}

/// [`open`]; with `QAPIPE_HTML_SHOTS=DIR` in the environment, also a full-page PNG of the
/// report at 1280 pixels wide saved as `DIR/<name>.png`, to look at.
pub fn look(report: &Path, name: &str) -> Value {
    let shot = std::env::var_os("QAPIPE_HTML_SHOTS").map(|dir| {
        std::fs::create_dir_all(&dir).unwrap();
        Path::new(&dir).join(format!("{name}.png"))
    });
    open(report, None, shot.as_deref())
}

/// Asserts that nothing active ran and nothing left the file: no page-level flag, no
/// dialog, no popup, no script or handler element, no style attribute, and no request
/// but the file itself (and embedded PNGs).
pub fn assert_inert(seen: &Value) {
    assert_eq!(seen["pwned"], Value::Null, "a script ran: {seen:#}");
    assert_eq!(seen["dialogs"], json!([]), "a dialog opened");
    assert_eq!(seen["popups"], 0, "a page opened");
    assert_eq!(seen["scripts"], 0, "a script element exists");
    assert_eq!(seen["handlers"], 0, "an on* attribute exists");
    assert_eq!(seen["styled"], 0, "a style attribute exists");
    assert_eq!(seen["styles"], 1, "one style element, the report's own");
    let url = seen["url"].as_str().unwrap();
    for request in seen["requests"].as_array().unwrap() {
        let request = request.as_str().unwrap();
        assert!(
            request == url || request.starts_with("data:image/png;base64,"),
            "the page requested {request}"
        );
    }
    let console = seen["console"].to_string();
    assert!(
        !console.contains("Content Security Policy"),
        "something the policy refused was tried: {console}"
    );
}
