package pipeline

import (
	"testing"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

func TestParseBytes(t *testing.T) {
	for text, want := range map[string]int64{"128MiB": 128 << 20, "1GiB": 1 << 30, "500MB": 500e6, "2097152": 2 << 20, "64 GiB": 64 << 30} {
		if got, err := ParseBytes("--pipeline-bytes", text); err != nil || got != want {
			t.Errorf("%q: %d %v, want %d", text, got, err, want)
		}
	}
	for _, text := range []string{"", "1KiB", "65GiB", "12.5MiB", "128mib", "MiB"} {
		if _, err := ParseBytes("--pipeline-bytes", text); exitcode.Code(err) != exitcode.Unusable {
			t.Errorf("%q: %v", text, err)
		}
	}
}
