//! The MCP peers qa-check's tests talk to (`tests/peers/`): the official Python SDK's
//! server and the misbehaving stdlib servers, each a child process on an ephemeral port
//! of 127.0.0.1, stopped when dropped; and plain HTTP exchanges with them.

use crate::peers;
use crate::process::signal_group;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::unix::process::CommandExt as _;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a peer may take to print its `PORT` line: the SDK imports take a while on a
/// loaded machine.
const START_TIMEOUT: Duration = Duration::from_secs(20);

/// How long the convenience exchanges (`post_mcp`, `requests`) wait for an answer.
const EXCHANGE_TIMEOUT: Duration = Duration::from_secs(10);

/// How the SDK server keeps sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Issues `MCP-Session-Id` on initialize and wants it back.
    Stateful,
    /// No session: every request stands alone (the SDK's `stateless_http`).
    Stateless,
}

/// `tests/peers/mcp_server.py`: the media-player server on the official SDK, forked from
/// a warm interpreter ([`peers::forked_python`]: a fresh server process each time, as the
/// script alone would start it, without its 0.9 s of CPU in imports).
pub fn sdk_server(mode: Mode) -> Peer {
    let mode = match mode {
        Mode::Stateful => "stateful",
        Mode::Stateless => "stateless",
    };
    let script = peers::peers_dir().join("mcp_server.py");
    Peer::start(
        peers::forked_python(&script),
        "mcp_server.py",
        &["--mode", mode],
    )
}

/// `tests/peers/hostile_mcp.py --behaviour BEHAVIOUR` (its docstring lists them).
pub fn hostile(behaviour: &str) -> Peer {
    let mut command = Command::new(peers::python());
    command.arg(peers::peers_dir().join("hostile_mcp.py"));
    Peer::start(command, "hostile_mcp.py", &["--behaviour", behaviour])
}

/// A running peer; dropping it kills its process group and reaps it.
pub struct Peer {
    child: Child,
    port: u16,
    stderr: Arc<Mutex<Vec<u8>>>,
}

