# The whole acceptance flow against a real MCP server (the official Python SDK, stateful,
# JSON responses) on 127.0.0.1: discovery, a call proven by an independent GET, a
# read-only call and a negative case pass; the run folder verifies; the server is stopped.
peers="$QA_EXAMPLES/../tests/peers"
"$peers/venv/bin/python" "$peers/mcp_server.py" --mode stateful > port.txt 2> server.log &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do grep -q '^PORT ' port.txt && break; sleep 0.1; done
port=$(sed -n 's/^PORT //p' port.txt)
test -n "$port"
cat > plan.json <<JSON
{"target": {"kind": "url", "value": "http://127.0.0.1:$port/"},
 "criteria": [{"id": "volume", "expected": "the volume can be set and read", "source": {"kind": "request", "text": "set the volume"}}],
 "checks": [
  {"id": "listed", "criterion": "volume", "kind": "mcp", "tool": "set_volume"},
  {"id": "set-volume", "criterion": "volume", "kind": "mcp", "tool": "set_volume", "input": {"level": 20},
   "observePath": "/test/player-state", "observeContains": "\"volume\":20"},
  {"id": "read", "criterion": "volume", "kind": "mcp", "tool": "get_volume", "input": {}, "readOnly": true,
   "observePath": "/test/player-state"},
  {"id": "too-loud", "criterion": "volume", "kind": "mcp", "tool": "set_volume", "input": {"level": 900}, "expectError": true}
 ]}
JSON
code=0
sh "$QA_EXAMPLES/../pipelines/acceptance.sh" plan.json --allow-network --allow-tool-calls > report.txt || code=$?
cat report.txt
test "$code" -eq 0
grep -q 'verdict: PASS (1 pass, 0 fail, 0 unverified)' report.txt
grep -q 'MCP 2025-11-25' report.txt
run=$(ls -d .qa/acceptance/*/ | head -1)
(cd "$run" && sha256sum -c SHA256SUMS > /dev/null)
qa-report --verify --in "$run/records.ndjson"
