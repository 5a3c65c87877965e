#!/usr/bin/env bash
# Installs the host platform's release archive with the real krew, the way a
# user gets the plugin from krew-index, and checks it through the real kubectl
# (make install-check; part of make verify and make test). Nothing needs the
# network, and nothing outside a temporary directory is touched (HOME and
# KREW_ROOT point into it; the user's ~/.krew is never read or written).
#
#   KUBECTL=... KREW_TOOLS=... hack/install-check.sh [MANIFEST] [ARCHIVE_DIR]
#
# MANIFEST is a krew manifest (default dist/krew/schedcache.yaml, written by
# GoReleaser in make dist, dist-host or release; make install-check passes
# hack/package-host.sh's _output/package/krew/schedcache.yaml); ARCHIVE_DIR
# (default dist) holds the archives it names and their checksums.txt. KUBECTL is a kubectl binary and KREW_TOOLS a
# directory with kubectl-krew, validate-krew-manifest and fileserver
# (hack/make/dist.mk builds all of them from pinned sources).
#
# Steps:
#   0. fileserver serves ARCHIVE_DIR on a loopback port for the rest of the
#      run; the manifest's uri fields (the GitHub release URLs) are pointed
#      at it, nothing else changes (the sha256 fields stay GoReleaser's);
#   1. validate-krew-manifest, the check krew-index's CI runs on a plugin
#      manifest, accepts it (it installs every platform of the manifest with
#      krew and looks for the LICENSE file);
#   2. the manifest is committed as plugins/schedcache.yaml to a local git
#      repository, added with `kubectl krew index add`, and
#      `kubectl krew install <index>/schedcache` installs the plugin (krew
#      downloads the archive and checks its sha256);
#   3. the completion shim is set up by running the commands from the caveats
#      krew printed, exactly as a user would. Then:
#      - kubectl plugin list lists the installed kubectl-schedcache
#      - kubectl schedcache version reports the manifest's version
#      - kubectl __complete schedcache "" lists subcommands via the shim
#        (and not without it)
#      - kubectl schedcache completion bash prints a script
#      - kubectl schedcache dump -f examples/cluster.yaml works
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
manifest="${1:-dist/krew/schedcache.yaml}"
archive_dir="${2:-dist}"
cd "$repo"

for v in KUBECTL KREW_TOOLS; do
	if [[ -z "${!v:-}" ]]; then
		echo "install-check: $v is not set; run make install-check" >&2
		exit 2
	fi
done
for f in "$manifest" "$archive_dir" "$KUBECTL" "$KREW_TOOLS/kubectl-krew" \
	"$KREW_TOOLS/validate-krew-manifest" "$KREW_TOOLS/fileserver"; do
	if [[ ! -e "$f" ]]; then
		echo "install-check: $f not found; run make install-check" >&2
		exit 2
	fi
done

# 0. Re-run this script under fileserver, which sets ARCHIVE_URL.
if [[ -z "${ARCHIVE_URL:-}" ]]; then
	exec "$KREW_TOOLS/fileserver" -dir "$archive_dir" -env ARCHIVE_URL -- bash "$0" "$@"
fi
manifest="$(cd "$(dirname "$manifest")" && pwd)/$(basename "$manifest")"

root="$(mktemp -d "${TMPDIR:-/tmp}/schedcache-install-check.XXXXXX")"
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/home" "$root/tools" "$root/index"
# PATH as for a krew user: krew's bin dir first, then kubectl and the krew
# plugin itself. Nothing else, so another kubectl-schedcache, shim or krew on
# the machine cannot interfere (git, which krew runs, is in /usr/bin).
ln -s "$KUBECTL" "$root/tools/kubectl"
ln -s "$KREW_TOOLS/kubectl-krew" "$root/tools/kubectl-krew"
export KREW_ROOT="$root/krew"
export PATH="$KREW_ROOT/bin:$root/tools:/usr/bin:/bin"
export HOME="$root/home" KUBECONFIG="$root/home/no-kubeconfig"
export KREW_NO_UPGRADE_CHECK=1 # no look-up of krew's latest release
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

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
	out="$("$@" 2>&1 </dev/null)"
	local rc=$?
	set -e
	sed -n '1,30s/^/    /p' <<<"$out"
	(($(wc -l <<<"$out") <= 30)) || echo "    ... ($(wc -l <<<"$out") lines)"
	return "$rc"
}

# The manifest with its uri fields on the local server: every
# https://github.com/.../releases/download/<tag>/<archive> becomes
# $ARCHIVE_URL/<archive>. The plugin's file name must be <name>.yaml.
mkdir -p "$root/index/plugins"
local_manifest="$root/index/plugins/schedcache.yaml"
sed -E "s#^( *uri: ).*/([^/]+)\$#\1$ARCHIVE_URL/\2#" "$manifest" >"$local_manifest"
n_uri=$(grep -cE '^ *uri: ' "$manifest" || true)
if ((n_uri == 0)) || [[ $(grep -cE "^ *uri: $ARCHIVE_URL/" "$local_manifest") != "$n_uri" ]]; then
	echo "install-check: cannot point the $n_uri uri field(s) of $manifest at $ARCHIVE_URL" >&2
	exit 1
