package framework

import (
	"context"
	"fmt"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/schedcache/kubectl-schedcache/internal/load"
)

var readVerbs = []string{"get", "list", "watch"}

// deciderRules: nodes and pods, and every scheduling kind.
func deciderRules() []rbacv1.PolicyRule {
	rules := []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"nodes", "pods"}, Verbs: readVerbs}}
	for _, k := range load.SchedulingKinds {
		rules = append(rules, rbacv1.PolicyRule{APIGroups: []string{k.GVR.Group}, Resources: []string{k.GVR.Resource}, Verbs: readVerbs})
	}
	return rules
}

// setupRBAC grants the reader and nopods users their rights, then waits
// until the authorizer (which works from informers, so lags the writes)
// actually allows them, so tests never see a transient Forbidden.
func (c *Cluster) setupRBAC(ctx context.Context) error {
	grants := map[string][]rbacv1.PolicyRule{
		UserReader:  {{APIGroups: []string{""}, Resources: []string{"nodes", "pods"}, Verbs: readVerbs}},
		UserNoPods:  {{APIGroups: []string{""}, Resources: []string{"nodes"}, Verbs: readVerbs}},
		UserDecider: deciderRules(),
	}
	for userName, rules := range grants {
		name := "schedcache-e2e:" + userName
		role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: name}, Rules: rules}
		if _, err := c.admin.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create ClusterRole %s: %w", name, err)
		}
		binding := &rbacv1.ClusterRoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: name},
			Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: userName}},
		}
		if _, err := c.admin.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create ClusterRoleBinding %s: %w", name, err)
		}
	}

	reader, nopods, decider := c.Client(UserReader), c.Client(UserNoPods), c.Client(UserDecider)
	one := metav1.ListOptions{Limit: 1}
	// Any error (Forbidden above all) just means "not yet": poll keeps the
	// last one for its timeout message.
	return poll(ctx, "RBAC rules of reader and nopods", 50*time.Millisecond, []*process{c.etcd, c.apiserver}, func(ctx context.Context) (bool, error) {
		if _, err := reader.CoreV1().Pods("").List(ctx, one); err != nil {
			return false, err
		}
		if _, err := reader.CoreV1().Nodes().List(ctx, one); err != nil {
			return false, err
		}
		if _, err := nopods.CoreV1().Nodes().List(ctx, one); err != nil {
			return false, err
		}
		if _, err := decider.StorageV1().CSINodes().List(ctx, one); err != nil {
			return false, err
		}
		return true, nil
	})
}
