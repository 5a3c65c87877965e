#!/usr/bin/env bash
# Grep rules for the layering the project relies on (CONTRIBUTING.md, "Layout"):
# the cache model never reads the wall clock, prints or exits; only main exits;
# k8s.io/kubernetes (the scheduler framework) is imported by internal/decide only.
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
check() { # description, grep args...
	local what=$1; shift
	if out=$(grep -rn "$@" 2>/dev/null); then
		echo "verify-code-patterns: $what:"; echo "$out"; fail=1
	fi
}
check "time.Now in pkg/cache, pkg/printers, internal/views or internal/report" --include='*.go' --exclude='*_test.go' -E 'time\.(Now|Since)\(' pkg/cache pkg/printers internal/views internal/report
check "printing in pkg/cache" --include='*.go' --exclude='*_test.go' -E 'fmt\.Print|os\.Std(out|err)|klog\.' pkg/cache
check "os.Exit outside cmd/" --include='*.go' -E 'os\.Exit\(' pkg internal
check "k8s.io/kubernetes imported outside internal/decide" --include='*.go' -E '"k8s.io/kubernetes/' cmd pkg internal test --exclude-dir=decide
exit $fail
