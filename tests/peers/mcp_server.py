"""A real MCP server for qa-check's tests, built on the official Python SDK (mcp 2.3.0).

Streamable HTTP with JSON responses (no SSE) at /mcp on 127.0.0.1, an ephemeral port.
It models a media player whose state tests can observe outside MCP:

  GET /test/player-state  -> {"volume":50,"muted":false}   (compact JSON)
  GET /health             -> ok

tools/list is paginated, 4 tools a page, fillers first, so a client that does not follow
nextCursor never sees set_volume or get_volume. Some tools misbehave on purpose:
reject_all always fails, lying_set claims success but changes nothing, sneaky_read is
annotated read-only yet bumps the volume.

Usage: mcp_server.py [--mode stateful|stateless]
Prints one line `PORT <n>` on stdout once it accepts connections; logs go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import logging
import socket
import sys
from typing import Any

import mcp_types as types
import uvicorn
from jsonschema.validators import Draft202012Validator, validator_for
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

PAGE_SIZE = 4
FILLERS = 14

# The player's observable state, shared by every session (stateful or not).
PLAYER: dict[str, Any] = {"volume": 50, "muted": False}

LEVEL_SCHEMA = {
    "type": "object",
    "properties": {"level": {"type": "integer", "minimum": 0, "maximum": 100}},
    "required": ["level"],
    "additionalProperties": False,
}


def tool(name: str, description: str, schema: dict[str, Any], read_only: bool | None = None) -> types.Tool:
    annotations = types.ToolAnnotations(read_only_hint=read_only) if read_only is not None else None
    return types.Tool(name=name, description=description, input_schema=schema, annotations=annotations)


def catalogue() -> list[types.Tool]:
    """Every tool in the stable order tools/list pages through: fillers first."""
    fillers = [
        tool(f"filler_{i:02}", f"Filler tool {i:02}: does nothing, exists to fill pages.", {"type": "object"})
        for i in range(FILLERS)
    ]
    return fillers + [
        tool(
            "draft7_tool",
            "Greets a name; its input schema is JSON Schema draft-07.",
            {
                "$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object",
                "properties": {"name": {"type": "string", "minLength": 1}},
                "required": ["name"],
            },
        ),
        tool(
            "modern_tool",
            "Takes a (x, y) point; its input schema uses the 2020-12 keyword prefixItems.",
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "properties": {
                    "point": {
                        "type": "array",
                        "prefixItems": [{"type": "number"}, {"type": "number"}],
                        "items": False,
                    }
                },
                "required": ["point"],
            },
        ),
        tool("set_volume", "Sets the player's volume, 0 to 100.", LEVEL_SCHEMA),
        tool("get_volume", "Returns the player's volume; changes nothing.", {"type": "object"}, read_only=True),
        tool(
            "mute",
            "Mutes or unmutes the player.",
            {
                "type": "object",
                "properties": {"muted": {"type": "boolean"}},
                "required": ["muted"],
                "additionalProperties": False,
            },
        ),
        tool(
            "reject_all",
            "Always rejects the call.",
            {"type": "object", "properties": {"level": {"type": "integer"}}},
        ),
        tool(
            "lying_set",
            "Claims to set the volume but changes nothing.",
            {"type": "object", "properties": {"level": {"type": "integer"}}},
        ),
        tool(
            "sneaky_read",
            "Claims to only read the volume but bumps it by one.",
            {"type": "object"},
            read_only=True,
        ),
    ]


TOOLS = catalogue()
SCHEMAS = {t.name: t.input_schema for t in TOOLS}


def encode_cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(f"offset:{offset}".encode()).decode()


def decode_cursor(cursor: str) -> int:
    """The offset an opaque cursor stands for; -32602 for anything this server did not issue."""
    try:
        text = base64.urlsafe_b64decode(cursor.encode()).decode()
        prefix, _, number = text.partition(":")
        offset = int(number)
    except (ValueError, UnicodeError) as err:
        raise MCPError(types.INVALID_PARAMS, f"invalid cursor: {cursor!r}") from err
    if prefix != "offset" or encode_cursor(offset) != cursor or not 0 < offset < len(TOOLS):
        raise MCPError(types.INVALID_PARAMS, f"invalid cursor: {cursor!r}")
    return offset


async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    cursor = params.cursor if params is not None else None
    offset = decode_cursor(cursor) if cursor is not None else 0
    end = offset + PAGE_SIZE
    return types.ListToolsResult(
        tools=TOOLS[offset:end],
        next_cursor=encode_cursor(end) if end < len(TOOLS) else None,
    )


def text_result(text: str, is_error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=is_error)


async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    name = params.name
    if name not in SCHEMAS:
        raise MCPError(types.INVALID_PARAMS, f"unknown tool: {name}")
    arguments = params.arguments or {}
    # Invalid input is a tool execution error (isError), as 2025-11-25 asks, so a
    # caller sees the rejection; the SDK's low-level server does not validate itself.
    # Each schema is checked in its own dialect ($schema), 2020-12 when it names none.
    schema = SCHEMAS[name]
    validator = validator_for(schema, default=Draft202012Validator)(schema)
    problems = sorted(validator.iter_errors(arguments), key=str)
    if problems:
        return text_result(f"invalid arguments for {name}: {problems[0].message}", is_error=True)
    if name == "set_volume":
        PLAYER["volume"] = arguments["level"]
        return text_result(f"volume set to {PLAYER['volume']}")
    if name == "get_volume":
        return text_result(f"volume is {PLAYER['volume']}")
    if name == "mute":
        PLAYER["muted"] = arguments["muted"]
        return text_result("muted" if PLAYER["muted"] else "unmuted")
    if name == "reject_all":
        return text_result("rejected", is_error=True)
    if name == "lying_set":
        return text_result(f"volume set to {arguments.get('level')}")
    if name == "sneaky_read":
        # Always a change, even at the top of the range.
        PLAYER["volume"] += 1 if PLAYER["volume"] < 100 else -1
        return text_result(f"volume is {PLAYER['volume']}")
    if name == "draft7_tool":
        return text_result(f"hello {arguments['name']}")
    if name == "modern_tool":
        return text_result(f"point {arguments['point']}")
    return text_result(f"{name} did nothing")


async def player_state(request: Request) -> Response:
    body = json.dumps(PLAYER, separators=(",", ":"))
    return Response(body, media_type="application/json")


async def health(request: Request) -> Response:
    return PlainTextResponse("ok")


def build_app(stateless: bool) -> Any:
    server = Server("qapipe-test-player", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)
    return server.streamable_http_app(
        streamable_http_path="/mcp",
        json_response=True,
        stateless_http=stateless,
        custom_starlette_routes=[
            Route("/test/player-state", player_state, methods=["GET"]),
            Route("/health", health, methods=["GET"]),
        ],
    )


async def serve(stateless: bool) -> None:
    # Bind first so the port is known; uvicorn serves on the bound socket.
    # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY on accepted connections only for a
    # socket whose proto says TCP, and without it every reply on a reused connection waits
    # ~40 ms (Nagle against the client's delayed ACK), as no production server does.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        build_app(stateless),
        log_level="warning",
        timeout_graceful_shutdown=1,
        lifespan="on",
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if task.done():
            await task
            raise SystemExit("mcp_server: uvicorn stopped before it started")
        await asyncio.sleep(0.01)
    print(f"PORT {port}", flush=True)
    await task


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["stateful", "stateless"], default="stateful")
    args = parser.parse_args()
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="mcp_server: %(levelname)s %(message)s")
    # uvicorn handles SIGINT/SIGTERM itself and ends serve() gracefully.
    asyncio.run(serve(args.mode == "stateless"))


if __name__ == "__main__":
    main()
