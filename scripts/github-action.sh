#!/usr/bin/env bash
# The steps of the clawpolicy GitHub Action (action.yml), kept here so they run and are tested
# outside GitHub (tests/ci_integrations.rs runs them on a throwaway git repository).
#
#   scripts/github-action.sh install   put clawpolicy on the job's PATH
#   scripts/github-action.sh check     lint (SARIF + annotations) and, on a pull request, diff
#
# Settings come from the environment, which action.yml fills from the action's inputs:
#   CLAWPOLICY_BINARY            an existing clawpolicy executable: nothing is installed
#   CLAWPOLICY_VERSION           the npm version to install (default: the action's own vX.Y.Z
#                                tag from GITHUB_ACTION_REF, else latest)
#   CLAWPOLICY_CONFIG            config files, one per line (later ones overlay earlier ones)
#   CLAWPOLICY_OPENCLAW_VERSION  release to simulate (default: clawpolicy's)
#   CLAWPOLICY_SEVERITY_MIN      lint findings at or above it are reported and count
#   CLAWPOLICY_FAIL_ON           comma-separated: findings, new-access (or none)
#   CLAWPOLICY_LINT              true/false
#   CLAWPOLICY_DIFF              true/false/auto (auto: when CLAWPOLICY_BASE_REV is known)
#   CLAWPOLICY_BASE_REV          the revision to diff against (a pull request's base commit)
#   CLAWPOLICY_SARIF_FILE        where to write lint's SARIF (default: $RUNNER_TEMP/clawpolicy.sarif)
#   CLAWPOLICY_ANNOTATIONS       true/false: GitHub annotations from lint and diff
# and GitHub's own GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STEP_SUMMARY and RUNNER_TEMP.
#
# `check` writes the outputs sarif-file (only when lint wrote one), lint-exit-code,
# diff-exit-code (empty when no diff ran) and new-access (true/false), and exits 1 when
# something CLAWPOLICY_FAIL_ON names happened, 2 when clawpolicy could not answer.
set -uo pipefail

runner_temp=${RUNNER_TEMP:-${TMPDIR:-/tmp}}

output() { echo "$1=$2" >>"${GITHUB_OUTPUT:-/dev/null}"; }
summary() { cat >>"${GITHUB_STEP_SUMMARY:-/dev/null}"; }
is_true() { [[ ${1,,} == true ]]; }
fails_on() { [[ ",${CLAWPOLICY_FAIL_ON// /}," == *",$1,"* ]]; }

# The version to install: the input, else the action's own release tag (v1.2.3 → 1.2.3), else latest.
npm_version() {
  if [[ -n ${CLAWPOLICY_VERSION:-} ]]; then
    echo "$CLAWPOLICY_VERSION"
  elif [[ ${GITHUB_ACTION_REF:-} =~ ^v?([0-9]+\.[0-9]+\.[0-9]+([-+].*)?)$ ]]; then
    echo "${BASH_REMATCH[1]}"
  else
    echo latest
  fi
}

install() {
  local binary
  if [[ -n ${CLAWPOLICY_BINARY:-} ]]; then
    binary=$CLAWPOLICY_BINARY
  else
    # From npm: only the launcher and this platform's binary package, no install scripts, through
    # whatever registry the runner's npm is configured for (a mirror on an offline runner).
    local prefix=$runner_temp/clawpolicy version
    version=$(npm_version)
    echo "installing clawpolicy@$version from npm"
    npm install --prefix "$prefix" --no-save --ignore-scripts --no-audit --no-fund "clawpolicy@$version" || exit 2
    binary=$prefix/node_modules/.bin/clawpolicy
  fi
  if ! "$binary" --version; then
    echo "::error title=clawpolicy::cannot run $binary"
    exit 2
  fi
  binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
  output binary "$binary"
  # Later steps of the job may call clawpolicy too.
  [[ $(basename "$binary") == clawpolicy ]] && dirname "$binary" >>"${GITHUB_PATH:-/dev/null}"
  return 0
}

