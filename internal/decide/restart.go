package decide

// Restart makes the next Schedule the first cycle of a new sequence, as if
// the Evaluator had just been built over its current snapshot: the node
// scan starts at index 0 again, preemption nominations made by earlier
// Schedule calls are forgotten (call SetPending after it), and the previous
// cycle's OpportunisticBatching state no longer applies (a skipped cycle
// count makes the framework's batch state incompatible, as in
// framework/runtime/batch.go v1.36). It spares a caller that runs the same
// pods over several variants of one cluster (why --until-fits) building
// the frameworks and converting every pod again for each.
func (e *Evaluator) Restart() {
	e.forget()
	e.nextStartNodeIndex = 0
	e.cycle++
	clear(e.preempted)
	e.preemptions++
}
