//! A real HTTP/1.1 server on 127.0.0.1 for tests: fixed routes (status, headers, body,
//! delay, or the request echoed back), keep-alive connections, and what it received
//! (request heads, calls per path).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// One canned response.
#[derive(Debug, Clone)]
pub struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    delay: Duration,
    /// Answer with the request line and headers as the body instead of `body`.
    echo: bool,
}

impl Reply {
    /// 200 with `body`.
    pub fn ok(body: impl Into<Vec<u8>>) -> Reply {
        Reply::with_status(200, body)
    }

    /// `status` with `body`.
    pub fn with_status(status: u16, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status,
            headers: Vec::new(),
            body: body.into(),
            delay: Duration::ZERO,
            echo: false,
        }
    }

    /// 200 whose body is the request line and headers as received: what a client sent
    /// (a token, say) comes back to it.
    pub fn echo() -> Reply {
        Reply {
            echo: true,
            ..Reply::ok("")
        }
    }

    /// 302 to `location`.
    pub fn redirect(location: &str) -> Reply {
        Reply::with_status(302, "moved").header("Location", location)
    }

    pub fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    /// Answer only after `delay`.
    pub fn delayed(mut self, delay: Duration) -> Reply {
        self.delay = delay;
        self
    }
}

/// What the server has received.
#[derive(Default)]
struct Received {
    /// Request line and headers of every request, as sent.
    heads: Vec<String>,
    /// Requests per path (query string left out).
    calls: HashMap<String, usize>,
}

struct State {
    routes: HashMap<String, Reply>,
    received: Mutex<Received>,
    arrived: Condvar,
    stopping: AtomicBool,
}

/// A server answering its routes until dropped; any other path is a 404.
pub struct Server {
    addr: SocketAddr,
    state: Arc<State>,
}

impl Server {
    /// Serves `routes` (path, reply) on a free port of 127.0.0.1.
    pub fn start<'a>(routes: impl IntoIterator<Item = (&'a str, Reply)>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("binding 127.0.0.1:0");
        let addr = listener.local_addr().expect("the bound address");
        let state = Arc::new(State {
            routes: routes
                .into_iter()
                .map(|(path, reply)| (path.to_string(), reply))
                .collect(),
            received: Mutex::default(),
            arrived: Condvar::new(),
            stopping: AtomicBool::new(false),
        });
        let shared = Arc::clone(&state);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if shared.stopping.load(Ordering::SeqCst) {
                    return;
                }
                let Ok(stream) = stream else { continue };
                let state = Arc::clone(&shared);
                std::thread::spawn(move || serve(stream, &state));
            }
        });
        Server { addr, state }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The origin plus `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.origin())
    }

    /// How many requests `path` got.
    pub fn calls(&self, path: &str) -> usize {
        let received = self.lock();
        received.calls.get(path).copied().unwrap_or(0)
    }

    /// How many requests each requested path got so far.
    pub fn every_call(&self) -> std::collections::BTreeMap<String, usize> {
        let received = self.lock();
        received
            .calls
            .iter()
            .map(|(path, n)| (path.clone(), *n))
            .collect()
    }

    /// The request line and headers of every request so far, as sent.
    pub fn requests(&self) -> Vec<String> {
        self.lock().heads.clone()
    }

    /// Waits until `path` has been requested at least once; false after `timeout`.
    pub fn wait_for(&self, path: &str, timeout: Duration) -> bool {
        let until = Instant::now() + timeout;
        let mut received = self.lock();
        while !received.calls.contains_key(path) {
            let Some(left) = until.checked_duration_since(Instant::now()) else {
                return false;
            };
            received = self
                .state
                .arrived
                .wait_timeout(received, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        true
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Received> {
        self.state
            .received
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.state.stopping.store(true, Ordering::SeqCst);
        // Wakes the accept loop so it sees the flag and ends.
        let _ = TcpStream::connect(self.addr);
    }
}

/// Serves one connection, request after request, until the client closes it.
fn serve(stream: TcpStream, state: &State) {
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read_half);
    let mut out = stream;
    while let Some(head) = read_head(&mut reader) {
        let target = head.split_whitespace().nth(1).unwrap_or("/").to_string();
        let path = target.split('?').next().unwrap_or("/").to_string();
        {
            let mut received = state.received.lock().unwrap_or_else(|e| e.into_inner());
            received.heads.push(head.clone());
            *received.calls.entry(path.clone()).or_default() += 1;
        }
        state.arrived.notify_all();
        let mut reply = state
            .routes
            .get(&path)
            .cloned()
            .unwrap_or_else(|| Reply::with_status(404, "no such page"));
        if reply.echo {
            reply.body = head.clone().into_bytes();
        }
        std::thread::sleep(reply.delay);
        let head_only = head.starts_with("HEAD ");
        if out.write_all(&encode(&reply, head_only)).is_err() || out.flush().is_err() {
            return;
        }
    }
}

/// The request line and headers up to the blank line; None when the client is gone.
/// Requests here are GETs: a body is never read.
fn read_head(reader: &mut impl BufRead) -> Option<String> {
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        if line.trim_end().is_empty() {
            return (!head.is_empty()).then_some(head);
        }
        head.push_str(&line);
    }
}

fn encode(reply: &Reply, head_only: bool) -> Vec<u8> {
    let reason = match reply.status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        401 => "Unauthorized",
        404 => "Not Found",
        500 => "Internal Server Error",
        _ => "Status",
    };
    let mut head = format!(
        "HTTP/1.1 {} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n",
        reply.status,
        reply.body.len()
    );
    for (name, value) in &reply.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    if !head_only {
        bytes.extend_from_slice(&reply.body);
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// One GET over a fresh connection; the raw response.
    fn get(server: &Server, path: &str) -> String {
        let mut stream = TcpStream::connect(server.addr).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        stream.shutdown(std::net::Shutdown::Write).unwrap();
        let mut text = String::new();
        stream.read_to_string(&mut text).unwrap();
        text
    }

    #[test]
    fn a_route_answers_with_its_status_headers_and_body() {
        let server = Server::start([("/moved", Reply::redirect("/login"))]);
        let response = get(&server, "/moved?x=1");
        assert!(response.starts_with("HTTP/1.1 302 Found\r\n"), "{response}");
        assert!(response.contains("\r\nLocation: /login\r\n"), "{response}");
        assert!(response.ends_with("\r\n\r\nmoved"), "{response}");
        assert_eq!(server.calls("/moved"), 1);
        assert_eq!(server.calls("/login"), 0);
    }

    #[test]
    fn an_unknown_path_is_a_404_and_is_counted() {
        let server = Server::start([("/", Reply::ok("home"))]);
        assert!(get(&server, "/nope").starts_with("HTTP/1.1 404 "));
        assert_eq!(server.calls("/nope"), 1);
        assert!(server.requests()[0].starts_with("GET /nope HTTP/1.1\r\n"));
    }

    #[test]
    fn an_echo_route_answers_with_the_request_head() {
        let server = Server::start([("/echo", Reply::echo())]);
        let response = get(&server, "/echo");
        assert!(
            response.ends_with("\r\n\r\nGET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"),
            "{response}"
        );
    }

    #[test]
    fn wait_for_returns_once_the_path_was_requested_and_times_out_otherwise() {
        let server = Server::start([("/slow", Reply::ok("late").delayed(Duration::from_secs(5)))]);
        assert!(!server.wait_for("/slow", Duration::from_millis(50)));
        let mut stream = TcpStream::connect(server.addr).unwrap();
        write!(stream, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        assert!(server.wait_for("/slow", Duration::from_secs(5)));
    }
}
