package main

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/pin"
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

// With the counts beside the bench rounds (where this machine can pin
// them apart), a SIGTERM during the rounds stops both stages: one signal,
// one error (the stage recorded first names it; the other says so in its
// note), and exit 2.
func TestGateTerminatedWithCountsBesideTheRoundsSaysItOnce(t *testing.T) {
	if _, err := exec.LookPath("valgrind"); err != nil {
		if os.Getenv("WIREGATE_SKIP_VALGRIND") != "1" {
			t.Fatal("valgrind not installed: apt-get install valgrind (.ci/run does), or set WIREGATE_SKIP_VALGRIND=1")
		}
		t.Skip("valgrind not installed and WIREGATE_SKIP_VALGRIND=1")
	}
	if len(pin.Others()) == 0 {
		t.Skip("one CPU (or no taskset) here: the counts run first")
	}
	g := interruptGateWith(t, syscall.SIGTERM, "wiregate: bench: round 1 of", " "+benchprog.CmdBench+" ",
		"--count", "20", "--benchtime", "50ms", "--pipeline=false")
	interrupted := 0
	for _, e := range g.report.Errors {
		if strings.Contains(e, "interrupted by SIGTERM") {
			interrupted++
		}
	}
	if g.code != 2 || interrupted != 1 {
		t.Fatalf("exit %d, errors %q: want exit 2 and one interrupted error", g.code, g.report.Errors)
	}
	stopped := 0
	for _, st := range g.report.Stages {
		if (st.Name == "cpu" || st.Name == "bench") && (st.Error != "" || strings.Contains(st.Note, "stopped: interrupted by SIGTERM")) {
			stopped++
		}
	}
	if stopped != 2 {
		t.Errorf("stages %+v: want cpu and bench each to say the signal stopped it", g.report.Stages)
	}
}
