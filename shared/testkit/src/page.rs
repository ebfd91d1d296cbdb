//! A report page (report.html) opened in the real headless Chromium of the test peers
//! (playwright-core, Debian's Chromium headless shell): what the page made of itself, and the assertion
//! that nothing in it was active.
//!
//! Launching Chromium costs more than looking at a page, so the pages of one test run
//! share one browser: `page/serve.mjs`, started by the first test that needs it
//! ([`crate::once`]: under a file lock, in its own process group, its stdio closed so no
//! test waits on it), listens on a Unix socket in the temp folder and exits after 20 s
//! without a request. Each page
//! gets a new browser context, so nothing carries over from one page to the next. This
//! holds under `cargo test` (one process per binary) and nextest (one per test) alike.

use crate::{once, peers};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::MetadataExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What `look.mjs` saw of `report`; with `filter`, the cards left visible after clicking
/// that filter; with `shot`, a full-page PNG written there.
pub fn open(report: &Path, filter: Option<&str>, shot: Option<&Path>) -> Value {
    let request = json!({"file": report, "filter": filter, "shot": shot});
    // A server that was just exiting (its idle time up) drops the request: ask again once.
    let answer = ask(&request).or_else(|_| ask(&request));
    match answer {
        Ok(answer) if answer.get("ok").is_some() => answer["ok"].clone(),
        Ok(answer) => panic!(
            "serve.mjs could not open {}: {}",
            report.display(),
            answer["error"]
        ),
        Err(e) => panic!("serve.mjs did not answer for {}: {e}", report.display()),
    }
}

fn scripts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/page")
}

/// The server's socket: one per user and per version of the scripts and peers, so two
/// checkouts never ask each other's server.
fn socket() -> PathBuf {
    let mut key = Vec::new();
    for script in ["serve.mjs", "look.mjs"] {
        key.extend(std::fs::read(scripts().join(script)).expect("reading the page scripts"));
    }
    key.extend(peers::playwright_module().as_os_str().as_encoded_bytes());
    key.extend(peers::chromium().as_os_str().as_encoded_bytes());
    let uid = std::fs::metadata("/proc/self")
        .map(|m| m.uid())
        .unwrap_or(0);
    let hash = qa_records::hash::sha256_hex(&key);
    std::env::temp_dir().join(format!("qapipe-page-{uid}-{}.sock", &hash[..16]))
}

fn ask(request: &Value) -> std::io::Result<Value> {
    let stream = connect_or_start();
    (&stream).write_all(format!("{request}\n").as_bytes())?;
    let mut line = String::new();
    BufReader::new(&stream).read_line(&mut line)?;
    serde_json::from_str(&line).map_err(|e| std::io::Error::other(format!("{e}: {line:?}")))
}

fn connect_or_start() -> UnixStream {
    let socket = socket();
    let config = json!({
        "module": peers::playwright_module(),
        "executable": peers::chromium(),
        "socket": socket,
    });
    let mut server = Command::new("node");
    server
        .arg(scripts().join("serve.mjs"))
        .arg(config.to_string());
    once::reach_or_start(
        &socket.with_extension("lock"),
        || UnixStream::connect(&socket).ok(),
        server,
        "the report pages' browser (page/serve.mjs)",
    )
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
