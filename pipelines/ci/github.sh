#!/bin/sh
# The GitHub Action's run step (action.yml calls it; tests run it directly): the change
# flow on the pull request, the markdown report into $GITHUB_STEP_SUMMARY, `--format
# github` annotations on stdout, SARIF for upload-sarif, outputs into $GITHUB_OUTPUT, and
# optionally the acceptance flow for a plan. The qa-* binaries must be on PATH. The report
# folders go into a new private folder under $RUNNER_TEMP (outside the checkout: a file the
# pull request commits can neither stand in for a report nor redirect one); the outputs
# name it for artifact uploads.
#
# Inputs (the action's, as the environment GitHub gives a composite step):
#   INPUT_BASE, INPUT_DEEPEN (true), INPUT_CHANGES (true), INPUT_SARIF (qa.sarif, under the
#   working directory unless absolute), INPUT_ANNOTATIONS (true), INPUT_SUMMARY (true), INPUT_PLAN,
#   INPUT_ALLOW_NETWORK (false), INPUT_AUTH_ENV, INPUT_TIMEOUT, INPUT_SHARD,
#   INPUT_FAIL_ON (incomplete), INPUT_WORKING_DIRECTORY ($GITHUB_WORKSPACE)
# GitHub's own: GITHUB_BASE_REF (the pull request's target branch), GITHUB_WORKSPACE,
#   GITHUB_STEP_SUMMARY, GITHUB_OUTPUT, RUNNER_TEMP (else $TMPDIR, else /tmp).
# Exit status: 0, or per fail-on: 1 required scenarios or acceptance fail, 2 incomplete,
# 64 bad input, 66 no repository or history refused, 69 a fetch failed, else the stage's.
set -eu
QA_CI_HOME=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=common.sh
. "$QA_CI_HOME/pipelines/ci/common.sh"

workspace=${INPUT_WORKING_DIRECTORY:-${GITHUB_WORKSPACE:-.}}
QA_CI_WORKSPACE=$(cd "$workspace" && pwd) || qa_ci_die 66 "no working directory $workspace"
QA_CI_BASE=${INPUT_BASE:-}
QA_CI_BASE_BRANCH=${GITHUB_BASE_REF:-}
QA_CI_DEEPEN=${INPUT_DEEPEN:-true}
QA_CI_DEPTH_HINT="set fetch-depth: 0 on actions/checkout"
QA_CI_CHANGES=${INPUT_CHANGES:-true}
QA_CI_TEMP=${RUNNER_TEMP:-}
QA_CI_PLAN=${INPUT_PLAN:-}
QA_CI_ALLOW_NETWORK=${INPUT_ALLOW_NETWORK:-false}
QA_CI_AUTH_ENV=${INPUT_AUTH_ENV:-}
QA_CI_TIMEOUT=${INPUT_TIMEOUT:-}
QA_CI_SHARD=${INPUT_SHARD:-}
QA_CI_FAIL_ON=${INPUT_FAIL_ON:-incomplete}
QA_CI_ANNOTATE=github
sarif=${INPUT_SARIF:-qa.sarif}

case $sarif in
  /*) ;;
  *)
    # A relative path stays in the checkout: no committed symlinked folder leads it out.
    sarif=$QA_CI_WORKSPACE/$sarif
    parent=$(cd -P "$(dirname "$sarif")" 2> /dev/null && pwd) || parent=
    case $parent/ in
      "$(cd -P "$QA_CI_WORKSPACE" && pwd)"/*) ;;
      *) qa_ci_die 64 "sarif: $sarif is not in a folder of the working directory" ;;
    esac
    ;;
esac
# Never a SARIF file left from an earlier run (a committed symlink is removed, not followed).
rm -f "$sarif"

qa_ci_main

# The summary: markdown reports, cut at a line before GitHub's 1 MiB step limit.
summary() {
  [ -n "${GITHUB_STEP_SUMMARY:-}" ] && qa_ci_true "${INPUT_SUMMARY:-true}" || return 0
  limit=1000000
  if [ "$(wc -c < "$1")" -le "$limit" ]; then
    cat "$1" >> "$GITHUB_STEP_SUMMARY"
  else
    head -c "$limit" "$1" | sed '$d' >> "$GITHUB_STEP_SUMMARY"
    printf '\n\n*Report cut at 1 MB: the whole report is %s*\n' "$2" >> "$GITHUB_STEP_SUMMARY"
  fi
  echo >> "$GITHUB_STEP_SUMMARY"
}

if qa_ci_true "$QA_CI_CHANGES"; then
  if [ -n "$change_dir" ]; then
    summary "$QA_CI_REPORT_DIR/change.md" "$change_dir/report.md"
    if [ "$change_verdict" = empty ]; then
      # Neutral: a push to the base branch has no range to report, and must not fail.
      echo "::notice title=qapipe::$empty_range"
    elif qa_ci_true "${INPUT_ANNOTATIONS:-true}"; then
      qa-report --in "$change_dir/records.ndjson" --format github || true
    fi
    cp "$change_dir/report.sarif" "$sarif"
  else
    # No report folder: an upstream stage failed before the flow began (its stderr is above).
    echo "::error title=qapipe::the change flow wrote no report (exit $change_status): see the step's log"
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
      printf '## qapipe change report\n\n**INCOMPLETE, not a pass:** the change flow wrote no report (exit %s); see the job log.\n\n' \
        "$change_status" >> "$GITHUB_STEP_SUMMARY"
    fi
  fi
fi
if [ -n "$QA_CI_PLAN" ]; then
  summary "$acceptance_md" "${acceptance_dir:-the job log}"
fi

# One output in the multiline form, its delimiter random and absent from the value.
output() {
  delimiter=qapipe_$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
  case $2 in
    *"$delimiter"*) qa_ci_die 70 "the output $1 holds its random delimiter" ;;
  esac
  printf '%s<<%s\n%s\n%s\n' "$1" "$delimiter" "$2" "$delimiter" >> "$GITHUB_OUTPUT"
}

written=
if [ -f "$sarif" ]; then written=$sarif; fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  output verdict "$verdict"
  output change-verdict "$change_verdict"
  output acceptance-verdict "$acceptance_verdict"
  output report-dir "$QA_CI_REPORT_DIR"
  output change-dir "$change_dir"
  output acceptance-dir "$acceptance_dir"
  output sarif "$written"
  output intents "$intents"
  output scenarios "$scenarios"
  output required "$required"
  output recommended "$recommended"
  output review-only "$review_only"
  output unrouted "$unrouted"
fi
exit "$qa_ci_status"
