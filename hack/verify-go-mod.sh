#!/usr/bin/env bash
# Checks the main module's go.mod:
#   - the replace block lists exactly the staging modules of the required
#     k8s.io/kubernetes release, each at its published version (v1.X.Y ->
#     v0.X.Y), so internal/decide builds against the same code as that release;
#   - hack/tools (which builds the e2e control plane) pins the same release,
#     so the e2e scheduler and our decision engine are the same code;
#   - every module the plugin's packages come from that the control-plane
#     binaries also build has one version in both (so the build cache holds
#     one compiled copy of those ~900 packages for both, not two: a cold
#     `make test` compiles them once);
#   - `go mod tidy` changes nothing, here and in hack/tools/krew (a module of
#     its own).
set -euo pipefail
cd "$(dirname "$0")/.."
export GOWORK=off

version="$(go list -m -f '{{.Version}}' k8s.io/kubernetes)"
tools_version="$(awk '$1 == "k8s.io/kubernetes" { print $2; exit }' hack/tools/go.mod)"
if [[ "$version" != "$tools_version" ]]; then
	echo "verify-go-mod: go.mod requires k8s.io/kubernetes $version but hack/tools/go.mod pins $tools_version" >&2
	exit 1
fi
[[ "$version" =~ ^v1\.([0-9]+)\.([0-9]+)$ ]] || { echo "verify-go-mod: unexpected version $version" >&2; exit 1; }
staging_version="v0.${BASH_REMATCH[1]}.${BASH_REMATCH[2]}"

upstream_gomod="$(go mod download -json "k8s.io/kubernetes@$version" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')"
want="$(go mod edit -json "$upstream_gomod" | python3 -c '
import json, sys
for r in json.load(sys.stdin).get("Replace") or []:
    if r["New"]["Path"].startswith("./staging/"):
        print(r["Old"]["Path"])' | sort | sed "s/\$/ $staging_version/")"
got="$(go mod edit -json go.mod | python3 -c '
import json, sys
for r in json.load(sys.stdin).get("Replace") or []:
    print(r["Old"]["Path"], r["New"].get("Version", r["New"]["Path"]))' | sort)"
if [[ "$want" != "$got" ]]; then
	echo "verify-go-mod: the replace block of go.mod does not match k8s.io/kubernetes@$version's staging modules:" >&2
	diff <(echo "$want") <(echo "$got") >&2 || true
	exit 1
fi

cp go.mod /tmp/verify-go-mod.$$.mod; cp go.sum /tmp/verify-go-mod.$$.sum
trap 'cp /tmp/verify-go-mod.$$.mod go.mod; cp /tmp/verify-go-mod.$$.sum go.sum; rm -f /tmp/verify-go-mod.$$.*' EXIT
go mod tidy
if ! cmp -s go.mod /tmp/verify-go-mod.$$.mod || ! cmp -s go.sum /tmp/verify-go-mod.$$.sum; then
	echo "verify-go-mod: go mod tidy changes go.mod or go.sum; run it and commit the result" >&2
	diff /tmp/verify-go-mod.$$.mod go.mod >&2 || true
	exit 1
fi
if ! (cd hack/tools/krew && go mod tidy -diff); then
	echo "verify-go-mod: go mod tidy changes hack/tools/krew/go.mod or go.sum; run it there and commit the result" >&2
	exit 1
fi
# The modules of the packages built (not of go.mod's whole graph), at the
# version built (a replace's, for the staging modules).
built_modules() {
	go list -deps -f '{{with .Module}}{{.Path}} {{with .Replace}}{{.Version}}{{else}}{{.Version}}{{end}}{{end}}' "$@" | sort -u
}
plugin_mods="$(built_modules -tags e2e,hostile -test ./...)"
tools_mods="$(cd hack/tools && GOFLAGS=-mod=readonly built_modules k8s.io/kubernetes/cmd/kube-apiserver \
	k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl go.etcd.io/etcd/server/v3)"
mismatch="$(join <(echo "$plugin_mods") <(echo "$tools_mods") | awk '$2 != $3 { print "  " $1 ": go.mod " $2 ", hack/tools/go.mod " $3 }')"
if [[ -n "$mismatch" ]]; then
	echo "verify-go-mod: modules built by both the plugin and the e2e control plane differ in version (pin go.mod's to hack/tools/go.mod's, i.e. k8s.io/kubernetes@$version's):" >&2
	echo "$mismatch" >&2
	exit 1
fi

echo "verify-go-mod: ok (k8s.io/kubernetes $version, $(echo "$got" | wc -l) staging replaces)"
