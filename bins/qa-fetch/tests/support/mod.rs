//! What qa-fetch's integration tests share: input records, running the binary, and a real
//! HTTP server on 127.0.0.1 answering fixed responses.

#![allow(dead_code)] // each test file uses its own part of this module

use qa_records::acceptance::{CriterionData, PlanData, Source, SourceKind, TargetKind, TargetSpec};
use qa_records::envelope::Src;
use qa_records::{Kind, Record};
use qa_testkit::{Program, Run};
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub fn qa_fetch() -> Program {
    Program::at(env!("CARGO_BIN_EXE_qa-fetch"))
}

/// Runs qa-fetch in `repo` with `args` on `stdin`.
pub fn run(repo: &Path, args: &[&str], stdin: impl Into<Vec<u8>>) -> Run {
    qa_fetch()
        .invocation()
        .arg("--repo")
        .arg(repo)
        .args(args)
        .env_remove("QA_TOKEN")
        .stdin(stdin)
        .run()
}

fn line(kind: Kind, data: impl serde::Serialize) -> String {
    let record = Record::new(kind, "test/0", Vec::new(), Src::new(), data).unwrap();
    let mut line = String::from_utf8(record.to_line()).unwrap();
    line.push('\n');
    line
}

/// A `target.spec` record line.
pub fn spec(kind: TargetKind, value: &str, build_id: Option<&str>) -> String {
    line(
        Kind::TargetSpec,
        TargetSpec {
            kind,
            value: value.to_string(),
            build_id: build_id.map(str::to_string),
            env: None,
            app: None,
        },
    )
}

/// A `check.spec` record line for the plan check object `check` (id, criterion, kind...).
pub fn check(check: serde_json::Value) -> String {
    line(
        Kind::CheckSpec,
        qa_records::acceptance::CheckSpecData {
            id: check["id"].as_str().unwrap().to_string(),
            criterion: check["criterion"].as_str().unwrap().to_string(),
            kind: check["kind"].as_str().unwrap().to_string(),
            spec: check,
        },
    )
}

/// A `plan` record line for the plan file at `path` with the recorded `sha256`.
pub fn plan(path: &str, sha256: &str) -> String {
    line(
        Kind::Plan,
        PlanData {
            path: path.to_string(),
            sha256: sha256.to_string(),
            target: TargetSpec {
                kind: TargetKind::Directory,
                value: "site".into(),
                build_id: None,
                env: None,
                app: None,
            },
            criteria: 1,
            checks: 0,
        },
    )
}

/// A `criterion` record line whose ticket source is `path` with the recorded `sha256`.
pub fn criterion(id: &str, path: &str, sha256: &str) -> String {
    line(
        Kind::Criterion,
        CriterionData {
            id: id.to_string(),
            expected: "something holds".into(),
            source: Source {
                kind: SourceKind::Ticket,
                path: Some(path.to_string()),
                quote: Some("quoted".into()),
                text: None,
                sha256: Some(sha256.to_string()),
                found: true,
            },
            inferred: false,
        },
    )
}

/// The records of `kind` in qa-fetch's output, parsed.
pub fn of_kind(run: &Run, kind: &str) -> Vec<Value> {
    assert!(
        run.code == 0 || run.code == 130 || run.code == 143,
        "qa-fetch exited {}: {}",
        run.code,
        run.stderr
    );
    qa_testkit::parse(&run.stdout)
        .into_iter()
        .filter(|r| r["kind"] == kind)
        .collect()
}

/// The data of the one `target` record.
pub fn target(run: &Run) -> Value {
    let targets = of_kind(run, "target");
    assert_eq!(targets.len(), 1, "{}", run.text());
    targets[0]["data"].clone()
}

/// Validates every record of the output (the forwarded input too) against its schema,
/// with ids recomputed.
pub fn validate_all(run: &Run) {
    let records = qa_testkit::parse(&run.stdout);
    assert!(!records.is_empty());
    qa_testkit::Schemas::get().validate_all(&records);
}

