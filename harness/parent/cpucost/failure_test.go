package cpucost

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// fakeValgrind writes a shell script standing in for valgrind.
func fakeValgrind(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "valgrind")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

var oneCase = benchprog.Selection{Messages: []string{"m.v1.M"}, Formats: []string{"protobuf"}, Saved: "/saved"}

func countWith(t *testing.T, ctx context.Context, vg string) (*Counts, error) {
	t.Helper()
	if unsupported() != "" {
		t.Skip(unsupported())
	}
	return Count(ctx, "/bin/true", oneCase, Options{Valgrind: vg, Ops: []string{"encode"}})
}

// oneLine fails unless err is a single line with every piece and no trace.
func oneLine(t *testing.T, err error, pieces ...string) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	t.Log(msg)
	if strings.Contains(msg, "\n") || strings.Contains(msg, "goroutine ") {
		t.Fatalf("error is not one line: %q", msg)
	}
	for _, p := range pieces {
		if !strings.Contains(msg, p) {
			t.Errorf("error %q does not contain %q", msg, p)
		}
	}
}

func TestMissingValgrindIsUnavailableNotAnError(t *testing.T) {
	c, err := countWith(t, context.Background(), filepath.Join(t.TempDir(), "no-such-valgrind"))
	if err != nil {
		t.Fatalf("missing valgrind is an error: %v", err)
	}
	if !strings.Contains(c.Unavailable, "valgrind not found") || strings.Contains(c.Unavailable, "\n") || len(c.Results) != 0 {
		t.Fatalf("want a one-line unavailable reason and no results, got %+v", c)
	}
	t.Setenv("PATH", t.TempDir())
	c, err = Count(context.Background(), "/bin/true", oneCase, Options{})
	if err != nil || !strings.Contains(c.Unavailable, "apt-get install valgrind") {
		t.Fatalf("valgrind absent from PATH: %+v, %v", c, err)
	}
}

func TestValgrindExitingNonZeroIsOneLine(t *testing.T) {
	vg := fakeValgrind(t, `echo "==1== Callgrind, a call-graph generating cache profiler" >&2
echo "valgrind: Fatal error at startup: a function redirection" >&2
exit 1`)
	_, err := countWith(t, context.Background(), vg)
	oneLine(t, err, "valgrind exited with 1", "Fatal error at startup")
}

func TestProgramErrorUnderValgrindKeepsItsCode(t *testing.T) {
	vg := fakeValgrind(t, `echo 'wiregate count: --messages: "m.v1.M" is not in this bench program' >&2
exit 2`)
	_, err := countWith(t, context.Background(), vg)
	oneLine(t, err, `"m.v1.M" is not in this bench program`)
	if exitcode.Code(err) != exitcode.Unusable {
		t.Errorf("exit code %d, want %d", exitcode.Code(err), exitcode.Unusable)
	}
}

// Valgrind's start-up failure when the C library has no symbols, as 3.19
// prints it: the error is the "Fatal error" sentence, not the advice or
// the "Cannot continue" that follow.
func TestValgrindMissingSymbolsIsItsFatalSentence(t *testing.T) {
	vg := fakeValgrind(t, `cat >&2 <<'END'
==9== Callgrind, a call-graph generating cache profiler
valgrind:  Fatal error at startup: a function redirection
valgrind:  which is mandatory for this platform-tool combination
valgrind:  cannot be set up.  Details of the redirection are:
valgrind:  
valgrind:  A must-be-redirected function
valgrind:  whose name matches the pattern:      strlen
valgrind:  in an object with soname matching:   ld-linux-x86-64.so.2
valgrind:  
valgrind:  Possible fixes: (1, short term): install glibc's debuginfo
valgrind:  package on this machine.
valgrind:  
valgrind:  Cannot continue -- exiting now.  Sorry.
END
exit 1`)
	_, err := countWith(t, context.Background(), vg)
	oneLine(t, err, "valgrind exited with 1: valgrind: Fatal error at startup: a function redirection which is mandatory for this platform-tool combination cannot be set up. Details of the redirection are:")
	if strings.Contains(err.Error(), "Cannot continue") {
		t.Errorf("the advice, not the error: %v", err)
	}
}

func TestValgrindKilledIsOneLine(t *testing.T) {
	_, err := countWith(t, context.Background(), fakeValgrind(t, `kill -9 $$`))
	oneLine(t, err, "valgrind was killed by signal 9")
}

func TestValgrindHangingIsBoundedByTheContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := countWith(t, ctx, fakeValgrind(t, `exec sleep 60`))
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("a hanging valgrind held the count for %s", took)
	}
	oneLine(t, err, "did not finish", "deadline exceeded")
}

// A Valgrind that hangs on its own (the caller did not cancel) is ended by
// the per-process bound, as one line naming the case.
func TestValgrindHangingIsBoundedPerProcess(t *testing.T) {
	if unsupported() != "" {
		t.Skip(unsupported())
	}
	start := time.Now()
	_, err := Count(context.Background(), "/bin/true", oneCase, Options{Valgrind: fakeValgrind(t, `exec sleep 60`), ProcessTimeout: 300 * time.Millisecond})
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("a hanging valgrind held the count for %s", took)
	}
	oneLine(t, err, "valgrind did not finish m.v1.M in 300ms")
}

func TestNoDumpForACountedLoopIsAnError(t *testing.T) {
	vg := fakeValgrind(t, `echo "`+benchprog.CountLabel("BenchmarkEncode/m.v1.M/protobuf", 1024, false)+`"`)
	_, err := countWith(t, context.Background(), vg)
	oneLine(t, err, "no dump for BenchmarkEncode/m.v1.M/protobuf")
	_, err = countWith(t, context.Background(), fakeValgrind(t, `exit 0`))
	oneLine(t, err, "counted nothing")
}

// What a loop's calls into a type assertion's slow paths took (an
// uncached site) is left out of its count and said apart, by the one
// process that counted it: no second process.
func TestALoopsSlowPathsAreLeftOut(t *testing.T) {
	if unsupported() != "" {
		t.Skip(unsupported())
	}
	calls := filepath.Join(t.TempDir(), "calls")
	// The stand-in writes one dump per run: Ir 2,048,000, of which the
	// loop's calls into runtime.typeAssert took 1,024,000.
	vg := fakeValgrind(t, `
for a in "$@"; do case $a in --callgrind-out-file=*) out=${a#--callgrind-out-file=};; esac; done
echo run >> `+calls+`
label="`+benchprog.CountLabel("BenchmarkEncode/m.v1.M/protobuf", 1024, false)+`"
printf '# callgrind format\ndesc: Trigger: Client Request: %s\nevents: Ir\nfn=(1) main.loop\n0 1024000\ncfn=(14) runtime.typeAssert\ncalls=1024 0\n0 1024000\nfn=(14)\n0 1024000\ntotals: 2048000\n' "$label" > "$out.1"
echo "$label"`)
	c, err := countWith(t, context.Background(), vg)
	if err != nil {
		t.Fatal(err)
	}
	runs, _ := os.ReadFile(calls)
	if len(c.Results) != 1 || c.Results[0].InstrPerOp() != 1000 || c.Results[0].Uncached != 1024000 || strings.Count(string(runs), "run") != 1 {
		t.Fatalf("results %+v after %d runs, want 1000 instr/op with 1,024,000 uncached left out, from one run", c.Results, strings.Count(string(runs), "run"))
	}
}
