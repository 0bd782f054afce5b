package prepare_test

import (
	"context"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/prepare"
)

// Load resolves every top-level message without building anything, and
// Build of one message generates and compiles only what that message
// needs: the gate builds programs for what a pull request changed.
func TestBuildGeneratesOnlyTheMessagesAsked(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a bench program")
	}
	ctx := context.Background()
	s, err := prepare.Load(ctx, prepare.Options{BufInput: schemasCopy(t), HarnessDir: "../..", CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := []string{"orders.v1.Order", "pingpong.v1.PingPong", "telemetry.v1.TelemetryEvent"}
	if !slices.Equal(s.Messages, want) || len(s.Fingerprints) != len(want) {
		t.Fatalf("loaded %v (%d fingerprints), want %v", s.Messages, len(s.Fingerprints), want)
	}
	res, err := s.Build(ctx, []string{"orders.v1.Order"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(res.Binary, "list").Output()
	if err != nil || strings.TrimSpace(string(out)) != "orders.v1.Order" {
		t.Fatalf("program lists %q (%v)", out, err)
	}
	var generated []string
	filepath.WalkDir(filepath.Join(res.Dir, "gen"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(res.Dir, p)
			generated = append(generated, rel)
		}
		return nil
	})
	if !slices.Equal(generated, []string{"gen/orders/v1/order.pb.go"}) {
		t.Fatalf("generated %v, want only orders' file", generated)
	}
	if _, err := s.Build(ctx, []string{"nope.v1.Missing"}); err == nil {
		t.Fatal("Build of a message Load did not resolve succeeded")
	}
}
