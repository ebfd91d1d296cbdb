#!/bin/sh
# The change flow. Arguments go to qa-diff (e.g. --repo PATH --base REF --worktree).
# Stages are inserted here as they land: qa-diff | qa-intent | qa-route | qa-trace | qa-report.
# Set QA_SAVE=FILE to keep a copy of the stream.
set -eu
if [ -n "${QA_SAVE:-}" ]; then
  qa-diff "$@" | tee "$QA_SAVE" | qa-report --verify
else
  qa-diff "$@" | qa-report --verify
fi
