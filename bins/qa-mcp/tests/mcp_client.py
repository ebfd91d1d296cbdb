"""Drives qa-mcp with the official MCP Python SDK's client over stdio, step by step.

Reads a JSON script on stdin:
  {"server": {"command": PATH, "args": [...], "env": {...}, "cwd": DIR},
   "steps": [STEP, ...]}
and prints one JSON object: {"protocol": VERSION, "results": [RESULT per step]}.
The tests start it through tests/peers/fork.py (a fork of a warm interpreter that has
made its imports); `python mcp_client.py` works the same.

Steps:
  {"op": "list"}                                   -> {"tools": [tool as listed]}
  {"op": "call", "tool": T, "args": {...}, "progress": bool}
                                                   -> a call result (below)
  {"op": "start", "tool": T, "args": {...}}        -> {} (the call runs in the background)
  {"op": "wait_path", "path": P, "timeout": S}     -> {"found": bool}
  {"op": "join"}                                   -> the started call's result
  {"op": "sleep", "seconds": S}                    -> {}

A call result: {"isError", "structured", "text", "progress": [[progress, total, message]],
"schema_errors": [...] (structuredContent checked against the tool's outputSchema with
jsonschema, error results included), "exception": str or null (the SDK's own check of
the result against the outputSchema raises)}.
"""

import json
import os
import sys
import time

import anyio
import jsonschema
from mcp import Client
from mcp.client.stdio import StdioServerParameters


def dump(model):
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def call(client, schemas, tool, args, want_progress):
    progress = []

    async def on_progress(value, total, message):
        progress.append([value, total, message])

    out = {"progress": progress, "exception": None, "schema_errors": []}
    try:
        result = await client.call_tool(
            tool,
            args,
            read_timeout_seconds=120,
            progress_callback=on_progress if want_progress else None,
        )
    except Exception as e:  # the SDK refused the result (or the server errored)
        out["exception"] = f"{type(e).__name__}: {e}"
        return out
    out["isError"] = bool(result.is_error)
    out["structured"] = result.structured_content
    out["text"] = "\n".join(getattr(c, "text", "") for c in result.content)
    schema = schemas.get(tool)
    if schema is not None and result.structured_content is not None:
        validator = jsonschema.validators.validator_for(schema)(schema)
        out["schema_errors"] = [e.message for e in validator.iter_errors(result.structured_content)]
    return out


async def drive():
    script = json.load(sys.stdin)
    server = script["server"]
    params = StdioServerParameters(
        command=server["command"],
        args=server.get("args", []),
        env=server.get("env"),
        cwd=server.get("cwd"),
    )
    results = []
    # "legacy": the initialize handshake of protocol 2025-11-25, what qa-mcp speaks.
    async with Client(params, mode="legacy", read_timeout_seconds=120) as client:
        listed = await client.list_tools()
        schemas = {t.name: t.output_schema for t in listed.tools}
        background = {}
        async with anyio.create_task_group() as tg:
            for step in script["steps"]:
                op = step["op"]
                if op == "list":
                    results.append({"tools": [dump(t) for t in listed.tools]})
                elif op == "call":
                    results.append(
                        await call(client, schemas, step["tool"], step.get("args", {}), step.get("progress", False))
                    )
                elif op == "start":
                    done = anyio.Event()

                    async def run(step=step, done=done):
                        background["result"] = await call(
                            client, schemas, step["tool"], step.get("args", {}), step.get("progress", False)
                        )
                        done.set()

                    background["done"] = done
                    tg.start_soon(run)
                    results.append({})
                elif op == "wait_path":
                    deadline = time.monotonic() + step.get("timeout", 20)
                    while not os.path.exists(step["path"]) and time.monotonic() < deadline:
                        await anyio.sleep(0.05)
                    results.append({"found": os.path.exists(step["path"])})
                elif op == "join":
                    with anyio.fail_after(step.get("timeout", 60)):
                        await background["done"].wait()
                    results.append(background.pop("result"))
                elif op == "sleep":
                    await anyio.sleep(step["seconds"])
                    results.append({})
                else:
                    raise SystemExit(f"unknown step {op!r}")
        protocol = client.protocol_version
    json.dump({"protocol": protocol, "results": results}, sys.stdout)


def main():
    anyio.run(drive)


if __name__ == "__main__":
    main()
