# qa-diff on the example repository, piped into qa-report --verify: a clean chain.
sh "$QA_EXAMPLES/make-demo-repo.sh" repo
qa-diff --repo repo | qa-report --verify 2> summary.txt
cat summary.txt
grep -qx 'qa-report: 8 records (commit 3, file 4, range 1); 0 problems' summary.txt
