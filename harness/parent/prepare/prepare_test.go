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

func schemasCopy(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	if out, err := exec.Command("cp", "-r", "../../../schemas", "../../../buf.yaml", dst).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	return dst
}

func edit(t *testing.T, file, old, new string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q", file, old)
	}
	os.WriteFile(file, []byte(strings.Replace(string(b), old, new, 1)), 0o644)
}

// The prepared program is reused for unchanged schemas and for comment-only
// changes, and rebuilt (from the Go build cache) for a real change.
func TestPrepareReusesUnchangedAndRebuildsChanged(t *testing.T) {
	if testing.Short() {
		t.Skip("builds bench programs")
	}
	dir := schemasCopy(t)
	opts := prepare.Options{BufInput: dir, HarnessDir: "../..", CacheDir: t.TempDir(),
		Messages: []string{"telemetry.v1.TelemetryEvent"}}
	ctx := context.Background()
	first, err := prepare.Prepare(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if first.Reused {
		t.Fatal("first prepare in an empty cache claims reuse")
	}
	out, err := exec.Command(first.Binary, "list").Output()
	if err != nil || strings.TrimSpace(string(out)) != "telemetry.v1.TelemetryEvent" {
		t.Fatalf("prepared program lists %q (%v)", out, err)
	}
	proto := filepath.Join(dir, "schemas/telemetry/v1/telemetry_event.proto")
	edit(t, proto, "// Degrees Celsius.", "// Degrees Celsius, as the device reports them.")
	second, err := prepare.Prepare(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !second.Reused || second.Binary != first.Binary {
		t.Errorf("comment-only change rebuilt: reused=%v", second.Reused)
	}
	edit(t, proto, "string region = 12;", "string region = 12;\n  repeated string tags = 13;")
	third, err := prepare.Prepare(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if third.Reused || third.Binary == first.Binary {
		t.Errorf("a new field reused the old program")
	}
}

func TestSkipMissingDropsMessagesTheBaseLacks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds bench programs")
	}
	opts := prepare.Options{BufInput: schemasCopy(t), HarnessDir: "../..", CacheDir: t.TempDir(),
		Messages: []string{"telemetry.v1.TelemetryEvent", "telemetry.v1.NewThing"}, SkipMissing: true}
	res, err := prepare.Prepare(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Messages, ",") != "telemetry.v1.TelemetryEvent" {
		t.Errorf("messages %v", res.Messages)
	}
}

// Two prepares at once into one empty cache (the plugins and the program
// are built by both) must both succeed with a working program.
func TestConcurrentPreparesShareTheCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds bench programs")
	}
	opts := prepare.Options{BufInput: schemasCopy(t), HarnessDir: "../..", CacheDir: t.TempDir(),
		Messages: []string{"pingpong.v1.PingPong"}}
	errs := make(chan error, 2)
	for i := 0; i < 2; i++ {
		go func() {
			res, err := prepare.Prepare(context.Background(), opts)
			if err == nil {
				_, err = exec.Command(res.Binary, "list").Output()
			}
			errs <- err
		}()
	}
	for i := 0; i < 2; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
