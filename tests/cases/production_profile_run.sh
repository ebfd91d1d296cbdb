# A host profile carried into the acceptance flow: the plan's url target names a production
# environment's app; the report records the profile's test-account attestation, and an MCP
# tool invocation that is not readOnly is blocked there (exit 2: incomplete).
cat > profile.yaml <<'YAML'
project: shop
tracker: none
apps:
  storefront: {framework: react, spec_dir: e2e, repo: .}
environments:
  qa:
    kind: qa
    apps: {storefront: "http://127.0.0.1:9/"}
    sha_source: {url: "http://127.0.0.1:9/version.json", json_path: commit}
  production:
    kind: production
    test_account: "qa-runner@example.com, own tenant, no admin"
    evidence_upload: local
    apps: {storefront: "http://127.0.0.1:9/"}
    sha_source: {url: "http://127.0.0.1:9/version.json", json_path: commit}
auth: {model: dev-handoff, playwright_min: "1.51.0", storage_state: {indexed_db: true}}
assertions: {network_events: allowed, style: mixed}
selectors: {testid_attribute: data-testid}
models: {generation_approved: [model-a]}
sandbox: {mode: {env_var: VITE_API_MODE, value: mocks}}
mutation:
  write_signatures:
    - {method: POST, url: "/api/"}
YAML
qa-profile profile.yaml > normalized.json
cat > plan.json <<'JSON'
{"target": {"kind": "url", "env": "production", "app": "storefront"},
 "criteria": [{"id": "volume", "expected": "the volume can be set", "source": {"kind": "request", "text": "set the volume"}}],
 "checks": [{"id": "set-volume", "criterion": "volume", "kind": "mcp", "tool": "set_volume", "input": {"level": 20}}]}
JSON
code=0
qa-profile profile.yaml --ndjson | qa-intent --plan plan.json --in - | qa-fetch | qa-route | qa-check \
  | qa-fetch --verify | qa-trace | qa-report --acceptance --repo . > report.txt || code=$?
cat report.txt
test "$code" -eq 2
grep -q 'test account (the profile.s attestation): qa-runner@example.com, own tenant, no admin' report.txt
grep -q 'a tool invocation needs `readOnly: true`' report.txt
run=$(ls -d .qa/acceptance/*/ | head -1)
(cd "$run" && sha256sum -c SHA256SUMS > /dev/null)
grep -q '"kind":"profile"' "$run/records.ndjson"
