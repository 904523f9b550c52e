package intent

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD: the calling thread's own use.
const rusageThread = 1

// threadCPU is the CPU time the calling OS thread has used so far, user and system; the caller
// locks its goroutine to the thread (runtime.LockOSThread). Unlike the time on the clock it doesn't
// grow while the thread waits for a CPU that other processes hold.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