/// One canned response.
#[derive(Clone)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Wait this long before answering.
    pub delay: Duration,
    /// Send the status line, headers and this much of the body, then stall this long
    /// with the connection open (a server that stops mid-response).
    pub stall: Option<(usize, Duration)>,
}

impl Response {
    pub fn ok(body: impl Into<Vec<u8>>) -> Response {
        Response {
            status: 200,
            headers: Vec::new(),
            body: body.into(),
            delay: Duration::ZERO,
            stall: None,
        }
    }

    pub fn header(mut self, name: &str, value: &str) -> Response {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    pub fn status(mut self, status: u16) -> Response {
        self.status = status;
        self
    }

    pub fn delayed(mut self, delay: Duration) -> Response {
        self.delay = delay;
        self
    }

    /// Sends the head and the first `sent` body bytes, then stalls for `stall`.
    pub fn stalled(mut self, sent: usize, stall: Duration) -> Response {
        self.stall = Some((sent, stall));
        self
    }
}

/// What the server received: the path and the request line and headers, as sent.
pub struct Request<'a> {
    pub path: &'a str,
    pub head: &'a str,
}

impl Request<'_> {
    /// The value of header `name` (any case) as a server reads it: trimmed.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().skip(1).find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.trim().eq_ignore_ascii_case(name).then(|| value.trim())
        })
    }
}

type Handler = dyn Fn(&Request<'_>, u64) -> Response + Send + Sync;

/// A real HTTP/1.1 server on 127.0.0.1: one thread per connection, one request each.
pub struct Server {
    pub base: String,
    requests: Arc<Mutex<Vec<String>>>,
}

impl Server {
    /// Serves `handler(path, n)`, n counting the requests to any path from 0.
    pub fn start(handler: impl Fn(&str, u64) -> Response + Send + Sync + 'static) -> Server {
        Server::answering(move |request, n| handler(request.path, n))
    }

    /// Serves `handler(request, n)`: a handler that reads the request's headers.
    pub fn answering(
        handler: impl Fn(&Request<'_>, u64) -> Response + Send + Sync + 'static,
    ) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&requests);
        let handler: Arc<Handler> = Arc::new(handler);
        let counter = Arc::new(AtomicU64::new(0));
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let (seen, handler, counter) = (
                    Arc::clone(&seen),
                    Arc::clone(&handler),
                    Arc::clone(&counter),
                );
                std::thread::spawn(move || serve(stream, &seen, &*handler, &counter));
            }
        });
        Server { base, requests }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Every request received so far: the request line and headers, as sent.
    pub fn requests(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

fn serve(stream: TcpStream, seen: &Mutex<Vec<String>>, handler: &Handler, counter: &AtomicU64) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let path = head.split_whitespace().nth(1).unwrap_or("/").to_string();
    seen.lock().unwrap().push(head.clone());
    let request = Request {
        path: &path,
        head: &head,
    };
    let response = handler(&request, counter.fetch_add(1, Ordering::SeqCst));
    std::thread::sleep(response.delay);
    let mut out = stream;
    let mut text = format!(
        "HTTP/1.1 {} X\r\nContent-Length: {}\r\nConnection: close\r\n",
        response.status,
        response.body.len()
    );
    for (name, value) in &response.headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    text.push_str("\r\n");
    // The client may have given up (timeout, body limit): not the server's failure.
    let _ = out.write_all(text.as_bytes());
    match response.stall {
        Some((sent, stall)) => {
            let _ = out.write_all(&response.body[..sent.min(response.body.len())]);
            let _ = out.flush();
            std::thread::sleep(stall);
        }
        None => {
            let _ = out.write_all(&response.body);
        }
    }
}

