//go:build !unix

package loadtest

import "time"

// ProcessCPU is not measured on this platform: 0.
func ProcessCPU() time.Duration { return 0 }
