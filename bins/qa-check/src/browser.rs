//! The WebMCP browser session: one headless Chromium per run (or a connection to a running
//! Playwright browser server, `--browser-endpoint`), driven through an installed
//! Playwright module by a node driver, with a fresh browser context per check's page (no
//! cookies, storage, cache or service workers carry over), probing the page's
//! `document.modelContext`.
//!
//! The driver (`browser/driver.mjs`) runs from memory (`node -e`), in its own process group,
//! and answers one JSON line per request line. Its TMPDIR is a new private folder, where
//! Playwright makes the browser's profile, so every Chromium process names a user data dir
//! inside it. Chromium runs in a group of its own (Playwright starts it detached), so ending
//! a session kills the driver's group and then every process left naming that folder: no
//! browser outlives its run, nor a check that had to kill it.

use std::io::{BufReader, Read, Write};
use std::os::unix::fs::DirBuilderExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use qa_records::acceptance::{Moment, Screenshot};
use qa_records::ndjson::{LineReader, ReadError};
use qa_records::Exit;
use serde_json::{json, Map, Value};

use crate::agent::{Listing, Reply, Session, Stop, Tool};
use crate::checks::TIMED_OUT;
use crate::endpoint::BrowserEndpoint;
use crate::guard::WriteGuard;
use crate::process::kill_group;
use crate::screenshot::{self, Screenshots};
use crate::waiting::CANCEL_POLL;

/// The node driver, run with `node --input-type=module -e`: nothing is written to disk.
const DRIVER: &str = include_str!("browser/driver.mjs");

/// Chromium's switches for a check. Headless with a new empty profile; no QUIC, background,
/// component-update or sync traffic, so the page is the only network use; no first-run UI.
/// `--no-sandbox`: containers and CI runners lack the namespaces Chromium's sandbox needs.
/// `--enable-features=WebMCP`: Chromium 156 exposes `document.modelContext` (registerTool,
/// getTools, executeTool) only behind this feature, and only in a secure context (https, or
/// http on localhost).
pub const CHROMIUM_ARGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-features=WebMCP",
];

/// The longest reply line read from the driver (4 MiB): a page's tool list or result above
/// it fails the check instead of exhausting memory.
pub const MAX_REPLY_BYTES: usize = 4 << 20;

/// How long a closing browser gets before its process group is killed.
const CLOSE_GRACE: Duration = Duration::from_secs(2);

/// How long killed browser processes get to disappear before closing stops waiting.
const SWEEP_GRACE: Duration = Duration::from_secs(3);

/// The longest a screenshot may take (within the check's deadline): a page that cannot be
/// painted costs the check its picture, not its time.
const SCREENSHOT_TIME: Duration = Duration::from_secs(10);

/// The browser a session's checks run in.
#[derive(Debug, Clone)]
pub enum Chromium {
    /// This executable, launched with [`CHROMIUM_ARGS`] for the run and closed after it.
    Launch(PathBuf),
    /// A running Playwright browser server (`--browser-endpoint`), connected to for the
    /// run and left running: it was launched by someone else, with its own switches.
    Connect(BrowserEndpoint),
}

impl Chromium {
    /// `text` with the endpoint's secret path redacted (unchanged for a launched browser).
    fn redact(&self, text: &str) -> String {
        match self {
            Chromium::Launch(_) => text.to_string(),
            Chromium::Connect(endpoint) => endpoint.redact(text).into_owned(),
        }
    }
}

/// Where the browser check finds node, the Playwright module and the browser.
#[derive(Debug, Clone)]
pub struct Browser {
    /// The node executable (a path, or a name looked up on PATH).
    pub node: PathBuf,
    /// An installed Playwright's `index.mjs` (`--browser-module`).
    pub module: PathBuf,
    /// The Chromium to launch, or the running browser server to connect to.
    pub chromium: Chromium,
    /// The production write guard every request of the page goes through, if any.
    pub guard: Option<WriteGuard>,
    /// Where screenshots of the page are kept; None takes none (`--no-screenshots`).
    pub screenshots: Option<Screenshots>,
}

impl Browser {
    /// A browser on `url` alone: [`Browser::launch`], then [`BrowserSession::visit`].
    pub fn open(
        &self,
        url: &str,
        selector: &str,
        deadline: Instant,
        cancelled: fn() -> Option<Exit>,
    ) -> Result<BrowserSession, Stop> {
        let mut session = self.launch(deadline, cancelled)?;
        session.visit(url, selector)?;
        Ok(session)
    }

