//! A real HTTP/1.1 server on 127.0.0.1 with keep-alive, started per test:
//! `/hello` 200 text, `/missing` 404, `/moved` 302 to `/login`, `/slow?ms=N` answering
//! after N ms, `/big` a body over 1 MiB, `/echo-auth` echoing the Authorization header,
//! `/garbage` a reply that is not HTTP. Every request line is counted.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The body `/hello` answers with.
pub const HELLO: &str = "Hello, visitor! Everything is ok.";
/// The size of `/big`'s body: past the 1 MiB cap.
pub const BIG_BYTES: usize = (1 << 20) + 4096;

pub struct Server {
    addr: SocketAddr,
    requests: Arc<AtomicUsize>,
    connections: Arc<AtomicUsize>,
    slow: Mutex<Receiver<()>>,
}

impl Server {
    pub fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let requests = Arc::new(AtomicUsize::new(0));
        let connections = Arc::new(AtomicUsize::new(0));
        let (tx, rx) = channel();
        let (count, conns) = (Arc::clone(&requests), Arc::clone(&connections));
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                conns.fetch_add(1, Ordering::SeqCst);
                let (count, tx) = (Arc::clone(&count), tx.clone());
                std::thread::spawn(move || serve(stream, &count, &tx));
            }
        });
        Server {
            addr,
            requests,
            connections,
            slow: Mutex::new(rx),
        }
    }

    /// `http://127.0.0.1:PORT` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Requests served so far.
    pub fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }

    /// TCP connections accepted so far.
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }

    /// Waits until a `/slow` request has arrived.
    pub fn wait_for_slow_request(&self) {
        self.slow
            .lock()
            .unwrap()
            .recv_timeout(Duration::from_secs(20))
            .expect("a /slow request within 20 s");
    }
}

/// Serves one connection until the client closes it.
fn serve(stream: TcpStream, count: &AtomicUsize, slow: &Sender<()>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut out = stream;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let mut authorization = None;
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 {
                return;
            }
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("authorization") {
                    authorization = Some(value.trim().to_string());
                }
            }
        }
        count.fetch_add(1, Ordering::SeqCst);
        let target = request_line.split_whitespace().nth(1).unwrap_or("/");
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        let reply = match path {
            "/" => respond(200, &[], b"home"),
            "/hello" => respond(200, &[], HELLO.as_bytes()),
            "/missing" => respond(404, &[], b"not here"),
            "/moved" => respond(302, &[("Location", "/login")], b"moved"),
            "/slow" => {
                let _ = slow.send(());
                let ms = query
                    .strip_prefix("ms=")
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(5000);
                std::thread::sleep(Duration::from_millis(ms));
                respond(200, &[], b"slow but ok")
            }
            "/big" => {
                let mut body = vec![b'a'; BIG_BYTES - 4];
                body.extend_from_slice(b"TAIL");
                respond(200, &[], &body)
            }
            "/echo-auth" => {
                let text = format!("you sent: {}", authorization.unwrap_or_default());
                respond(200, &[], text.as_bytes())
            }
            "/garbage" => {
                let _ = out.write_all(b"this is not http at all\r\n\r\n");
                return;
            }
            _ => respond(404, &[], b"no such page"),
        };
        if out.write_all(&reply).is_err() {
            return;
        }
    }
}

fn respond(status: u16, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let reason = match status {
        200 => "OK",
        302 => "Found",
        _ => "Not Found",
    };
    let mut head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut reply = head.into_bytes();
    reply.extend_from_slice(body);
    reply
}
