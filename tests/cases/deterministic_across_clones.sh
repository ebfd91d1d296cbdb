# The same repository state gives byte-identical output, even from a separate clone
# built at another time (dates are fixed by the example script).
sh "$QA_EXAMPLES/make-demo-repo.sh" one
sleep 1
sh "$QA_EXAMPLES/make-demo-repo.sh" two
qa-diff --repo one > a.ndjson
qa-diff --repo two > b.ndjson
cmp a.ndjson b.ndjson
