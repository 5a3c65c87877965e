// Package benchlive times kubectl-schedcache against a real kube-apiserver
// holding a large synthetic cluster (hack/gen-cluster), next to kubectl and
// to a bare client-go list, and checks its progress line and Ctrl-C on a
// pseudo-terminal. It is a test with the build tag `benchlive`, run by
// `make bench-live` (see hack/make/bench.mk and docs/PERFORMANCE.md); the
// control plane comes from test/e2e/framework.
//
//   - bench_live_test.go: TestBenchLive: generate, load, check, time, report
//   - measure_test.go: the timed runs, their medians and the results table
//   - terminal_test.go: the progress line and ^C on a pseudo-terminal
//   - progress_test.go: TestProgressFakeAPI: the terminal checks at 150,000
//     pods against fakeapi (`make bench-progress`)
//   - proc_test.go: memory of the control plane, machine description
//   - floor: the floor (c), a bare protobuf paged list that keeps nothing
//   - fakeapi: a fake API server that serves a gen-cluster file's nodes and
//     pods as protobuf list pages from memory
//   - rusage: runs each timed command and reports its own wall time, peak
//     RSS and CPU time (a direct child of the test process would report the
//     test process's peak RSS as its own; see rusage/main.go)
package benchlive