fi
version=$(awk '$1 == "version:" { print $2; exit }' "$manifest")
echo "install-check: $manifest (version $version, $n_uri platform(s)), archives served from $ARCHIVE_URL"

# Every sha256 of the manifest is the one GoReleaser wrote into checksums.txt.
while read -r uri sha; do
	if grep -qxF "$sha  ${uri##*/}" "$archive_dir/checksums.txt"; then
		pass "sha256 of ${uri##*/} matches checksums.txt"
	else
		fail "sha256 $sha of ${uri##*/} is not in $archive_dir/checksums.txt"
	fi
done < <(awk '$1 == "sha256:" { sha = $2 } $1 == "uri:" { uri = $2 } sha != "" && uri != "" { print uri, sha; sha = uri = "" }' "$manifest")

# 1. krew-index's manifest check.
if run "validate-krew-manifest" "$KREW_TOOLS/validate-krew-manifest" -manifest "$local_manifest"; then
	pass "validate-krew-manifest accepts the manifest (every platform installs, LICENSE found)"
else
	fail "validate-krew-manifest rejects the manifest"
fi

# 2. A local index with the manifest, then krew install from it.
git -C "$root/index" init -q
git -C "$root/index" add plugins/schedcache.yaml
git -C "$root/index" -c user.name=install-check -c user.email=install-check@localhost \
	commit -q -m "schedcache $version"
if run "index add" kubectl krew index add local "$root/index" &&
	run "install" kubectl krew install local/schedcache; then
	pass "kubectl krew install local/schedcache from a local index"
else
	fail "kubectl krew install local/schedcache"
	echo "install-check: $failures check(s) failed"
	exit 1
fi
install_out="$out"
link="$KREW_ROOT/bin/kubectl-schedcache"
# (krew list prints names only when stdout is not a terminal.)
if run "krew list" kubectl krew list && grep -qx "local/schedcache" <<<"$out" &&
	[[ -x "$KREW_ROOT/store/schedcache/$version/kubectl-schedcache" ]]; then
	pass "kubectl krew list shows local/schedcache, installed as version $version"
else
	fail "kubectl krew list does not show local/schedcache, or $KREW_ROOT/store/schedcache/$version is missing"
fi

# 3. Follow the caveats krew printed: in its indented box (" |  | "), the
# lines indented by two more spaces are the commands.
sed -n 's/^ |  |   \([^ ].*\)$/\1/p' <<<"$install_out" >"$root/caveats.sh"
if [[ ! -s "$root/caveats.sh" ]]; then
	fail "krew install printed no caveat commands"
fi
echo "install-check: running the caveats' completion setup:"
sed 's/^/    /' "$root/caveats.sh"
if ! sh -eu "$root/caveats.sh"; then
	fail "the caveats' commands failed"
fi

if [[ -x "$KREW_ROOT/bin/kubectl_complete-schedcache" ]]; then
	pass "caveats put an executable kubectl_complete-schedcache into $KREW_ROOT/bin"
else
	fail "caveats did not produce $KREW_ROOT/bin/kubectl_complete-schedcache"
fi

# kubectl plugin list (exits non-zero on warnings, e.g. overshadowing).
if run "plugin list" kubectl plugin list && grep -qxF "$link" <<<"$out"; then
	pass "kubectl plugin list lists $link"
else
	fail "kubectl plugin list does not list $link cleanly"
fi

# version through kubectl's plugin discovery.
if run "version" kubectl schedcache version && grep -qxF "version: $version" <<<"$out"; then
	pass "kubectl schedcache version reports $version"
else
	fail "kubectl schedcache version (want \"version: $version\")"
fi

# Plugin completion (kubectl >= 1.26 runs kubectl_complete-schedcache).
if run "completion via shim" kubectl __complete schedcache "" &&
	grep -q '^version' <<<"$out" && grep -q '^completion' <<<"$out"; then
	pass "kubectl __complete schedcache \"\" lists subcommands through the shim"
else
	fail "kubectl __complete schedcache \"\" does not list the subcommands"
fi
mv "$KREW_ROOT/bin/kubectl_complete-schedcache" "$root/shim.off"
if run "completion without shim" kubectl __complete schedcache "" && ! grep -q '^version' <<<"$out"; then
	pass "without the shim kubectl completes no subcommands (so the shim is what answers)"
else
	fail "kubectl completed subcommands without the shim; the shim check above proves nothing"
fi
mv "$root/shim.off" "$KREW_ROOT/bin/kubectl_complete-schedcache"

# cobra's completion command.
if run "completion bash" kubectl schedcache completion bash && grep -q 'complete -o default' <<<"$out"; then
	pass "kubectl schedcache completion bash prints a completion script"
else
	fail "kubectl schedcache completion bash"
fi

# dump of the example cluster.
if run "dump" kubectl schedcache dump -f examples/cluster.yaml; then
	pass "kubectl schedcache dump -f examples/cluster.yaml"
else
	fail "kubectl schedcache dump -f examples/cluster.yaml"
fi

if ((failures > 0)); then
	echo "install-check: $failures check(s) failed"
	exit 1
fi
echo "install-check: all checks passed"
