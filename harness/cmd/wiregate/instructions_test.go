package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestInstructionsWithoutValgrindSaysWhy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a bench program")
	}
	r := runWiregate(t, "instructions", "--buf-input", copySchemas(t), "--messages", "pingpong.v1.PingPong",
		"--valgrind", filepath.Join(t.TempDir(), "valgrind"))
	wantBadInput(t, r, "valgrind not found", "apt-get install valgrind")
}

// `wiregate instructions` prints benchfmt that benchstat reads: the header,
// the exact-unit line, and one instr/op line per op and format, each
// covering the operations its format's precision needs (both ops of a
// format alike; the cheaper protobuf at least as many as JSON), or exactly
// the span asked for with --first and --passes.
func TestInstructionsPrintsBenchfmt(t *testing.T) {
	if testing.Short() {
		t.Skip("counts under Valgrind")
	}
	if _, err := exec.LookPath("valgrind"); err != nil && os.Getenv("WIREGATE_SKIP_VALGRIND") != "1" {
		t.Fatal("valgrind not installed: apt-get install valgrind (.ci/run does), or set WIREGATE_SKIP_VALGRIND=1")
	} else if err != nil {
		t.Skip("valgrind not installed and WIREGATE_SKIP_VALGRIND=1")
	}
	schemas := copySchemas(t)
	ops := func(extra ...string) map[string]int {
		t.Helper()
		args := append([]string{"instructions", "--buf-input", schemas, "--messages", "pingpong.v1.PingPong", "--formats", "json,protobuf"}, extra...)
		r := runWiregate(t, args...)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		if !strings.Contains(r.stdout, "goos: ") || !strings.Contains(r.stdout, "Unit instr/op assume=exact better=lower") {
			t.Fatalf("no header or unit line:\n%s", r.stdout)
		}
		got := map[string]int{}
		for _, l := range strings.Split(r.stdout, "\n") {
			if !strings.HasPrefix(l, "Benchmark") {
				continue
			}
			f := strings.Fields(l)
			n, err := strconv.Atoi(f[1])
			if len(f) != 4 || err != nil || f[3] != "instr/op" {
				t.Fatalf("line %q: want <name> <ops> <n> instr/op", l)
			}
			if v, err := strconv.ParseFloat(f[2], 64); err != nil || v <= 0 {
				t.Errorf("line %q: no count", l)
			}
			got[f[0]] = n
		}
		if len(got) != 4 {
			t.Fatalf("%d benchmark lines, want 4:\n%s", len(got), r.stdout)
		}
		return got
	}
	byPrecision := ops()
	for _, format := range []string{"json", "protobuf"} {
		enc, dec := byPrecision["BenchmarkEncode/pingpong.v1.PingPong/"+format], byPrecision["BenchmarkDecode/pingpong.v1.PingPong/"+format]
		if enc != dec || enc < 32 {
			t.Errorf("%s: encode %d and decode %d operations, want the same length of at least 32", format, enc, dec)
		}
	}
	if j, p := byPrecision["BenchmarkDecode/pingpong.v1.PingPong/json"], byPrecision["BenchmarkDecode/pingpong.v1.PingPong/protobuf"]; p < j {
		t.Errorf("protobuf counted %d operations, json %d: the cheaper format needs at least as many", p, j)
	}
	for name, n := range ops("--first", "64", "--passes", "2") {
		if n != 128 {
			t.Errorf("%s: %d operations with --first 64 --passes 2, want 128", name, n)
		}
	}
}

func TestInstructionsBadBatchIsOneLine(t *testing.T) {
	r := runWiregate(t, "instructions", "--batch", "-1")
	wantBadInput(t, r, "--batch -1", "must not be negative")
}