check() {
  local clawpolicy=${CLAWPOLICY_BINARY:-clawpolicy}
  local -a configs=() release=()
  local line
  while IFS= read -r line; do
    line=${line#"${line%%[![:space:]]*}"}
    line=${line%"${line##*[![:space:]]}"}
    [[ -n $line ]] && configs+=(--config "$line")
  done <<<"${CLAWPOLICY_CONFIG:-}"
  if [[ ${#configs[@]} -eq 0 ]]; then
    echo "::error title=clawpolicy::no config file given (input \`config\`)"
    exit 2
  fi
  [[ -n ${CLAWPOLICY_OPENCLAW_VERSION:-} ]] && release=(--openclaw-version "$CLAWPOLICY_OPENCLAW_VERSION")

  local lint_code='' diff_code=''
  if is_true "${CLAWPOLICY_LINT:-true}"; then
    local sarif=${CLAWPOLICY_SARIF_FILE:-$runner_temp/clawpolicy.sarif}
    local -a lint=("$clawpolicy" lint "${release[@]}" "${configs[@]}" --severity-min "${CLAWPOLICY_SEVERITY_MIN:-warning}")
    echo "::group::clawpolicy lint"
    lint_code=0
    "${lint[@]}" || lint_code=$?
    echo "::endgroup::"
    if [[ $lint_code -le 1 ]]; then
      "${lint[@]}" --format sarif >"$sarif" 2>/dev/null
      output sarif-file "$sarif"
      is_true "${CLAWPOLICY_ANNOTATIONS:-true}" && "${lint[@]}" --format github 2>/dev/null
    fi
    output lint-exit-code "$lint_code"
    printf '### clawpolicy lint\n\n%s\n\n' "$(lint_verdict "$lint_code")" | summary
  fi

  local mode=${CLAWPOLICY_DIFF:-auto} base=${CLAWPOLICY_BASE_REV:-}
  if [[ $mode == true || ($mode == auto && -n $base) ]]; then
    if [[ -z $base ]]; then
      echo "::error title=clawpolicy::diff: no base revision (input \`base-rev\`, or run on a pull request)"
      exit 2
    fi
    # A shallow checkout (actions/checkout's default) lacks the base commit: fetch just that one.
    if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
      git fetch --quiet --no-tags --depth=1 origin "$base" || echo "::warning title=clawpolicy::cannot fetch $base"
    fi
    local -a diff=("$clawpolicy" diff "${release[@]}" --base-rev "$base" --fail-on new-access)
    local file
    for file in "${configs[@]}"; do
      [[ $file == --config ]] || diff+=(--head "$file")
    done
    echo "::group::clawpolicy diff --base-rev $base"
    diff_code=0
    "${diff[@]}" >"$runner_temp/clawpolicy-diff.txt" || diff_code=$?
    cat "$runner_temp/clawpolicy-diff.txt"
    echo "::endgroup::"
    if [[ $diff_code -le 1 ]] && is_true "${CLAWPOLICY_ANNOTATIONS:-true}"; then
      "${diff[@]}" --format github 2>/dev/null
    fi
    # A fence longer than any run of backticks in the report (config strings may hold some).
    local fence
    fence=$(grep -o '`*' "$runner_temp/clawpolicy-diff.txt" | awk '{ if (length > n) n = length } END { n = n < 3 ? 3 : n + 1; while (n--) printf "`" }')
    printf '### clawpolicy diff against %s\n\n%s\n%s\n%s\n\n' "$base" "$fence" "$(cat "$runner_temp/clawpolicy-diff.txt")" "$fence" | summary
  fi
  output diff-exit-code "$diff_code"
  output new-access "$([[ $diff_code == 1 ]] && echo true || echo false)"

  if [[ $lint_code == 2 || $diff_code == 2 ]]; then
    echo "::error title=clawpolicy::clawpolicy could not answer (see the log above)"
    exit 2
  fi
  local failed=0
  if [[ $lint_code == 1 ]] && fails_on findings; then
    echo "::error title=clawpolicy::lint findings at or above ${CLAWPOLICY_SEVERITY_MIN:-warning}"
    failed=1
  fi
  if [[ $diff_code == 1 ]] && fails_on new-access; then
    echo "::error title=clawpolicy::this change grants new access (see the diff above)"
    failed=1
  fi
  exit $failed
}

lint_verdict() {
  case $1 in
    0) echo "No findings at or above ${CLAWPOLICY_SEVERITY_MIN:-warning}." ;;
    1) echo "Findings at or above ${CLAWPOLICY_SEVERITY_MIN:-warning}: see the annotations and code scanning." ;;
    *) echo "clawpolicy could not lint the config (exit $1): see the job log." ;;
  esac
}

case ${1:-} in
  install) install ;;
  check) check ;;
  *)
    echo "usage: $0 install|check" >&2
    exit 2
    ;;
esac
