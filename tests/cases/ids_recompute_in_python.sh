# An outside tool recomputes every id: SHA-256 of Python's canonical json.dumps of
# {kind, v, from, src, data}. Any drift from docs/DESIGN.md's definition fails here.
sh "$QA_EXAMPLES/make-demo-repo.sh" repo
printf 'caf\303\251 \342\234\223\n' > repo/unicode.txt
qa-diff --repo repo --worktree > stream.ndjson
python3 - stream.ndjson <<'PY'
import hashlib, json, sys
n = 0
for line in open(sys.argv[1], encoding="utf-8"):
    r = json.loads(line)
    hashed = {k: r[k] for k in ("kind", "v", "from", "src", "data")}
    canon = json.dumps(hashed, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    want = "sha256:" + hashlib.sha256(canon.encode("utf-8")).hexdigest()
    assert r["id"] == want, (n, r["kind"], r["id"], want)
    n += 1
assert n > 5, n
print(n, "ids recomputed")
PY
