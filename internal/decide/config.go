package decide

import (
	"errors"
	"fmt"
	"os"

	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/latest"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
)

// DefaultSchedulerName is the profile name of kube-scheduler's default
// configuration, and the schedulerName the API server gives pods.
const DefaultSchedulerName = "default-scheduler"

// Config is a kube-scheduler configuration: its profiles (plugin sets,
// weights, plugin arguments) and percentageOfNodesToScore, decoded,
// defaulted and validated as kube-scheduler v1.36 does.
type Config struct {
	cfg *config.KubeSchedulerConfiguration
	// Source names where it came from ("default" or the file name).
	Source string
}

// DefaultConfig returns the configuration kube-scheduler v1.36 runs with when
// it is given none (latest.Default(): one profile, "default-scheduler").
func DefaultConfig() (*Config, error) {
	cfg, err := latest.Default()
	if err != nil {
		return nil, fmt.Errorf("building kube-scheduler's default configuration: %w", err)
	}
	return &Config{cfg: cfg, Source: "default"}, nil
}

// LoadConfigFile reads a KubeSchedulerConfiguration file (kubescheduler.config.k8s.io/v1,
// YAML or JSON) the way kube-scheduler's --config does: strict decoding,
// defaulting, then ValidateKubeSchedulerConfiguration. Errors name the file
// and carry kube-scheduler's own decoding or validation message.
func LoadConfigFile(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseConfig(path, data)
}

// ParseConfig is LoadConfigFile for bytes already read; name is used in errors.
func ParseConfig(name string, data []byte) (*Config, error) {
	obj, gvk, err := scheme.Codecs.UniversalDecoder().Decode(data, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	cfg, ok := obj.(*config.KubeSchedulerConfiguration)
	if !ok {
		return nil, fmt.Errorf("%s: not a KubeSchedulerConfiguration (got %s)", name, gvk)
	}
	cfg.APIVersion = gvk.GroupVersion().String()
	if err := validation.ValidateKubeSchedulerConfiguration(cfg); err != nil {
		return nil, fmt.Errorf("%s: invalid KubeSchedulerConfiguration: %w", name, err)
	}
	if len(cfg.Profiles) == 0 {
		return nil, fmt.Errorf("%s: %w", name, errors.New("at least one profile is required"))
	}
	return &Config{cfg: cfg, Source: name}, nil
}

// SchedulerNames lists the profiles' scheduler names, in file order.
func (c *Config) SchedulerNames() []string {
	names := make([]string, 0, len(c.cfg.Profiles))
	for _, p := range c.cfg.Profiles {
		names = append(names, p.SchedulerName)
	}
	return names
}

// HasExtenders reports whether the configuration names scheduler extenders,
// which Evaluator cannot call (they are HTTP services of the cluster).
func (c *Config) HasExtenders() bool { return len(c.cfg.Extenders) > 0 }
