// Package scaledown answers cluster-autoscaler's scale-down question
// offline: which nodes could be removed now without any pod going Pending,
// and which pod, and which rule, holds each of the others back.
//
// It follows cluster-autoscaler's scale-down simulation (kubernetes/autoscaler
// cluster-autoscaler, the planner of core/scaledown/planner, the eligibility
// checks of core/scaledown/eligibility, utilization of simulator/utilization,
// the drainability rules of simulator/drainability/rules and the candidate
// sorting of processors/scaledowncandidates), with one deliberate change: the
// pods of a node to remove are placed by kube-scheduler v1.36's full
// scheduling cycle (internal/decide: filters and scores), as the real
// scheduler will place their replacements, where cluster-autoscaler runs the
// filters only and takes the first node that fits.
//
// The package changes the model's cache while it works (nodes removed, pods
// moved); pass a model built for the purpose. Nothing is sent to a cluster.
package scaledown
