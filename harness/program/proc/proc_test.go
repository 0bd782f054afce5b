package proc_test

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/internal/proctest"
	"github.com/wiregate/wiregate/harness/program/proc"
)

// A failed child is one line, its first stderr line, with its exit code.
func TestFailureIsTheFirstStderrLine(t *testing.T) {
	err := proc.Command(context.Background(), "sh", "-c", "echo; echo 'first: broke' >&2; echo second >&2; exit 3").Run()
	var pe *proc.Error
	if !errors.As(err, &pe) || pe.ExitCode() != 3 {
		t.Fatalf("err %#v, want a *proc.Error with exit code 3", err)
	}
	if err.Error() != "sh: first: broke" {
		t.Errorf("error %q", err)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Errorf("%v does not wrap *exec.ExitError", err)
	}
	err = proc.Command(context.Background(), "no-such-program-wiregate", "sub").Run()
	if err == nil || !strings.HasPrefix(err.Error(), "no-such-program-wiregate sub: ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("a child that cannot start: %v", err)
	}
}

// Output returns stdout also when the child failed (buf prints its
// findings and exits 100).
func TestOutputKeepsStdoutOfAFailure(t *testing.T) {
	out, err := proc.Command(context.Background(), "sh", "-c", "echo finding; exit 100").Output()
	if string(out) != "finding\n" || err == nil || err.(*proc.Error).ExitCode() != 100 {
		t.Errorf("out %q, err %v", out, err)
	}
}

// Cancelling the context stops the child and everything it started,
// within KillAfter; the error is the context's cause.
func TestCancelStopsTheWholeGroup(t *testing.T) {
	cause := errors.New("interrupted by the test")
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error, 1)
	go func() {
		// The grandchild ignores SIGTERM: only the group's SIGKILL ends it.
		done <- proc.Command(ctx, "sh", "-c", "sh -c 'trap \"\" TERM; sleep 61.5' & sleep 62.5; wait").Run()
	}()
	ps, ok := proctest.WaitFor(10*time.Second, proctest.Runs("sleep 61.5"))
	if !ok {
		t.Fatalf("the grandchild did not start: %+v", ps)
	}
	took, err := proctest.Cancel(t, func() { cancel(cause) }, done)
	if !errors.Is(err, cause) || err.Error() != "sh: interrupted by the test" {
		t.Errorf("error %v, want the cause", err)
	}
	// SIGTERM, then the SIGKILL the grandchild waits for.
	if took < proc.KillAfter || took > proc.KillAfter+2*time.Second {
		t.Errorf("stopped in %s, want KillAfter (%s) and a little", took, proc.KillAfter)
	}
	t.Logf("stopped %d processes in %s", len(ps), took.Round(time.Millisecond))
	time.Sleep(100 * time.Millisecond) // the SIGKILL may land just after Wait returned
	proctest.NoneLeft(t, ps)
}

// Kill ends the whole group at once.
func TestKillEndsTheGroup(t *testing.T) {
	c := proc.Command(context.Background(), "sh", "-c", "sleep 63.5 & sleep 64.5; wait")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	ps, ok := proctest.WaitFor(10*time.Second, proctest.Runs("sleep 63.5"))
	if !ok {
		t.Fatalf("the grandchild did not start: %+v", ps)
	}
	if err := c.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = c.Wait()
	time.Sleep(100 * time.Millisecond)
	proctest.NoneLeft(t, ps)
}

// A child with nothing to undo is killed, group and all, as soon as its
// context ends: no SIGTERM grace for it to ignore.
func TestNothingToUndoKillsAtOnce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c := proc.Command(ctx, "sh", "-c", "trap '' TERM; sh -c 'trap \"\" TERM; sleep 65.5' & sleep 66.5; wait")
	c.NothingToUndo()
	done := make(chan error, 1)
	go func() { done <- c.Run() }()
	ps, ok := proctest.WaitFor(10*time.Second, proctest.Runs("sleep 65.5"))
	if !ok {
		t.Fatalf("the grandchild did not start: %+v", ps)
	}
	took, err := proctest.Cancel(t, cancel, done)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want the context's", err)
	}
	if took > proc.KillAfter/3 {
		t.Errorf("stopped in %s: it waited for SIGTERM's grace", took)
	}
	time.Sleep(100 * time.Millisecond)
	proctest.NoneLeft(t, ps)
}
