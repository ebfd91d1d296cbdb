//! What qa-fetch's integration tests share: input records, running the binary, and a real
//! HTTP server on 127.0.0.1 answering fixed responses.

#![allow(dead_code)] // each test file uses its own part of this module

use qa_shared::acceptance::{CriterionData, PlanData, Source, SourceKind, TargetKind, TargetSpec};
use qa_shared::envelope::Src;
use qa_shared::{Kind, Record};
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
        qa_shared::acceptance::CheckSpecData {
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
}

impl Response {
    pub fn ok(body: impl Into<Vec<u8>>) -> Response {
        Response {
            status: 200,
            headers: Vec::new(),
            body: body.into(),
            delay: Duration::ZERO,
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
}

type Handler = dyn Fn(&str, u64) -> Response + Send + Sync;

/// A real HTTP/1.1 server on 127.0.0.1: one thread per connection, one request each.
pub struct Server {
    pub base: String,
    requests: Arc<Mutex<Vec<String>>>,
}

impl Server {
    /// Serves `handler(path, n)`, n counting the requests to any path from 0.
    pub fn start(handler: impl Fn(&str, u64) -> Response + Send + Sync + 'static) -> Server {
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
    seen.lock().unwrap().push(head);
    let response = handler(&path, counter.fetch_add(1, Ordering::SeqCst));
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
    let _ = out.write_all(&response.body);
}