    /// Launches a fresh headless browser (its profile in a new temp folder, 0700, removed
    /// after) with no page yet. Every wait is bounded by `deadline` and ends at once when
    /// `cancelled` reports a signal.
    pub fn launch(
        &self,
        deadline: Instant,
        cancelled: fn() -> Option<Exit>,
    ) -> Result<BrowserSession, Stop> {
        if let Some(exit) = cancelled() {
            return Err(Stop::Cancelled(exit));
        }
        if Instant::now() >= deadline {
            return Err(Stop::Unverified(TIMED_OUT.to_string()));
        }
        if !self.module.is_file() {
            return Err(Stop::Unverified(format!(
                "the Playwright module {} does not exist",
                self.module.display()
            )));
        }
        if let Chromium::Launch(executable) = &self.chromium {
            if !executable.is_file() {
                return Err(Stop::Unverified(format!(
                    "the browser executable {} does not exist",
                    executable.display()
                )));
            }
        }
        let profile = private_dir()
            .map_err(|e| Stop::Unverified(format!("creating the browser's folder: {e}")))?;
        let spawned = Command::new(&self.node)
            .args(["--input-type=module", "-e", DRIVER])
            // Playwright makes the profile under TMPDIR; Chromium's temp files go there too.
            .env("TMPDIR", &profile)
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        let child = match spawned {
            Ok(child) => child,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&profile);
                return Err(Stop::Unverified(format!(
                    "node {} could not be started: {e}",
                    self.node.display()
                )));
            }
        };
        // From here on, dropping the session on any error kills and cleans up.
        let mut session = BrowserSession::start(child, profile, deadline, cancelled);
        session.pictures.clone_from(&self.screenshots);
        session.guard.clone_from(&self.guard);
        session.chromium = self.chromium.clone();
        let mut config = json!({"module": self.module, "timeoutMs": session.millis_left()});
        match &self.chromium {
            Chromium::Launch(executable) => {
                config["executable"] = json!(executable);
                config["args"] = json!(CHROMIUM_ARGS);
            }
            Chromium::Connect(endpoint) => config["endpoint"] = json!(endpoint.url()),
        }
        let reply = session.exchange(&config)?;
        if reply.get("ok") == Some(&Value::Bool(true)) {
            return Ok(session);
        }
        let error = self.chromium.redact(&text_of(&reply, "error"));
        Err(Stop::Unverified(
            match reply.get("stage").and_then(Value::as_str) {
                Some("module") => format!(
                    "the Playwright module {} could not be used: {error}",
                    self.module.display()
                ),
                Some("launch" | "connect") => match &self.chromium {
                    Chromium::Launch(executable) => format!(
                        "the browser {} could not be launched: {error}",
                        executable.display()
                    ),
                    Chromium::Connect(endpoint) => {
                        format!("the browser server {endpoint} could not be connected to: {error}")
                    }
                },
                _ => format!("the browser driver refused to start: {error}"),
            },
        ))
    }
}

/// A run's browser, open on the page under check once [`BrowserSession::visit`]ed.
/// Dropping it closes the browser (bounded) and kills whatever is left of it.
pub struct BrowserSession {
    child: Child,
    stdin: Option<ChildStdin>,
    replies: mpsc::Receiver<Line>,
    /// The driver's last stderr line, for when it ends without a reply.
    last_error: Arc<Mutex<String>>,
    /// The driver's TMPDIR, holding the browser's profile.
    dir: PathBuf,
    /// The production write guard every page's requests go through, if any.
    guard: Option<WriteGuard>,
    /// What [`Session::observe`] reads on the current page.
    selector: String,
    deadline: Instant,
    cancelled: fn() -> Option<Exit>,
    /// Why the session ended early; every later step stops the same way.
    ended: Option<Stop>,
    closed: bool,
    /// Where screenshots go, when they are taken.
    pictures: Option<Screenshots>,
    /// The screenshots kept so far, in order.
    shots: Vec<Screenshot>,
    /// Why a screenshot was not kept, one note each.
    shot_notes: Vec<String>,
    /// The browser launched or connected to: what redacts the driver's messages.
    chromium: Chromium,
}

