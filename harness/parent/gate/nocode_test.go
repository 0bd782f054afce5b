package gate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
)

// plant writes an executable that leaves marker behind when it runs.
func plant(t *testing.T, path, marker, output string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	script := "#!/bin/sh\necho \"$0 $*\" >> " + marker + "\necho " + output + "\nexit 0\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// A head that carries programs for the gate to find: a buf in
// node_modules/.bin (on PATH, as a workflow's `npm ci` step would put
// it), a harness/ of wiregate's module path, and a check plugin its
// buf.yaml adds. The gate runs none of them: without --harness-dir it
// links the harness it was built from (never the checkout's harness/),
// lint runs with the real buf and without the plugin, and the report says
// so once.
func TestTheGateRunsNothingTheCheckoutCarries(t *testing.T) {
	base, head := checkouts(t)
	marker := filepath.Join(t.TempDir(), "ran")
	plant(t, filepath.Join(head, "node_modules", ".bin", "buf"), marker, "1.75.0")
	plant(t, filepath.Join(head, "tools", "x"), marker, "")
	os.MkdirAll(filepath.Join(head, "harness"), 0o755)
	os.WriteFile(filepath.Join(head, "harness", "go.mod"), []byte("module github.com/wiregate/wiregate/harness\n\ngo 1.21\n"), 0o644)
	b, _ := os.ReadFile(filepath.Join(head, "buf.yaml"))
	os.WriteFile(filepath.Join(head, "buf.yaml"), append(b, "plugins:\n  - plugin: ./tools/x\n"...), 0o644)
	t.Setenv("PATH", filepath.Join(head, "node_modules", ".bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("WIREGATE_HARNESS", "")
	t.Setenv("WIREGATE_BUF", "")
	t.Chdir(head)

	r := run(t, base, head, func(_ map[string]string, o *gate.Options) { o.HarnessDir = "" })
	if b, err := os.ReadFile(marker); err == nil {
		t.Fatalf("the gate ran the checkout's programs:\n%s", b)
	}
	if r.ExitCode != 0 || len(r.Errors) != 0 {
		t.Fatalf("exit %d, errors %q", r.ExitCode, r.Errors)
	}
	var said []string
	for _, w := range r.Warnings {
		if strings.Contains(w, "./tools/x") {
			said = append(said, w)
		}
	}
	want := "buf lint and buf breaking ran without check plugin ./tools/x (the base's buf.yaml does not declare it)"
	if len(said) != 1 || !strings.HasPrefix(said[0], want) {
		t.Fatalf("warnings %q, want one starting %q", r.Warnings, want)
	}
}
