package cpucost

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Valgrind reads options from ./.valgrindrc, a file a pull request can
// commit: a count runs Valgrind in its own scratch directory, so the
// working directory's (the checkout's) is never read.
func TestValgrindReadsNoValgrindrcOfTheCheckout(t *testing.T) {
	vg, err := exec.LookPath("valgrind")
	if err != nil {
		t.Skip("valgrind not installed")
	}
	checkout := t.TempDir()
	marker := filepath.Join(t.TempDir(), "valgrind.log")
	if err := os.WriteFile(filepath.Join(checkout, ".valgrindrc"), []byte("--log-file="+marker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(checkout)
	_, _ = countWith(t, context.Background(), vg) // /bin/true counts nothing: only what Valgrind read matters
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("valgrind read the working directory's .valgrindrc (it wrote its log where that file said)")
	}
}