/// What the reader thread saw on the driver's stdout.
enum Line {
    Reply(Vec<u8>),
    TooLong,
    /// Stdout closed (the driver exited), or could not be read.
    Ended(Option<String>),
}

impl BrowserSession {
    fn start(
        mut child: Child,
        dir: PathBuf,
        deadline: Instant,
        cancelled: fn() -> Option<Exit>,
    ) -> BrowserSession {
        let (tx, replies) = mpsc::channel();
        if let Some(stdout) = child.stdout.take() {
            std::thread::spawn(move || read_replies(stdout, &tx));
        }
        let last_error = Arc::new(Mutex::new(String::new()));
        if let Some(stderr) = child.stderr.take() {
            let last = Arc::clone(&last_error);
            std::thread::spawn(move || keep_last_line(stderr, &last));
        }
        BrowserSession {
            stdin: child.stdin.take(),
            child,
            replies,
            last_error,
            dir,
            guard: None,
            selector: String::new(),
            deadline,
            cancelled,
            ended: None,
            closed: false,
            pictures: None,
            shots: Vec::new(),
            shot_notes: Vec::new(),
            chromium: Chromium::Launch(PathBuf::new()),
        }
    }

    /// The browser's private folder: every Chromium process of this session names a user
    /// data dir inside it.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// False once the session ended (a signal, the deadline, a vanished or killed browser):
    /// a run then launches another browser for its next browser check.
    pub fn alive(&self) -> bool {
        self.ended.is_none() && !self.closed
    }

    /// Opens `url` in a new browser context (nothing kept from any earlier page's);
    /// `selector` is the CSS selector [`Session::observe`] reads there. A page that cannot
    /// be loaded leaves the browser open for the next one.
    pub fn visit(&mut self, url: &str, selector: &str) -> Result<(), Stop> {
        self.selector = selector.to_string();
        let mut request = json!({"op": "open", "url": url, "timeoutMs": self.millis_left()});
        if let Some(guard) = &self.guard {
            request["guard"] = json!(guard);
        }
        let reply = self.exchange(&request)?;
        if reply.get("ok") == Some(&Value::Bool(true)) {
            return Ok(());
        }
        let error = text_of(&reply, "error");
        Err(Stop::Unverified(
            match reply.get("stage").and_then(Value::as_str) {
                Some("navigate") => format!("the page {url} could not be loaded: {error}"),
                Some("guard") => format!("the production write guard could not be set up: {error}"),
                _ => format!("the browser could not open a page: {error}"),
            },
        ))
    }

