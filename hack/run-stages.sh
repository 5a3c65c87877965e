#!/usr/bin/env bash
# Runs make targets as the stages of `make test`, in order, stopping at the
# first that fails, and reports how long each took (whole seconds):
#   - with STAGE_TIMES set, appends "STAGE SECONDS ok|FAILED" lines to that
#     file (.ci/run prints it as the last thing it does);
#   - without, prints the same lines at the end.
#
# Usage: hack/run-stages.sh STAGE...   (MAKE names the make to call)
set -uo pipefail

make_cmd=${MAKE:-make}
lines=()
status=0
for stage in "$@"; do
	start=$SECONDS
	if "$make_cmd" --no-print-directory "$stage"; then result=ok; else result=FAILED; status=1; fi
	line=$(printf '%-12s %6d s  %s' "$stage" $((SECONDS - start)) "$result")
	lines+=("$line")
	if [[ -n "${STAGE_TIMES:-}" ]]; then
		echo "$line" >>"$STAGE_TIMES"
	fi
	if ((status)); then
		break
	fi
done
if [[ -z "${STAGE_TIMES:-}" ]]; then
	echo "stage timings:"
	printf '  %s\n' "${lines[@]}"
fi
exit $status
