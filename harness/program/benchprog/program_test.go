package benchprog

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// fake is a Program whose binary is a shell script.
func fake(t *testing.T, script string) *Program {
	t.Helper()
	bin := filepath.Join(t.TempDir(), ProgramName)
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	return &Program{Binary: bin}
}

func TestProgramOutputIsTyped(t *testing.T) {
	p := fake(t, `[ "$1" = sizes ] && [ "$3" = a.v1.A ] || exit 3
echo '[{"message":"a.v1.A","format":"json","bytes_mean":12.5,"bytes_min":10,"bytes_max":15,"records":256}]'`)
	ss, err := p.Sizes(context.Background(), SizesFlags{Selection: Selection{Messages: []string{"a.v1.A"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 1 || !reflect.DeepEqual(ss[0], Size{Message: "a.v1.A", Format: "json", BytesMean: 12.5, BytesMin: 10, BytesMax: 15, Records: 256}) {
		t.Fatalf("%+v", ss)
	}
	if p.Pinned() == "" {
		t.Error("the run does not say how it was pinned")
	}
}

// A failure is the program's own line, without its prefix, and its code.
func TestProgramErrorKeepsLineAndCode(t *testing.T) {
	for _, code := range []int{exitcode.Failed, exitcode.Unusable} {
		p := fake(t, `echo progress >&2
echo 'wiregate-bench check: correctness: a.v1.A/json record 0 does not round-trip' >&2
exit `+strconv.Itoa(code))
		_, err := p.Check(context.Background(), CheckFlags{})
		if exitcode.Code(err) != code || err.Error() != "correctness: a.v1.A/json record 0 does not round-trip" {
			t.Errorf("exit %d: %v (code %d)", code, err, exitcode.Code(err))
		}
	}
	_, err := fake(t, "echo '[{'").Check(context.Background(), CheckFlags{})
	if err == nil || !strings.Contains(err.Error(), "bad JSON from the bench program") {
		t.Errorf("bad JSON: %v", err)
	}
	if _, err := (&Program{}).Check(context.Background(), CheckFlags{}); err == nil {
		t.Error("a Program without a binary ran")
	}
}

// Cancelling the context stops the program and every process it started
// (its process group), and the error is the cancellation's cause.
func TestCancelStopsTheWholeGroup(t *testing.T) {
	dir := t.TempDir()
	// self appears whole (a rename): the cancel waits for it, and a file
	// the redirection has made but not yet written read as no pid.
	p := fake(t, `sleep 60 & echo $! > `+dir+`/child
echo $$ > `+dir+`/self.tmp && mv `+dir+`/self.tmp `+dir+`/self
sleep 60`)
	cause := errors.New("interrupted by SIGINT")
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		for !exists(filepath.Join(dir, "self")) {
			time.Sleep(10 * time.Millisecond)
		}
		cancel(cause)
	}()
	start := time.Now()
	err := p.Bench(ctx, BenchFlags{Timing: Timing{Count: 1, Benchtime: time.Second}}, new(strings.Builder))
	if !errors.Is(err, cause) {
		t.Fatalf("error %v, want the cause", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("stopping took %s", d)
	}
	for _, f := range []string{"self", "child"} {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatalf("%s pid %q", f, b)
		}
		if !gone(pid) {
			t.Errorf("%s (pid %d) is still running after the cancel", f, pid)
		}
	}
}

func exists(path string) bool { _, err := os.Stat(path); return err == nil }

// gone waits up to 2 s for pid to be gone (a zombie of someone else's
// counts as gone: it runs nothing).
func gone(pid int) bool {
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		stat := string(b)
		if err != nil || syscall.Kill(pid, 0) == syscall.ESRCH {
			return true
		}
		if f := strings.Fields(stat[strings.LastIndexByte(stat, ')')+1:]); len(f) > 0 && f[0] == "Z" {
			return true
		}
	}
	return false
}
