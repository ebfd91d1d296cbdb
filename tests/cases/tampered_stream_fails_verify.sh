# Editing a record's data after the fact breaks its id: qa-report exits 65 naming the line.
sh "$QA_EXAMPLES/make-demo-repo.sh" repo
qa-diff --repo repo > stream.ndjson
n=$(grep -n '"kind":"file"' stream.ndjson | head -1 | cut -d: -f1)
sed "${n}s/\"added\":[0-9]*/\"added\":999/" stream.ndjson > tampered.ndjson
! cmp -s stream.ndjson tampered.ndjson
code=0
qa-report --verify --in tampered.ndjson 2> err.txt || code=$?
cat err.txt
[ "$code" -eq 65 ]
grep -q "tampered.ndjson line $n: file record id .* does not match its content" err.txt
