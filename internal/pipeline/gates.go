package pipeline

import (
	"fmt"
	"sort"
	"strings"

	"github.com/go-logr/logr"
	"k8s.io/component-base/featuregate"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// gateSpec converts a gate of pkg/cache to kube's feature spec.
func gateSpec(g cache.GateState) featuregate.FeatureSpec {
	spec := featuregate.FeatureSpec{Default: g.Default, LockToDefault: g.Locked, PreRelease: featuregate.GA}
	switch g.PreRelease {
	case cache.Alpha:
		spec.PreRelease = featuregate.Alpha
	case cache.Beta:
		spec.PreRelease = featuregate.Beta
	}
	return spec
}

// ParseFeatureGates parses "Name=true,Other=false" with kube's own feature
// gate parser, knowing only the gates of v that the model reads, with v's
// defaults, locks and dependencies.
func ParseFeatureGates(value string, v cache.Version) (cache.FeatureGates, error) {
	if value == "" {
		return cache.FeatureGatesFor(v), nil
	}
	known := cache.KnownGates(v)
	specs := map[featuregate.Feature]featuregate.FeatureSpec{}
	names := make([]string, 0, len(known))
	for _, g := range known {
		specs[featuregate.Feature(g.Name)] = gateSpec(g)
		names = append(names, g.Name)
	}
	fg := featuregate.NewFeatureGate()
	deps := map[featuregate.Feature][]featuregate.Feature{}
	for gate, needs := range cache.GateDependencies(v) {
		for _, n := range needs {
			deps[featuregate.Feature(gate)] = append(deps[featuregate.Feature(gate)], featuregate.Feature(n))
		}
	}
	if err := fg.Add(specs); err != nil {
		return cache.FeatureGates{}, err
	}
	if err := fg.AddDependencies(deps); err != nil {
		return cache.FeatureGates{}, err
	}
	// A discarding logger: kube's parser logs the gates it sets.
	if err := fg.SetWithLogger(logr.Discard(), value); err != nil {
		sort.Strings(names)
		list := strings.Join(names, ", ")
		if list == "" {
			list = "none"
		}
		return cache.FeatureGates{}, fmt.Errorf("invalid --feature-gates %q: %v (gates modelled for kube-scheduler %s: %s)", value, err, v, list)
	}
	set := map[string]bool{}
	for _, name := range names {
		set[name] = fg.Enabled(featuregate.Feature(name))
	}
	return cache.FeatureGatesWith(v, set), nil
}
