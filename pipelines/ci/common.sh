# shellcheck shell=sh disable=SC2034 # it sets what github.sh and gitlab.sh report
# The CI glue pipelines/ci/github.sh, gitlab.sh and install.sh source (POSIX sh): the base
# branch's history in a (shallow) checkout, the change flow into a private report folder
# outside the checkout, its counts and verdict, the acceptance flow with its flags, and
# the step's exit status. Nothing the repository holds decides a verdict: each comes from
# the flow's exit status and a folder this script created, checked against its SHA256SUMS.
#
# The caller sets, before calling qa_ci_main:
#   QA_CI_WORKSPACE     the repository's working tree (absolute)
#   QA_CI_BASE_BRANCH   the pull/merge request's target branch (empty: qa-diff resolves)
#   QA_CI_BASE          an explicit base ref (wins over QA_CI_BASE_BRANCH)
#   QA_CI_DEEPEN        true: deepen a shallow checkout with fetches; false: refuse it
#   QA_CI_DEPTH_HINT    what to tell the user to set when a shallow checkout is refused
#   QA_CI_CHANGES       true: run the change flow
#   QA_CI_TEMP          where the private report folder is created (mktemp -d, 0700;
#                       default $TMPDIR, else /tmp); it must lie outside the workspace
#   QA_CI_PLAN          an acceptance plan (empty: no acceptance run)
#   QA_CI_ALLOW_NETWORK true: --allow-network
#   QA_CI_AUTH_ENV      --auth-env NAME
#   QA_CI_TIMEOUT       --timeout SECONDS
#   QA_CI_SHARD         --shard I/N
#   QA_CI_FAIL_ON       incomplete (default) | required | never
#   QA_CI_ANNOTATE      github: errors also as ::error workflow commands
# and finds afterwards: QA_CI_REPORT_DIR (the report folder it created), change_verdict
# (clean, required, incomplete, empty: a range with no commit, neutral; error), empty_range
# (the sentence saying why, when empty), change_dir (empty unless sealed), the counts
# (intents scenarios required recommended review_only unrouted), acceptance_verdict (pass,
# fail, incomplete, stale, cancelled, error), acceptance_dir (the run folder qa-report
# sealed, else empty), acceptance_md, verdict, and qa_ci_status (the exit status the step
# ends with).

QA_CI_HOME=${QA_CI_HOME:-$(cd "$(dirname "$0")/../.." && pwd)}
QA_CI_REPORT_DIR=

qa_ci_say() {
  echo "qapipe: $*" >&2
}

# One line on stderr (and an annotation on GitHub), then exit with $1.
qa_ci_die() {
  code=$1
  shift
  echo "qapipe: error: $*" >&2
  if [ "${QA_CI_ANNOTATE:-}" = github ]; then
    echo "::error title=qapipe::$*"
  fi
  exit "$code"
}

qa_ci_true() {
  case $1 in
    true | yes | 1 | on) return 0 ;;
    false | no | 0 | off | '') return 1 ;;
    *) qa_ci_die 64 "'$1' is not true or false" ;;
  esac
}

# Fetches the target branch as refs/remotes/origin/BRANCH and, in a shallow checkout,
# deepens both sides until HEAD and it share a merge base (in steps, then --unshallow).
qa_ci_history() {
  branch=$1
  ref=refs/remotes/origin/$branch
  refspec=+refs/heads/$branch:$ref
  shallow=$(git rev-parse --is-shallow-repository)
  refuse="the checkout is shallow and HEAD shares no history with origin/$branch in it: $QA_CI_DEPTH_HINT"
  if ! git rev-parse -q --verify "$ref^{commit}" > /dev/null; then
    depth=
    if [ "$shallow" = true ]; then
      qa_ci_true "$QA_CI_DEEPEN" || qa_ci_die 66 "$refuse"
      depth=--depth=50
    fi
    qa_ci_say "fetching the base branch $branch from origin${depth:+ ($depth)}"
    git fetch -q --no-tags $depth origin "$refspec" \
      || qa_ci_die 69 "could not fetch the base branch $branch from origin: $QA_CI_DEPTH_HINT"
  fi
  [ "$shallow" = true ] || return 0
  step=50
  while ! git merge-base HEAD "$ref" > /dev/null 2>&1; do
    qa_ci_true "$QA_CI_DEEPEN" || qa_ci_die 66 "$refuse"
    if [ "$(git rev-parse --is-shallow-repository)" != true ]; then
      qa_ci_die 66 "HEAD and origin/$branch share no history at all: is $branch the right base?"
    fi
    if [ "$step" -le 800 ]; then
      qa_ci_say "shallow checkout: deepening by $step commits to find the merge base with origin/$branch"
      git fetch -q --no-tags --deepen="$step" origin "$refspec" \
        || qa_ci_die 69 "could not deepen the shallow checkout from origin: $QA_CI_DEPTH_HINT"
      step=$((step * 2))
    else
      qa_ci_say "shallow checkout: fetching the whole history to find the merge base with origin/$branch"
      git fetch -q --no-tags --unshallow origin "$refspec" \
        || qa_ci_die 69 "could not unshallow the checkout from origin: $QA_CI_DEPTH_HINT"
    fi
  done
}

