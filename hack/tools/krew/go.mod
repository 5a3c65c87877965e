// Module krew pins the krew release whose tools check the plugin's krew
// manifest: krew itself (kubectl krew: index add, install) and
// validate-krew-manifest, the checker krew-index's CI runs on every plugin
// manifest. hack/make/dist.mk builds both from source into hack/tools/bin
// (gitignored), once per pin, together with fileserver (this module's own
// few lines: a loopback HTTP server for the archives, since krew downloads
// uri fields over http only). No prebuilt binary is downloaded.
//
// sigs.k8s.io/krew v0.4.3 is the newest release the module proxy serves here
// (v0.4.5 is refused). Bump with:
//   GOWORK=off go get -tool sigs.k8s.io/krew/cmd/krew@vX.Y.Z \
//     sigs.k8s.io/krew/cmd/validate-krew-manifest@vX.Y.Z && GOWORK=off go mod tidy
module github.com/schedcache/kubectl-schedcache/hack/tools/krew

go 1.26.0

tool (
	sigs.k8s.io/krew/cmd/krew
	sigs.k8s.io/krew/cmd/validate-krew-manifest
)

require (
	github.com/fatih/color v1.12.0 // indirect
	github.com/go-logr/logr v0.4.0 // indirect
	github.com/gogo/protobuf v1.3.2 // indirect
	github.com/google/go-cmp v0.5.6 // indirect
	github.com/google/gofuzz v1.1.0 // indirect
	github.com/inconshreveable/mousetrap v1.0.0 // indirect
	github.com/json-iterator/go v1.1.11 // indirect
	github.com/mattn/go-colorable v0.1.8 // indirect
	github.com/mattn/go-isatty v0.0.13 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.1 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/sahilm/fuzzy v0.1.0 // indirect
	github.com/spf13/cobra v1.2.1 // indirect
	github.com/spf13/pflag v1.0.5 // indirect
	golang.org/x/net v0.0.0-20210614182718-04defd469f4e // indirect
	golang.org/x/sys v0.0.0-20210630005230-0f9fa26af87c // indirect
	golang.org/x/text v0.3.6 // indirect
	gopkg.in/inf.v0 v0.9.1 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
	k8s.io/apimachinery v0.21.2 // indirect
	k8s.io/client-go v11.0.0+incompatible // indirect
	k8s.io/klog/v2 v2.8.0 // indirect
	sigs.k8s.io/krew v0.4.3 // indirect
	sigs.k8s.io/structured-merge-diff/v4 v4.1.2 // indirect
	sigs.k8s.io/yaml v1.2.0 // indirect
)
