package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// Bad input answered first: a --base-dir that does not exist
// is one line naming it, exit 2, before any stage runs (no progress line,
// no report; it used to surface as buf breaking's error after the size
// and time stages had run).
func TestGateBaseDirThatDoesNotExist(t *testing.T) {
	out := t.TempDir()
	nope := filepath.Join(t.TempDir(), "nope")
	r := runWiregate(t, "gate", "--base-dir", nope, "--working-directory", copySchemas(t), "--out", out)
	wantBadInput(t, r, "--base-dir "+nope+": no such directory", "--against")
	if n := strings.Count(strings.TrimSpace(r.stderr), "\n"); n != 0 {
		t.Errorf("%d lines on stderr, want the one:\n%s", n+1, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "report.json")); err == nil {
		t.Error("a stage ran: report.json was written")
	}
	file := filepath.Join(t.TempDir(), "base.txt")
	os.WriteFile(file, nil, 0o644)
	wantBadInput(t, runWiregate(t, "gate", "--base-dir", file, "--working-directory", copySchemas(t), "--out", out), "--base-dir "+file+": a file, not a directory")
}

// Without --base-label the report names a --base-dir by its commit when it
// is a git checkout, else by its path: never empty (the comment showed ?).
// A bad --count stops the gate at its first stage; the report still names
// both sides.
func TestGateBaseDirLabel(t *testing.T) {
	plain := copySchemas(t)
	checkout := copySchemas(t)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@wiregate.test", "commit", "-qm", "base"}} {
		if out, err := exec.Command("git", append([]string{"-C", checkout}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	sha, err := exec.Command("git", "-C", checkout, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]string{plain: plain, checkout: strings.TrimSpace(string(sha))[:12]} {
		out := t.TempDir()
		r := runWiregate(t, "gate", "--base-dir", dir, "--working-directory", copySchemas(t), "--out", out, "--count", "0", "--quiet")
		if r.code != 2 || !strings.Contains(r.stderr, "--count") {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		b, err := os.ReadFile(filepath.Join(out, "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		var rep report.Report
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Base.Ref != want {
			t.Errorf("--base-dir %s: base named %q, want %q", dir, rep.Base.Ref, want)
		}
		if rep.ExitCode != r.code || !strings.HasPrefix(rep.ExitReason, "wiregate could not run: --count") {
			t.Errorf("report.json says exit %d (%q), the process %d", rep.ExitCode, rep.ExitReason, r.code)
		}
	}
	out := t.TempDir()
	runWiregate(t, "gate", "--base-dir", checkout, "--base-label", "main", "--working-directory", copySchemas(t), "--out", out, "--count", "0", "--quiet")
	if b, _ := os.ReadFile(filepath.Join(out, "report.json")); !strings.Contains(string(b), `"ref": "main"`) {
		t.Errorf("--base-label main is not the base's name: %s", b)
	}
}

// A codec or batch size the gate does not accept is one line naming the
// flag and what is accepted, exit 2, and a report.json that says so; the
// sizes command refuses the same before it prepares anything.
func TestGateBadCompressionOrBatchBytes(t *testing.T) {
	base := copySchemas(t)
	for _, c := range []struct{ flag, value, want string }{
		{"--compression", "brotli", "gzip, snappy, lz4, zstd"},
		{"--compression", "none,zstd", "none alone"},
		{"--batch-bytes", "100", "1024 to 1048576"},
		{"--batch-bytes", "16KiB", "whole number of bytes"},
	} {
		out := t.TempDir()
		r := runWiregate(t, "gate", "--base-dir", base, "--working-directory", copySchemas(t), "--out", out, c.flag, c.value, "--quiet")
		// The gate's verdict line, then the one error line.
		if r.code != 2 || strings.Contains(r.stderr, "goroutine ") || !strings.Contains(r.stderr, "\nwiregate gate: inputs: "+c.flag+" is ") ||
			!strings.Contains(r.stderr, c.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 1 {
			t.Errorf("%s %s: exit %d:\n%s", c.flag, c.value, r.code, r.stderr)
		}
		var rep report.Report
		if b, err := os.ReadFile(filepath.Join(out, "report.json")); err != nil || json.Unmarshal(b, &rep) != nil ||
			rep.ExitCode != 2 || !strings.Contains(rep.ExitReason, c.flag) {
			t.Errorf("%s %s: report %+v (%v)", c.flag, c.value, rep.ExitReason, err)
		}
	}
	wantBadInput(t, runWiregate(t, "sizes", "--buf-input", base, "--compression", "brotli"), "--compression", `"brotli" is not a codec`)
	wantBadInput(t, runWiregate(t, "sizes", "--buf-input", base, "--batch-bytes", "10"), "--batch-bytes", "outside 1024 to 1048576")
}

// A --format the gate does not print is one line naming it and the
// formats, exit 2, before any stage runs (no report.json).
func TestGateBadFormat(t *testing.T) {
	out := t.TempDir()
	r := runWiregate(t, "gate", "--base-dir", copySchemas(t), "--working-directory", copySchemas(t), "--out", out, "--format", "html")
	wantBadInput(t, r, `--format "html": want markdown`, "json", "github")
	if _, err := os.Stat(filepath.Join(out, "report.json")); err == nil {
		t.Error("a stage ran: report.json was written")
	}
}
