// Package framework runs a real control plane for the end-to-end tests in
// test/e2e: etcd, kube-apiserver and kube-scheduler built from the pinned
// Kubernetes release by hack/e2e-binaries.sh, all listening on 127.0.0.1 only.
//
// A test calls Start to get a Cluster (etcd + kube-apiserver with three token
// users and their kubeconfig files), creates nodes and pods through the
// helpers (no kubelets exist, so status is written by the test), and may run
// the real scheduler with StartScheduler to read its cache through SIGUSR2
// (Scheduler.DumpCache, read with internal/schedlog). Every process is started in its
// own process group and stopped by PID in t.Cleanup, also when the test fails.
package framework
