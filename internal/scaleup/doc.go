// Package scaleup answers cluster-autoscaler's scale-up question offline:
// for each node group, how many new nodes like its nodes schedule every
// pending pod (or a new workload's replicas), or why the group cannot take
// them; and which group cluster-autoscaler's least-waste expander would
// grow.
//
// It follows cluster-autoscaler (kubernetes/autoscaler cluster-autoscaler):
// a template per node group made from one of its nodes as
// processors/nodeinfosprovider's mixed provider and simulator's
// SanitizedTemplateNodeInfoFromNodeInfo make it (utils/daemonset for the
// DaemonSet pods), the group's maximum size from the status ConfigMap, and
// expander/waste's least-waste choice. One deliberate change: the count
// is found by placing the pods with kube-scheduler v1.36's full scheduling
// cycle on the cluster with the copies added (internal/whatif's
// until-fits search), where cluster-autoscaler's binpacking estimator
// runs the filters only on the new nodes.
//
// The searches change the model's cache while they run and restore it.
// Nothing is sent to a cluster.
package scaleup
