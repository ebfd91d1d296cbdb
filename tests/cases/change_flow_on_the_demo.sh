# The whole change flow on the example repository: every stage's records verify, the
# text report has its three layers, the json report parses, the agent line fits 4 KiB.
sh "$QA_EXAMPLES/make-demo-repo.sh" repo
QA_SAVE=stream.ndjson QA_DRAFT=manual QA_OUT=out sh "$QA_EXAMPLES/../pipelines/changes.sh" --repo repo > report.txt
qa-report --verify --in stream.ndjson 2> summary.txt
cat summary.txt
grep -q ' 0 problems$' summary.txt
for kind in intent scenario route capability trace draft; do
  grep -q "\"kind\":\"$kind\"" stream.ndjson || { echo "no $kind record"; exit 1; }
done
grep -q '1. What changed and what to test' report.txt
grep -q '2. Run this' report.txt
grep -q '3. What a person must check' report.txt
# The demo declares `jest` as its test script: routed whether npm can start or not, and
# without npm with what it needs first.
grep -q 'run: npm test' report.txt
if ! command -v npm > /dev/null; then grep -q 'first: needs npm on PATH' report.txt; fi
python3 -c 'import json,sys; r=json.load(open("out/report.json")); assert r["intents"], r' 
qa-report --format agent --in stream.ndjson > agent.json
test "$(wc -c < agent.json)" -le 4096
python3 -c 'import json; json.loads(open("agent.json").read())'
(cd out && sha256sum -c SHA256SUMS)