    /// Closes the current page's browser context, the browser staying open for the next
    /// check; a context that does not close within [`CLOSE_GRACE`] costs the browser (it
    /// is killed, with a note saying so).
    pub fn leave(&mut self) -> Option<String> {
        if !self.alive() {
            return None;
        }
        if let Some(stdin) = self.stdin.as_mut() {
            let _ = send(stdin, &json!({"op": "leave"}));
        }
        let until = Instant::now() + CLOSE_GRACE;
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            match self.replies.recv_timeout(left) {
                Ok(Line::Reply(_)) => return None,
                Ok(Line::TooLong) => {}
                Ok(Line::Ended(_)) | Err(_) => break,
            }
        }
        let why = format!(
            "the page's browser context did not close within {} s; the browser was killed",
            CLOSE_GRACE.as_secs()
        );
        self.ended = Some(Stop::Unverified(why.clone()));
        self.end(false);
        Some(why)
    }

    /// What is left of the deadline, in ms (at least 1), for the driver's own timeouts.
    fn millis_left(&self) -> u64 {
        let left = self.deadline.saturating_duration_since(Instant::now());
        u64::try_from(left.as_millis()).unwrap_or(u64::MAX).max(1)
    }

    /// Sends one request and waits for its reply. A signal, the deadline, an oversize or
    /// unreadable reply or a vanished driver end the session: the browser is killed.
    fn exchange(&mut self, request: &Value) -> Result<Map<String, Value>, Stop> {
        if let Some(stop) = &self.ended {
            return Err(stop.clone());
        }
        if let Some(stdin) = self.stdin.as_mut() {
            // A driver that is gone shows as the end of its stdout, reported below.
            let _ = send(stdin, request);
        }
        let reply = self.wait_reply();
        if let Err(stop) = &reply {
            self.ended = Some(stop.clone());
            self.end(false);
        }
        reply
    }

    fn wait_reply(&mut self) -> Result<Map<String, Value>, Stop> {
        loop {
            if let Some(exit) = (self.cancelled)() {
                return Err(Stop::Cancelled(exit));
            }
            let Some(left) = self
                .deadline
                .checked_duration_since(Instant::now())
                .filter(|d| !d.is_zero())
            else {
                return Err(Stop::Unverified(TIMED_OUT.to_string()));
            };
            match self.replies.recv_timeout(left.min(CANCEL_POLL)) {
                Ok(Line::Reply(bytes)) => {
                    return match serde_json::from_slice(&bytes) {
                        Ok(Value::Object(reply)) => Ok(reply),
                        _ => Err(Stop::Unverified(format!(
                            "the browser driver wrote an unreadable reply: {}",
                            String::from_utf8_lossy(&bytes[..bytes.len().min(200)])
                        ))),
                    }
                }
                Ok(Line::TooLong) => {
                    return Err(Stop::Fail(format!(
                        "the page's answer is over {MAX_REPLY_BYTES} bytes"
                    )))
                }
                Ok(Line::Ended(why)) => return Err(Stop::Unverified(self.vanished(why))),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(Stop::Unverified(self.vanished(None)))
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Why the driver ended without a reply, with its last words on stderr.
    fn vanished(&self, why: Option<String>) -> String {
        // The stderr reader may still be taking the last line in.
        std::thread::sleep(CANCEL_POLL);
        let last = self
            .last_error
            .lock()
            .map(|l| l.clone())
            .unwrap_or_default();
        match why.or((!last.is_empty()).then_some(last)) {
            Some(why) => format!(
                "the browser driver ended without a reply: {}",
                self.chromium.redact(&why)
            ),
            None => "the browser driver ended without a reply".to_string(),
        }
    }

    /// Closes the browser: asks the driver (when `gracefully`) and waits up to
    /// [`CLOSE_GRACE`] for it to exit, then kills its process group and every process
    /// still naming a user data dir in the session's folder, and removes that folder.
    /// Returns a note when the browser had to be killed.
    fn end(&mut self, gracefully: bool) -> Option<String> {
        if self.closed {
            return None;
        }
        self.closed = true;
        let mut notes = Vec::new();
        if let Some(mut stdin) = self.stdin.take() {
            if gracefully {
                let _ = send(&mut stdin, &json!({"op": "close"}));
            }
        }
        if gracefully && !self.driver_exits_within(CLOSE_GRACE) {
            notes.push(format!(
                "the browser did not close within {} s and was killed",
                CLOSE_GRACE.as_secs()
            ));
        }
        // The driver is not reaped yet, so its pid still names its group and no other.
        kill_group(self.child.id());
        let _ = self.child.wait();
        let left = sweep(&self.dir);
        if left > 0 && gracefully {
            notes.push(format!(
                "{left} browser processes outlived the driver and were killed"
            ));
        }
        let _ = std::fs::remove_dir_all(&self.dir);
        (!notes.is_empty()).then(|| notes.join("; "))
    }

    /// True when the driver closes its stdout (it exits) within `grace`.
    fn driver_exits_within(&self, grace: Duration) -> bool {
        let until = Instant::now() + grace;
        loop {
            let Some(left) = until.checked_duration_since(Instant::now()) else {
                return false;
            };
            match self.replies.recv_timeout(left) {
                Ok(Line::Ended(_)) | Err(mpsc::RecvTimeoutError::Disconnected) => return true,
                Ok(_) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => return false,
            }
        }
    }

    /// The reply's failure as a stop: an unsupported API, or the page failing the driver.
    fn refusal(reply: &Map<String, Value>) -> Stop {
        match reply.get("unsupported").and_then(Value::as_str) {
            Some(why) => Stop::Unverified(format!("unsupported WebMCP API: {why}")),
            None => Stop::Unverified(format!(
                "the page could not be probed: {}",
                text_of(reply, "error")
            )),
        }
    }
}

impl Session for BrowserSession {
    /// Lists the page's tools: `getTools` does not page, so this is one page.
    fn tools(&mut self, _wanted: &str) -> Result<Listing, Stop> {
        let reply = self.exchange(&json!({"op": "tools"}))?;
        if reply.get("ok") != Some(&Value::Bool(true)) {
            return Err(Self::refusal(&reply));
        }
        let tools = tools_of(reply.get("tools").unwrap_or(&Value::Null))
            .map_err(|why| Stop::Unverified(format!("unsupported WebMCP API: {why}")))?;
        Ok(Listing {
            tools,
            pages: 1,
            cut: None,
        })
    }

    fn call(&mut self, tool: &str, input: &Value) -> Result<Reply, Stop> {
        let reply = self.exchange(&json!({"op": "call", "tool": tool, "input": input}))?;
        if reply.get("ok") != Some(&Value::Bool(true)) {
            return Err(Self::refusal(&reply));
        }
        if let Some(thrown) = reply.get("thrown") {
            return Ok(Reply::ToolError(
                thrown
                    .as_str()
                    .map_or_else(|| thrown.to_string(), str::to_string),
            ));
        }
        Ok(reply_of(
            reply.get("result").cloned().unwrap_or(Value::Null),
        ))
    }

    /// The text (`innerText`) of the first element the session's selector matches, read at
    /// once: no waiting for the page to settle.
    fn observe(&mut self) -> Result<String, Stop> {
        let selector = self.selector.clone();
        let reply = self.exchange(&json!({"op": "observe", "selector": selector}))?;
        match reply.get("text") {
            Some(Value::String(text)) if reply.get("ok") == Some(&Value::Bool(true)) => {
                Ok(text.clone())
            }
            _ => Err(Stop::Unverified(format!(
                "observing {selector}: {}",
                text_of(&reply, "error")
            ))),
        }
    }

    fn close(&mut self) -> Option<String> {
        self.end(true)
    }

    /// A PNG of the viewport, kept under `--repo` (see [`screenshot`]). Not taken when the
    /// page's text shows the `--auth-env` token; over [`Screenshot::MAX_BYTES`], not kept.
    fn picture(&mut self, moment: Moment) -> Result<(), Stop> {
        let Some(pictures) = self.pictures.clone() else {
            return Ok(());
        };
        if self.ended.is_some() {
            // The check stops on the next step the same way; there is no page to take.
            return Ok(());
        }
        let left = self.deadline.saturating_duration_since(Instant::now());
        let mut request = json!({
            "op": "screenshot",
            "maxBytes": Screenshot::MAX_BYTES,
            "timeoutMs": u64::try_from(left.min(SCREENSHOT_TIME).as_millis()).unwrap_or(1).max(1),
        });
        let hidden = pictures.hidden();
        if !hidden.is_empty() {
            request["hide"] = json!(hidden);
        }
        let kept = match self.exchange(&request) {
            Err(Stop::Cancelled(exit)) => return Err(Stop::Cancelled(exit)),
            Err(Stop::Unverified(why) | Stop::Fail(why)) => Err(why),
            Ok(reply) => {
                if let Some(Value::String(png)) = reply.get("png") {
                    pictures.keep(moment, png)
                } else if let Some(bytes) = reply.get("oversize").and_then(Value::as_u64) {
                    Err(screenshot::over_bound(bytes))
                } else if reply.get("shown") == Some(&Value::Bool(true)) {
                    Err("the page shows the --auth-env token (pixels are not redacted)".to_string())
                } else {
                    Err(text_of(&reply, "error"))
                }
            }
        };
        match kept {
            Ok(shot) => self.shots.push(shot),
            Err(why) => self
                .shot_notes
                .push(format!("screenshot {moment} not kept: {why}")),
        }
        Ok(())
    }
}

impl BrowserSession {
    /// The screenshots kept so far, and a note for each one that was not.
    pub fn take_screenshots(&mut self) -> (Vec<Screenshot>, Vec<String>) {
        (
            std::mem::take(&mut self.shots),
            std::mem::take(&mut self.shot_notes),
        )
    }

    /// The requests the write guard aborted so far, as `METHOD URL`.
    pub fn aborted(&mut self) -> Result<Vec<String>, Stop> {
        let reply = self.exchange(&json!({"op": "aborted"}))?;
        let Some(Value::Array(items)) = reply.get("aborted") else {
            return Err(Stop::Fail(
                "the browser driver gave no list of aborted requests".to_string(),
            ));
        };
        Ok(items
            .iter()
            .map(|r| {
                let field = |key| r.get(key).and_then(Value::as_str).unwrap_or("?");
                format!("{} {}", field("method"), field("url"))
            })
            .collect())
    }
}

impl Drop for BrowserSession {
    fn drop(&mut self) {
        self.end(true);
    }
}

/// The listed tools, when `getTools` resolved to an array of objects with a string `name`.
/// A missing `description` or `inputSchema` is kept as absent: Chromium leaves
/// `inputSchema` out for a tool registered without one.
fn tools_of(value: &Value) -> Result<Vec<Tool>, String> {
    let Value::Array(items) = value else {
        return Err(format!("getTools returned {}", shape_of(value)));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            Tool::from_listed(item).ok_or_else(|| {
                format!(
                    "getTools returned an array whose item {i} ({}) has no string name",
                    shape_of(item)
                )
            })
        })
        .collect()
}

/// What `executeTool` resolved to, as a reply. Chromium returns results as JSON strings:
/// a string that is JSON is read as such. A result with `isError: true` is a tool error.
fn reply_of(result: Value) -> Reply {
    let value = match result {
        Value::String(text) => serde_json::from_str(&text).unwrap_or(Value::String(text)),
        other => other,
    };
    if value.get("isError") != Some(&Value::Bool(true)) {
        return Reply::Result(value);
    }
    let texts: Vec<&str> = value
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|part| part.get("text").and_then(Value::as_str))
        .collect();
    if texts.is_empty() {
        Reply::ToolError(value.to_string())
    } else {
        Reply::ToolError(texts.join("\n"))
    }
}

