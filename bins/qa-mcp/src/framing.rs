//! The line filter in front of rmcp's stdio transport: a malformed line gets a JSON-RPC parse error, a request before `initialize` an error reply, and the session goes on.
//!
//! rmcp drops an unparsable line without a word (by design: no id to answer), and ends
//! the session with an error (exit 70) when the first message is not `initialize` or a
//! `ping`. Neither is hookable through its handler, so the filter reads stdin first: it
//! answers what rmcp would not, and passes every other line on unchanged. Both its replies
//! and rmcp's messages reach stdout through one writer, a whole line at a time.

use serde_json::{json, Value};
use tokio::io::{
    AsyncBufReadExt as _, AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _,
};
use tokio::io::{BufReader, DuplexStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// A line longer than this is refused, as rmcp's own transport caps it.
pub const MAX_LINE: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;
/// JSON-RPC: the line is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC: JSON that is no request, notification or response.
pub const INVALID_REQUEST: i64 = -32600;
/// A request before `initialize` (the code LSP gives "server not initialized").
pub const NOT_INITIALIZED: i64 = -32002;

/// The streams rmcp serves on, and the task writing stdout (awaited so the last replies
/// are written before the process ends).
pub struct Filtered {
    pub reader: DuplexStream,
    pub writer: DuplexStream,
    pub output: JoinHandle<()>,
}

/// Puts the filter between `input`/`output` (stdin/stdout) and rmcp.
pub fn filter<R, W>(input: R, output: W) -> Filtered
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (to_rmcp, rmcp_reader) = tokio::io::duplex(1 << 16);
    let (rmcp_writer, from_rmcp) = tokio::io::duplex(1 << 16);
    let (lines, mut outgoing) = mpsc::unbounded_channel::<Vec<u8>>();
    let replies = lines.clone();
    tokio::spawn(read_input(input, to_rmcp, replies));
    tokio::spawn(async move {
        let mut from_rmcp = BufReader::new(from_rmcp);
        loop {
            let mut line = Vec::new();
            match from_rmcp.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) if lines.send(line).is_err() => break,
                Ok(_) => {}
            }
        }
    });
    let output = tokio::spawn(async move {
        let mut output = output;
        while let Some(line) = outgoing.recv().await {
            if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
                break;
            }
        }
    });
    Filtered {
        reader: rmcp_reader,
        writer: rmcp_writer,
        output,
    }
}

/// What to do with one input line.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Passed on to rmcp.
    Pass,
    /// Answered here (the reply line, without its line break).
    Reply(Value),
    /// Dropped: a notification or response before `initialize` (no one to answer).
    Drop,
}

/// The filter's state: whether `initialize` went through.
#[derive(Debug, Default)]
pub struct Gate {
    initialized: bool,
}

impl Gate {
    /// The verdict on `line` (without its line break).
    pub fn judge(&mut self, line: &[u8]) -> Verdict {
        if line.iter().all(u8::is_ascii_whitespace) {
            return Verdict::Drop;
        }
        let message: Value = match serde_json::from_slice(line) {
            Ok(v) => v,
            Err(e) => {
                return Verdict::Reply(error(
                    Value::Null,
                    PARSE_ERROR,
                    &format!("Parse error: {e}"),
                ))
            }
        };
        if self.initialized {
            return Verdict::Pass;
        }
        let id = message.get("id").cloned();
        match (message.get("method").and_then(Value::as_str), id) {
            (Some("initialize"), Some(_)) => {
                self.initialized = true;
                Verdict::Pass
            }
            (Some("ping"), Some(_)) => Verdict::Pass,
            (Some(method), Some(id)) => Verdict::Reply(error(
                id,
                NOT_INITIALIZED,
                &format!("{method} before initialize: send initialize first"),
            )),
            (Some(_), None) => Verdict::Drop,
            _ if message.is_object()
                && (message.get("result").is_some() || message.get("error").is_some()) =>
            {
                Verdict::Drop
            }
            _ => Verdict::Reply(error(
                Value::Null,
                INVALID_REQUEST,
                "Invalid Request: not a JSON-RPC message",
            )),
        }
    }
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Reads `input` line by line, passing lines on to rmcp or answering them.
async fn read_input<R: AsyncRead + Unpin>(
    input: R,
    mut to_rmcp: DuplexStream,
    replies: mpsc::UnboundedSender<Vec<u8>>,
) {
    let mut input = BufReader::new(input);
    let mut gate = Gate::default();
    let reply = |value: Value| {
        let mut line = serde_json::to_vec(&value).expect("a reply is plain data");
        line.push(b'\n');
        let _ = replies.send(line);
    };
    loop {
        let mut line = Vec::new();
        let read = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .await;
        match read {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if !line.ends_with(b"\n") && line.len() > MAX_LINE {
            reply(error(
                Value::Null,
                PARSE_ERROR,
                &format!("Parse error: a line over {MAX_LINE} bytes"),
            ));
            if skip_line(&mut input).await.is_err() {
                break;
            }
            continue;
        }
        let body = line.strip_suffix(b"\n").unwrap_or(&line);
        let body = body.strip_suffix(b"\r").unwrap_or(body);
        match gate.judge(body) {
            Verdict::Pass => {
                let mut whole = body.to_vec();
                whole.push(b'\n');
                if to_rmcp.write_all(&whole).await.is_err() {
                    break;
                }
            }
            Verdict::Reply(value) => reply(value),
            Verdict::Drop => {}
        }
    }
}

/// Discards the rest of an over-long line.
async fn skip_line<R: AsyncRead + Unpin>(input: &mut BufReader<R>) -> std::io::Result<()> {
    loop {
        let buf = input.fill_buf().await?;
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(at) => {
                input.consume(at + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                input.consume(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(v: &Verdict) -> Option<i64> {
        match v {
            Verdict::Reply(r) => r["error"]["code"].as_i64(),
            _ => None,
        }
    }

    #[test]
    fn a_line_that_is_not_json_gets_a_parse_error_before_and_after_initialize() {
        let mut gate = Gate::default();
        assert_eq!(code(&gate.judge(b"{not json")), Some(PARSE_ERROR));
        assert_eq!(
            gate.judge(br#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#),
            Verdict::Pass
        );
        assert_eq!(code(&gate.judge(b"{not json")), Some(PARSE_ERROR));
        assert_eq!(
            gate.judge(br#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#),
            Verdict::Pass
        );
    }

    #[test]
    fn a_request_before_initialize_is_answered_with_its_id_and_a_ping_passes() {
        let mut gate = Gate::default();
        let Verdict::Reply(reply) =
            gate.judge(br#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#)
        else {
            panic!("answered");
        };
        assert_eq!(
            (reply["id"].as_i64(), reply["error"]["code"].as_i64()),
            (Some(7), Some(NOT_INITIALIZED))
        );
        assert_eq!(
            gate.judge(br#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#),
            Verdict::Pass
        );
        assert_eq!(
            gate.judge(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Verdict::Drop
        );
        assert_eq!(code(&gate.judge(b"42")), Some(INVALID_REQUEST));
    }
}
