# The CI glue both pipelines/ci/github.sh and pipelines/ci/gitlab.sh source (POSIX sh):
# the base branch's history in a (shallow) checkout, the change flow into a report folder,
# its counts and verdict, the acceptance flow with its flags, and the step's exit status.
#
# The caller sets, before calling qa_ci_main:
#   QA_CI_WORKSPACE     the repository's working tree (absolute)
#   QA_CI_BASE_BRANCH   the pull/merge request's target branch (empty: qa-diff resolves)
#   QA_CI_BASE          an explicit base ref (wins over QA_CI_BASE_BRANCH)
#   QA_CI_DEEPEN        true: deepen a shallow checkout with fetches; false: refuse it
#   QA_CI_DEPTH_HINT    what to tell the user to set when a shallow checkout is refused
#   QA_CI_CHANGES       true: run the change flow
#   QA_CI_REPORT_DIR    where the report folders go (relative: under the workspace)
#   QA_CI_PLAN          an acceptance plan (empty: no acceptance run)
#   QA_CI_ALLOW_NETWORK true: --allow-network
#   QA_CI_AUTH_ENV      --auth-env NAME
#   QA_CI_TIMEOUT       --timeout SECONDS
#   QA_CI_SHARD         --shard I/N
#   QA_CI_FAIL_ON       incomplete (default) | required | never
#   QA_CI_ANNOTATE      github: errors also as ::error workflow commands
# and finds afterwards: change_verdict (clean, required, incomplete, error), change_dir,
# the counts (intents scenarios required recommended review_only unrouted),
# acceptance_verdict (pass, fail, incomplete, stale, cancelled, error), acceptance_dir,
# acceptance_md, verdict, and qa_ci_status (the exit status the step ends with).

QA_CI_HOME=${QA_CI_HOME:-$(cd "$(dirname "$0")/../.." && pwd)}

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
  change_dir=$QA_CI_REPORT_DIR/change
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
  rm -rf "$change_dir"
  set +e
  QA_FORMAT=markdown QA_OUT=$change_dir sh "$QA_CI_HOME/pipelines/changes.sh" \
    --repo "$QA_CI_WORKSPACE" ${base:+--base "$base"} > "$QA_CI_REPORT_DIR/change.md"
  change_status=$?
  set -e
  intents=0 scenarios=0 required=0 recommended=0 review_only=0 unrouted=0
  if [ -f "$change_dir/report.json" ]; then
    counts=$(qa_ci_counts_of "$change_dir/report.json")
    for name in intents scenarios required recommended review_only unrouted; do
      value=$(echo "$counts" | awk -v n="$name" '$1 == n { print $2 }')
      eval "$name=\${value:-0}"
    done
  fi
  case $change_status in
    0) if [ "$required" -gt 0 ]; then change_verdict=required; else change_verdict=clean; fi ;;
    2) change_verdict=incomplete ;;
    *) change_verdict=error ;;
  esac
  qa_ci_say "change flow: $change_verdict ($scenarios scenarios: $required required, $recommended recommended, $review_only review-only)"
}

# The acceptance flow (pipelines/acceptance.sh) on the plan, its run folder under
# $QA_CI_REPORT_DIR/acceptance.
qa_ci_acceptance() {
  runs=$QA_CI_REPORT_DIR/acceptance
  acceptance_md=$QA_CI_REPORT_DIR/acceptance.md
  set --
  if qa_ci_true "$QA_CI_ALLOW_NETWORK"; then set -- "$@" --allow-network; fi
  if [ -n "$QA_CI_AUTH_ENV" ]; then set -- "$@" --auth-env "$QA_CI_AUTH_ENV"; fi
  if [ -n "$QA_CI_TIMEOUT" ]; then set -- "$@" --timeout "$QA_CI_TIMEOUT"; fi
  if [ -n "$QA_CI_SHARD" ]; then set -- "$@" --shard "$QA_CI_SHARD"; fi
  mkdir -p "$runs"
  before=$(ls "$runs")
  set +e
  (cd "$QA_CI_WORKSPACE" && QA_REPO=. QA_FORMAT=markdown QA_OUT=$runs \
    sh "$QA_CI_HOME/pipelines/acceptance.sh" "$QA_CI_PLAN" "$@") > "$acceptance_md"
  acceptance_status=$?
  set -e
  acceptance_dir=
  for run in $(ls "$runs"); do
    case "
$before
" in
      *"
$run
"*) ;;
      *) acceptance_dir=$runs/$run ;;
    esac
  done
  acceptance_verdict=error
  if [ -n "$acceptance_dir" ] && [ -f "$acceptance_dir/report.json" ]; then
    # The verdict object's first "status" (four-space indent) is the verdict.
    acceptance_verdict=$(sed -n 's/^    "status": "\([a-z]*\)",\{0,1\}$/\1/p' "$acceptance_dir/report.json" | head -n 1)
  fi
  qa_ci_say "acceptance flow: ${acceptance_verdict:-error}${QA_CI_SHARD:+ (shard $QA_CI_SHARD)}"
}

# Runs what the caller asked for and sets verdict and qa_ci_status.
qa_ci_main() {
  case $QA_CI_REPORT_DIR in
    /*) ;;
    *) QA_CI_REPORT_DIR=$QA_CI_WORKSPACE/$QA_CI_REPORT_DIR ;;
  esac
  case ${QA_CI_FAIL_ON:=incomplete} in
    incomplete | required | never) ;;
    *) qa_ci_die 64 "fail-on is incomplete, required or never, not '$QA_CI_FAIL_ON'" ;;
  esac
  cd "$QA_CI_WORKSPACE" || qa_ci_die 66 "no workspace at $QA_CI_WORKSPACE"
  git rev-parse --git-dir > /dev/null 2>&1 \
    || qa_ci_die 66 "$QA_CI_WORKSPACE is not a git repository (is actions/checkout missing?)"
  mkdir -p "$QA_CI_REPORT_DIR"
  change_verdict= acceptance_verdict= change_dir= acceptance_dir= acceptance_md=
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
  if [ -z "$verdict" ]; then
    qa_ci_die 64 "nothing to run: the change flow is off and no plan is given"
  fi
  [ "$QA_CI_FAIL_ON" != never ] || qa_ci_status=0
}
