#!/usr/bin/env bash
# The action's run step (action.yml). Inputs come as environment variables,
# never spliced into the script, so no input can inject shell:
#   A2A_CONFORM_BIN      the built harness
#   INPUT_ORCHESTRATOR   required
#   INPUT_PROFILE        comma-separated profiles ("" = all)
#   INPUT_BASELINE       expected-failures file ("" = none)
#   INPUT_LABEL_FILTER   Ginkgo label filter ("" = every default check)
#   INPUT_SHARD          K/N: run only that shard ("" = every scenario)
#   INPUT_REPORTS        directory for report.json, junit.xml, report.html
# It writes exit-code=N, score-<profile>=S per profile scored and
# conformant="<profile>=yes|no ..." to $GITHUB_OUTPUT (when set), and
# exits with N. The harness's stdout is shown as it runs.
set -uo pipefail
if [ -z "${INPUT_ORCHESTRATOR:-}" ]; then
  echo "a2a-conform action: the orchestrator input is required" >&2
  exit 2
fi
reports=${INPUT_REPORTS:-a2a-conform-reports}
mkdir -p "$reports" || exit 2
args=(run --orchestrator "$INPUT_ORCHESTRATOR"
  --json-report "$reports/report.json"
  --junit-report "$reports/junit.xml"
  --html-report "$reports/report.html")
IFS=',' read -r -a profiles <<< "${INPUT_PROFILE:-}"
for p in "${profiles[@]}"; do
  p=${p// /}
  [ -n "$p" ] && args+=(--profile "$p")
done
[ -n "${INPUT_BASELINE:-}" ] && args+=(--baseline "$INPUT_BASELINE")
[ -n "${INPUT_LABEL_FILTER:-}" ] && args+=(--label-filter "$INPUT_LABEL_FILTER")
[ -n "${INPUT_SHARD:-}" ] && args+=(--shard "$INPUT_SHARD")
log=$(mktemp)
"${A2A_CONFORM_BIN:?the built harness}" "${args[@]}" | tee "$log"
code=${PIPESTATUS[0]}
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "exit-code=$code"
    # The scorecard's profile lines: "  a2a-core (0.3, 1.0)  score 100.0  MUST ...  conformant: yes ..."
    # (the versions a2a-core judged, in parentheses, are left out here).
    conf=()
    while read -r profile _ score _ _ _ yesno _; do
      echo "score-$profile=$score"
      conf+=("$profile=$yesno")
    done < <(grep -E '^  (a2a-core|delegation-safety)( \([^)]*\))? +score ' "$log" | sed -E 's/^  ([a-z0-9-]+) \([^)]*\)/  \1/')
    echo "conformant=${conf[*]}"
  } >> "$GITHUB_OUTPUT"
fi
rm -f "$log"
exit "$code"
