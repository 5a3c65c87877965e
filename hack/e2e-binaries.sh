#!/usr/bin/env bash
# Builds the real control-plane binaries the end-to-end tests run against:
# kube-apiserver and kube-scheduler from k8s.io/kubernetes, and etcd from
# go.etcd.io/etcd/server/v3, at the versions pinned in hack/tools/go.mod.
#
# Everything comes from the Go module proxy (no docker, no prebuilt
# downloads). Binaries are cached in a directory keyed by the Kubernetes
# version and an existing binary is never rebuilt, so only the first run pays
# the cold build (kube-apiserver alone takes ~10 min and ~2 GB on 2 cores).
#
# Usage: hack/e2e-binaries.sh        (honours SCHEDCACHE_E2E_BIN_DIR)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
tools="$root/hack/tools"
# The tools module is its own module: never let a go.work pull it elsewhere.
export GOWORK=off
# Pure-Go static builds, as Kubernetes releases them; also no C toolchain needed.
export CGO_ENABLED=0
# Build exactly what go.mod/go.sum pin, never edit them; and stamp no VCS
# data (this checkout's git state says nothing about the binaries).
export GOFLAGS="-mod=readonly -buildvcs=false"

k8s_version="$(awk '$1 == "k8s.io/kubernetes" { print $2; exit }' "$tools/go.mod")"
if [[ ! "$k8s_version" =~ ^v1\.([0-9]+)\.[0-9]+$ ]]; then
	echo "cannot read the k8s.io/kubernetes version from $tools/go.mod" >&2
	exit 1
fi
k8s_minor="${BASH_REMATCH[1]}"
bin_dir="${SCHEDCACHE_E2E_BIN_DIR:-$tools/bin/$k8s_version}"
mkdir -p "$bin_dir"

# Without these the binaries report v0.0.0, and the apiserver's /version
# (which clients and the scheduler read) would be wrong.
k8s_ldflags="-s -w
 -X k8s.io/component-base/version.gitVersion=${k8s_version}
 -X k8s.io/component-base/version.gitMajor=1
 -X k8s.io/component-base/version.gitMinor=${k8s_minor}
 -X k8s.io/component-base/version.gitTreeState=clean"

# build NAME PACKAGE LDFLAGS: builds into a temporary name and renames it, so
# an interrupted build never leaves a binary that later runs would trust.
build() {
	local name="$1" pkg="$2" ldflags="$3"
	local out="$bin_dir/$name"
	if [[ -x "$out" ]]; then
		echo "e2e-binaries: $name is up to date ($out)"
		return
	fi
	echo "e2e-binaries: building $name from $pkg (the first build takes minutes)..."
	local start=$SECONDS
	(cd "$tools" && go build -trimpath -ldflags "$ldflags" -o "$out.tmp" "$pkg")
	mv -f "$out.tmp" "$out"
	echo "e2e-binaries: built $name in $((SECONDS - start))s"
}

build kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver "$k8s_ldflags"
build kube-scheduler k8s.io/kubernetes/cmd/kube-scheduler "$k8s_ldflags"
build etcd go.etcd.io/etcd/server/v3 "-s -w"
# The live=file test exports with the real kubectl. Machines of this project
# ship one; where none is on PATH, build it from the same release.
if ! command -v kubectl >/dev/null 2>&1; then
	build kubectl k8s.io/kubernetes/cmd/kubectl "$k8s_ldflags"
fi
echo "e2e-binaries: binaries in $bin_dir"
