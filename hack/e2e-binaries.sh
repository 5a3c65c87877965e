#!/usr/bin/env bash
# Builds the real control-plane binaries the end-to-end tests run against:
# kube-apiserver and kube-scheduler from k8s.io/kubernetes, and etcd from
# go.etcd.io/etcd/server/v3, at the versions pinned in hack/tools/go.mod; and
# kubectl from the same Kubernetes release (the install check runs the plugin
# through it, and the e2e tests use it where no kubectl is on PATH).
#
# Everything comes from the Go module proxy (no docker, no prebuilt
# downloads). Binaries are cached in a directory keyed by the Kubernetes
# version and an existing binary is never rebuilt, so only the first run pays
# the cold build (kube-apiserver alone takes ~10 min and ~2 GB on 2 cores
# from an empty build cache, ~4 min once the plugin's packages are compiled).
#
# Usage: hack/e2e-binaries.sh [NAME...]   (honours SCHEDCACHE_E2E_BIN_DIR)
# NAMEs (kube-apiserver kube-scheduler etcd kubectl) build only those; none
# builds all four. `hack/e2e-binaries.sh -print-dir` prints the directory.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
tools="$root/hack/tools"
# The tools module is its own module: never let a go.work pull it elsewhere.
export GOWORK=off
# Pure-Go static builds, as Kubernetes releases them; also no C toolchain needed.
# No -trimpath either: with the same settings as the plugin's builds and tests
# (CGO_ENABLED=0, see the Makefile) and the same module versions
# (hack/verify-go-mod.sh), the ~900 packages the plugin shares with these
# binaries (client-go, apimachinery, the scheduler...) are compiled once for
# both; -trimpath is part of a package's build cache key and would compile
# them all a second time. (The binaries then record this machine's module
# cache paths, which matters for nothing the tests do.)
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
if [[ "${1:-}" == -print-dir ]]; then
	echo "$bin_dir"
	exit 0
fi
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
	(cd "$tools" && go build -ldflags "$ldflags" -o "$out.tmp" "$pkg")
	mv -f "$out.tmp" "$out"
	echo "e2e-binaries: built $name in $((SECONDS - start))s"
}

names=("$@")
if ((${#names[@]} == 0)); then
	names=(kube-apiserver kube-scheduler etcd kubectl)
fi
for name in "${names[@]}"; do
	case "$name" in
	kube-apiserver | kube-scheduler | kubectl) build "$name" "k8s.io/kubernetes/cmd/$name" "$k8s_ldflags" ;;
	etcd) build etcd go.etcd.io/etcd/server/v3 "-s -w" ;;
	*)
		echo "e2e-binaries: unknown binary $name (want kube-apiserver, kube-scheduler, etcd or kubectl)" >&2
		exit 2
		;;
	esac
done
echo "e2e-binaries: binaries in $bin_dir"
