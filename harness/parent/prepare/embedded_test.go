package prepare

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness"
	"github.com/wiregate/wiregate/harness/parent/version"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// The binary carries the harness it was built from: written out, it is
// the checkout's source, file for file (the same hash, so history points
// and prepared programs name one wiregate either way), and nothing else:
// no test, no testdata, no nested module.
func TestTheEmbeddedSourceIsTheModulesOwn(t *testing.T) {
	root := t.TempDir()
	dir, err := writeSource(harness.Source, root)
	if err != nil {
		t.Fatal(err)
	}
	checkout, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	sourceHashes.Delete(dir) // hash what is on disk, not what writeSource remembered
	written, err := hashSources(dir)
	if err != nil {
		t.Fatal(err)
	}
	own, err := hashSources(checkout)
	if err != nil {
		t.Fatal(err)
	}
	if written != own {
		t.Fatalf("the written-out source hashes %s, the checkout %s", written[:12], own[:12])
	}
	if filepath.Base(dir) != own[:20] {
		t.Errorf("written to %s, not by its hash", dir)
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.HasSuffix(p, "_test.go") || strings.Contains(rel, "testdata") || strings.HasPrefix(rel, filepath.Join("program", "codec", "avrohamba")) {
			t.Errorf("written: %s", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"go.mod", "go.sum", "program/runner/runner.go", "cmd/protoc-gen-wiregate/main.go"} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			t.Errorf("not written: %s", f)
		}
	}
	// Written once: a second run reuses it.
	again, err := writeSource(harness.Source, root)
	if err != nil || again != dir {
		t.Fatalf("%s %v", again, err)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Errorf("%d entries in the harness cache", len(entries))
	}
}

// Without --harness-dir or $WIREGATE_HARNESS a gate links the embedded
// source, written into its cache directory.
func TestAGateWithoutAHarnessDirLinksTheEmbeddedOne(t *testing.T) {
	t.Setenv("WIREGATE_HARNESS", "")
	cache := t.TempDir()
	dir, err := Harness("", cache)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(dir, filepath.Join(cache, "harness")+string(filepath.Separator)) {
		t.Errorf("the harness is %s, not in the cache %s", dir, cache)
	}
	if _, err := Harness(t.TempDir(), cache); exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), "--harness-dir") {
		t.Errorf("a --harness-dir that is not one: %v", err)
	}
}

// The opt-in avro-hamba codec is a module of its own, which a binary does
// not carry: a tagged wiregate requires it at its own version (the proxy
// serves it), a development build says what to do.
func TestAnOptInModuleWithoutItsSourceComesFromTheProxyOrSaysWhatToDo(t *testing.T) {
	const m = harnessModule + "/program/codec/avrohamba"
	dir, err := moduleDir(t.TempDir(), m)
	if err != nil || dir != "" {
		t.Fatalf("a harness without the module has its dir %q (%v)", dir, err)
	}
	release := version.Of(&debug.BuildInfo{Main: debug.Module{Path: version.Module, Version: "v0.4.0"}}, true)
	if v, err := fromProxy(m, release); err != nil || v != "v0.4.0" {
		t.Errorf("a release: %s %v", v, err)
	}
	_, err = fromProxy(m, version.Of(nil, false))
	if exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), "format avro-hamba: ") || !strings.Contains(err.Error(), "pass --harness-dir") {
		t.Errorf("a development build: %v", err)
	}
}
