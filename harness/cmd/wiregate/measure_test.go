package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/wiregate/wiregate/harness/internal/fixture/wgplain"
	"github.com/wiregate/wiregate/harness/parent/inputs"
	"github.com/wiregate/wiregate/harness/program/avroschema"
	"github.com/wiregate/wiregate/harness/program/batch"
	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/cases"
	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/sizes"
	"github.com/wiregate/wiregate/harness/program/subject"
)

var (
	measureBinOnce sync.Once
	measureBin     string
	measureBinErr  error
)

// wiregateBin builds this command once per test run.
func wiregateBin(t *testing.T) string {
	t.Helper()
	measureBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "wiregate-bin-")
		if err != nil {
			measureBinErr = err
			return
		}
		measureBin = filepath.Join(dir, "wiregate")
		out, err := exec.Command("go", "build", "-o", measureBin, ".").CombinedOutput()
		if err != nil {
			measureBinErr = err
			t.Logf("%s", out)
		}
	})
	if measureBinErr != nil {
		t.Fatal(measureBinErr)
	}
	return measureBin
}

// repoRoot is the repository holding this module.
func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// copySchemas copies the repo's schemas and buf.yaml into a temp dir the
// test may break.
func copySchemas(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	root := repoRoot(t)
	out, err := exec.Command("cp", "-r", filepath.Join(root, "schemas"), filepath.Join(root, "buf.yaml"), dst).CombinedOutput()
	if err != nil {
		t.Fatalf("copy schemas: %v %s", err, out)
	}
	return dst
}

type result struct {
	code           int
	stdout, stderr string
}

// wiregateEnv finds the harness source and buf for the built command.
func wiregateEnv(t *testing.T) []string {
	return append(os.Environ(), "WIREGATE_HARNESS="+filepath.Join(repoRoot(t), "harness"),
		"PATH="+filepath.Join(repoRoot(t), "node_modules", ".bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
}

func runWiregate(t *testing.T, args ...string) result {
	t.Helper()
	return runIn(t, wiregateBin(t), "", wiregateEnv(t), args...)
}

// runIn runs bin with args in dir (this one when empty) with env.
func runIn(t *testing.T, bin, dir string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, so.String(), se.String()}
}

// wantBadInput asserts exit code 2 and a one-line error with every piece.
func wantBadInput(t *testing.T, r result, pieces ...string) {
	t.Helper()
	if r.code != 2 {
		t.Fatalf("exit code %d, want 2; stderr: %s", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, "goroutine ") || strings.Contains(r.stderr, "panic:") {
		t.Fatalf("stack trace on bad input: %s", r.stderr)
	}
	first := strings.SplitN(strings.TrimSpace(r.stderr), "\n", 2)[0]
	for _, p := range pieces {
		if !strings.Contains(first, p) {
			t.Errorf("error line %q does not contain %q", first, p)
		}
	}
}

func TestBadInputProtoSyntaxErrorNamesFileLineCol(t *testing.T) {
	dir := copySchemas(t)
	f := filepath.Join(dir, "schemas", "pingpong", "v1", "ping_pong.proto")
	src, _ := os.ReadFile(f)
	os.WriteFile(f, bytes.Replace(src, []byte("int32 version = 2;"), []byte("int32 version = ;"), 1), 0o644)
	r := runWiregate(t, "sizes", "--buf-input", dir)
	wantBadInput(t, r, "pingpong/v1/ping_pong.proto:", "buf build")
}

func TestBadInputUnknownMessageSuggestsCloseNames(t *testing.T) {
	r := runWiregate(t, "sizes", "--buf-input", copySchemas(t), "--messages", "telemetry.v1.TelemetryEvnt")
	wantBadInput(t, r, "--messages", `"telemetry.v1.TelemetryEvnt"`, "did you mean telemetry.v1.TelemetryEvent")
}

func TestBadInputMissingBufYaml(t *testing.T) {
	dir := copySchemas(t)
	os.Remove(filepath.Join(dir, "buf.yaml"))
	wantBadInput(t, runWiregate(t, "sizes", "--buf-input", dir), dir, "no buf.yaml")
}

func TestBadInputUnknownFormatListsValidOnes(t *testing.T) {
	r := runWiregate(t, "sizes", "--buf-input", copySchemas(t), "--formats", "json,thrift")
	wantBadInput(t, r, `"thrift"`, "valid formats", "protobuf", "msgpack")
}

func TestBadInputAvscNotJSONOrMismatched(t *testing.T) {
	dir := copySchemas(t)
	avsc := filepath.Join(dir, "schemas", "telemetry", "v1", "telemetry_event.avsc")
	orig, _ := os.ReadFile(avsc)
	os.WriteFile(avsc, []byte("{not json"), 0o644)
	wantBadInput(t, runWiregate(t, "sizes", "--buf-input", dir, "--messages", "telemetry.v1.TelemetryEvent"), avsc, "not JSON")
	os.WriteFile(avsc, bytes.Replace(orig, []byte(`"name": "battery_pct", "type": "int"`), []byte(`"name": "battery_pct", "type": "string"`), 1), 0o644)
	wantBadInput(t, runWiregate(t, "sizes", "--buf-input", dir, "--messages", "telemetry.v1.TelemetryEvent"), avsc, "field `battery_pct`")
}

func TestBadInputSamplesLineNamed(t *testing.T) {
	dir := copySchemas(t)
	samples := t.TempDir()
	file := filepath.Join(samples, "telemetry.v1.TelemetryEvent.jsonl")
	os.WriteFile(file, []byte("{\"deviceId\":\"d-1\"}\n{\"deviceId\":\"d-2\",\"bogus\":1}\n"), 0o644)
	r := runWiregate(t, "sizes", "--buf-input", dir, "--messages", "telemetry.v1.TelemetryEvent", "--samples", samples)
	wantBadInput(t, r, file+":2", "protojson")
}

// The CLI's sizes equal the library's on the checked-in fixture (same
// schemas, same seed): exact and deterministic.
func TestSizesJSONMatchesLibrary(t *testing.T) {
	r := runWiregate(t, "sizes", "--buf-input", repoRoot(t), "--messages", "telemetry.v1.TelemetryEvent,orders.v1.Order", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var got []sizes.Size
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	var subs []*subject.Subject
	for _, name := range []string{"telemetry.v1.TelemetryEvent", "orders.v1.Order"} {
		for _, s := range wgplain.Subjects() {
			if s.Name() == name {
				s := s
				var avsc []string
				if name == "telemetry.v1.TelemetryEvent" {
					avsc = []string{filepath.Join(repoRoot(t), "schemas/telemetry/v1/telemetry_event.avsc")}
				}
				set, err := avroschema.ReadSet("", avsc)
				if err != nil {
					t.Fatal(err)
				}
				s.Avro, s.AvroSource, _ = avroschema.ForMessage(s.Type.Descriptor(), set)
				subs = append(subs, &s)
			}
		}
	}
	formats, _ := codec.Parse(codec.DefaultNames)
	cs, err := cases.Build(subs, formats, cases.From{})
	if err != nil {
		t.Fatal(err)
	}
	// The CLI measures the compression input's default codec too.
	want, err := sizes.Measure(cs, benchprog.Batching{Compression: []string{inputs.DefaultOf("compression")}, BatchBytes: batch.DefaultBatchBytes})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d rows, want %d", len(got), len(want))
	}
	for i := range want {
		got[i].Cold, want[i].Cold = benchprog.ColdReading{}, benchprog.ColdReading{} // wall-clock prices for planning, not figures
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("row %d: CLI %+v, library %+v", i, got[i], want[i])
		}
	}
}