/// A JSON value's kind, for messages.
fn shape_of(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("a boolean ({b})"),
        Value::Number(n) => format!("a number ({n})"),
        Value::String(_) => "a string".to_string(),
        Value::Array(_) => "an array".to_string(),
        Value::Object(_) => "an object".to_string(),
    }
}

/// A reply's string field, or a placeholder when the driver gave none.
fn text_of(reply: &Map<String, Value>, field: &str) -> String {
    reply
        .get(field)
        .and_then(Value::as_str)
        .unwrap_or("no reason given")
        .to_string()
}

/// Writes `request` and its newline to the driver in one write: the pipe is unbuffered, and
/// formatting straight into it would cost a system call (and a driver wake-up) per token.
fn send(stdin: &mut ChildStdin, request: &Value) -> std::io::Result<()> {
    stdin.write_all(format!("{request}\n").as_bytes())
}

/// Forwards the driver's stdout lines, each at most [`MAX_REPLY_BYTES`].
fn read_replies(stdout: impl Read, tx: &mpsc::Sender<Line>) {
    let mut lines = LineReader::with_limit(BufReader::new(stdout), MAX_REPLY_BYTES);
    loop {
        let line = match lines.next_line() {
            None => Line::Ended(None),
            Some(Ok((_, bytes))) => Line::Reply(bytes.to_vec()),
            Some(Err(ReadError::TooLong { .. })) => Line::TooLong,
            Some(Err(ReadError::Io(e))) => Line::Ended(Some(e.to_string())),
            // Neither a stream limit nor a copy is asked for here.
            Some(Err(other)) => Line::Ended(Some(other.to_string())),
        };
        let last = matches!(line, Line::Ended(_));
        // The receiver is gone only once the session ended: nothing left to tell.
        if tx.send(line).is_err() || last {
            return;
        }
    }
}

