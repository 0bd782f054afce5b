package gate

import "syscall"

// peakRSS is the largest resident memory of this process and of any one
// child it waited for (bench programs, Valgrind, consumers, the embedded
// broker), in bytes: Linux reports each in KiB.
func peakRSS() int64 {
	var self, children syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children) != nil {
		return 0
	}
	return max(self.Maxrss, children.Maxrss) << 10
}
