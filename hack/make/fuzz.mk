# Fuzzing and hostile input (included by the top Makefile).
#
#   make fuzz      run each Go native fuzz target for FUZZTIME (10s): the
#                  reader of -f input (pkg/load FuzzReadFiles) and the
#                  parser of simulate --script (pkg/simulate/script
#                  FuzzParse), seeded with the hostile shapes; a
#                  failing input is written to the package's testdata/fuzz/
#                  and fails the target
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
# has its own package for that; in pkg/simulate it pulled the scheduler
# framework, ~340 more packages, into a cold run's fuzz stage).
#
# Both run from `make test` (fuzz in the background, beside the race
# tests; about 25 s and 2 min warm on 2 cores). -vet=off: make test vets
# every package first. Add a fuzz target as package:Func to FUZZ_TARGETS.

FUZZTIME ?= 10s
FUZZ_TARGETS ?= ./pkg/load:FuzzReadFiles ./pkg/simulate/script:FuzzParse
HOSTILE_FLAGS ?=

.PHONY: fuzz hostile
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; fn=$${t##*:}; \
		echo "fuzz $$pkg $$fn for $(FUZZTIME)"; \
		$(GO) test -vet=off $$pkg -run '^$$' -fuzz "^$$fn\$$" -fuzztime=$(FUZZTIME); \
	done

hostile: build
	SCHEDCACHE_PLUGIN=$(abspath $(BIN)) $(GO) test -tags hostile -count=1 -timeout 10m $(HOSTILE_FLAGS) ./test/hostile/...
