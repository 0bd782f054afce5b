package render

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

var update = flag.Bool("update", false, "rewrite test/golden/*.md from the renderer")

// repoRoot is the repository's root, three levels above this package.
var repoRoot = filepath.Join("..", "..", "..")

// goldenSources are the golden reports: test/golden's own and the gate's
// real fixtures (test/fixtures), by the name of their .md.
func goldenSources(t *testing.T) map[string]string {
	t.Helper()
	golden := filepath.Join(repoRoot, "test", "golden")
	files, err := filepath.Glob(filepath.Join(golden, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden reports in %s: %v", golden, err)
	}
	out := map[string]string{}
	for _, f := range files {
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = f
	}
	for _, n := range []string{"pass", "all", "fail", "allowed"} {
		out["fixture-"+n] = filepath.Join(repoRoot, "test", "fixtures", n+".json")
	}
	return out
}

// readReport reads and checks a report.json as wiregate render does.
func readReport(t *testing.T, path string) *report.Report {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := report.Validate(b); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var r report.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &r
}

// TestGoldenComments renders every golden report and compares it with
// its committed report.md byte for byte: a change to the renderer is a
// diff a reviewer reads (`go test ./parent/render -update` rewrites them).
func TestGoldenComments(t *testing.T) {
	for name, path := range goldenSources(t) {
		t.Run(name, func(t *testing.T) {
			got := Report(readReport(t, path), Context{RunURL: "https://example.test/run/1"})
			file := filepath.Join(repoRoot, "test", "golden", name+".md")
			if *update {
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%s is missing: run go test ./parent/render -update", file)
			}
			if got != string(want) {
				t.Errorf("%s differs from what the renderer writes (go test ./parent/render -update, then review the diff):\n%s", file, firstDifference(string(want), got))
			}
		})
	}
}

// firstDifference is the first line where want and got part, with both.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + itoa(i+1) + ":\nwant: " + a + "\ngot:  " + b
		}
	}
	return "(same lines)"
}
