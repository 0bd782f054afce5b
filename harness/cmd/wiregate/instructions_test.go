package main

import (
	"os"
	"os/exec"
	"path/filepath"
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
// the exact-unit line, and one instr/op line per op and format.
func TestInstructionsPrintsBenchfmt(t *testing.T) {
	if testing.Short() {
		t.Skip("counts under Valgrind")
	}
	if _, err := exec.LookPath("valgrind"); err != nil && os.Getenv("WIREGATE_SKIP_VALGRIND") != "1" {
		t.Fatal("valgrind not installed: apt-get install valgrind (.ci/run does), or set WIREGATE_SKIP_VALGRIND=1")
	} else if err != nil {
		t.Skip("valgrind not installed and WIREGATE_SKIP_VALGRIND=1")
	}
	r := runWiregate(t, "instructions", "--buf-input", copySchemas(t), "--messages", "pingpong.v1.PingPong", "--formats", "json,protobuf")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "goos: ") || !strings.Contains(r.stdout, "Unit instr/op assume=exact better=lower") {
		t.Fatalf("no header or unit line:\n%s", r.stdout)
	}
	n := 0
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(l, "Benchmark") {
			f := strings.Fields(l)
			if len(f) != 4 || f[1] != "1024" || f[3] != "instr/op" {
				t.Errorf("line %q: want <name> 1024 <n> instr/op", l)
			}
			n++
		}
	}
	if n != 4 {
		t.Fatalf("%d benchmark lines, want 4:\n%s", n, r.stdout)
	}
}
