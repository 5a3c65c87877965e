# Fuzzing and hostile input (included by the top Makefile).
#
#   make fuzz      run each Go native fuzz target for its budget of
#                  executions (about 10 s each on an idle 2-core machine):
#                  the reader of -f input (internal/load FuzzReadFiles,
#                  FuzzCommonPod, the pod walk's scanner against json v2,
#                  and FuzzCommonNode, the node walk against json v2; and
#                  internal/load/read's kind scan and UTF-8 check against
#                  the code they stand in for: FuzzScanTypeMeta,
#                  FuzzCutTypeMeta, FuzzTextReader) and the
#                  parser of simulate --script (internal/simulate/script
#                  FuzzParse), seeded with the hostile shapes; a
#                  failing input is written to the package's testdata/fuzz/
#                  and fails the target. FUZZTIME=30s (or 5000x) gives
#                  every target that budget instead
#   make hostile   the hostile-input suite (test/hostile, build tag
#                  `hostile`): every hostile shape generated at test time and
#                  fed to the real plugin binary, asserting exit code, a
#                  one-line error without control bytes, the CPU time
#                  (20 s) and the peak RSS (HOSTILE_MAX_RSS, default 1 GiB),
#                  both from the kernel's rusage of the plugin, so that a
#                  loaded machine does not make them flake; a run still going
#                  after 60 s is killed as a hang
#
# `go test -fuzz` instruments every package the target's test binary
# imports, a third compiled copy of them next to the plain and the -race
# ones: keep fuzz targets in packages that import little (the script parser
# has its own package for that; in internal/simulate it pulled the scheduler
# framework, ~340 more packages, into a cold run's fuzz stage).
#
# Both run from `make test` (fuzz in the background, beside the race
# tests; about 25 s and 2 min warm on 2 cores). -vet=off: make test vets
# every package first. Add a fuzz target as package:Func:budget to
# FUZZ_TARGETS.
#
# Budgets are counts of executions (-fuzztime Nx), not durations: with a
# duration, Go 1.26's fuzz coordinator can report the end of the time as a
# failure, "context deadline exceeded" with no failing input
# (golang/go#75804, fixed in Go 1.27), and the background fuzz stage, at
# nice 19 beside the race tests, is starved enough to hit it (a fresh-clone
# make test failed so, at 0 executions/s in its last seconds). A count only
# makes a starved run slower.

FUZZTIME ?=
FUZZ_TARGETS ?= ./internal/load:FuzzReadFiles:3000x ./internal/load:FuzzCommonPod:5000x ./internal/load:FuzzCommonNode:3000x ./internal/load/read:FuzzScanTypeMeta:20000x ./internal/load/read:FuzzCutTypeMeta:20000x ./internal/load/read:FuzzTextReader:20000x ./internal/simulate/script:FuzzParse:15000x
HOSTILE_FLAGS ?=

.PHONY: fuzz hostile
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; rest=$${t#*:}; fn=$${rest%%:*}; budget=$${rest#*:}; \
		budget=$(or $(FUZZTIME),$$budget); \
		echo "fuzz $$pkg $$fn for $$budget"; \
		$(GO) test -vet=off $$pkg -run '^$$' -fuzz "^$$fn\$$" -fuzztime=$$budget; \
	done

hostile: build
	SCHEDCACHE_PLUGIN=$(abspath $(BIN)) $(GO) test -tags hostile -count=1 -timeout 10m $(HOSTILE_FLAGS) ./test/hostile/...
