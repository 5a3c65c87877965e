# Performance measurements (included by the top Makefile; see
# docs/PERFORMANCE.md for the figures and how to read them).
#
#   make bench          Go benchmarks of ./pkg/... (top Makefile): loading
#                       (decode + strip + feed) and every command's view at
#                       5,000 nodes / 150,000 pods; -benchmem
#   make bench-files    file mode at scale: gen-cluster writes a cluster, then
#                       `dump -f`, `dump -o json -f` and `requested -f` run under /usr/bin/time
#                       (peak RSS, wall time), BENCH_FILES_RUNS times each
#   make bench-baseline file mode against kube-scheduler's own cache code:
#                       hack/upstream-baseline (k8s.io/kubernetes v1.36.3's
#                       scheduler cache fed the bench-files cluster with
#                       client-go's decoder and AddNode/AddPod) and `dump -f`,
#                       alternated, BENCH_FILES_RUNS times each under
#                       /usr/bin/time, then the ratio of the median walls
#   make bench-growth   linear growth of file mode: `dump -f -o json` of the
#                       bench-files cluster and of one three times its size
#                       (15,000 nodes / 450,000 pods by default), alternated,
#                       BENCH_FILES_RUNS times each under /usr/bin/time; the
#                       medians of wall, CPU (user+sys) and peak RSS and their
#                       ratios large/small (target <= 3.3);
#                       BENCH_GROWTH_SHAPE=small for gen-cluster's small pods
#   make bench-shapes   file mode against the upstream cache code (as
#                       bench-baseline) on gen-cluster's other pod shapes
#                       (-shape labels, templates, status, small), one file
#                       each; BENCH_SHAPES picks some
#                       (BENCH_GROWTH_SHAPE=small: bench-growth on -shape small)
#   make bench-why      `why` at scale on the bench-files cluster, in one run:
#                       `dump -f` (the load alone, the baseline), `why POD -f`
#                       (one pending pod) and `why -A -f` (every pending pod)
#                       under /usr/bin/time, BENCH_FILES_RUNS times each
#   make bench-until-fits
#                       why --until-fits at 5,000 nodes / 150,000 pods: the
#                       search for the copies of an m5.4xlarge node that
#                       schedule 100 pending pods, each count placed in full
#                       (BenchmarkUntilFits5kNodes150kPods, internal/whatif);
#                       s/search is the figure, target <= 30 s on 2 cores
#   make bench-drain    `drain NODE` after the load (BenchmarkDrain5kNodes150kPods,
#                       internal/whatif): gen-cluster's 5,000 nodes / 150,000 pods,
#                       the node with ~30 pods drained with --force
#                       --ignore-daemonsets --delete-emptydir-data: kubectl's
#                       rules, the cordon, the scheduler built, every
#                       replacement placed; ns/op per drain, first-ms for the
#                       process's first one. Target: <= 2 s
#   make bench-report   the HTML report at scale on the bench-files cluster:
#                       `dump -f` and `report -f -o FILE` alternated,
#                       BENCH_FILES_RUNS times each under /usr/bin/time, the
#                       ratio of the median walls and the page's size; then
#                       headless Chromium opens the page BENCH_REPORT_RENDERS
#                       times (test/browser BenchmarkRender: load, layout and
#                       first paint, as the page measures it)
#   make bench-commands every command (dump, dump -o json, requested,
#                       next-nodes, why -A, simulate --pending -A, report,
#                       drain) on the bench-files cluster, this tree's build
#                       against BENCH_BASE's (a commit), alternated,
#                       BENCH_FILES_RUNS times each: medians and ratios
#   make bench-live     live mode against a real kube-apiserver (test/e2e
#                       framework): load BENCH_LIVE_NODES / BENCH_LIVE_PODS with
#                       the concurrent loader, then time, after a warm-up round,
#                       BENCH_LIVE_RUNS rounds of (a) kubectl-schedcache dump
#                       -o json, (b) kubectl get pods -A -o json + get nodes -o
#                       json, (c) a bare client-go protobuf paged list (same
#                       page size and pod field selector as the plugin): median
#                       wall time and peak RSS of each, a/b, a/c; then the
#                       progress line and Ctrl-C on a pseudo-terminal
#   make bench-live-5k  the same at 5,000 nodes / 150,000 pods
#   make bench-watch    "dump --watch -o json" against a real kube-apiserver
#                       holding BENCH_LIVE_NODES / BENCH_LIVE_PODS while pods
#                       are created (bound) and deleted at BENCH_WATCH_RATE
#                       operations/s for BENCH_WATCH_DURATION: the lag from
#                       each API call to the batch naming it, the plugin's CPU
#                       and peak RSS
#   make bench-progress bench-live's terminal checks (progress line cadence,
#                       Ctrl-C mid-listing) on the bench-files cluster (5,000
#                       nodes / 150,000 pods), against hack/bench-live/fakeapi
#                       instead of a kube-apiserver (which would need ~18 GB
#                       for 150,000 pods): it serves the file's nodes and
#                       non-terminal pods as protobuf list pages from memory,
#                       so the listing is client-bound (protobuf decoding and
#                       the plugin's per-pod work). ~3 GB of memory, ~2 min
#                       once the file is generated
#
# bench-live needs the control-plane binaries (make e2e-binaries, built once)
# and the kubectl at KUBECTL. By default that is a kubectl of the apiserver's
# own release, built once next to the control-plane binaries from the same
# hack/tools module (~30 s once the apiserver is built). A kubectl on PATH may
# be another release or a wrapper (e.g. Google Cloud SDK's "dispatcher" build,
# v1.32 on the project's machines, four minor releases behind the apiserver).
# KUBECTL=/path/to/kubectl times any other.
# Both bench-files and bench-live take minutes at 5k/150k (bench-live-5k:
# ~14 min to load the apiserver, which then needs ~16 GB and etcd ~1.5 GB).

