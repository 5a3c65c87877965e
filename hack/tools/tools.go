//go:build tools

// Package tools records the main packages of the control-plane binaries that
// hack/e2e-binaries.sh builds, so `go mod tidy` keeps their dependencies in
// go.mod/go.sum. The build tag keeps it out of every real build.
package tools

import (
	_ "go.etcd.io/etcd/server/v3"
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "k8s.io/kubernetes/cmd/kubectl"
)
