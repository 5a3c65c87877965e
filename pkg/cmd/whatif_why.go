package cmd

import (
	"errors"
)

// validateWhatIf checks the what-if flags of why.
func (o *WhyOptions) validateWhatIf() error {
	if err := o.WhatIf.Validate(); err != nil {
		return err
	}
	if o.WhatIf.UntilFits && (o.PodFile != "" || len(o.Pods) > 0) {
		return errors.New("--until-fits works on the selected pending pods: it cannot be used with POD arguments or --pod-file")
	}
	return nil
}
