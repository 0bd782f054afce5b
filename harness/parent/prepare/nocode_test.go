package prepare_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/prepare"
)

// A schema's comment is the pull request's text. protoc-gen-go copies
// comment lines into the Go code as they are, so a comment can be a Go
// compiler directive: //go:build ignore before `syntax` would leave the
// generated file out of the bench program (and //go:linkname could alias
// its symbols). The bench program is built from the schemas without their
// comments, so it builds and measures.
func TestASchemaCommentIsNoGoDirective(t *testing.T) {
	if testing.Short() {
		t.Skip("builds bench programs")
	}
	dir := schemasCopy(t)
	edit(t, filepath.Join(dir, "schemas/pingpong/v1/ping_pong.proto"), `syntax = "proto3";`, "//go:build ignore\n\nsyntax = \"proto3\";")
	preparesPingPong(t, prepare.Options{BufInput: dir, HarnessDir: "../..", CacheDir: t.TempDir()})
}

// The bench program's go build reads no go.work above where it builds
// (the cache may lie anywhere, a checkout included) and no GOFLAGS of the
// environment: it builds as wiregate's own module pins it.
func TestTheBenchBuildIgnoresGoWorkAndGOFLAGS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds bench programs")
	}
	above := t.TempDir()
	// A workspace that does not hold the bench module: go build in a
	// directory below it fails unless GOWORK=off.
	os.MkdirAll(filepath.Join(above, "other"), 0o755)
	os.WriteFile(filepath.Join(above, "other", "go.mod"), []byte("module other.example\n\ngo 1.21\n"), 0o644)
	os.WriteFile(filepath.Join(above, "go.work"), []byte("go 1.21\n\nuse ./other\n"), 0o644)
	t.Setenv("GOFLAGS", "-mod=vendor")
	preparesPingPong(t, prepare.Options{BufInput: schemasCopy(t), HarnessDir: "../..", CacheDir: filepath.Join(above, "cache")})
}

// preparesPingPong prepares pingpong.v1.PingPong as opts say and checks
// that the program built and lists it.
func preparesPingPong(t *testing.T, opts prepare.Options) {
	t.Helper()
	opts.Messages = []string{"pingpong.v1.PingPong"}
	res, err := prepare.Prepare(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(res.Binary, "list").Output(); err != nil || strings.TrimSpace(string(out)) != "pingpong.v1.PingPong" {
		t.Fatalf("the bench program lists %q (%v)", out, err)
	}
}
