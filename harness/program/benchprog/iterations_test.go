package benchprog

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// What the parent writes, bench reads back the same, however many
// benchmarks a round names.
func TestIterationsFileRoundTrips(t *testing.T) {
	path := filepath.Join(t.TempDir(), "iterations.txt")
	sent := map[string]int{"BenchmarkEncode/a.v1.A/json": 1170, "BenchmarkDecode/b.v1.B/avro-2": 1}
	for i := range 5000 {
		sent["BenchmarkDecode/com.example.platform.events.v1.AQuiteLongEventName"+strings.Repeat("x", i%7)+"/protobuf-"+string(rune('0'+i%10))] = i + 1
	}
	if err := WriteIterations(path, sent); err != nil {
		t.Fatal(err)
	}
	got, err := ReadIterations(path)
	if err != nil || !reflect.DeepEqual(got, sent) {
		t.Fatalf("read back %d entries (%v), wrote %d", len(got), err, len(sent))
	}
}

// A file that is not one is exit 2 naming the file, the line and the fix.
func TestIterationsFileRefusesWhatBenchCannotRun(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ content, want string }{
		{"BenchmarkEncode/a.v1.A/json=0\n", `line 1: "BenchmarkEncode/a.v1.A/json=0": want BenchmarkOp/message/format=N, N at least 1`},
		{"BenchmarkEncode/a.v1.A/json=3\na.v1.A/json=2\n", `line 2: "a.v1.A/json=2"`},
		{"BenchmarkEncode/a.v1.A/json 3\n", `line 1: "BenchmarkEncode/a.v1.A/json 3"`},
	} {
		path := filepath.Join(dir, "it.txt")
		if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadIterations(path)
		if err == nil || exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want exit 2 naming %s and saying %s", tc.content, err, path, tc.want)
		}
	}
	if _, err := ReadIterations(filepath.Join(dir, "none.txt")); err == nil || exitcode.Code(err) != exitcode.Unusable || !strings.Contains(err.Error(), "none.txt: no such file") {
		t.Errorf("a missing file: %v", err)
	}
}
