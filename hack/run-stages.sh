#!/usr/bin/env bash
# Runs make targets as the stages of `make test`, in order, stopping at the
# first that fails, and reports how long each took (whole seconds):
#   - with STAGE_TIMES set, appends "STAGE SECONDS ok|FAILED" lines to that
#     file (.ci/run prints it as the last thing it does);
#   - without, prints the same lines at the end.
#
# Usage: hack/run-stages.sh STAGE...   (MAKE names the make to call)
#
# A STAGE is one of:
#   NAME          make NAME, in the foreground
#   bg:NAME[,NAME] make NAME... in the background, at the lowest CPU priority
#                 (nice 19), its output kept in a log: for work that shares
#                 no compiled package with the stages it runs beside (tool
#                 builds, lint, fuzzing), so that it uses the CPU the
#                 foreground leaves idle (module downloads, links, tests
#                 waiting on each other) instead of adding its own minutes
#                 to a cold run. Background stages run one after the other,
#                 in the order given (a later one may need what an earlier
#                 one built), each as soon as the previous one is done
#   wait          waits for every background stage started so far, prints
#                 its log and its time (from when it was started to when it
#                 ended, waiting for the one before included), and fails if
#                 it failed
# Background stages still running at the end are waited for; on a failure
# or an interrupt they are killed.
set -uo pipefail

make_cmd=${MAKE:-make}
lines=()
status=0
bg_pids=()
bg_names=()
bg_logs=()
bg_starts=()
# bg_lock serializes the background stages (flock, in start order: at most
# one waits at a time, as each is started after the previous one).
bg_lock=$(mktemp)

record() {
	local line
	line=$(printf '%-12s %6d s  %s' "$1" "$2" "$3")
	lines+=("$line")
	if [[ -n "${STAGE_TIMES:-}" ]]; then
		echo "$line" >>"$STAGE_TIMES"
	fi
}

start_background() {
	local names="$1" log
	log=$(mktemp)
	# setsid: its own process group, so that kill_background stops the
	# compilers it started too.
	IFS=, read -ra targets <<<"$names"
	# It writes when it ended (epoch seconds) to $log.end, so that its line
	# tells how long it ran, not how long until it was collected.
	setsid -w nice -n 19 flock "$bg_lock" sh -c '"$@"; rc=$?; date +%s >"$0.end"; exit $rc' "$log" \
		"$make_cmd" --no-print-directory "${targets[@]}" >"$log" 2>&1 &
	bg_pids+=($!)
	bg_names+=("bg:$names")
	bg_logs+=("$log")
	bg_starts+=("$(date +%s)")
	echo "run-stages: started ${targets[*]} in the background (log: $log)"
}

# wait_background waits for each background stage, prints its log and
# records its time (from its start) and result.
wait_background() {
	local i result end
	for i in "${!bg_pids[@]}"; do
		if wait "${bg_pids[$i]}"; then result="ok (background)"; else result="FAILED (background)"; status=1; fi
		echo "== ${bg_names[$i]} (background) =="
		cat "${bg_logs[$i]}"
		rm -f "${bg_logs[$i]}"
		end=$(cat "${bg_logs[$i]}.end" 2>/dev/null || date +%s)
		rm -f "${bg_logs[$i]}.end"
		record "${bg_names[$i]}" $((end - bg_starts[i])) "$result"
	done
	bg_pids=() bg_names=() bg_logs=() bg_starts=()
}

kill_background() {
	local pid
	for pid in "${bg_pids[@]}"; do
		kill -TERM -- "-$pid" 2>/dev/null
	done
	rm -f "${bg_logs[@]}"
}
trap 'kill_background; exit 130' INT TERM

for stage in "$@"; do
	start=$SECONDS
	case "$stage" in
	bg:*)
		start_background "${stage#bg:}"
		continue
		;;
	wait)
		wait_background
		record wait $((SECONDS - start)) "$( ((status)) && echo FAILED || echo ok)"
		;;
	*)
		if "$make_cmd" --no-print-directory "$stage"; then result=ok; else result=FAILED; status=1; fi
		record "$stage" $((SECONDS - start)) "$result"
		;;
	esac
	if ((status)); then
		break
	fi
done
if ((status)); then
	kill_background
else
	wait_background
fi
rm -f "$bg_lock"
if [[ -z "${STAGE_TIMES:-}" ]]; then
	echo "stage timings:"
	printf '  %s\n' "${lines[@]}"
fi
exit $status