impl Peer {
    /// Starts `command ARGS` (the peer `script`) in its own process group and waits for
    /// `PORT n`.
    fn start(mut command: Command, script: &str, args: &[&str]) -> Peer {
        let mut child = command
            .args(args)
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {script}: {e}"));
        // Both pipes are drained for the peer's whole life: a peer that logs every
        // request would block on a full stderr pipe otherwise.
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let draining = drain(child.stderr.take().expect("stderr is piped"), &stderr);
        let (tx, port_line) = channel();
        let stdout = child.stdout.take().expect("stdout is piped");
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            if let Some(Ok(line)) = lines.next() {
                let _ = tx.send(line);
            }
            for _ in lines {}
        });
        let port = port_line
            .recv_timeout(START_TIMEOUT)
            .ok()
            .and_then(|line| line.strip_prefix("PORT ")?.trim().parse::<u16>().ok());
        let mut peer = Peer {
            child,
            port: port.unwrap_or(0),
            stderr,
        };
        if port.is_none() {
            peer.kill();
            let _ = draining.join();
            panic!(
                "{} {} printed no `PORT n` line within {START_TIMEOUT:?}; its stderr:\n{}",
                script,
                args.join(" "),
                peer.stderr_text()
            );
        }
        peer
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The peer's process id (its process group's id too).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `http://127.0.0.1:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// What the peer wrote to stderr so far.
    pub fn stderr_text(&self) -> String {
        let bytes = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Every request a hostile peer received so far (`GET /_log`, which it leaves out):
    /// `{"method", "path", "headers": {lowercased name: value}, "body": JSON or null}`.
    pub fn requests(&self) -> Vec<Value> {
        let response = self
            .exchange("GET", "/_log", &[], "", EXCHANGE_TIMEOUT)
            .unwrap_or_else(|e| panic!("GET {}: {e}", self.url("/_log")));
        assert_eq!(response.status, 200, "GET /_log: {}", response.text());
        match response.json() {
            Value::Array(requests) => requests,
            other => panic!("GET /_log is not a JSON array: {other}"),
        }
    }

    /// POSTs one JSON-RPC `message` to `/mcp` as a Streamable HTTP client does (JSON
    /// body, `Accept: application/json, text/event-stream`), plus `headers`; panics when
    /// no complete answer comes within 10 s.
    pub fn post_mcp(&self, message: &Value, headers: &[(&str, &str)]) -> Response {
        self.try_post_mcp(message, headers, EXCHANGE_TIMEOUT)
            .unwrap_or_else(|e| panic!("POST {} {message}: {e}", self.url("/mcp")))
    }

    /// `post_mcp` that gives up after `timeout`, for the peers that stall or trickle.
    pub fn try_post_mcp(
        &self,
        message: &Value,
        headers: &[(&str, &str)],
        timeout: Duration,
    ) -> std::io::Result<Response> {
        let mut all = vec![
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ];
        all.extend_from_slice(headers);
        self.exchange("POST", "/mcp", &all, &message.to_string(), timeout)
    }

    /// One HTTP/1.1 exchange over a fresh connection (`Connection: close`), read to its
    /// end; an error when the peer has not finished answering within `timeout`.
    pub fn exchange(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
        timeout: Duration,
    ) -> std::io::Result<Response> {
        let until = Instant::now() + timeout;
        let mut stream = TcpStream::connect(("127.0.0.1", self.port))?;
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\nContent-Length: {}\r\n",
            self.port,
            body.len()
        );
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes())?;
        stream.write_all(body.as_bytes())?;
        // A deadline over the whole answer, not per read: a trickling peer succeeds
        // at every single read.
        let mut raw = Vec::new();
        let mut buffer = [0u8; 65536];
        loop {
            let left = until
                .checked_duration_since(Instant::now())
                .filter(|left| !left.is_zero())
                .ok_or_else(|| timed_out(timeout))?;
            stream.set_read_timeout(Some(left))?;
            match stream.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => raw.extend_from_slice(&buffer[..n]),
                Err(e) if is_timeout(&e) => return Err(timed_out(timeout)),
                Err(e) => return Err(e),
            }
        }
        Response::parse(&raw)
    }

    /// Sends SIGTERM and waits up to `timeout` for the peer to exit; its exit status,
    /// or None (the peer then killed by the drop) when it is still running.
    pub fn terminate(mut self, timeout: Duration) -> Option<ExitStatus> {
        signal_group("TERM", self.pid());
        let until = Instant::now() + timeout;
        while Instant::now() < until {
            if let Some(status) = self.child.try_wait().expect("waiting for the peer") {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }

    fn kill(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            signal_group("KILL", self.pid());
        }
        let _ = self.child.wait();
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// An HTTP answer as received.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    /// Header names lowercased, in the order received.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    fn parse(raw: &[u8]) -> std::io::Result<Response> {
        let invalid =
            |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
        let end = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .ok_or_else(|| invalid("the answer has no blank line after its head"))?;
        let head = String::from_utf8_lossy(&raw[..end]);
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .and_then(|line| line.split_whitespace().nth(1))
            .and_then(|code| code.parse().ok())
            .ok_or_else(|| invalid("the answer has no status line"))?;
        let headers: Vec<(String, String)> = lines
            .filter_map(|line| line.split_once(':'))
            .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_string()))
            .collect();
        let mut response = Response {
            status,
            headers,
            body: raw[end + 4..].to_vec(),
        };
        if response
            .header("transfer-encoding")
            .is_some_and(|te| te.eq_ignore_ascii_case("chunked"))
        {
            response.body =
                dechunk(&response.body).ok_or_else(|| invalid("a broken chunked body"))?;
        }
        Ok(response)
    }

    /// The first header named `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON; panics with the body when it is not.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
}

/// A chunked body's payload; None when the framing is broken.
fn dechunk(mut body: &[u8]) -> Option<Vec<u8>> {
    let mut payload = Vec::new();
    loop {
        let line_end = body.windows(2).position(|w| w == b"\r\n")?;
        let size_text = std::str::from_utf8(&body[..line_end]).ok()?;
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        body = &body[line_end + 2..];
        if size == 0 {
            return Some(payload);
        }
        payload.extend_from_slice(body.get(..size)?);
        body = body.get(size + 2..)?;
    }
}

fn drain(mut pipe: impl Read + Send + 'static, into: &Arc<Mutex<Vec<u8>>>) -> JoinHandle<()> {
    let into = Arc::clone(into);
    std::thread::spawn(move || {
        let mut buffer = [0u8; 8192];
        while let Ok(n) = pipe.read(&mut buffer) {
            if n == 0 {
                return;
            }
            into.lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend_from_slice(&buffer[..n]);
        }
    })
}

fn is_timeout(error: &std::io::Error) -> bool {
    matches!(
        error.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}

fn timed_out(timeout: Duration) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        format!("no complete answer within {timeout:?}"),
    )
}