BENCH_FILES_NODES ?= 5000
BENCH_FILES_PODS ?= 150000
BENCH_FILES_RUNS ?= 3
BENCH_FILES_DIR ?= $(or $(TMPDIR),/tmp)/schedcache-bench
BENCH_FILE := $(BENCH_FILES_DIR)/cluster-$(BENCH_FILES_NODES)n-$(BENCH_FILES_PODS)p.json

BENCH_LIVE_NODES ?= 1000
BENCH_LIVE_PODS ?= 30000
BENCH_LIVE_RUNS ?= 5
# Extra flags for the bench-live test binary, e.g. -out=results.json, -tty=false
# or -hold=30m (see the flags in hack/bench-live/bench_live_test.go). The
# progress line shows after one second of listing, so below ~10,000 pods the
# terminal checks need smaller pages to be exercised: -tty-chunk-size=10.
BENCH_LIVE_FLAGS ?=
# Where hack/e2e-binaries.sh puts the control-plane binaries.
BENCH_K8S_VERSION := $(shell awk '$$1 == "k8s.io/kubernetes" { print $$2; exit }' hack/tools/go.mod)
BENCH_BIN_DIR := $(or $(SCHEDCACHE_E2E_BIN_DIR),$(CURDIR)/hack/tools/bin/$(BENCH_K8S_VERSION))
TIME ?= /usr/bin/time

BENCH_WATCH_RATE ?= 100
BENCH_WATCH_DURATION ?= 60s

# Extra flags for the bench-progress test binary, e.g. -interrupt-limit=1s.
BENCH_PROGRESS_FLAGS ?=

.PHONY: bench-drain
bench-drain:
	$(GO) test -run '^$$' -bench '^BenchmarkDrain5kNodes150kPods$$' -benchtime 3x -benchmem -timeout 30m ./internal/whatif

BENCH_BASE ?= HEAD~1

