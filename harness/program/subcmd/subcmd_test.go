package subcmd

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

func registry() *Registry {
	r := New("prog")
	r.Add(Command{Name: "greet", Summary: "say hello", Run: func(ctx context.Context, args []string) error {
		fs := flag.NewFlagSet("greet", flag.ContinueOnError)
		fs.String("name", "world", "who to greet")
		return Parse("prog", fs, args)
	}})
	r.Add(Command{Name: "fail", Summary: "fail in two lines", Run: func(ctx context.Context, args []string) error {
		return exitcode.Failf("first line\n\n  second   line ")
	}})
	r.Add(Command{Name: "wait", Run: func(ctx context.Context, args []string) error {
		<-ctx.Done()
		return errors.New("child: signal: terminated")
	}})
	return r
}

func run(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := registry().Run(ctx, args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestHelpExitsZeroAndListsVisibleCommands(t *testing.T) {
	for _, args := range [][]string{nil, {"help"}, {"-h"}, {"--help"}} {
		code, out, errs := run(t, context.Background(), args...)
		if code != 0 || errs != "" || !strings.Contains(out, "greet") || !strings.Contains(out, "say hello") {
			t.Errorf("%q: code %d, stdout %q, stderr %q", args, code, out, errs)
		}
		if strings.Contains(out, "wait") {
			t.Errorf("%q: usage lists the hidden command: %q", args, out)
		}
	}
}

// --help on a subcommand prints its flags and exits 0.
func TestSubcommandHelpExitsZero(t *testing.T) {
	for _, h := range []string{"-h", "--help", "-help"} {
		code, out, errs := run(t, context.Background(), "greet", h)
		if code != 0 || errs != "" || !strings.Contains(out, "-name") || !strings.Contains(out, "usage: prog greet") {
			t.Errorf("greet %s: code %d, stdout %q, stderr %q", h, code, out, errs)
		}
	}
}

func TestBadInputIsOneLineAndExitTwo(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"nope"}, `prog: unknown command "nope"; run ` + "`prog help`"},
		{[]string{"greet", "--bogus"}, "prog greet: flag provided but not defined: -bogus; run `prog greet -h` for the flags"},
		{[]string{"greet", "stray"}, `prog greet: unexpected argument "stray"`},
	} {
		code, out, errs := run(t, context.Background(), tc.args...)
		if code != exitcode.Unusable || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, tc.want) {
			t.Errorf("%q: code %d, stdout %q, stderr %q; want a line starting %q", tc.args, code, out, errs, tc.want)
		}
	}
}

func TestErrorKeepsItsCodeOnOneLine(t *testing.T) {
	code, _, errs := run(t, context.Background(), "fail")
	if code != exitcode.Failed || errs != "prog fail: first line; second line\n" {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
}

// After a signal the line names the interruption, not what a killed child
// made of it, and the code is 2.
func TestInterruptedCommandNamesTheSignal(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(Interrupted{Signal: syscall.SIGTERM})
	code, _, errs := run(t, ctx, "wait")
	if code != exitcode.Unusable || errs != "prog wait: interrupted by SIGTERM\n" {
		t.Fatalf("code %d, stderr %q", code, errs)
	}
}

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                          "plain",
		"a\nb":                           "a; b",
		"  lead\n\n\ttabbed   text \n":   "lead; tabbed text",
		"buf: a.proto:1:2: x\r\nb.proto": "buf: a.proto:1:2: x; b.proto",
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFirstSignalCancelsWithItsName(t *testing.T) {
	ctx, stop := notifyContext(context.Background(), "prog", time.Minute)
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("SIGINT did not cancel the context")
	}
	if got := context.Cause(ctx).Error(); got != "interrupted by SIGINT" {
		t.Fatalf("cause %q", got)
	}
}

// A command that ignores its context is cut short grace after the signal,
// with exit code 2: wiregate never outstays a cancelled job. A command with
// nothing to clean up (a benchmark) is cut short at once.
func TestProgramExitsAfterGrace(t *testing.T) {
	if mode := os.Getenv("SUBCMD_TEST_STUCK"); mode != "" {
		r := New("stuck")
		r.Add(Command{Name: "hang", NoCleanup: mode == "at-once", Run: func(ctx context.Context, args []string) error {
			os.Stdout.WriteString("ready\n")
			time.Sleep(time.Minute)
			return nil
		}})
		os.Args = []string{"stuck", "hang"}
		r.Main(500 * time.Millisecond)
	}
	for _, tc := range []struct {
		mode, line string
		within     time.Duration
	}{
		{"grace", "stuck: interrupted by SIGTERM; still stopping 500ms later, exiting now", 5 * time.Second},
		{"at-once", "stuck: interrupted by SIGTERM\n", 400 * time.Millisecond},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestProgramExitsAfterGrace$")
		cmd.Env = append(os.Environ(), "SUBCMD_TEST_STUCK="+tc.mode)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 6)
		if _, err := out.Read(buf); err != nil || string(buf) != "ready\n" {
			t.Fatalf("%s: the child did not start its command: %q %v", tc.mode, buf, err)
		}
		start := time.Now()
		_ = cmd.Process.Signal(syscall.SIGTERM)
		if tc.mode == "grace" {
			time.Sleep(100 * time.Millisecond)
			_ = cmd.Process.Signal(syscall.SIGINT) // a second signal is ignored, not fatal
		}
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitcode.Unusable {
			t.Fatalf("%s: exit %v, want code 2; stderr %q", tc.mode, err, errb.String())
		}
		if d := time.Since(start); d > tc.within {
			t.Errorf("%s: exited %s after the signal, want within %s", tc.mode, d, tc.within)
		}
		if !strings.Contains(errb.String(), tc.line) {
			t.Errorf("%s: stderr %q, want %q", tc.mode, errb.String(), tc.line)
		}
	}
}
