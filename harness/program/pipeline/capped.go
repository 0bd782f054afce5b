package pipeline

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/wiregate/wiregate/harness/program/pin"
)

// The consumer's cap: one scheduler thread, a memory limit, and one CPU.
const (
	consumerGOMAXPROCS = "1"
	consumerGOMEMLIMIT = "512MiB"
	// pinEnv tells the consumer how its CPU was pinned: "taskset:<cpu>",
	// "self:<cpu>" (pin yourself), or "none:<why>".
	pinEnv = "WIREGATE_PIPELINE_PIN"
)

// capConsumer sets the consumer's environment and pins it to one CPU: with
// taskset when it exists and works here, else by asking the consumer to pin
// its own threads. The consumer reports what held (ConsumeResult.Cap).
func capConsumer(cmd *exec.Cmd) {
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	env = append(env, "GOMAXPROCS="+consumerGOMAXPROCS, "GOMEMLIMIT="+consumerGOMEMLIMIT)
	cpu, err := pin.CPU()
	switch {
	case err != nil:
		env = append(env, pinEnv+"=none:"+err.Error())
	case pin.TasksetWorks(cpu):
		pin.Taskset(cmd, cpu)
		env = append(env, fmt.Sprintf("%s=taskset:%d", pinEnv, cpu))
	default:
		env = append(env, fmt.Sprintf("%s=self:%d", pinEnv, cpu))
	}
	cmd.Env = env
}

// applyCapInConsumer pins the consumer's threads when asked to pin itself,
// then describes the cap that holds, as observed from inside.
func applyCapInConsumer() string {
	how, arg, _ := strings.Cut(os.Getenv(pinEnv), ":")
	note := ""
	switch how {
	case "self":
		cpu, err := strconv.Atoi(arg)
		if err == nil {
			err = pinAllThreads(cpu)
		}
		if err != nil {
			note = fmt.Sprintf("; pinning did not hold: %v", err)
		}
	case "none":
		note = "; pinning did not hold: " + arg
	case "":
		how = "not asked"
	}
	cpus := "?"
	var set unix.CPUSet
	if unix.SchedGetaffinity(0, &set) == nil {
		cpus = strconv.Itoa(set.Count())
	}
	limit := debug.SetMemoryLimit(-1)
	mem := "none"
	if limit < 1<<62 {
		mem = fmt.Sprintf("%dMiB", limit>>20)
	}
	return fmt.Sprintf("GOMAXPROCS=%d GOMEMLIMIT=%s cpus=%s (pinned by %s%s)", runtime.GOMAXPROCS(0), mem, cpus, how, note)
}

// pinAllThreads sets every existing thread of this process to cpu; threads
// created later inherit the mask of the thread that creates them.
func pinAllThreads(cpu int) error {
	var set unix.CPUSet
	set.Set(cpu)
	tids, err := filepath.Glob("/proc/self/task/*")
	if err != nil || len(tids) == 0 {
		return fmt.Errorf("listing threads: %v", err)
	}
	for _, t := range tids {
		tid, err := strconv.Atoi(filepath.Base(t))
		if err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, &set); err != nil {
			return fmt.Errorf("sched_setaffinity(%d, cpu %d): %v", tid, cpu, err)
		}
	}
	return nil
}

// peakRSS is this process's peak resident set (VmHWM), 0 when unknown.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
