// Package e2e holds the end-to-end tests of kubectl-schedcache against a real
// etcd, kube-apiserver and kube-scheduler (see package framework).
//
// The tests carry the build tag `e2e` so that `go test ./...` never starts a
// cluster; run them with `make e2e`, which builds the binaries first, or with
// `go test -tags e2e ./test/e2e/...` once they exist. Under -short they skip.
//
// The tests run the real plugin binary (os/exec): the one named by
// SCHEDCACHE_E2E_PLUGIN (make e2e passes bin/kubectl-schedcache), or one built
// with `go build` on first use. Files:
//
//   - fixture_test.go: the "rich" cluster (zones, legacy and unlabelled nodes,
//     sidecars, init containers, overhead, pod-level resources, resize status,
//     terminating, terminal, pending, nominated and orphaned pods);
//   - cli_test.go: every command as the read-only user against it, checked
//     against hand-computed numbers;
//   - livefile_test.go: the same JSON from the live cluster and from a real
//     `kubectl get -o yaml` export;
//   - scheduler_test.go: agreement with the real scheduler's SIGUSR2 dump;
//   - drain_test.go: drain's prediction against a real drain (kubectl's
//     drain code, the test playing the controllers) and the real scheduler;
//   - drain_nodes_test.go: a drain of two nodes with the real kubectl
//     v1.36.3 binary (node after node, --timeout past a held node);
//   - failures_test.go: RBAC, authentication, unreachable servers, usage
//     errors and pagination (audit log);
//   - readonly_test.go: the audit log proves the plugin only reads;
//   - plugin_test.go: running the binary, decoding its output, polling.
package e2e
