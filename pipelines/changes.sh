#!/bin/sh
# The change flow: qa-diff | qa-intent | qa-route | qa-trace | qa-report.
# Arguments go to qa-diff (e.g. --repo PATH --base REF --worktree); --repo is passed on to
# qa-intent (team manifest) and qa-route (validation commands).
# Environment:
#   QA_FORMAT=text|markdown|json|sarif|github|agent   report format (default text)
#   QA_OUT=DIR      also write the report files (report.json, report.md, ...) under DIR
#   QA_DRAFT=manual add manual drafts with compile receipts
#   QA_SAVE=FILE    keep a copy of the whole stream
set -eu
repo=.
prev=
for arg in "$@"; do
  case "$prev" in --repo) repo=$arg ;; esac
  case "$arg" in --repo=*) repo=${arg#--repo=} ;; esac
  prev=$arg
done
save=${QA_SAVE:-/dev/null}
qa-diff "$@" \
  | qa-intent --repo "$repo" \
  | qa-route --repo "$repo" \
  | qa-trace ${QA_DRAFT:+--draft "$QA_DRAFT"} \
  | tee -i "$save" \
  | qa-report --format "${QA_FORMAT:-text}" ${QA_OUT:+--out "$QA_OUT"}
