package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

func renderArgs(t *testing.T, args ...string) (string, error) {
	t.Helper()
	t.Setenv("GITHUB_ACTIONS", "")
	t.Setenv("GITLAB_CI", "")
	var out bytes.Buffer
	err := renderTo(&out, args)
	return out.String(), err
}

// `wiregate render` is the one renderer: the action takes its markdown,
// the golden comments are what it writes.
func TestRenderWritesTheGoldenComment(t *testing.T) {
	got, err := renderArgs(t, "--report", filepath.Join(repoRoot(t), "test", "fixtures", "fail.json"), "--run-url", "https://example.test/run/1")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(repoRoot(t), "test", "golden", "fixture-fail.md"))
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Error("render --as markdown differs from test/golden/fixture-fail.md")
	}
}

func TestRenderAComment(t *testing.T) {
	fail := filepath.Join(repoRoot(t), "test", "fixtures", "fail.json")
	got, err := renderArgs(t, "--report", fail, "--as", "comment", "--workflow", "CI <!--", "--job", "wire", "--run-url", "https://github.com/o/r/actions/runs/9")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "<!-- wiregate:CI __-/wire -->\n## ❌ wiregate: fail") {
		t.Errorf("the marker (its name made plain) first, then the report:\n%.200s", got)
	}
	if strings.Count(got, "<!--") != 1 {
		t.Error("a second marker")
	}
	// A fork's report publish cannot vouch for leads with why.
	got, err = renderArgs(t, "--report", fail, "--as", "comment", "--untrusted", `{"why":"the workflow changed","files":[".github/workflows/ci.yml","<b>x</b>"]}`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "<!-- wiregate:wiregate/gate -->\n## ⛔ wiregate: the workflow changed\n\nThis pull request comes from a fork and changes `.github/workflows/ci.yml`, `<b>x</b>`:") {
		t.Errorf("%.400s", got)
	}
	// A refused report: wiregate's words, the reason escaped.
	got, err = renderArgs(t, "--as", "comment", "--refused", "version 3 <script>", "--run-id", "9", "--run-url", "https://github.com/o/r/actions/runs/9")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "## ⛔ wiregate refused the report of [run 9](https://github.com/o/r/actions/runs/9)\n\nversion 3 &lt;script&gt;\n") {
		t.Error(got)
	}
}

func TestRenderBadInputIsOneLineAndExitTwo(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "report.json")
	if err := os.WriteFile(broken, []byte(`{"version": 1, "result": "maybe"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	fail := filepath.Join(repoRoot(t), "test", "fixtures", "fail.json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "want --report report.json"},
		{[]string{"--report", filepath.Join(dir, "none.json")}, "none.json: no such file; pass a report.json"},
		{[]string{"--report", broken}, "report.json does not match report.schema.json"},
		{[]string{"--report", fail, "--as", "xml"}, `--as "xml": want markdown, summary, comment, json or github`},
		{[]string{"--report", fail, "--as", "comment", "--untrusted", `{"files": []}`}, "--untrusted: want"},
		{[]string{"--refused", "x"}, "--refused is a comment's"},
	} {
		_, err := renderArgs(t, c.args...)
		if exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v", c.args, err)
		}
	}
}

// The github format is workflow commands: annotations on files, escaped,
// then why the gate failed.
func TestRenderGitHubWorkflowCommands(t *testing.T) {
	got, err := renderArgs(t, "--report", filepath.Join(repoRoot(t), "test", "fixtures", "fail.json"), "--as", "github")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "::error file=schemas/orders/v1/order.proto,line=8,col=1,title=buf breaking::") {
		t.Error(lines[0])
	}
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "::error title=wiregate::wiregate failed:%0Abreaking: ") || strings.Contains(last, "\n") {
		t.Error(last)
	}
	pass, err := renderArgs(t, "--report", filepath.Join(repoRoot(t), "test", "fixtures", "pass.json"), "--as", "github")
	if err != nil || pass != "::notice title=wiregate::pass\n" {
		t.Errorf("%q %v", pass, err)
	}
}