.PHONY: bench-commands
bench-commands: $(BENCH_FILE)
	hack/bench-commands.sh $(BENCH_BASE) $(BENCH_FILE) $(BENCH_FILES_RUNS)

.PHONY: bench-files bench-why bench-until-fits bench-live bench-live-5k bench-progress bench-watch

$(BENCH_FILE):
	@mkdir -p $(@D)
	$(GO) run ./hack/gen-cluster -nodes $(BENCH_FILES_NODES) -pods $(BENCH_FILES_PODS) -seed 1 -o $@

bench-files: build $(BENCH_FILE)
	@test -x $(TIME) || { echo "$(TIME) is missing: apt-get install time"; exit 1; }
	@ls -l $(BENCH_FILE)
	@for cmd in "dump" "dump -o json" "requested"; do \
		for i in $$(seq $(BENCH_FILES_RUNS)); do \
			$(TIME) -f "$$cmd -f: %e s wall, %U s user, %S s sys, %M KiB peak RSS" ./$(BIN) $$cmd -f $(BENCH_FILE) >/dev/null 2>$(BENCH_FILES_DIR)/stderr || { cat $(BENCH_FILES_DIR)/stderr; exit 1; }; \
			tail -n 1 $(BENCH_FILES_DIR)/stderr; \
		done; \
	done

# bench-why times the load alone (dump), every pending pod (why -A) and one
# pending pod: the first row of why -A's report, a workload replica as most
# pending pods are.
BENCH_WHY = $(TIME) -f "$$cmd -f: %e s wall, %U s user, %S s sys, %M KiB peak RSS" ./$(BIN) $$cmd -f $(BENCH_FILE) \
	>$(BENCH_FILES_DIR)/stdout 2>$(BENCH_FILES_DIR)/stderr; rc=$$?; \
	[ $$rc -le 1 ] && ! grep -q "^error" $(BENCH_FILES_DIR)/stderr || { cat $(BENCH_FILES_DIR)/stderr; exit 1; }; \
	tail -n 1 $(BENCH_FILES_DIR)/stderr

UPSTREAM_BASELINE := bin/upstream-baseline

