package scaledown

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	v1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// GroupLabels are the node labels that name a node's group, the first
// present wins: GKE node pools, EKS managed node groups, AKS agent pools
// (both labels), Karpenter NodePools. A node with none of them is grouped
// by its instance type (node.kubernetes.io/instance-type).
var groupLabels = []string{
	"cloud.google.com/gke-nodepool",
	"eks.amazonaws.com/nodegroup",
	"kubernetes.azure.com/agentpool",
	"agentpool",
	"karpenter.sh/nodepool",
	v1.LabelInstanceTypeStable,
}

// GroupOf names node's group: the value of the first of its group labels
// ("" when it has none).
func GroupOf(node *v1.Node) string {
	for _, l := range groupLabels {
		if v := node.Labels[l]; v != "" {
			return v
		}
	}
	return ""
}

// StatusConfigMap is the name of cluster-autoscaler's status ConfigMap in
// kube-system.
const StatusConfigMap = "cluster-autoscaler-status"

// GroupSize is a node group's size limits as cluster-autoscaler's status
// reports them, and its current target size (cloudProviderTarget: the
// node count the cloud provider was last asked for) when the status gives
// it (-1 otherwise).
type GroupSize struct {
	Name     string
	Min, Max int
	Target   int
}

// statusYAML is the part of the status (data "status", YAML since
// cluster-autoscaler v1.30) read here.
type statusYAML struct {
	NodeGroups []struct {
		Name   string `json:"name"`
		Health struct {
			MinSize             int  `json:"minSize"`
			MaxSize             int  `json:"maxSize"`
			CloudProviderTarget *int `json:"cloudProviderTarget"`
		} `json:"health"`
	} `json:"nodeGroups"`
}

// legacyGroup matches a node group of the status's older plain-text form:
// "Name: NAME" then a "Health:" line with "minSize=N, maxSize=M", and
// "cloudProviderTarget=T" before them when the status has it.
var legacyGroup = regexp.MustCompile(`(?m)^\s*Name:\s*(\S+)\s*\n\s*Health:[^\n]*?(?:cloudProviderTarget=(\d+)[^\n]*?)?minSize=(\d+),\s*maxSize=(\d+)`)

// ParseStatus reads the node groups' limits and target sizes from
// cluster-autoscaler's status ConfigMap (data key "status"), in either of
// its forms (clusterstate/api's NodeGroupHealthCondition: minSize,
// maxSize, cloudProviderTarget).
// Errors: no "status" key, or text of neither form.
func ParseStatus(cm *v1.ConfigMap) ([]GroupSize, error) {
	text, ok := cm.Data["status"]
	if !ok {
		return nil, fmt.Errorf("configmap %s/%s has no \"status\" key", cm.Namespace, cm.Name)
	}
	var out []GroupSize
	for _, m := range legacyGroup.FindAllStringSubmatch(text, -1) {
		target := -1
		if m[2] != "" {
			target, _ = strconv.Atoi(m[2])
		}
		lo, _ := strconv.Atoi(m[3])
		hi, _ := strconv.Atoi(m[4])
		out = append(out, GroupSize{Name: m[1], Min: lo, Max: hi, Target: target})
	}
	if len(out) > 0 {
		return out, nil
	}
	var s statusYAML
	if err := yaml.Unmarshal([]byte(text), &s); err != nil {
		return nil, fmt.Errorf("configmap %s/%s: status: %w", cm.Namespace, cm.Name, err)
	}
	for _, g := range s.NodeGroups {
		target := -1
		if g.Health.CloudProviderTarget != nil {
			target = *g.Health.CloudProviderTarget
		}
		out = append(out, GroupSize{Name: g.Name, Min: g.Health.MinSize, Max: g.Health.MaxSize, Target: target})
	}
	return out, nil
}

// SizeOf finds the limits of group among sizes: the entry named exactly
// group, else the only entry whose name holds group as a whole part
// (between "/", "-" or "_": a cloud provider's name for the group, such as
// "eks-pool-a-1a2b3c" or ".../instanceGroups/gke-c-pool-a-1a2b-grp", holds
// the label's pool name). nil when none or several match.
func SizeOf(group string, sizes []GroupSize) *GroupSize {
	if group == "" {
		return nil
	}
	var found *GroupSize
	for i := range sizes {
		if sizes[i].Name == group {
			return &sizes[i]
		}
	}
	for i := range sizes {
		if holdsPart(sizes[i].Name, group) {
			if found != nil {
				return nil
			}
			found = &sizes[i]
		}
	}
	return found
}

func holdsPart(name, part string) bool {
	sep := func(r rune) bool { return r == '/' || r == '-' || r == '_' }
	for i := strings.Index(name, part); i >= 0; {
		end := i + len(part)
		before := i == 0 || sep(rune(name[i-1]))
		after := end == len(name) || sep(rune(name[end]))
		if before && after {
			return true
		}
		j := strings.Index(name[i+1:], part)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}
