package main

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/wiregate/wiregate/harness/program/benchprog"
)

// A gate stopped by SIGTERM after the cpu stage keeps what that stage
// counted: report.json has the instruction counts next to the error that
// names the signal. (The counts run first here: beside the bench rounds
// they would still be running at the first round.)
func TestGateTerminatedAfterTheCPUStageKeepsItsCounts(t *testing.T) {
	if _, err := exec.LookPath("valgrind"); err != nil {
		if os.Getenv("WIREGATE_SKIP_VALGRIND") != "1" {
			t.Fatal("valgrind not installed: apt-get install valgrind (.ci/run does), or set WIREGATE_SKIP_VALGRIND=1")
		}
		t.Skip("valgrind not installed and WIREGATE_SKIP_VALGRIND=1")
	}
	g := interruptGateWith(t, syscall.SIGTERM, "wiregate: bench: round 1 of", " "+benchprog.CmdBench+" ",
		"--count", "20", "--benchtime", "50ms", "--pipeline=false", "--counts-beside=false")
	if g.code != 2 || !strings.Contains(strings.Join(g.report.Errors, " "), "interrupted by SIGTERM") {
		t.Fatalf("exit %d, errors %q", g.code, g.report.Errors)
	}
	counted := 0
	for _, m := range g.report.Messages {
		for _, f := range m.Formats {
			for _, x := range f.Metrics {
				if x.Unit == "instr/op" && x.Base != nil && x.Head != nil && x.Head.Center > 0 {
					counted++
				}
			}
		}
	}
	if counted != 2 { // protobuf encode and decode
		t.Fatalf("%d instruction counts kept in report.json, want 2:\n%s", counted, strings.Join(g.stderr, "\n"))
	}
}
