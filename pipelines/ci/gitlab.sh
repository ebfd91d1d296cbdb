#!/bin/sh
# The GitLab CI job's script (examples/ci/gitlab/qapipe.gitlab-ci.yml calls it; tests run
# it directly): the change flow on the merge request, written as a GitLab Code Quality
# report and markdown, and optionally the acceptance flow for a plan, its JUnit report
# copied out for artifacts:reports:junit. The qa-* binaries must be on PATH. The flows
# write into a private temporary folder outside the checkout (removed at exit); only the
# files named below are written into CI_PROJECT_DIR, from folders that match their
# SHA256SUMS, since GitLab takes artifacts from the project folder alone.
#
# Variables (the job's):
#   QAPIPE_BASE, QAPIPE_DEEPEN (true), QAPIPE_CHANGES (true), QAPIPE_PLAN, QAPIPE_ALLOW_NETWORK (false), QAPIPE_AUTH_ENV, QAPIPE_TIMEOUT,
#   QAPIPE_SHARD (default CI_NODE_INDEX/CI_NODE_TOTAL under `parallel:`),
#   QAPIPE_FAIL_ON (incomplete)
# GitLab's own: CI_MERGE_REQUEST_TARGET_BRANCH_NAME, CI_PROJECT_DIR, CI_NODE_INDEX,
#   CI_NODE_TOTAL; TMPDIR (else /tmp) for the temporary folder.
# Writes, in CI_PROJECT_DIR: gl-code-quality-report.json, qapipe-report.md,
#   qapipe-acceptance.md and qapipe-junit.xml (with a plan), qapipe.env (verdict and
#   counts for artifacts:reports:dotenv), and qapipe-reports/ holding change/ and
#   acceptance/ (the report folders); qapipe-reports must not be there already.
# Exit status: as pipelines/ci/github.sh.
set -eu
QA_CI_HOME=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=common.sh
. "$QA_CI_HOME/pipelines/ci/common.sh"

workspace=${CI_PROJECT_DIR:-.}
QA_CI_WORKSPACE=$(cd "$workspace" && pwd) || qa_ci_die 66 "no project directory $workspace"
QA_CI_BASE=${QAPIPE_BASE:-}
QA_CI_BASE_BRANCH=${CI_MERGE_REQUEST_TARGET_BRANCH_NAME:-}
QA_CI_DEEPEN=${QAPIPE_DEEPEN:-true}
QA_CI_DEPTH_HINT="set GIT_DEPTH: 0 in the job's variables"
QA_CI_CHANGES=${QAPIPE_CHANGES:-true}
QA_CI_PLAN=${QAPIPE_PLAN:-}
QA_CI_ALLOW_NETWORK=${QAPIPE_ALLOW_NETWORK:-false}
QA_CI_AUTH_ENV=${QAPIPE_AUTH_ENV:-}
QA_CI_TIMEOUT=${QAPIPE_TIMEOUT:-}
QA_CI_SHARD=${QAPIPE_SHARD:-}
if [ -z "$QA_CI_SHARD" ] && [ "${CI_NODE_TOTAL:-1}" -gt 1 ]; then
  QA_CI_SHARD=${CI_NODE_INDEX:?CI_NODE_TOTAL is set without CI_NODE_INDEX}/$CI_NODE_TOTAL
fi
QA_CI_FAIL_ON=${QAPIPE_FAIL_ON:-incomplete}

codequality=$QA_CI_WORKSPACE/gl-code-quality-report.json
junit=$QA_CI_WORKSPACE/qapipe-junit.xml
reports=$QA_CI_WORKSPACE/qapipe-reports
# Files of an earlier run are not left for the artifacts (a committed symlink is removed,
# not followed).
rm -f "$codequality" "$junit" "$QA_CI_WORKSPACE/qapipe-report.md" \
  "$QA_CI_WORKSPACE/qapipe-acceptance.md" "$QA_CI_WORKSPACE/qapipe.env"
if [ -e "$reports" ] || [ -L "$reports" ]; then
  qa_ci_die 66 "$reports is already there (committed, or left by an earlier job): qapipe writes its report folders there"
fi
# Only the folder qa_ci_main created is removed.
trap 'if [ -n "$QA_CI_REPORT_DIR" ]; then rm -rf "$QA_CI_REPORT_DIR"; fi' EXIT

qa_ci_main
mkdir -m 700 "$reports"

if qa_ci_true "$QA_CI_CHANGES"; then
  cp "$QA_CI_REPORT_DIR/change.md" "$QA_CI_WORKSPACE/qapipe-report.md"
  if [ -n "$change_dir" ]; then
    qa-report --in "$change_dir/records.ndjson" --format codequality > "$codequality" || true
    cp -R "$change_dir" "$reports/change"
  else
    qa_ci_say "the change flow wrote no report (exit $change_status): no Code Quality report"
  fi
fi
if [ -n "$QA_CI_PLAN" ]; then
  cp "$acceptance_md" "$QA_CI_WORKSPACE/qapipe-acceptance.md"
  if [ -n "$acceptance_dir" ]; then
    cp -R "$acceptance_dir" "$reports/acceptance"
    if qa_ci_sealed "$acceptance_dir" junit.xml; then
      cp "$acceptance_dir/junit.xml" "$junit"
    fi
  fi
fi
{
  echo "QAPIPE_VERDICT=$verdict"
  echo "QAPIPE_CHANGE_VERDICT=$change_verdict"
  echo "QAPIPE_ACCEPTANCE_VERDICT=$acceptance_verdict"
  echo "QAPIPE_REQUIRED=$required"
  echo "QAPIPE_SCENARIOS=$scenarios"
  echo "QAPIPE_RECOMMENDED=$recommended"
  echo "QAPIPE_REVIEW_ONLY=$review_only"
} > "$QA_CI_WORKSPACE/qapipe.env"
exit "$qa_ci_status"
