package cmd

import (
	"errors"
)

// validateWhatIf checks the what-if flags of why.
func (o *WhyOptions) validateWhatIf() error {
	if err := o.WhatIf.Validate(); err != nil {
		return err
	}
	if o.WhatIf.UntilFits && len(o.Pods) > 0 {
		return errors.New("--until-fits works on the selected pending pods or on --pod-file's replicas: it cannot be used with POD arguments")
	}
	if o.WhatIf.UntilFits && len(o.ConfigFiles) > 1 {
		return errors.New("--until-fits cannot be used with more than one --config")
	}
	return nil
}
