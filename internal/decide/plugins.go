package decide

// RunsFilter reports whether the profile serving schedulerName runs the
// Filter plugin named plugin, as the framework lists its own plugins
// (Framework.ListPlugins, v1.36: MultiPoint expanded, disabled ones
// removed); false when no profile serves schedulerName. Callers that
// reason from a plugin's rule (until-fits' bound from NodeResourcesFit)
// check it is in force first.
func (e *Evaluator) RunsFilter(schedulerName, plugin string) bool {
	fw, ok := e.frameworks[schedulerName]
	if !ok {
		return false
	}
	for _, p := range fw.ListPlugins().Filter.Enabled {
		if p.Name == plugin {
			return true
		}
	}
	return false
}
