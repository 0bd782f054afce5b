package cpucost_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/internal/proctest"
	"github.com/wiregate/wiregate/harness/parent/cpucost"
	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/proc"
)

// Cancelling the gate during instruction counting stops real Valgrind and
// everything the program under it started (here a shell script that starts
// a native child): Count returns the cancel at once and nothing is left
// running, within the group's kill window.
func TestCancelledCountLeavesNoProcess(t *testing.T) {
	requireValgrind(t)
	program := filepath.Join(t.TempDir(), "program")
	if err := os.WriteFile(program, []byte("#!/bin/sh\nsleep 67.5 &\nsleep 68.5\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := cpucost.Count(ctx, program, benchprog.Selection{Messages: []string{"m.v1.M"}, Formats: []string{"protobuf"}, Saved: t.TempDir()}, cpucost.Options{})
		done <- err
	}()
	ps, ok := proctest.WaitFor(time.Minute, proctest.Runs("sleep 68.5"))
	if !ok || !proctest.Running(ps, "--tool=callgrind") {
		t.Fatalf("the program never ran under valgrind: %+v", ps)
	}
	took, err := proctest.Cancel(t, cancel, done)
	t.Logf("cancelled %d processes in %s: %v", len(ps), took.Round(time.Millisecond), err)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "valgrind did not finish") {
		t.Errorf("error %v, want the cancel", err)
	}
	// Valgrind usually stops on the group's SIGTERM at once; when its guest
	// sits in a blocking call it may not, and the group's SIGKILL ends it
	// KillAfter later. Either way nothing is left.
	if took > proc.KillAfter+time.Second {
		t.Errorf("Count returned %s after the cancel, want at most KillAfter (%s) and a little", took, proc.KillAfter)
	}
	time.Sleep(100 * time.Millisecond) // a SIGKILL may land just after Wait returned
	proctest.NoneLeft(t, ps)
}
