# The acceptance flow on a copy of the example project: a pass (exit 0) with a run folder
# whose checksums hold; then an edited page fails (exit 1); then an http check without
# --allow-network leaves the run incomplete (exit 2).
cp -r "$QA_EXAMPLES/shop-site" shop
QA_REPO=shop sh "$QA_EXAMPLES/../pipelines/acceptance.sh" shop/acceptance.example.json > pass.txt
grep -q 'Verdict: pass' pass.txt
run=$(ls -d shop/.qa/acceptance/*/ | head -1)
(cd "$run" && sha256sum -c SHA256SUMS > /dev/null)
qa-report --verify --in "$run/records.ndjson" 2> verify.txt
grep -q ' 0 problems$' verify.txt
test ! -e shop/.qa/acceptance.lock
sed -i 's/Example Shop GmbH/Example Shop AG/' shop/site/index.html
code=0
QA_REPO=shop sh "$QA_EXAMPLES/../pipelines/acceptance.sh" shop/acceptance.example.json > fail.txt || code=$?
test "$code" -eq 1
python3 - shop/acceptance.example.json > shop/http.json <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
plan["target"] = {"kind": "url", "value": "http://127.0.0.1:9/"}
plan["checks"] = [{"id": "health", "criterion": "greets", "kind": "http", "path": "/health", "status": 200}]
print(json.dumps(plan))
PY
code=0
QA_REPO=shop sh "$QA_EXAMPLES/../pipelines/acceptance.sh" shop/http.json > incomplete.txt || code=$?
test "$code" -eq 2
grep -q -- '--allow-network' incomplete.txt