# `sha256sum -c` (or shasum -a 256 -c) of the checksum file $1 in the current folder.
qa_ci_sha256_check() {
  if command -v sha256sum > /dev/null; then
    sha256sum -c --quiet --strict "$1"
  else
    shasum -a 256 -c --quiet "$1"
  fi
}

# True when folder $1 matches its SHA256SUMS and that file lists each further argument
# (a plain name in the folder): only then is a file of it read.
qa_ci_sealed() {
  sealed_dir=$1
  shift
  [ -f "$sealed_dir/SHA256SUMS" ] || return 1
  (cd "$sealed_dir" && qa_ci_sha256_check SHA256SUMS) > /dev/null 2>&1 || return 1
  for sealed_file in "$@"; do
    grep -q "^[0-9a-f]\{64\}  $sealed_file\$" "$sealed_dir/SHA256SUMS" || return 1
  done
}

# Prints `name value` per field of report.json's "counts" object (two-space indented,
# as qa-report --out writes it).
qa_ci_counts_of() {
  awk '
    /^  "counts": \{/ { inside = 1; next }
    inside && /^  \}/ { exit }
    inside {
      gsub(/[",:]/, " ")
      print $1, $2
    }' "$1"
}

# The change flow (pipelines/changes.sh) on the workspace into $change_dir.
qa_ci_changes() {
  base=$QA_CI_BASE
  if [ -z "$base" ] && [ -n "$QA_CI_BASE_BRANCH" ]; then
    qa_ci_history "$QA_CI_BASE_BRANCH"
    base=origin/$QA_CI_BASE_BRANCH
  elif [ -z "$base" ] && [ "$(git rev-parse --is-shallow-repository)" = true ]; then
    # Without a target branch qa-diff looks for the nearest long-lived branch.
    qa_ci_true "$QA_CI_DEEPEN" \
      || qa_ci_die 66 "the checkout is shallow and no base branch is known: $QA_CI_DEPTH_HINT"
    git fetch -q --no-tags --unshallow origin \
      || qa_ci_die 69 "could not unshallow the checkout from origin: $QA_CI_DEPTH_HINT"
  fi
  set --
  if [ -n "$base" ]; then set -- --base "$base"; fi
  set +e
  QA_FORMAT=markdown QA_OUT=$QA_CI_REPORT_DIR/change sh "$QA_CI_HOME/pipelines/changes.sh" \
    --repo "$QA_CI_WORKSPACE" "$@" > "$QA_CI_REPORT_DIR/change.md"
  change_status=$?
  set -e
  # qa-report --out creates the folder only once it has a report, and seals it.
  change_dir=
  if qa_ci_sealed "$QA_CI_REPORT_DIR/change" report.json records.ndjson report.sarif; then
    change_dir=$QA_CI_REPORT_DIR/change
    counts=$(qa_ci_counts_of "$change_dir/report.json")
    for name in intents scenarios required recommended review_only unrouted; do
      value=$(echo "$counts" | awk -v n="$name" '$1 == n { print $2 }')
      case $value in
        '' | *[!0-9]*) value=0 ;;
      esac
      eval "$name=\$value"
    done
  fi
  case $change_status in
    0)
      if [ -z "$change_dir" ]; then
        change_verdict=error change_status=70
        qa_ci_say "the change flow exited 0 but its report folder does not match its SHA256SUMS"
      elif [ "$required" -gt 0 ]; then
        change_verdict=required
      else
        change_verdict=clean
      fi
      ;;
    2) change_verdict=incomplete ;;
    3)
      # An empty range (HEAD is its base, or behind it; a push to the base branch):
      # neutral, neither a pass nor a failure, and said so.
      if [ -z "$change_dir" ]; then
        change_verdict=error change_status=70
        qa_ci_say "the change flow exited 3 but its report folder does not match its SHA256SUMS"
      else
        change_verdict=empty
        empty_range=$(sed -n 's/^  "empty_range": "\(.*\)",\{0,1\}$/\1/p' "$change_dir/report.json" \
          | head -n 1 | tr -cd '[:print:]')
      fi
      ;;
    *) change_verdict=error ;;
  esac
  if [ "$change_verdict" = empty ]; then
    qa_ci_say "change flow: empty: ${empty_range:-the range holds no commit}"
    return 0
  fi
  qa_ci_say "change flow: $change_verdict ($scenarios scenarios: $required required, $recommended recommended, $review_only review-only)"
}

