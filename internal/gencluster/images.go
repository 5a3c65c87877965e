package gencluster

import (
	"fmt"
	"math"
	"strings"
)

// image is one entry of the shared image pool. Nodes list images from the
// pool and pods run images from the pool, so image-locality data overlaps the
// way it does in a real cluster.
type image struct {
	tag    string // repo:tag, as written in pod specs
	digest string // repo@sha256:..., as kubelet reports it first
	size   int64
}

// systemImages run on every node (DaemonSets and the sandbox image).
var systemImages = []string{
	"registry.k8s.io/pause:3.10.1",
	"registry.k8s.io/kube-proxy:v1.36.3",
	"ghcr.io/flannel-io/flannel:v0.27.4",
	"ghcr.io/flannel-io/flannel-cni-plugin:v1.8.0-flannel1",
}

var imageTeams = []string{"shop", "payments", "search", "ml", "data", "platform", "identity", "media", "ads", "logistics"}

var publicImages = []string{
	"docker.io/library/nginx:1.29.1", "docker.io/library/redis:8.2.1", "docker.io/library/postgres:17.6",
	"docker.io/library/busybox:1.37.0", "docker.io/library/python:3.13-slim", "docker.io/library/golang:1.26",
	"docker.io/istio/proxyv2:1.27.1", "docker.io/fluent/fluent-bit:4.0.9", "docker.io/hashicorp/vault:1.20.3",
	"quay.io/prometheus/node-exporter:v1.9.1", "quay.io/prometheus/prometheus:v3.5.0",
	"docker.elastic.co/elasticsearch/elasticsearch:8.19.2", "docker.io/bitnami/kafka:4.0.0",
	"nvcr.io/nvidia/pytorch:25.08-py3", "nvcr.io/nvidia/k8s-device-plugin:v0.17.4",
	"registry.k8s.io/coredns/coredns:v1.12.3",
}

// imagePool is the shared pool. The first entries are the system images; the
// order is fixed, so index-based choices are reproducible.
type imagePool struct {
	images []image
	system []int // indexes of systemImages
	apps   []int // indexes of everything else, most popular first
	gpu    []int // indexes of the CUDA images (also in apps)
	// digestOf maps repo:tag to repo@sha256:..., the imageID in container
	// statuses.
	digestOf map[string]string
}

func newImagePool(g *rng, appImages int) *imagePool {
	p := &imagePool{digestOf: map[string]string{}}
	add := func(tag string, size int64) int {
		repo := tag[:strings.LastIndex(tag, ":")]
		p.images = append(p.images, image{tag: tag, digest: repo + "@sha256:" + g.hex(32), size: size})
		p.digestOf[tag] = p.images[len(p.images)-1].digest
		return len(p.images) - 1
	}
	for _, t := range systemImages {
		p.system = append(p.system, add(t, logUniform(g, 300_000, 60_000_000)))
	}
	for _, t := range publicImages {
		i := add(t, logUniform(g, 2_000_000, 12_000_000_000))
		p.apps = append(p.apps, i)
		if strings.HasPrefix(t, "nvcr.io/") {
			p.gpu = append(p.gpu, i)
		}
	}
	for i := len(publicImages); i < appImages; i++ {
		team := imageTeams[i%len(imageTeams)]
		tag := fmt.Sprintf("registry.example.com/%s/svc-%03d:v%d.%d.%d", team, i, 1+g.intN(5), g.intN(30), g.intN(20))
		p.apps = append(p.apps, add(tag, logUniform(g, 5_000_000, 2_000_000_000)))
	}
	return p
}

// logUniform draws a size whose logarithm is uniform: many small images, a
// few huge ones, as in real registries.
func logUniform(g *rng, lo, hi float64) int64 {
	return int64(math.Exp(math.Log(lo) + g.r.Float64()*(math.Log(hi)-math.Log(lo))))
}

// popular returns an app image index, skewed towards the front of the pool
// (squaring a uniform number favours small indexes), so some images are on
// most nodes and others on few.
func (p *imagePool) popular(g *rng) int {
	f := g.r.Float64()
	return p.apps[int(f*f*float64(len(p.apps)))]
}
