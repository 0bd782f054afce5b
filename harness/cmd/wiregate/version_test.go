package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// `wiregate version` says which wiregate this is and which buf, Go and
// Valgrind a gate here would run — or what it would do without one.
func TestVersionSaysWhatAGateHereWouldRun(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go")
	}
	t.Setenv("WIREGATE_BUF", "")
	cache := t.TempDir()
	t.Setenv("WIREGATE_CACHE", cache) // none installed yet
	bufDir := filepath.Join(repoRoot(t), "node_modules", ".bin")
	t.Setenv("PATH", strings.Join([]string{bufDir, filepath.Dir(goBin), os.Getenv("PATH")}, string(os.PathListSeparator)))
	var out bytes.Buffer
	printVersions(context.Background(), &out)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines:\n%s", len(lines), out.String())
	}
	for i, want := range []string{
		`^wiregate \(devel\)`,
		`^buf      1\.75\.0  ` + regexp.QuoteMeta(filepath.Join(bufDir, "buf")) + `$`,
		`^go       go1\.\d+\S*  ` + regexp.QuoteMeta(goBin) + `$`,
		`^valgrind (\d+\.\d+\S*  /\S+|not found: .+)$`,
	} {
		if !regexp.MustCompile(want).MatchString(lines[i]) {
			t.Errorf("line %d: %q, want %s", i+1, lines[i], want)
		}
	}
	t.Setenv("PATH", filepath.Dir(goBin))
	out.Reset()
	printVersions(context.Background(), &out)
	if !strings.Contains(out.String(), "buf      1.75.0  not found: a gate installs it into its cache on first use") {
		t.Error(out.String())
	}
	// The buf a gate installed into its cache is the one a gate runs next.
	installed := filepath.Join(cache, "buf", "1.75.0", "node_modules", ".bin", "buf")
	if err := os.MkdirAll(filepath.Dir(installed), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(installed, []byte("#!/bin/sh\necho 1.75.0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	printVersions(context.Background(), &out)
	if want := "\nbuf      1.75.0  " + installed + "\n"; !strings.Contains(out.String(), want) {
		t.Errorf("want %q in:\n%s", want, out.String())
	}
}
