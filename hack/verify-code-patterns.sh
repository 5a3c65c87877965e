#!/usr/bin/env bash
# Grep rules for the layering the project relies on (see DEVELOPERS docs):
# the cache model never reads the wall clock, prints or exits; only main exits;
# the main module never depends on k8s.io/kubernetes.
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
check() { # description, grep args...
	local what=$1; shift
	if out=$(grep -rn "$@" 2>/dev/null); then
		echo "verify-code-patterns: $what:"; echo "$out"; fail=1
	fi
}
check "time.Now in pkg/cache or pkg/printers or pkg/views" --include='*.go' --exclude='*_test.go' -E 'time\.(Now|Since)\(' pkg/cache pkg/printers pkg/views
check "printing in pkg/cache" --include='*.go' --exclude='*_test.go' -E 'fmt\.Print|os\.Std(out|err)|klog\.' pkg/cache
check "os.Exit outside cmd/" --include='*.go' -E 'os\.Exit\(' pkg
check "k8s.io/kubernetes in the main module" -E '^\s*k8s.io/kubernetes ' go.mod
check "replace directives in the main module" -E '^replace ' go.mod
exit $fail
