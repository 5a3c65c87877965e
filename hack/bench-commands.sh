#!/usr/bin/env bash
# bench-commands.sh: every command of the plugin on one file, this build
# against the build of an earlier commit, alternated, under /usr/bin/time.
#
#   hack/bench-commands.sh BASE_REV FILE [RUNS]
#
# Builds BASE_REV's plugin in a temporary worktree and this tree's plugin,
# then runs each command of BENCH_COMMANDS (one per line; NODE stands for
# the first node of `next-nodes`, HTML for a scratch page path) RUNS times
# with each build, base and new in turn, so that both see the same spells of
# a shared machine. Prints per command the medians of wall, CPU (user+sys)
# and peak RSS of each build and the ratios new/base. Exit codes 0 and 1 are
# answers (why -A exits 1 when pods stay Pending); 2 or more stops the run.
# It answers "no command got slower" (docs/PERFORMANCE.md): compare ratios
# from one run, not absolute times across runs.
set -euo pipefail

base=${1:?usage: $0 BASE_REV FILE [RUNS]}
file=${2:?usage: $0 BASE_REV FILE [RUNS]}
runs=${3:-3}
time=${TIME:-/usr/bin/time}
go=${GO:-go}
test -x "$time" || { echo "$time is missing: apt-get install time" >&2; exit 1; }
test -f "$file" || { echo "$file: no such file" >&2; exit 1; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-commands.XXXXXX")
tree=$dir/base-tree
cleanup() {
	git worktree remove --force "$tree" 2>/dev/null || true
	rm -rf "$dir"
}
trap cleanup EXIT

git worktree add --quiet --detach "$tree" "$base"
(cd "$tree" && CGO_ENABLED=0 "$go" build -o "$dir/base" ./cmd/kubectl-schedcache)
CGO_ENABLED=0 "$go" build -o "$dir/new" ./cmd/kubectl-schedcache
echo "base $(git rev-parse --short "$base"), new $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (with uncommitted changes)'); $file ($(du -h "$file" | cut -f1)); $runs runs each"

node=$("$dir/new" next-nodes -f "$file" 2>/dev/null | awk 'NR == 2 { print $2 }')
default_commands='dump
dump -o json
requested
next-nodes
why -A
simulate --pending -A
report -o HTML
drain NODE --force --ignore-daemonsets --delete-emptydir-data'
commands=${BENCH_COMMANDS:-$default_commands}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# timed BUILD ARGS...: one run, "wall cpu rss" appended to $dir/$label.BUILD.
timed() {
	local build=$1; shift
	local rc=0
	"$time" -f "%e %U %S %M" -o "$dir/time" "$dir/$build" "$@" -f "$file" >/dev/null 2>"$dir/stderr" || rc=$?
	if [ "$rc" -gt 1 ]; then
		echo "$build $*: exit $rc" >&2
		tail -n 5 "$dir/stderr" >&2
		exit 1
	fi
	awk '{ printf "%s %.2f %d\n", $1, $2 + $3, $4 }' "$dir/time" >>"$dir/$label.$build"
}

printf '%-48s %18s %18s %14s  %s\n' COMMAND 'BASE WALL/CPU' 'NEW WALL/CPU' 'RSS MB B/N' 'RATIO WALL CPU RSS'
while IFS= read -r cmd; do
	[ -n "$cmd" ] || continue
	args=${cmd//NODE/$node}
	args=${args//HTML/$dir/page.html}
	label=$(echo "$cmd" | tr -c 'a-z0-9' '_')
	for _ in $(seq "$runs"); do
		# shellcheck disable=SC2086 # the command's words
		timed base $args
		# shellcheck disable=SC2086
		timed new $args
	done
	fig() { cut -d' ' -f"$2" "$dir/$label.$1" | median; }
	bw=$(fig base 1) bc=$(fig base 2) br=$(fig base 3)
	nw=$(fig new 1) nc=$(fig new 2) nr=$(fig new 3)
	printf '%-48s %18s %18s %14s  %s\n' "$cmd" "$bw s / $bc s" "$nw s / $nc s" \
		"$((br / 1024)) / $((nr / 1024))" \
		"$(awk -v a="$bw" -v b="$nw" -v c="$bc" -v d="$nc" -v e="$br" -v f="$nr" 'BEGIN { printf "%.2f %.2f %.2f", b / a, d / c, f / e }')"
done <<<"$commands"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
