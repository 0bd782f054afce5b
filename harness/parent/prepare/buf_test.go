package prepare

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// One buf version everywhere: the one `npm ci` installs in this
// repository is the one a gate finds or installs.
func TestBufVersionIsTheRepositorysPin(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		DevDependencies map[string]string `json:"devDependencies"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	if v := pkg.DevDependencies["@bufbuild/buf"]; v != BufVersion {
		t.Errorf("package.json pins @bufbuild/buf %q, wiregate %s", v, BufVersion)
	}
}

// plantBuf writes dir/buf: it says version, and notes each run in marker.
func plantBuf(t *testing.T, dir, version, marker string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "buf")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho \"$0\" >> '"+marker+"'\necho "+version+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// buf is found as the action finds it: the pinned version on PATH's
// absolute directories, never one in the checkout judged (which does not
// even run for --version), then wiregate's own node_modules.
func TestFindBufTakesThePinnedVersionAndNeverTheCheckouts(t *testing.T) {
	tmp := t.TempDir()
	marker := filepath.Join(tmp, "ran")
	checkout := filepath.Join(tmp, "checkout")
	inCheckout := plantBuf(t, filepath.Join(checkout, "node_modules", ".bin"), BufVersion, filepath.Join(tmp, "checkout-ran"))
	old := plantBuf(t, filepath.Join(tmp, "old"), "1.0.0", marker)
	pinned := plantBuf(t, filepath.Join(tmp, "pinned"), BufVersion, marker)
	beside := plantBuf(t, filepath.Join(tmp, "wiregate", "node_modules", ".bin"), BufVersion, marker)
	t.Setenv("WIREGATE_BUF", "")
	t.Chdir(checkout)
	for _, c := range []struct {
		path []string
		want string
	}{
		{[]string{"node_modules/.bin", filepath.Dir(inCheckout), filepath.Dir(old), filepath.Dir(pinned)}, pinned},
		{[]string{filepath.Dir(old)}, beside},
	} {
		t.Setenv("PATH", strings.Join(c.path, string(os.PathListSeparator)))
		got, err := FindBuf(context.Background(), "", filepath.Join(tmp, "wiregate", "harness"), checkout)
		if err != nil || got != c.want {
			t.Errorf("PATH %v: %s %v, want %s", c.path, got, err, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(tmp, "checkout-ran")); err == nil {
		t.Error("the checkout's buf ran")
	}
	t.Setenv("PATH", filepath.Dir(old))
	if _, err := FindBuf(context.Background(), "", "", checkout); err == nil || !regexp.MustCompile(`^buf 1\.75\.0 not found: .*pass --buf PATH`).MatchString(err.Error()) {
		t.Errorf("nothing pinned: %v", err)
	}
}

// Where no buf of the pinned version is found, a gate installs it once
// into its cache, with npm as the action does, and reuses it after.
func TestBufIsInstalledOnFirstUse(t *testing.T) {
	if testing.Short() {
		t.Skip("installs buf from the npm registry")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not on PATH")
	}
	node, _ := exec.LookPath("node")
	cache := t.TempDir()
	t.Setenv("WIREGATE_BUF", "")
	// npm and node only: no buf on PATH.
	t.Setenv("PATH", strings.Join([]string{filepath.Dir(npm), filepath.Dir(node)}, string(os.PathListSeparator)))
	t.Chdir(t.TempDir())
	got, err := Buf(context.Background(), "", "", "", cache)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, filepath.Join(cache, "buf", BufVersion)+string(filepath.Separator)) || bufVersion(context.Background(), got) != BufVersion {
		t.Fatalf("installed %s (version %q)", got, bufVersion(context.Background(), got))
	}
	// Reused: no npm the second time.
	t.Setenv("PATH", filepath.Dir(node))
	again, err := Buf(context.Background(), "", "", "", cache)
	if err != nil || again != got {
		t.Errorf("%s %v", again, err)
	}
}
