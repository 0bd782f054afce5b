package pin

import (
	"context"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The CPUs beside the timing one never include it, and a command pinned to
// them runs there and only there: what the counts beside the bench rounds
// rely on.
func TestOthersLeaveTheTimingCPUAlone(t *testing.T) {
	timing, err := CPU()
	if err != nil {
		t.Fatal(err)
	}
	others := Others()
	if slices.Contains(others, timing) {
		t.Fatalf("Others() = %v includes the timing CPU %d", others, timing)
	}
	if len(others) == 0 {
		t.Skipf("one CPU (or no taskset) here: nothing runs beside the timings")
	}
	cmd := exec.CommandContext(context.Background(), "/bin/sh", "-c", "grep Cpus_allowed_list /proc/self/status")
	TasksetList(cmd, others)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	_, list, _ := strings.Cut(strings.TrimSpace(string(out)), ":")
	if got := cpuList(t, strings.TrimSpace(list)); !slices.Equal(got, others) {
		t.Fatalf("pinned to %v (%q), want %v", got, out, others)
	}
}

// cpuList reads the kernel's list form: "0-2,5".
func cpuList(t *testing.T, s string) []int {
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			t.Fatalf("cpu list %q: %v", s, err)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				t.Fatalf("cpu list %q: %v", s, err)
			}
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	return out
}
