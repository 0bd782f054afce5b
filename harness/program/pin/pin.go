// Package pin runs a measuring process on one CPU. On a 2-vCPU runner the
// two CPUs need not be equal (a noisy neighbour on one), and where the
// scheduler places base's and head's processes must not decide a verdict:
// every measuring process goes to the same CPU.
package pin

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/wiregate/wiregate/harness/program/proc"
)

// CPU is the highest-numbered CPU this process may run on (brokers and
// producers tend to start on the low ones).
func CPU() (int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return 0, fmt.Errorf("sched_getaffinity: %v", err)
	}
	for cpu := 1023; cpu >= 0; cpu-- {
		if set.IsSet(cpu) {
			return cpu, nil
		}
	}
	return 0, fmt.Errorf("no CPU in this process's affinity mask")
}

// TasksetWorks reports whether `taskset -c cpu` runs here (containers may
// forbid changing affinity). Asked every time: it costs a few milliseconds
// per measuring process, and PATH can change.
func TasksetWorks(cpu int) bool {
	path, err := exec.LookPath("taskset")
	return err == nil && proc.Command(context.Background(), path, "-c", strconv.Itoa(cpu), "true").Run() == nil
}

// Taskset rewrites cmd to run under `taskset -c cpu`.
func Taskset(cmd *exec.Cmd, cpu int) { TasksetList(cmd, []int{cpu}) }

// Command pins cmd to CPU() when taskset works and says what held.
func Command(cmd *exec.Cmd) string {
	cpu, err := CPU()
	if err != nil {
		return "not pinned: " + err.Error()
	}
	if !TasksetWorks(cpu) {
		return "not pinned: taskset unavailable"
	}
	Taskset(cmd, cpu)
	return fmt.Sprintf("pinned to cpu %d by taskset", cpu)
}

// Others are the CPUs this process may run on but CPU(): where work that
// must not disturb a timing (instruction counts, which no neighbour moves)
// can run while the measuring CPU times. None on a one-CPU machine, and
// none where taskset cannot pin (the timings are then unpinned too, and
// anything beside them could share their CPU).
func Others() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	timing, err := CPU()
	if err != nil || !TasksetWorks(timing) {
		return nil
	}
	var out []int
	for cpu := 0; cpu < timing; cpu++ {
		if set.IsSet(cpu) {
			out = append(out, cpu)
		}
	}
	return out
}

// TasksetList rewrites cmd to run under `taskset -c` on cpus (at least one).
func TasksetList(cmd *exec.Cmd, cpus []int) {
	list := make([]string, len(cpus))
	for i, c := range cpus {
		list[i] = strconv.Itoa(c)
	}
	taskset, _ := exec.LookPath("taskset")
	cmd.Args = append([]string{"taskset", "-c", strings.Join(list, ","), cmd.Path}, cmd.Args[1:]...)
	cmd.Path = taskset
}
