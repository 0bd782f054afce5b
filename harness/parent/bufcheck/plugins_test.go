package bufcheck

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// text is a config as --config takes it.
func text(t *testing.T, doc map[string]any) string {
	t.Helper()
	s, err := Config{Doc: doc}.Text()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// files writes a checkout: path → text, executable under tools/.
func files(t *testing.T, fs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, s := range fs {
		write(t, filepath.Join(dir, p), s)
		if strings.HasPrefix(p, "tools/") {
			if err := os.Chmod(filepath.Join(dir, p), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// vet vets the buf.yaml in headDir against the one in baseDir.
func vet(t *testing.T, trees Trees, headDir, baseDir string) Vetted {
	t.Helper()
	head, err := readYAML(filepath.Join(headDir, "buf.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	base, _ := readYAML(filepath.Join(baseDir, "buf.yaml"))
	return Vet(trees, head, base)
}

// changedConfig says whether Vet left anything out of head's buf.yaml.
func changedConfig(t *testing.T, v Vetted, headDir string) bool {
	t.Helper()
	head, _ := readYAML(filepath.Join(headDir, "buf.yaml"))
	return !reflect.DeepEqual(v.Doc, head)
}

const layout = "version: v2\nmodules:\n  - path: proto\nlint:\n  use: [STANDARD]\n"

// withPlugins is buf.yaml declaring plugins (YAML list items).
func withPlugins(items ...string) string {
	return layout + "plugins:\n" + strings.Join(items, "")
}

func TestVetDecidesWhichPluginsRun(t *testing.T) {
	local := "  - plugin: ./tools/x\n"
	for _, c := range []struct {
		name       string
		base, head map[string]string
		skipped    string // "" when every declaration runs
	}{
		{"a WebAssembly plugin runs (buf's sandbox)",
			map[string]string{"buf.yaml": layout},
			map[string]string{"buf.yaml": withPlugins("  - plugin: tools/rules.wasm\n"), "tools/rules.wasm": "\x00asm"}, ""},
		{"a Buf Schema Registry plugin runs (WebAssembly too)",
			map[string]string{"buf.yaml": layout},
			map[string]string{"buf.yaml": withPlugins("  - plugin: buf.build/acme/rules:v1\n")}, ""},
		{"a path shaped like a registry reference is a local plugin when it exists",
			map[string]string{"buf.yaml": layout},
			map[string]string{"buf.yaml": withPlugins("  - plugin: buf.build/acme/rules\n"), "buf.build/acme/rules": "#!/bin/sh\n"},
			"check plugin buf.build/acme/rules (the base's buf.yaml does not declare it)"},
		{"a local plugin the base declares identically, unchanged, runs",
			map[string]string{"buf.yaml": withPlugins(local), "tools/x": "#!/bin/sh\n"},
			map[string]string{"buf.yaml": withPlugins(local), "tools/x": "#!/bin/sh\n"}, ""},
		{"a local plugin the base does not declare is left out",
			map[string]string{"buf.yaml": layout},
			map[string]string{"buf.yaml": withPlugins(local), "tools/x": "#!/bin/sh\n"},
			"check plugin ./tools/x (the base's buf.yaml does not declare it)"},
		{"without a buf.yaml in the base, it declares nothing",
			map[string]string{},
			map[string]string{"buf.yaml": withPlugins(local), "tools/x": "#!/bin/sh\n"},
			"check plugin ./tools/x (the base's buf.yaml does not declare it)"},
		{"declared with other options is not declared identically",
			map[string]string{"buf.yaml": withPlugins(local + "    options:\n      level: 1\n"), "tools/x": "#!/bin/sh\n"},
			map[string]string{"buf.yaml": withPlugins(local + "    options:\n      level: 2\n"), "tools/x": "#!/bin/sh\n"},
			"check plugin ./tools/x (the base's buf.yaml does not declare it)"},
		{"a plugin whose program the change edits is left out",
			map[string]string{"buf.yaml": withPlugins(local), "tools/x": "#!/bin/sh\n"},
			map[string]string{"buf.yaml": withPlugins(local), "tools/x": "#!/bin/sh\ntouch /tmp/owned\n"},
			"check plugin ./tools/x (this change edits tools/x)"},
		{"so is one whose argument (a script) the change edits",
			map[string]string{"buf.yaml": withPlugins("  - plugin: [python3, tools/lint.py]\n"), "tools/lint.py": "pass\n"},
			map[string]string{"buf.yaml": withPlugins("  - plugin: [python3, tools/lint.py]\n"), "tools/lint.py": "import os\n"},
			"check plugin python3 (this change edits tools/lint.py)"},
		{"a program on PATH the base declares runs",
			map[string]string{"buf.yaml": withPlugins("  - plugin: buf-plugin-acme\n")},
			map[string]string{"buf.yaml": withPlugins("  - plugin: buf-plugin-acme\n")}, ""},
		{"a local policy the base does not declare is left out",
			map[string]string{"buf.yaml": layout},
			map[string]string{"buf.yaml": layout + "policies:\n  - policy: policy.yaml\n", "policy.yaml": withPlugins(local), "tools/x": "#!/bin/sh\n"},
			"policy policy.yaml (the base's buf.yaml does not declare it)"},
		{"a policy the base declares, unchanged, whose plugin the change edits is left out",
			map[string]string{"buf.yaml": layout + "policies:\n  - policy: policy.yaml\n", "policy.yaml": withPlugins(local), "tools/x": "#!/bin/sh\n"},
			map[string]string{"buf.yaml": layout + "policies:\n  - policy: policy.yaml\n", "policy.yaml": withPlugins(local), "tools/x": "#!/bin/sh\necho\n"},
			"policy policy.yaml (this change edits tools/x)"},
		{"a policy the base declares, unchanged with its plugins, runs",
			map[string]string{"buf.yaml": layout + "policies:\n  - policy: policy.yaml\n", "policy.yaml": withPlugins(local), "tools/x": "#!/bin/sh\n"},
			map[string]string{"buf.yaml": layout + "policies:\n  - policy: policy.yaml\n", "policy.yaml": withPlugins(local), "tools/x": "#!/bin/sh\n"}, ""},
		{"a Buf Schema Registry policy runs",
			map[string]string{"buf.yaml": layout},
			map[string]string{"buf.yaml": layout + "policies:\n  - policy: buf.build/acme/policy\n"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			base, head := files(t, c.base), files(t, c.head)
			v := vet(t, Trees{HeadRoot: head, HeadDir: head, BaseRoot: base}, head, base)
			if got := strings.Join(v.Skipped, "; "); got != c.skipped {
				t.Fatalf("skipped %q, want %q", got, c.skipped)
			}
			if changedConfig(t, v, head) != (c.skipped != "") {
				t.Fatalf("config %v with skipped %q", v.Doc, c.skipped)
			}
		})
	}
}

// The config buf runs with is head's buf.yaml less what was left out:
// every other key, and every declaration that runs, as head has them.
func TestVetKeepsTheRestOfBufYAML(t *testing.T) {
	base := files(t, map[string]string{"buf.yaml": layout})
	head := files(t, map[string]string{
		"buf.yaml": withPlugins("  - plugin: ./tools/x\n", "  - plugin: rules.wasm\n    options:\n      suffix: _v1\n") +
			"breaking:\n  use: [FILE]\n",
		"tools/x": "#!/bin/sh\n"})
	v := vet(t, Trees{HeadRoot: head, HeadDir: head, BaseRoot: base}, head, base)
	got := v.Doc
	var want map[string]any
	_ = yaml.Unmarshal([]byte(layout+"plugins:\n  - plugin: rules.wasm\n    options:\n      suffix: _v1\nbreaking:\n  use: [FILE]\n"), &want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("config:\n%v\nwant the same as\n%v", v.Doc, want)
	}
}

// buf resolves a plugin's path from where it runs: with a
// working-directory below the repository's root, a path can leave it and
// still name the pull request's file.
func TestVetComparesFilesAcrossTheRepositoryFromASubdirectory(t *testing.T) {
	decl := withPlugins("  - plugin: ../tools/x\n")
	base := files(t, map[string]string{"api/buf.yaml": decl, "tools/x": "#!/bin/sh\n"})
	head := files(t, map[string]string{"api/buf.yaml": decl, "tools/x": "#!/bin/sh\necho\n"})
	v := vet(t, Trees{HeadRoot: head, HeadDir: filepath.Join(head, "api"), BaseRoot: base}, filepath.Join(head, "api"), filepath.Join(base, "api"))
	if want := "check plugin ../tools/x (this change edits tools/x)"; strings.Join(v.Skipped, "; ") != want {
		t.Fatalf("skipped %q, want %q", v.Skipped, want)
	}
}

func TestUnreadableBufYAMLIsOneLine(t *testing.T) {
	head := files(t, map[string]string{"proto/buf.yaml": "version: v2\nplugins: [\n"})
	_, err := Resolve(context.Background(), "buf", head, head, "proto")
	if exitcode.Code(err) != exitcode.Unusable || strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "proto/buf.yaml: ") {
		t.Fatalf("%v", err)
	}
}

// With the real buf: a plugin the pull request adds does not run when lint
// runs with the vetted config, and lint still finds what buf's own rules
// find; run with head's own buf.yaml, the same plugin does run (what the
// first half would catch).
func TestRealBufRunsNoPluginThePullRequestAdds(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	plugin := "#!/bin/sh\necho \"$*\" >> " + marker + "\nexit 1\n"
	base := files(t, map[string]string{"buf.yaml": layout, "proto/shop/v1/cart.proto": cart})
	head := files(t, map[string]string{"buf.yaml": withPlugins("  - plugin: ./tools/x\n"), "tools/x": plugin,
		"proto/shop/v1/cart.proto": strings.Replace(cart, "int32 items = 2;", "int32 Items = 2;", 1)})
	v := vet(t, Trees{HeadRoot: head, HeadDir: head, BaseRoot: base}, head, base)
	if !changedConfig(t, v, head) {
		t.Fatalf("%+v", v)
	}
	c := check(t, head)
	c.Config = text(t, v.Doc)
	fs, err := c.Lint(context.Background())
	if b, readErr := os.ReadFile(marker); readErr == nil {
		t.Fatalf("the pull request's plugin ran: %s", b)
	}
	if err != nil || len(fs) != 1 || fs[0].Rule != "FIELD_LOWER_SNAKE_CASE" {
		t.Fatalf("lint without the plugin: %+v %v", fs, err)
	}
	c = check(t, head)
	if _, err := c.Lint(context.Background()); err == nil {
		t.Fatal("head's own buf.yaml: the failing plugin did not fail lint")
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("head's own buf.yaml: buf did not run the plugin, so this test shows nothing")
	}
}
