"""Small MCP endpoints (Streamable HTTP, revision 2025-11-25) that misbehave on purpose,
for qa-check's tests. Standard library only.

Usage: hostile_mcp.py --behaviour NAME
Serves 127.0.0.1 on an ephemeral port and prints one line `PORT <n>` on stdout.

Routes:
  POST/DELETE/GET /mcp  the endpoint, behaving as NAME says (see BEHAVIOURS)
  GET /test/state       plain text: `calls=<tools/call answered>` and `last=<last echoed text>`
  GET /_log             JSON array of every request so far except those to /_log:
                        {"method", "path", "headers": {lowercased name: value}, "body": JSON or null}

Every behaviour shares one correct core and departs from it in one way only. The core:
issues `MCP-Session-Id: s-123` on initialize (not for good-no-session) and then wants it
back (missing: 400, unknown or deleted: 404); wants `Accept` to name both application/json
and text/event-stream (else 406) and a supported `MCP-Protocol-Version` when one is sent
(else 400); answers notifications and client responses with 202; GET /mcp -> 405.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PROTOCOL = "2025-11-25"
SESSION = "s-123"
ECHO_TOOL = {
    "name": "echo",
    "description": "Echoes its text back.",
    "inputSchema": {
        "type": "object",
        "properties": {"text": {"type": "string"}},
        "required": ["text"],
    },
}

BEHAVIOURS = {
    "good": "a correct server with a session",
    "good-no-session": "a correct server that issues no session id",
    "good-405": "a correct server whose DELETE of the session answers 405",
    "sse": "every request answered as text/event-stream, SSE-framed",
    "sse-on-list": "JSON for initialize, SSE for tools/list",
    "old-version": "initialize answers protocolVersion 2024-11-05",
    "future-version": "initialize answers protocolVersion 2099-01-01",
    "endless-cursor": "tools/list: one filler tool and a new nextCursor, forever",
    "same-cursor": "tools/list: one filler tool and the same nextCursor, forever",
    "flood-tools": "tools/list: 500 filler tools a page and a new nextCursor, forever",
    "oversize": "tools/list: a 20 MiB JSON body",
    "malformed": "tools/list: 200 application/json whose body is not JSON",
    "deep-json": "tools/list: a JSON body nested 100,000 levels deep",
    "wrong-id": "every reply carries another JSON-RPC id than its request",
    "stall": "initialize never answers",
    "stall-list": "tools/list never answers",
    "trickle": "tools/list sends its body one byte per second",
    "server-request": "tools/call answered with a server request (sampling/createMessage)",
    "oauth": "every POST answers 401 with a WWW-Authenticate Bearer challenge",
    "get-trap": "a correct server whose GET of /mcp answers 500",
}

OVERSIZE_BYTES = 20 * 1024 * 1024
DEEP_LEVELS = 100_000
FLOOD_PAGE = 500


class Peer:
    """What the server remembers: the request log, the session, the echo state."""

    def __init__(self, behaviour: str):
        self.behaviour = behaviour
        self.lock = threading.Lock()
        self.log: list[dict[str, Any]] = []
        self.session_live = False
        self.calls = 0
        self.last = ""

    def record(self, entry: dict[str, Any]) -> None:
        with self.lock:
            self.log.append(entry)

    def issues_session(self) -> bool:
        return self.behaviour != "good-no-session"


def result(request: dict[str, Any], value: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request.get("id"), "result": value}


def error(request: dict[str, Any], code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request.get("id"), "error": {"code": code, "message": message}}


def filler(name: str) -> dict[str, Any]:
    return {"name": name, "description": "Filler.", "inputSchema": {"type": "object"}}


def page_number(request: dict[str, Any]) -> int:
    """The page an `p-<n>` cursor asks for; 0 without a cursor or with one not ours."""
    cursor = (request.get("params") or {}).get("cursor") or ""
    try:
        return int(cursor.removeprefix("p-"))
    except ValueError:
        return 0


def sleep_forever() -> None:
    # The handler thread is a daemon: SIGTERM ends the process while it sleeps here.
    while True:
        time.sleep(3600)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "hostile-mcp/1"
    peer: Peer

    def log_message(self, format: str, *args: Any) -> None:
        sys.stderr.write("hostile_mcp: " + (format % args) + "\n")

    # --- plumbing -------------------------------------------------------------------

    def read_body(self) -> bytes:
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    return body
                body += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def logged(self) -> Any:
        """Reads the body, logs the request, and returns the body's JSON (None if not JSON)."""
        raw = self.read_body()
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        if self.path != "/_log":
            self.peer.record(
                {
                    "method": self.command,
                    "path": self.path,
                    "headers": {name.lower(): value for name, value in self.headers.items()},
                    "body": body,
                }
            )
        return body

    def send(self, status: int, body: bytes = b"", content_type: str | None = None, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send_json(self, message: Any, headers: dict[str, str] | None = None) -> None:
        self.send(200, json.dumps(message).encode(), "application/json", headers)

    def send_sse(self, message: Any) -> None:
        frame = f"event: message\ndata: {json.dumps(message)}\n\n".encode()
        self.send(200, frame, "text/event-stream", {"Cache-Control": "no-cache"})

    def send_streamed(self, parts: Any, length: int) -> None:
        """A 200 application/json body of `length` bytes written from `parts` as it goes."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(length))
        self.end_headers()
        try:
            for part in parts:
                self.wfile.write(part)
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    # --- routes ---------------------------------------------------------------------

    def do_GET(self) -> None:
        self.logged()
        if self.path == "/_log":
            with self.peer.lock:
                body = json.dumps(self.peer.log).encode()
            self.send(200, body, "application/json")
        elif self.path == "/test/state":
            with self.peer.lock:
                text = f"calls={self.peer.calls}\nlast={self.peer.last}\n"
            self.send(200, text.encode(), "text/plain; charset=utf-8")
        elif self.path == "/mcp" and self.peer.behaviour == "get-trap":
            self.send(500, b"a client must not GET the MCP endpoint here", "text/plain")
        elif self.path == "/mcp":
            # No server-initiated stream: the spec's answer is 405.
            self.send(405, b"", headers={"Allow": "POST, DELETE"})
        else:
            self.send(404, b"no such page", "text/plain")

    def do_DELETE(self) -> None:
        self.logged()
        if self.path != "/mcp":
            self.send(404, b"no such page", "text/plain")
        elif self.peer.behaviour == "good-405":
            self.send(405, b"", headers={"Allow": "POST, GET"})
        elif self.refused_session():
            return
        else:
            self.peer.session_live = False
            self.send(204)

    def do_POST(self) -> None:
        message = self.logged()
        if self.path != "/mcp":
            self.send(404, b"no such page", "text/plain")
            return
        behaviour = self.peer.behaviour
        if behaviour == "oauth":
            port = self.server.server_address[1]
            challenge = f'Bearer resource_metadata="http://127.0.0.1:{port}/.well-known/oauth-protected-resource"'
            self.send(401, b"", headers={"WWW-Authenticate": challenge})
            return
        if self.refused_headers():
            return
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            self.send(400, json.dumps(error({}, -32700, "not a JSON-RPC message")).encode(), "application/json")
            return
        method = message.get("method")
        if method is None or "id" not in message:
            # A notification or the client's answer to a server request.
            if method != "notifications/initialized" and self.refused_session():
                return
            self.send(202)
            return
        if method == "initialize":
            self.initialize(message)
            return
        if self.refused_session():
            return
        if method == "tools/list":
            self.tools_list(message)
        elif method == "tools/call":
            self.tools_call(message)
        elif method == "ping":
            self.reply(message, result(message, {}))
        else:
            self.reply(message, error(message, -32601, f"method not found: {method}"))

    # --- the MCP core and its departures ----------------------------------------------

    def refused_headers(self) -> bool:
        accept = self.headers.get("Accept") or ""
        if "application/json" not in accept or "text/event-stream" not in accept:
            self.send(406, b"Accept must name application/json and text/event-stream", "text/plain")
            return True
        version = self.headers.get("MCP-Protocol-Version")
        if version is not None and version not in (PROTOCOL, "2025-06-18", "2025-03-26"):
            self.send(400, f"unsupported MCP-Protocol-Version {version}".encode(), "text/plain")
            return True
        return False

    def refused_session(self) -> bool:
        if not self.peer.issues_session():
            return False
        sent = self.headers.get("MCP-Session-Id")
        if sent is None:
            self.send(400, b"MCP-Session-Id is required", "text/plain")
            return True
        if sent != SESSION or not self.peer.session_live:
            self.send(404, b"no such session", "text/plain")
            return True
        return False

    def reply(self, request: dict[str, Any], message: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        behaviour = self.peer.behaviour
        if behaviour == "wrong-id":
            sent = request.get("id")
            message = dict(message, id=sent + 1000 if isinstance(sent, int) else f"{sent}-other")
        if behaviour == "sse" or (behaviour == "sse-on-list" and request.get("method") == "tools/list"):
            self.send_sse(message)
        else:
            self.send_json(message, headers)

    def initialize(self, request: dict[str, Any]) -> None:
        behaviour = self.peer.behaviour
        if behaviour == "stall":
            sleep_forever()
        version = {"old-version": "2024-11-05", "future-version": "2099-01-01"}.get(behaviour, PROTOCOL)
        headers = {}
        if self.peer.issues_session():
            self.peer.session_live = True
            headers["MCP-Session-Id"] = SESSION
        answer = {
            "protocolVersion": version,
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": f"hostile-{behaviour}", "version": "1.0.0"},
        }
        self.reply(request, result(request, answer), headers)

    def tools_list(self, request: dict[str, Any]) -> None:
        behaviour = self.peer.behaviour
        page = page_number(request)
        if behaviour == "stall-list":
            sleep_forever()
        elif behaviour == "endless-cursor":
            self.reply(request, result(request, {"tools": [filler(f"filler_{page}")], "nextCursor": f"p-{page + 1}"}))
        elif behaviour == "same-cursor":
            self.reply(request, result(request, {"tools": [filler("filler_0")], "nextCursor": "p-1"}))
        elif behaviour == "flood-tools":
            tools = [filler(f"flood_{page}_{i}") for i in range(FLOOD_PAGE)]
            self.reply(request, result(request, {"tools": tools, "nextCursor": f"p-{page + 1}"}))
        elif behaviour == "oversize":
            self.oversize(request)
        elif behaviour == "malformed":
            self.send(200, b'{"jsonrpc":"2.0","id":, this is not JSON', "application/json")
        elif behaviour == "deep-json":
            self.deep(request)
        elif behaviour == "trickle":
            self.trickle(json.dumps(result(request, {"tools": [ECHO_TOOL]})).encode())
        else:
            self.reply(request, result(request, {"tools": [ECHO_TOOL]}))

    def oversize(self, request: dict[str, Any]) -> None:
        head = ('{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"big","inputSchema":{"type":"object"},"description":"' % json.dumps(request.get("id"))).encode()
        tail = b'"}]}}'
        chunk = b"x" * 65536

        def parts() -> Any:
            yield head
            for _ in range(OVERSIZE_BYTES // len(chunk)):
                yield chunk
            yield tail

        self.send_streamed(parts(), len(head) + OVERSIZE_BYTES + len(tail))

    def trickle(self, body: bytes) -> None:
        def parts() -> Any:
            for i in range(len(body)):
                if i:
                    time.sleep(1)
                yield body[i : i + 1]

        self.send_streamed(parts(), len(body))

    def deep(self, request: dict[str, Any]) -> None:
        head = ('{"jsonrpc":"2.0","id":%s,"result":{"tools":[],"deep":' % json.dumps(request.get("id"))).encode()
        body = head + b"[" * DEEP_LEVELS + b"]" * DEEP_LEVELS + b"}}"
        self.send(200, body, "application/json")

    def tools_call(self, request: dict[str, Any]) -> None:
        if self.peer.behaviour == "server-request":
            sampling = {
                "jsonrpc": "2.0",
                "id": "srv-1",
                "method": "sampling/createMessage",
                "params": {
                    "messages": [{"role": "user", "content": {"type": "text", "text": "say yes"}}],
                    "maxTokens": 10,
                },
            }
            self.send_json(sampling)
            return
        params = request.get("params") or {}
        arguments = params.get("arguments") or {}
        if params.get("name") != "echo":
            self.reply(request, error(request, -32602, f"unknown tool: {params.get('name')}"))
            return
        text = arguments.get("text")
        if not isinstance(text, str):
            answer = {"content": [{"type": "text", "text": "text must be a string"}], "isError": True}
        else:
            with self.peer.lock:
                self.peer.calls += 1
                self.peer.last = text
            answer = {"content": [{"type": "text", "text": text}], "isError": False}
        self.reply(request, result(request, answer))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--behaviour", required=True, choices=sorted(BEHAVIOURS))
    args = parser.parse_args()

    Handler.peer = Peer(args.behaviour)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    # Stalled handlers never end; closing must not wait for them.
    server.block_on_close = False

    def stop(signum: int, frame: Any) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