/// A qa-fetch process the test feeds, signals and waits for with a bound.
pub struct Started {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    /// Lines of stdout as they arrive.
    lines: std::sync::mpsc::Receiver<String>,
    stdout: Arc<Mutex<Vec<u8>>>,
    stderr: std::thread::JoinHandle<String>,
}

/// How a started process ended.
pub struct Ended {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
    /// From the call to `wait` to the exit.
    pub waited: Duration,
}

impl Ended {
    /// The records on stdout, parsed.
    pub fn records(&self) -> Vec<Value> {
        qa_testkit::parse(&self.stdout)
    }

    /// The `kind` of every record on stdout, in order.
    pub fn kinds(&self) -> Vec<String> {
        self.records()
            .iter()
            .map(|r| r["kind"].as_str().unwrap_or_default().to_string())
            .collect()
    }
}

impl Started {
    /// Starts qa-fetch in `repo` with `args` and `envs`, stdin open.
    pub fn new(repo: &Path, args: &[&str], envs: &[(&str, &str)]) -> Started {
        use std::io::Read as _;
        use std::process::{Command, Stdio};
        let mut child = Command::new(env!("CARGO_BIN_EXE_qa-fetch"))
            .arg("--repo")
            .arg(repo)
            .args(args)
            .env_remove("QA_TOKEN")
            .envs(envs.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut err = child.stderr.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        let stdout = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&stdout);
        std::thread::spawn(move || loop {
            let mut line = String::new();
            match out.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {
                    kept.lock().unwrap().extend_from_slice(line.as_bytes());
                    let _ = tx.send(line);
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = err.read_to_string(&mut text);
            text
        });
        Started {
            child,
            stdin,
            lines,
            stdout,
            stderr,
        }
    }

    /// Writes `text` to its stdin.
    pub fn write(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is still open");
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// Ends its input.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line it writes, or None when none comes within `bound`.
    pub fn next_line(&self, bound: Duration) -> Option<String> {
        self.lines.recv_timeout(bound).ok()
    }

    /// Waits until it catches SIGINT (its handlers are installed), as /proc shows.
    pub fn catching_signals(&self) -> bool {
        let status = format!("/proc/{}/status", self.child.id());
        eventually(Duration::from_secs(5), || {
            std::fs::read_to_string(&status)
                .ok()
                .and_then(|text| {
                    let mask = text.lines().find_map(|l| l.strip_prefix("SigCgt:"))?;
                    u64::from_str_radix(mask.trim(), 16).ok()
                })
                .is_some_and(|mask| mask & (1 << (2 - 1)) != 0)
        })
    }

    /// Sends `signal` (`INT`, `TERM`) to it.
    pub fn signal(&self, signal: &str) {
        let sent = std::process::Command::new("kill")
            .args(["-s", signal, &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    }

    /// Waits for its exit; still running after `bound` kills it and fails the test.
    pub fn wait(mut self, bound: Duration) -> Ended {
        let started = std::time::Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > bound {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!(
                    "qa-fetch still ran {bound:?} later; it had written:\n{}",
                    String::from_utf8_lossy(&self.stdout.lock().unwrap())
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let waited = started.elapsed();
        self.stdin = None;
        let stderr = self.stderr.join().unwrap();
        // The reader thread has seen the end of stdout once the process is gone.
        let until = std::time::Instant::now() + Duration::from_secs(5);
        while self.lines.recv_timeout(Duration::from_millis(50)).is_ok()
            || std::time::Instant::now() < until && Arc::strong_count(&self.stdout) > 1
        {}
        let stdout = self.stdout.lock().unwrap().clone();
        Ended {
            code: status.code().unwrap_or(-1),
            stdout,
            stderr,
            waited,
        }
    }
}

/// Polls `done` every 20 ms; false when it still does not hold after `bound`.
pub fn eventually(bound: Duration, mut done: impl FnMut() -> bool) -> bool {
    let until = std::time::Instant::now() + bound;
    while !done() {
        if std::time::Instant::now() > until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}
