#!/bin/sh
# The acceptance flow:
#   qa-intent --plan P | qa-fetch | qa-route | qa-check | qa-fetch --verify | qa-trace | qa-report
# Usage: acceptance.sh PLAN [--allow-network] [--timeout S] [--auth-env NAME] [--shard I/N] ...
# The flags go to every stage (each accepts the same permission flags), except --shard I/N
# (or --shard=I/N), which goes to qa-check alone: this run is shard I of a CI matrix of N
# jobs; `qa-report --merge` joins the N run folders into one verdict. --no-screenshots
# also goes to qa-check alone: browser checks keep no PNG of the page.
# Environment:
#   QA_REPO=DIR     the project root (default .): plan paths, targets and .qa/ are under it
#   QA_FORMAT=text|markdown|json   report format on stdout (default text)
#   QA_OUT=DIR      where run folders go (default DIR/.qa/acceptance)
#   QA_SAVE=FILE    keep a copy of the stream qa-report reads
#   QA_RUN_DIR_FILE=FILE  qa-report writes the run folder it sealed there (--run-dir-file)
#   QA_BROWSER_MODULE=PATH  an installed Playwright index.mjs for browser checks (qa-check
#                   --browser-module; QA_BROWSER=PATH names the Chromium executable)
# Exit status: qa-report's verdict (0 pass, 1 fail, 2 incomplete or stale, 130/143 cancelled),
# or the first stage that failed with a usage, input or internal error (64-70).
set -eu
plan=${1:?usage: acceptance.sh PLAN [flags...]}
shift
# Takes --shard and --no-screenshots out of the flags every stage gets (each other argument goes round once).
sharded=
shard=
no_screenshots=
left=$#
while [ "$left" -gt 0 ]; do
  arg=$1
  shift
  left=$((left - 1))
  case $arg in
    --shard)
      if [ "$left" -eq 0 ]; then
        echo "acceptance.sh: error: --shard needs a value I/N, e.g. --shard 2/4" >&2
        exit 64
      fi
      sharded=1 shard=$1
      shift
      left=$((left - 1))
      ;;
    --shard=*) sharded=1 shard=${arg#--shard=} ;;
    --no-screenshots) no_screenshots=1 ;;
    *) set -- "$@" "$arg" ;;
  esac
done
repo=${QA_REPO:-.}
save=${QA_SAVE:-/dev/null}
status=$(mktemp -d)
trap 'rm -rf "$status"' EXIT
# On Ctrl-C or SIGTERM the stages finish what they observed and qa-report writes a report
# marked cancelled; the shell must outlive them to pass on qa-report's 130/143. A trap that
# is not "ignore" keeps the shell alive and leaves the children's default handling alone.
trap 'cancelled=130' INT
trap 'cancelled=143' TERM
# Each stage writes its exit status, so a failing stage is not hidden behind the last one.
run() {
  n=$1
  shift
  # Pipeline subshells do not inherit the traps above: set one so this wrapper outlives a
  # signal, waits for its stage and records how it ended.
  trap ':' INT TERM
  set +e
  "$@"
  echo $? > "$status/$n"
}
run 1 qa-intent --plan "$plan" --repo "$repo" "$@" \
  | run 2 qa-fetch --repo "$repo" "$@" \
  | run 3 qa-route --repo "$repo" "$@" \
  | run 4 qa-check --repo "$repo" ${QA_BROWSER_MODULE:+--browser-module "$QA_BROWSER_MODULE"} ${QA_BROWSER:+--browser "$QA_BROWSER"} ${sharded:+--shard="$shard"} ${no_screenshots:+--no-screenshots} "$@" \
  | run 5 qa-fetch --verify --repo "$repo" "$@" \
  | run 6 qa-trace "$@" \
  | tee -i "$save" \
  | run 7 qa-report --acceptance --repo "$repo" --format "${QA_FORMAT:-text}" ${QA_OUT:+--out "$QA_OUT"} ${QA_RUN_DIR_FILE:+--run-dir-file "$QA_RUN_DIR_FILE"} "$@"
for n in 1 2 3 4 5 6; do
  code=$(cat "$status/$n" 2>/dev/null || echo 0)
  case $code in
    0) ;;
    64|65|66|69|70) exit "$code" ;;
  esac
done
exit "$(cat "$status/7" 2>/dev/null || echo 70)"
