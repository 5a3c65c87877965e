#!/usr/bin/env bash
# Packages the plugin for this machine's os/arch the way a release does, for
# make test's install check (make install-check), without GoReleaser:
#   - the binary, built with the release's ldflags (-s -w, version, commit,
#     commit date) and CGO_ENABLED=0 but without -trimpath, so that it shares
#     the build cache with `make build` and the tests (GoReleaser's own build
#     from source, ~2,000 packages, dominated a cold `make test`);
#   - the archive .goreleaser.yaml describes: kubectl-schedcache,
#     LICENSE, README.md and kubectl_complete-schedcache at its root, named
#     kubectl-schedcache_<version>_<os>_<arch>.tar.gz;
#   - checksums.txt, and the krew manifest OUT_DIR/krew/schedcache.yaml
#     rendered by hack/krew-manifest from krew/schedcache.yaml (the host's
#     platform only).
# The version is the release tag on a clean tagged checkout, otherwise
# hack/version.sh's with its "-dev+<commit>" made a semver pre-release,
# "-snapshot-<commit>" (krew wants vX.Y.Z[-pre]).
#
# Usage: hack/package-host.sh OUT_DIR   (OUT_DIR is emptied first)
# make dist / dist-host / release build the real release with GoReleaser.
set -euo pipefail

out="${1:?usage: hack/package-host.sh OUT_DIR}"
cd "$(dirname "$0")/.."
go="${GO:-go}"

goos="$($go env GOOS)"
goarch="$($go env GOARCH)"
if [[ "$goos" == windows ]]; then
	echo "package-host: windows archives are zip files; use make dist-host" >&2
	exit 2
fi
version="$(hack/version.sh)"
if [[ "$version" == *-dev+* ]]; then
	meta="${version#*-dev+}"
	version="${version%%-dev+*}-snapshot-${meta//./-}"
fi
commit="$(git rev-parse HEAD)"
date="$(TZ=UTC git log -1 --date=format-local:%Y-%m-%dT%H:%M:%SZ --format=%cd)"
archive="kubectl-schedcache_${version}_${goos}_${goarch}.tar.gz"

rm -rf "$out"
mkdir -p "$out/krew" "$out/stage"
pkg=github.com/schedcache/kubectl-schedcache/pkg/cmd
echo "package-host: building kubectl-schedcache $version for $goos/$goarch"
CGO_ENABLED=0 $go build -ldflags "-s -w -X $pkg.version=$version -X $pkg.commit=$commit -X $pkg.date=$date" \
	-o "$out/stage/kubectl-schedcache" ./cmd/kubectl-schedcache
cp LICENSE README.md kubectl_complete-schedcache "$out/stage/"
chmod 0755 "$out/stage/kubectl-schedcache" "$out/stage/kubectl_complete-schedcache"
chmod 0644 "$out/stage/LICENSE" "$out/stage/README.md"
tar -C "$out/stage" -czf "$out/$archive" kubectl-schedcache LICENSE README.md kubectl_complete-schedcache
rm -rf "$out/stage"
if command -v sha256sum >/dev/null; then
	(cd "$out" && sha256sum "$archive" >checksums.txt)
else
	(cd "$out" && shasum -a 256 "$archive" >checksums.txt)
fi
$go run ./hack/krew-manifest -template krew/schedcache.yaml -o "$out/krew/schedcache.yaml" "$out/$archive"
ls -l "$out/$archive" "$out/checksums.txt" "$out/krew/schedcache.yaml"