# The acceptance flow (pipelines/acceptance.sh) on the plan. qa-report names the run folder
# it sealed (QA_RUN_DIR_FILE); its verdict counts only when the folder matches its
# SHA256SUMS and agrees with the flow's exit status.
qa_ci_acceptance() {
  runs=$QA_CI_REPORT_DIR/acceptance
  acceptance_md=$QA_CI_REPORT_DIR/acceptance.md
  named=$QA_CI_REPORT_DIR/acceptance.run
  set --
  if qa_ci_true "$QA_CI_ALLOW_NETWORK"; then set -- "$@" --allow-network; fi
  if [ -n "$QA_CI_AUTH_ENV" ]; then set -- "$@" --auth-env "$QA_CI_AUTH_ENV"; fi
  if [ -n "$QA_CI_TIMEOUT" ]; then set -- "$@" --timeout "$QA_CI_TIMEOUT"; fi
  if [ -n "$QA_CI_SHARD" ]; then set -- "$@" --shard "$QA_CI_SHARD"; fi
  set +e
  (cd "$QA_CI_WORKSPACE" && QA_REPO=. QA_FORMAT=markdown QA_OUT=$runs QA_RUN_DIR_FILE=$named \
    sh "$QA_CI_HOME/pipelines/acceptance.sh" "$QA_CI_PLAN" "$@") > "$acceptance_md"
  acceptance_status=$?
  set -e
  acceptance_dir=
  if [ -f "$named" ]; then
    acceptance_dir=$(cat "$named")
    # One folder directly in $runs, nothing else.
    case ${acceptance_dir#"$runs"/} in
      "$acceptance_dir" | '' | */* | *[!0-9A-Za-z-]*) acceptance_dir= ;;
    esac
  fi
  acceptance_verdict=error
  if [ -n "$acceptance_dir" ] && qa_ci_sealed "$acceptance_dir" report.json; then
    # The verdict object's first "status" (four-space indent) is the verdict.
    sealed=$(sed -n 's/^    "status": "\([a-z]*\)",\{0,1\}$/\1/p' "$acceptance_dir/report.json" | head -n 1)
    case $acceptance_status:$sealed in
      0:pass | 1:fail | 2:incomplete | 2:stale | 130:cancelled | 143:cancelled)
        acceptance_verdict=$sealed
        ;;
      *) qa_ci_say "acceptance flow: exit $acceptance_status with a run folder saying '$sealed': an error" ;;
    esac
  else
    acceptance_dir=
  fi
  qa_ci_say "acceptance flow: $acceptance_verdict${QA_CI_SHARD:+ (shard $QA_CI_SHARD)}"
}

# Creates the private report folder in $QA_CI_TEMP, refusing one inside the workspace.
qa_ci_report_dir() {
  temp=${QA_CI_TEMP:-${TMPDIR:-/tmp}}
  QA_CI_REPORT_DIR=$(mktemp -d "$temp/qapipe.XXXXXXXX") \
    || qa_ci_die 70 "could not create a private report folder in $temp"
  chmod 700 "$QA_CI_REPORT_DIR"
  inside=$(cd -P "$QA_CI_REPORT_DIR" && pwd)
  case $inside/ in
    "$(pwd -P)"/*) qa_ci_die 64 "the report folder $inside would be inside the checkout: set the temp folder elsewhere" ;;
  esac
}

# Runs what the caller asked for and sets verdict and qa_ci_status.
qa_ci_main() {
  case ${QA_CI_FAIL_ON:=incomplete} in
    incomplete | required | never) ;;
    *) qa_ci_die 64 "fail-on is incomplete, required or never, not '$QA_CI_FAIL_ON'" ;;
  esac
  cd "$QA_CI_WORKSPACE" || qa_ci_die 66 "no workspace at $QA_CI_WORKSPACE"
  git rev-parse --git-dir > /dev/null 2>&1 \
    || qa_ci_die 66 "$QA_CI_WORKSPACE is not a git repository (is actions/checkout missing?)"
  if ! qa_ci_true "$QA_CI_CHANGES" && [ -z "$QA_CI_PLAN" ]; then
    qa_ci_die 64 "nothing to run: the change flow is off and no plan is given"
  fi
  qa_ci_report_dir
  change_verdict='' acceptance_verdict='' change_dir='' acceptance_dir='' acceptance_md=''
  empty_range=''
  intents=0 scenarios=0 required=0 recommended=0 review_only=0 unrouted=0
  qa_ci_status=0
  if qa_ci_true "$QA_CI_CHANGES"; then
    qa_ci_changes
    case $change_verdict in
      error) qa_ci_status=$change_status ;;
      incomplete) qa_ci_status=2 ;;
      required) [ "$QA_CI_FAIL_ON" != required ] || qa_ci_status=1 ;;
    esac
  fi
  verdict=$change_verdict
  if [ -n "$QA_CI_PLAN" ]; then
    qa_ci_acceptance
    verdict=$acceptance_verdict
    [ "$qa_ci_status" -ne 0 ] || [ "$acceptance_verdict" = pass ] || qa_ci_status=$acceptance_status
    [ "$qa_ci_status" -ne 0 ] || [ "$acceptance_verdict" = pass ] || qa_ci_status=2
  fi
  [ "$QA_CI_FAIL_ON" != never ] || qa_ci_status=0
}
