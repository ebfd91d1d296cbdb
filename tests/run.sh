#!/bin/sh
# Cross-binary pipeline cases: each tests/cases/*.sh runs in its own temp dir with the
# built binaries first on PATH (QA_BIN_DIR) and must exit 0. Prints one line per case and
# a closing "N passed, N failed" line.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=${QA_BIN_DIR:?set QA_BIN_DIR to the directory holding the built qa-* binaries}
# A CI machine's own pull-request variables must not choose the cases' bases.
unset QA_BASE_REF GITHUB_BASE_REF CI_MERGE_REQUEST_TARGET_BRANCH_NAME \
  BITBUCKET_PR_DESTINATION_BRANCH BUILDKITE_PULL_REQUEST_BASE_BRANCH CHANGE_TARGET \
  SYSTEM_PULLREQUEST_TARGETBRANCH
passed=0
failed=0
for case in "$here"/cases/*.sh; do
  name=$(basename "$case" .sh)
  work=$(mktemp -d)
  if (cd "$work" && PATH="$bin:$PATH" QA_EXAMPLES="$here/../examples" sh -eu "$case") > "$work.log" 2>&1; then
    passed=$((passed + 1))
    echo "ok   $name"
  else
    failed=$((failed + 1))
    echo "FAIL $name"
    sed 's/^/     | /' "$work.log"
  fi
  rm -rf "$work" "$work.log"
done
echo "pipeline: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