/// Keeps the last non-blank line of the driver's stderr (Playwright's and Chromium's
/// messages), cut to 300 characters.
fn keep_last_line(stderr: impl Read, last: &Mutex<String>) {
    let mut lines = LineReader::with_limit(BufReader::new(stderr), 64 << 10);
    while let Some(line) = lines.next_line() {
        if let Ok((_, bytes)) = line {
            let text: String = String::from_utf8_lossy(bytes)
                .trim()
                .chars()
                .take(300)
                .collect();
            if let Ok(mut kept) = last.lock() {
                *kept = text;
            }
        }
    }
}

/// A new, empty, private (0700) directory for the browser's profile and temp files.
fn private_dir() -> std::io::Result<PathBuf> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    loop {
        let dir = std::env::temp_dir().join(format!(
            "qa-check-browser-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        // `create` is not recursive: it fails on an existing dir instead of reusing it.
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            other => return other.map(|()| dir),
        }
    }
}

/// Kills every process whose command line names a user data dir inside `dir` (and the
/// group of each that leads its own, as Chromium's browser process does), until none is
/// left or [`SWEEP_GRACE`] passed. Returns how many were found the first time.
fn sweep(dir: &Path) -> usize {
    let flag = format!("--user-data-dir={}/", dir.display());
    let until = Instant::now() + SWEEP_GRACE;
    let mut first = None;
    loop {
        let found = processes_naming(&flag);
        first.get_or_insert(found.len());
        if found.is_empty() || Instant::now() >= until {
            return first.unwrap_or(0);
        }
        for pid in found {
            let Ok(pid) = i32::try_from(pid) else {
                continue;
            };
            // SAFETY: kill(2) and getpgid(2) take plain integers.
            unsafe {
                if libc::getpgid(pid) == pid {
                    libc::kill(-pid, libc::SIGKILL);
                }
                libc::kill(pid, libc::SIGKILL);
            }
        }
        std::thread::sleep(CANCEL_POLL);
    }
}

