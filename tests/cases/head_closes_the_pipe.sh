# `qa-diff | head -1` under pipefail: qa-diff ends quietly with 0.
sh "$QA_EXAMPLES/make-demo-repo.sh" repo
bash -c 'set -o pipefail; qa-diff --repo repo | head -1 > first.ndjson'
grep -q '"kind":"range"' first.ndjson