.PHONY: bench-baseline
bench-baseline: build $(BENCH_FILE)
	@test -x $(TIME) || { echo "$(TIME) is missing: apt-get install time"; exit 1; }
	$(GO) build -o $(UPSTREAM_BASELINE) ./hack/upstream-baseline
	@ls -l $(BENCH_FILE)
	@rm -f $(BENCH_FILES_DIR)/baseline.walls $(BENCH_FILES_DIR)/dump.walls; \
	for i in $$(seq $(BENCH_FILES_RUNS)); do \
		$(TIME) -f "%e s wall, %U s user, %S s sys, %M KiB peak RSS" -o $(BENCH_FILES_DIR)/time ./$(UPSTREAM_BASELINE) $(BENCH_FILE) >$(BENCH_FILES_DIR)/stdout || exit 1; \
		echo "upstream-baseline: $$(cat $(BENCH_FILES_DIR)/time)  ($$(cat $(BENCH_FILES_DIR)/stdout))"; \
		cut -d' ' -f1 $(BENCH_FILES_DIR)/time >>$(BENCH_FILES_DIR)/baseline.walls; \
		$(TIME) -f "%e s wall, %U s user, %S s sys, %M KiB peak RSS" -o $(BENCH_FILES_DIR)/time ./$(BIN) dump -f $(BENCH_FILE) >/dev/null 2>$(BENCH_FILES_DIR)/stderr || { cat $(BENCH_FILES_DIR)/stderr; exit 1; }; \
		echo "dump -f:           $$(cat $(BENCH_FILES_DIR)/time)"; \
		cut -d' ' -f1 $(BENCH_FILES_DIR)/time >>$(BENCH_FILES_DIR)/dump.walls; \
	done; \
	median() { sort -n "$$1" | awk '{ v[NR] = $$1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }; \
	b=$$(median $(BENCH_FILES_DIR)/baseline.walls); d=$$(median $(BENCH_FILES_DIR)/dump.walls); \
	echo "median wall: upstream-baseline $$b s, dump -f $$d s, ratio dump/baseline $$(awk -v d=$$d -v b=$$b 'BEGIN { printf "%.2f", d / b }')"

# bench-growth: the same command at 1× and 3× the bench-files cluster, of
# gen-cluster's shape BENCH_GROWTH_SHAPE (empty: the default one; e.g.
# BENCH_GROWTH_SHAPE=small for pods of ~600 bytes).
BENCH_GROWTH_SHAPE ?=
BENCH_GROWTH_SUFFIX := $(if $(BENCH_GROWTH_SHAPE),-$(BENCH_GROWTH_SHAPE))
BENCH_GROWTH_BASE := $(BENCH_FILES_DIR)/cluster-$(BENCH_FILES_NODES)n-$(BENCH_FILES_PODS)p$(BENCH_GROWTH_SUFFIX).json
BENCH_GROWTH_FILE := $(BENCH_FILES_DIR)/cluster-$(shell echo $$(($(BENCH_FILES_NODES) * 3)))n-$(shell echo $$(($(BENCH_FILES_PODS) * 3)))p$(BENCH_GROWTH_SUFFIX).json

$(BENCH_GROWTH_FILE):
	@mkdir -p $(@D)
	$(GO) run ./hack/gen-cluster -nodes $$(($(BENCH_FILES_NODES) * 3)) -pods $$(($(BENCH_FILES_PODS) * 3)) -seed 1 $(if $(BENCH_GROWTH_SHAPE),-shape $(BENCH_GROWTH_SHAPE)) -o $@

ifneq ($(BENCH_GROWTH_SHAPE),)
$(BENCH_GROWTH_BASE):
	@mkdir -p $(@D)
	$(GO) run ./hack/gen-cluster -nodes $(BENCH_FILES_NODES) -pods $(BENCH_FILES_PODS) -seed 1 -shape $(BENCH_GROWTH_SHAPE) -o $@
endif

# BENCH_TIMED runs $$cmd on $$file under /usr/bin/time and appends
# "wall cpu rss" to $(BENCH_FILES_DIR)/$$label.figs.
BENCH_TIMED = $(TIME) -f "%e %U %S %M" -o $(BENCH_FILES_DIR)/time ./$(BIN) $$cmd -f $$file >/dev/null 2>$(BENCH_FILES_DIR)/stderr || { cat $(BENCH_FILES_DIR)/stderr; exit 1; }; \
	awk '{ printf "%s %.2f %d\n", $$1, $$2 + $$3, $$4 }' $(BENCH_FILES_DIR)/time >>$(BENCH_FILES_DIR)/$$label.figs; \
	echo "$$label: $$(tail -n 1 $(BENCH_FILES_DIR)/$$label.figs) (wall s, cpu s, peak RSS KiB)"
BENCH_MEDIAN = median() { cut -d' ' -f$$2 "$$1" | sort -n | awk '{ v[NR] = $$1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

.PHONY: bench-growth
bench-growth: build $(BENCH_GROWTH_BASE) $(BENCH_GROWTH_FILE)
	@test -x $(TIME) || { echo "$(TIME) is missing: apt-get install time"; exit 1; }
	@ls -l $(BENCH_GROWTH_BASE) $(BENCH_GROWTH_FILE)
	@rm -f $(BENCH_FILES_DIR)/small.figs $(BENCH_FILES_DIR)/large.figs; cmd="dump -o json"; \
	for i in $$(seq $(BENCH_FILES_RUNS)); do \
		label=small; file=$(BENCH_GROWTH_BASE); $(BENCH_TIMED); \
		label=large; file=$(BENCH_GROWTH_FILE); $(BENCH_TIMED); \
	done; \
	$(BENCH_MEDIAN); for f in 1:wall 2:cpu 3:rss; do \
		s=$$(median $(BENCH_FILES_DIR)/small.figs $${f%%:*}); l=$$(median $(BENCH_FILES_DIR)/large.figs $${f%%:*}); \
		echo "median $${f#*:}: small $$s, large $$l, ratio $$(awk -v s=$$s -v l=$$l 'BEGIN { printf "%.2f", l / s }')"; \
	done

# bench-shapes: one file per gen-cluster shape, then bench-baseline's
# alternation on each.
BENCH_SHAPES ?= labels templates status small
BENCH_SHAPE_FILE = $(BENCH_FILES_DIR)/cluster-$(BENCH_FILES_NODES)n-$(BENCH_FILES_PODS)p-$(1).json

.PHONY: bench-shapes
bench-shapes: build
	@test -x $(TIME) || { echo "$(TIME) is missing: apt-get install time"; exit 1; }
	$(GO) build -o $(UPSTREAM_BASELINE) ./hack/upstream-baseline
	@for shape in $(BENCH_SHAPES); do \
		file=$(call BENCH_SHAPE_FILE,$$shape); \
		test -f $$file || $(GO) run ./hack/gen-cluster -nodes $(BENCH_FILES_NODES) -pods $(BENCH_FILES_PODS) -seed 1 -shape $$shape -o $$file || exit 1; \
		ls -l $$file; rm -f $(BENCH_FILES_DIR)/baseline.figs $(BENCH_FILES_DIR)/dump.figs; \
		for i in $$(seq $(BENCH_FILES_RUNS)); do \
			$(TIME) -f "%e %U %S %M" -o $(BENCH_FILES_DIR)/time ./$(UPSTREAM_BASELINE) $$file >/dev/null || exit 1; \
			awk '{ printf "%s %.2f %d\n", $$1, $$2 + $$3, $$4 }' $(BENCH_FILES_DIR)/time >>$(BENCH_FILES_DIR)/baseline.figs; \
			echo "$$shape upstream-baseline: $$(tail -n 1 $(BENCH_FILES_DIR)/baseline.figs) (wall s, cpu s, peak RSS KiB)"; \
			label=dump; cmd="dump -o json"; $(BENCH_TIMED); \
		done; \
		$(BENCH_MEDIAN); b=$$(median $(BENCH_FILES_DIR)/baseline.figs 1); d=$$(median $(BENCH_FILES_DIR)/dump.figs 1); \
		echo "$$shape median wall: upstream-baseline $$b s, dump -f -o json $$d s, ratio $$(awk -v d=$$d -v b=$$b 'BEGIN { printf "%.2f", d / b }')"; \
	done

bench-why: build $(BENCH_FILE)
	@test -x $(TIME) || { echo "$(TIME) is missing: apt-get install time"; exit 1; }
	@for cmd in "dump" "why -A"; do for i in $$(seq $(BENCH_FILES_RUNS)); do $(BENCH_WHY); done; done; \
	pod=$$(awk 'NR == 2 { print $$1 }' $(BENCH_FILES_DIR)/stdout); \
	test -n "$$pod" || { echo "why -A found no pending pod"; exit 1; }; \
	cmd="why -n $${pod%%/*} $${pod#*/}"; for i in $$(seq $(BENCH_FILES_RUNS)); do $(BENCH_WHY); done

bench-until-fits:
	$(GO) test -run '^$$' -bench 'UntilFits5kNodes150kPods' -benchtime 1x -benchmem -timeout 30m ./internal/whatif

bench-live: e2e-binaries build $(KUBECTL)
	SCHEDCACHE_E2E_BIN_DIR=$(BENCH_BIN_DIR) $(GO) test -tags benchlive -count=1 -timeout 120m -run '^TestBenchLive$$' -v ./hack/bench-live \
		-args -nodes $(BENCH_LIVE_NODES) -pods $(BENCH_LIVE_PODS) -runs $(BENCH_LIVE_RUNS) \
		-plugin $(abspath $(BIN)) -kubectl $(abspath $(KUBECTL)) $(BENCH_LIVE_FLAGS)

bench-live-5k:
	$(MAKE) bench-live BENCH_LIVE_NODES=5000 BENCH_LIVE_PODS=150000

bench-progress: build $(BENCH_FILE)
	$(GO) test -tags benchlive -count=1 -timeout 60m -run '^TestProgressFakeAPI$$' -v ./hack/bench-live \
		-args -input $(abspath $(BENCH_FILE)) -plugin $(abspath $(BIN)) $(BENCH_PROGRESS_FLAGS)

bench-watch: e2e-binaries build
	SCHEDCACHE_E2E_BIN_DIR=$(BENCH_BIN_DIR) $(GO) test -tags benchlive -count=1 -timeout 60m -run '^TestBenchWatch$$' -v ./hack/bench-live \
		-args -nodes $(BENCH_LIVE_NODES) -pods $(BENCH_LIVE_PODS) -plugin $(abspath $(BIN)) \
		-watch-rate $(BENCH_WATCH_RATE) -watch-duration $(BENCH_WATCH_DURATION) $(BENCH_LIVE_FLAGS)

# bench-report: the report's cost against dump's on the same file, then how
# long Chromium takes to show the page.
BENCH_REPORT_RENDERS ?= 3
BENCH_REPORT_HTML := $(BENCH_FILES_DIR)/report.html

.PHONY: bench-report
bench-report: build $(BENCH_FILE)
	@test -x $(TIME) || { echo "$(TIME) is missing: apt-get install time"; exit 1; }
	hack/install-chromium.sh
	@ls -l $(BENCH_FILE)
	@rm -f $(BENCH_FILES_DIR)/dump.walls $(BENCH_FILES_DIR)/report.walls; \
	for i in $$(seq $(BENCH_FILES_RUNS)); do \
		$(TIME) -f "%e s wall, %U s user, %S s sys, %M KiB peak RSS" -o $(BENCH_FILES_DIR)/time ./$(BIN) dump -f $(BENCH_FILE) >/dev/null 2>$(BENCH_FILES_DIR)/stderr || { cat $(BENCH_FILES_DIR)/stderr; exit 1; }; \
		echo "dump -f:             $$(cat $(BENCH_FILES_DIR)/time)"; \
		cut -d' ' -f1 $(BENCH_FILES_DIR)/time >>$(BENCH_FILES_DIR)/dump.walls; \
		$(TIME) -f "%e s wall, %U s user, %S s sys, %M KiB peak RSS" -o $(BENCH_FILES_DIR)/time ./$(BIN) report -f $(BENCH_FILE) -o $(BENCH_REPORT_HTML) 2>$(BENCH_FILES_DIR)/stderr || { cat $(BENCH_FILES_DIR)/stderr; exit 1; }; \
		echo "report -f -o FILE:   $$(cat $(BENCH_FILES_DIR)/time)"; \
		cut -d' ' -f1 $(BENCH_FILES_DIR)/time >>$(BENCH_FILES_DIR)/report.walls; \
	done; \
	median() { sort -n "$$1" | awk '{ v[NR] = $$1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }; \
	d=$$(median $(BENCH_FILES_DIR)/dump.walls); r=$$(median $(BENCH_FILES_DIR)/report.walls); \
	echo "median wall: dump -f $$d s, report -f $$r s, ratio report/dump $$(awk -v d=$$d -v r=$$r 'BEGIN { printf "%.2f", r / d }')"; \
	echo "page: $$(wc -c <$(BENCH_REPORT_HTML)) bytes ($(BENCH_REPORT_HTML))"
	SCHEDCACHE_BROWSER_PLUGIN=$(abspath $(BIN)) $(GO) test -tags browser -count=1 -run '^$$' -bench '^BenchmarkRender$$' \
		-benchtime $(BENCH_REPORT_RENDERS)x ./test/browser -args -report $(BENCH_REPORT_HTML)