/// The live processes with an argument that starts with `prefix` (zombies have none).
fn processes_naming(prefix: &str) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|cmdline| {
                cmdline
                    .split(|&b| b == 0)
                    .any(|a| a.starts_with(prefix.as_bytes()))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_string_result_is_read_as_json() {
        assert_eq!(
            reply_of(json!("{\"count\":2}")),
            Reply::Result(json!({"count": 2}))
        );
    }

    #[test]
    fn a_string_result_that_is_not_json_stays_a_string() {
        assert_eq!(
            reply_of(json!("added eggs")),
            Reply::Result(json!("added eggs"))
        );
    }

    #[test]
    fn a_result_marked_is_error_is_a_tool_error_with_its_text() {
        let result = json!({"isError": true, "content": [{"type": "text", "text": "bad"}]});
        assert_eq!(
            reply_of(Value::String(result.to_string())),
            Reply::ToolError("bad".to_string())
        );
    }

    #[test]
    fn a_result_with_is_error_false_is_a_result() {
        let result = json!({"isError": false, "content": []});
        assert_eq!(reply_of(result.clone()), Reply::Result(result));
    }

    #[test]
    fn listed_tools_keep_name_description_and_schema() {
        let listed = json!([
            {"name": "add", "description": "Adds", "inputSchema": {"type": "object"}, "origin": "x"},
            {"name": "bare", "description": 7}
        ]);
        assert_eq!(
            tools_of(&listed),
            Ok(vec![
                Tool {
                    name: "add".to_string(),
                    description: Some("Adds".to_string()),
                    input_schema: Some(json!({"type": "object"})),
                },
                Tool {
                    name: "bare".to_string(),
                    description: None,
                    input_schema: None,
                },
            ])
        );
    }

    #[test]
    fn a_listing_that_is_not_an_array_of_named_objects_is_refused() {
        assert_eq!(
            tools_of(&json!(42)),
            Err("getTools returned a number (42)".to_string())
        );
        assert_eq!(
            tools_of(&json!([{"name": "ok"}, "add"])),
            Err(
                "getTools returned an array whose item 1 (a string) has no string name".to_string()
            )
        );
    }

    #[test]
    fn processes_are_found_by_a_user_data_dir_inside_the_folder_and_no_other() {
        // `sh -c SCRIPT ARG0`: ARG0 stays in the shell's command line; the shell waits
        // (builtin `read`, no child) until its stdin closes.
        let mut child = Command::new("sh")
            .args([
                "-c",
                "read line",
                "--user-data-dir=/tmp/qa-check-browser-probe/profile-1",
            ])
            .stdin(Stdio::piped())
            .spawn()
            .unwrap();
        // Right after exec, a process's command line can still read as empty.
        let inside = "--user-data-dir=/tmp/qa-check-browser-probe/";
        qa_testkit::process::wait_until("the shell's command line", Duration::from_secs(5), || {
            !processes_naming(inside).is_empty()
        });
        let found = processes_naming(inside);
        // A folder whose name the other only starts with is another folder.
        let sibling = processes_naming("--user-data-dir=/tmp/qa-check-browser-pro/");
        drop(child.stdin.take());
        child.wait().unwrap();
        assert_eq!(found, vec![child.id()]);
        assert!(sibling.is_empty());
    }
}
