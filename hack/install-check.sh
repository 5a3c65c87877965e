#!/usr/bin/env bash
# Installs the host platform's release archive the way krew does and checks
# the plugin through the real kubectl (make install-check).
#
#   hack/install-check.sh [MANIFEST] [ARCHIVE_DIR]
#
# MANIFEST is the rendered krew manifest (default dist/krew/schedcache.yaml,
# from `make krew-manifest`); its uri fields are resolved by file name in
# ARCHIVE_DIR (default dist), like `kubectl krew install --archive`.
#
# Steps: hack/krew/install verifies the sha256, extracts the archive into a
# temporary krew root, applies the manifest's `files` and links
# bin/kubectl-schedcache; the completion shim is then set up by running the
# commands from the manifest's caveats, exactly as a user would. Checks:
#   1. kubectl plugin list lists the installed kubectl-schedcache
#   2. kubectl schedcache version works through kubectl
#   3. kubectl __complete schedcache "" lists subcommands via the shim
#      (and not without it)
#   4. kubectl schedcache completion bash prints a script
#   5. kubectl schedcache dump -f examples/cluster.yaml works
# Without kubectl on PATH it prints SKIP and exits 0.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
manifest="${1:-dist/krew/schedcache.yaml}"
archive_dir="${2:-dist}"
cd "$repo"

if ! command -v kubectl >/dev/null 2>&1; then
	echo "SKIP install-check: kubectl is not on PATH; nothing was checked." >&2
	exit 0
fi
kubectl_bin="$(command -v kubectl)"
for f in "$manifest" "$archive_dir"; do
	if [[ ! -e "$f" ]]; then
		echo "install-check: $f not found; run make krew-manifest first" >&2
		exit 2
	fi
done
manifest="$(cd "$(dirname "$manifest")" && pwd)/$(basename "$manifest")"
archive_dir="$(cd "$archive_dir" && pwd)"

root="$(mktemp -d "${TMPDIR:-/tmp}/schedcache-install-check.XXXXXX")"
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/home"

# 0. Install like `kubectl krew install --manifest=... --archive=...`.
(cd hack/krew && GOWORK=off go run ./install -manifest "$manifest" -archive-dir "$archive_dir" \
	-root "$root/krew" -env-out "$root/env" -caveats-out "$root/caveats")
# shellcheck disable=SC1091
. "$root/env" # KREW_ROOT INSTALL_DIR BIN_DIR LINK PLUGIN_VERSION

# Follow the caveats' completion setup: the indented lines are the commands.
sed -n 's/^  \([^ ].*\)$/\1/p' "$root/caveats" >"$root/caveats.sh"
echo "install-check: running the caveats' completion setup:"
sed 's/^/    /' "$root/caveats.sh"
env KREW_ROOT="$KREW_ROOT" HOME="$root/home" sh -eu "$root/caveats.sh"

# PATH as for a krew user: krew's bin dir first, then kubectl. Nothing else, so
# another kubectl-schedcache or shim on the machine cannot interfere.
kubectl_dir="$root/kubectl-only"
mkdir -p "$kubectl_dir"
ln -s "$kubectl_bin" "$kubectl_dir/kubectl"
export PATH="$BIN_DIR:$kubectl_dir:/usr/bin:/bin"
export HOME="$root/home" KUBECONFIG="$root/home/no-kubeconfig"

failures=0
pass() { echo "PASS $*"; }
fail() {
	echo "FAIL $*"
	failures=$((failures + 1))
}
# run NAME CMD...: runs CMD, keeps its output in $out, returns its status.
run() {
	local name="$1"
	shift
	echo "--- $name: $*"
	set +e
	out="$("$@" 2>&1)"
	local rc=$?
	set -e
	sed -n '1,30s/^/    /p' <<<"$out"
	(($(wc -l <<<"$out") <= 30)) || echo "    ... ($(wc -l <<<"$out") lines)"
	return "$rc"
}

if [[ -x "$BIN_DIR/kubectl_complete-schedcache" ]]; then
	pass "caveats put an executable kubectl_complete-schedcache into $BIN_DIR"
else
	fail "caveats did not produce $BIN_DIR/kubectl_complete-schedcache"
fi

# 1. kubectl plugin list (exits non-zero on warnings, e.g. overshadowing).
if run "plugin list" kubectl plugin list && grep -qxF "$LINK" <<<"$out"; then
	pass "kubectl plugin list lists $LINK"
else
	fail "kubectl plugin list does not list $LINK cleanly"
fi

# 2. version through kubectl.
if run "version" kubectl schedcache version && grep -qxF "version: $PLUGIN_VERSION" <<<"$out"; then
	pass "kubectl schedcache version reports $PLUGIN_VERSION"
else
	fail "kubectl schedcache version (want \"version: $PLUGIN_VERSION\")"
fi

# 3. Plugin completion (kubectl >= 1.26 runs kubectl_complete-schedcache).
if run "completion via shim" kubectl __complete schedcache "" &&
	grep -q '^version' <<<"$out" && grep -q '^completion' <<<"$out"; then
	pass "kubectl __complete schedcache \"\" lists subcommands through the shim"
else
	fail "kubectl __complete schedcache \"\" does not list the subcommands"
fi
mv "$BIN_DIR/kubectl_complete-schedcache" "$root/shim.off"
if run "completion without shim" kubectl __complete schedcache "" && ! grep -q '^version' <<<"$out"; then
	pass "without the shim kubectl completes no subcommands (so the shim is what answers)"
else
	fail "kubectl completed subcommands without the shim; the shim check above proves nothing"
fi
mv "$root/shim.off" "$BIN_DIR/kubectl_complete-schedcache"

# 4. cobra's completion command.
if run "completion bash" kubectl schedcache completion bash && grep -q 'complete -o default' <<<"$out"; then
	pass "kubectl schedcache completion bash prints a completion script"
else
	fail "kubectl schedcache completion bash"
fi

# 5. dump of the example cluster (the dump command and examples/cluster.yaml
# are developed separately; this fails until both exist).
if [[ ! -f examples/cluster.yaml ]]; then
	fail "kubectl schedcache dump -f examples/cluster.yaml: examples/cluster.yaml does not exist yet"
elif run "dump" kubectl schedcache dump -f examples/cluster.yaml; then
	pass "kubectl schedcache dump -f examples/cluster.yaml"
else
	fail "kubectl schedcache dump -f examples/cluster.yaml (exit status above; is the dump command in this build?)"
fi

if ((failures > 0)); then
	echo "install-check: $failures check(s) failed"
	exit 1
fi
echo "install-check: all checks passed"
