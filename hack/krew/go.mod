// Module krew holds the release tooling for the krew manifest: the template
// renderer (render), the krew-index rule checker (verify) and a krew-style
// installer (install) used by hack/install-check.sh. It is a separate module
// so the plugin's own go.mod never carries tooling dependencies.
module github.com/schedcache/kubectl-schedcache/hack/krew

go 1.26.0

require sigs.k8s.io/yaml v1.6.0

require go.yaml.in/yaml/v2 v2.4.2 // indirect
