#!/bin/sh
# `make test-times`: the N slowest tests (default 20) of a nextest JUnit report, slowest
# first, as `seconds  binary  test`.
set -eu
report=${1:?usage: tests/times.sh JUNIT.xml [N]}
count=${2:-20}
[ -f "$report" ] || { echo "times: no report at $report (run make test first)" >&2; exit 66; }
tr '>' '\n' < "$report" \
  | sed -n 's/.*<testcase name="\([^"]*\)" classname="\([^"]*\)".* time="\([0-9.]*\)".*/\3 \2 \1/p' \
  | sort -rn | head -n "$count" \
  | awk '{ printf "%8.2fs  %s  %s\n", $1, $2, $3 }'
