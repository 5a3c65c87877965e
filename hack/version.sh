#!/usr/bin/env bash
# Prints the semantic version the Makefile stamps into the binary
# (pkg/cmd.version):
#   - vX.Y.Z[-pre]                 HEAD is exactly a release tag, clean tree;
#   - vX.Y.(Z+1)-dev+<commit>      otherwise, after the latest release tag
#                                  vX.Y.Z (a pre-release tag vX.Y.Z-rc.N gives
#                                  vX.Y.Z-dev+…); v0.0.0-dev+<commit> before
#                                  the first tag;
#   - "….dirty" is appended to the build metadata for uncommitted changes.
# The same scheme as GoReleaser's snapshot versions ({{ incpatch .Version }}).
set -euo pipefail

if ! git rev-parse --git-dir >/dev/null 2>&1; then
	echo "v0.0.0-dev+unknown"
	exit 0
fi
commit=$(git rev-parse --short=12 HEAD)
dirty=""
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	dirty=".dirty"
fi
if [ -z "$dirty" ] && tag=$(git describe --tags --exact-match --match 'v[0-9]*' 2>/dev/null); then
	echo "$tag"
	exit 0
fi
base="v0.0.0"
if last=$(git describe --tags --abbrev=0 --match 'v[0-9]*' 2>/dev/null); then
	if [[ $last =~ ^v([0-9]+)\.([0-9]+)\.([0-9]+)(-.*)?$ ]]; then
		if [ -n "${BASH_REMATCH[4]}" ]; then
			base="v${BASH_REMATCH[1]}.${BASH_REMATCH[2]}.${BASH_REMATCH[3]}"
		else
			base="v${BASH_REMATCH[1]}.${BASH_REMATCH[2]}.$((BASH_REMATCH[3] + 1))"
		fi
	fi
fi
echo "${base}-dev+${commit}${dirty}"
