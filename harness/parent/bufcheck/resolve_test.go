package bufcheck

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// bufBinary is the buf the tests run (buf config migrate translates v1).
func bufBinary(t *testing.T) string {
	t.Helper()
	buf, err := prepare.FindBuf(context.Background(), "", "../..", "")
	if err != nil {
		t.Skip(err)
	}
	return buf
}

const v1Module = "version: v1\nlint:\n  use: [BASIC]\n"

// Resolve finds the config buf would: walking up from buf-input, a v2
// buf.yaml naming it as a module, or a v1 buf.work.yaml listing it, wins
// over buf-input's own v1 buf.yaml; buf-input's own v2 buf.yaml wins
// over everything above it.
func TestResolveFindsTheConfigBufWould(t *testing.T) {
	buf := bufBinary(t)
	for _, c := range []struct {
		name             string
		files            map[string]string
		dir, input, file string
		version          string
	}{
		{"a v1 module alone", map[string]string{"proto/buf.yaml": v1Module}, "proto", ".", "proto/buf.yaml", "v1"},
		{"a v1 module under a v2 file naming it", map[string]string{"proto/buf.yaml": v1Module, "buf.yaml": "version: v2\nmodules:\n  - path: proto\n"},
			".", "proto", "buf.yaml", "v2"},
		{"a v1 module under a v2 file naming it as ./proto/", map[string]string{"proto/buf.yaml": v1Module, "buf.yaml": "version: v2\nmodules:\n  - path: ./proto/\n"},
			".", "proto", "buf.yaml", "v2"},
		{"a v1 module under a v2 file naming another module", map[string]string{"proto/buf.yaml": v1Module, "buf.yaml": "version: v2\nmodules:\n  - path: api\n"},
			"proto", ".", "proto/buf.yaml", "v1"},
		{"a v1 module in a v1 workspace", map[string]string{"proto/buf.yaml": v1Module, "buf.work.yaml": "version: v1\ndirectories:\n  - proto\n"},
			".", "proto", "buf.work.yaml", "v2"},
		{"a v2 module under a v2 file naming it", map[string]string{"proto/buf.yaml": "version: v2\n", "buf.yaml": "version: v2\nmodules:\n  - path: proto\n"},
			"proto", ".", "proto/buf.yaml", "v2"},
		{"a v2 file two levels up", map[string]string{"a/proto/buf.yaml": v1Module, "buf.yaml": "version: v2\nmodules:\n  - path: a/proto\n"},
			".", "a/proto", "buf.yaml", "v2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := files(t, c.files)
			in := "proto"
			if _, ok := c.files["a/proto/buf.yaml"]; ok {
				in = "a/proto"
			}
			got, err := Resolve(context.Background(), buf, root, root, in)
			if err != nil {
				t.Fatal(err)
			}
			if got.Dir != filepath.Join(root, c.dir) || got.RepoDir != c.dir || got.Input != c.input || got.File != c.file || got.Version() != c.version {
				t.Fatalf("resolved %+v, want dir %s, input %s, file %s, %s", got, c.dir, c.input, c.file, c.version)
			}
		})
	}
}

// A v1 workspace reads as the v2 file `buf config migrate` writes for it:
// one module a directory, each with its buf.yaml's rules.
func TestResolveTranslatesAV1Workspace(t *testing.T) {
	root := files(t, map[string]string{"buf.work.yaml": "version: v1\ndirectories:\n  - proto\n  - api\n", "proto/buf.yaml": v1Module})
	c, err := Resolve(context.Background(), bufBinary(t), root, root, "proto")
	if err != nil {
		t.Fatal(err)
	}
	if !c.Migrated || c.File != "buf.work.yaml" || c.Version() != "v2" {
		t.Fatalf("%+v", c)
	}
	use := effective(c.Doc, "proto", "lint")
	if u, _ := field(use, "use").([]any); len(u) != 1 || u[0] != "BASIC" {
		t.Fatalf("proto's lint %v, want its buf.yaml's use: [BASIC]", use)
	}
}

// Without a buf config anywhere up to the repository's root, there is
// none: a buf.yaml above the repository is not the repository's.
func TestResolveStopsAtTheRepositoryRoot(t *testing.T) {
	outer := files(t, map[string]string{"buf.yaml": "version: v2\nmodules:\n  - path: repo/proto\n", "repo/proto/a.proto": "syntax = \"proto3\";\n"})
	c, err := Resolve(context.Background(), bufBinary(t), filepath.Join(outer, "repo"), filepath.Join(outer, "repo"), "proto")
	if err != nil {
		t.Fatal(err)
	}
	if c.Found() || c.Dir != filepath.Join(outer, "repo", "proto") || c.Input != "." {
		t.Fatalf("%+v", c)
	}
}

// A v1 workspace buf cannot translate (a rule it does not know) is one
// line naming the file, what buf said and the fix.
func TestAWorkspaceBufCannotTranslateIsOneLine(t *testing.T) {
	root := files(t, map[string]string{"buf.work.yaml": "version: v1\ndirectories:\n  - proto\n", "proto/buf.yaml": "version: v1\nlint:\n  use: [DEFAULT, NOT_A_RULE]\n"})
	_, err := Resolve(context.Background(), bufBinary(t), root, root, "proto")
	want := "buf.work.yaml: buf config migrate cannot translate it to v2: "
	if exitcode.Code(err) != exitcode.Unusable || !strings.HasPrefix(err.Error(), want+"Failure: ") || !strings.Contains(err.Error(), "NOT_A_RULE") ||
		!strings.HasSuffix(err.Error(), "(run `buf config migrate` on it and commit the result)") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("%v", err)
	}
}
