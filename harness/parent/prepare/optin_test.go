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

const hamba = "github.com/hamba/avro/v2"

// linked is what `go version -m` says the binary was built from.
func linked(t *testing.T, binary string) string {
	t.Helper()
	out, err := exec.Command("go", "version", "-m", binary).CombinedOutput()
	if err != nil {
		t.Fatalf("go version -m: %v %s", err, out)
	}
	return string(out)
}

// The default formats' bench program does not link hamba/avro (nor require
// it in its go.mod); the program prepared with avro-hamba does, measures
// it, and the two are different cache entries.
func TestOnlyTheOptInFormatLinksHamba(t *testing.T) {
	if testing.Short() {
		t.Skip("builds bench programs")
	}
	ctx := context.Background()
	opts := prepare.Options{BufInput: schemasCopy(t), HarnessDir: "../..", CacheDir: t.TempDir(),
		Messages: []string{"telemetry.v1.TelemetryEvent"}, Formats: []string{"json,protobuf,avro"}}
	plain, err := prepare.Prepare(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Formats = []string{"avro,avro-hamba"}
	withHamba, err := prepare.Prepare(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Binary == withHamba.Binary || withHamba.Reused {
		t.Fatalf("one program for both format sets: %s", plain.Binary)
	}
	if len(plain.OptIn) != 0 || strings.Join(withHamba.OptIn, ",") != "github.com/wiregate/wiregate/harness/program/codec/avrohamba" {
		t.Errorf("opt-in modules: %v and %v", plain.OptIn, withHamba.OptIn)
	}
	if m := linked(t, plain.Binary); strings.Contains(m, hamba) || !strings.Contains(m, "github.com/twmb/avro") {
		t.Errorf("the json,protobuf,avro program:\n%s", m)
	}
	if m := linked(t, withHamba.Binary); !strings.Contains(m, hamba) {
		t.Errorf("the avro-hamba program does not link hamba/avro:\n%s", m)
	}
	mod, err := os.ReadFile(filepath.Join(plain.Dir, "go.mod"))
	if err != nil || strings.Contains(string(mod), hamba) {
		t.Errorf("the json,protobuf,avro program's go.mod (%v):\n%s", err, mod)
	}

	check := func(binary string) (string, error) {
		out, err := exec.Command(binary, "check", "--formats", "avro-hamba", "--messages", "telemetry.v1.TelemetryEvent").CombinedOutput()
		return string(out), err
	}
	if out, err := check(withHamba.Binary); err != nil || !strings.Contains(out, `"avro-hamba"`) {
		t.Errorf("avro-hamba program's check: %v %s", err, out)
	}
	out, err := check(plain.Binary)
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(out, "prepare again with avro-hamba in --formats") {
		t.Errorf("the program without avro-hamba asked for it: %v %s", err, out)
	}
}
