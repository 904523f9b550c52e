//go:build !linux

package intent

import "time"

var began = time.Now()

// threadCPU falls back to the time on the clock where the thread's CPU time can't be read.
func threadCPU() time.Duration { return time.Since(began) }
