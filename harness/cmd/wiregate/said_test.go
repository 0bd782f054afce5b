package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// skippedLines are what every measuring command says of the shapes
// module's two messages prepare cannot measure, before it measures.
var skippedLines = []string{
	"skipped: legacy.v1.Options (legacy/v1/envelope.proto) is a MessageSet (option message_set_wire_format)",
	"skipped: legacy.v1.Wrapped (legacy/v1/envelope.proto) is a message whose field `options` holds legacy.v1.Options, a MessageSet",
}

// Skipped means said: each measuring command names every
// message it skipped with its reason, on stderr, and ends with one summary
// line; stdout is only its output. check prints no per-case line unless
// asked (-v).
func TestMeasuringCommandsSaySkippedAndSum(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the shapes module five ways")
	}
	// Counting under Valgrind takes seconds a case: instructions gets the
	// shapes module's legacy package alone (two messages and the two
	// skipped).
	legacy := t.TempDir()
	if out, err := exec.Command("cp", "-r", shapes+"/buf.yaml", shapes+"/legacy", legacy).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	for _, c := range []struct {
		module  string
		args    []string
		summary string
	}{
		{shapes, []string{"check", "--formats", "json,protobuf,avro"}, "check: 18 messages × 3 formats ok, 2 skipped"},
		{shapes, []string{"sizes", "--formats", "protobuf", "--json"}, "sizes: 18 messages × 1 format measured, 2 skipped"},
		{shapes, []string{"bench", "--formats", "protobuf", "--op", "decode", "--benchtime", "1ms"}, "bench: 18 messages × 1 format benchmarked, 2 skipped"},
		{shapes, []string{"pipeline", "--formats", "protobuf", "--broker", "embedded", "--pipeline-messages", "200"}, "pipeline: 18 messages × 1 format drained through the embedded broker, 2 skipped"},
		{legacy, []string{"instructions", "--formats", "json,protobuf", "--passes", "1"}, "instructions: 2 messages × 2 formats counted, 2 skipped"},
	} {
		t.Run(c.args[0], func(t *testing.T) {
			if _, err := exec.LookPath("valgrind"); c.args[0] == "instructions" && err != nil && os.Getenv("WIREGATE_SKIP_VALGRIND") == "1" {
				t.Skip("valgrind not installed and WIREGATE_SKIP_VALGRIND=1")
			}
			r := runWiregate(t, append(c.args, "--buf-input", c.module)...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
			if last := lines[len(lines)-1]; last != c.summary {
				t.Errorf("last stderr line %q, want %q", last, c.summary)
			}
			for _, want := range skippedLines {
				if !strings.Contains(r.stderr, c.args[0]+": "+want) {
					t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
				}
			}
			if strings.Contains(r.stdout, "skipped") || strings.Contains(r.stdout, c.summary) {
				t.Errorf("stdout has stderr's lines:\n%s", r.stdout)
			}
			if c.args[0] == "check" && r.stdout != "" {
				t.Errorf("check printed per-case lines without -v:\n%s", r.stdout)
			}
		})
	}
}

// Asked for by name, a message is measured or refused: the module's other
// skipped messages are not listed.
func TestNamedMessagesListNoSkipped(t *testing.T) {
	r := runWiregate(t, "check", "--buf-input", shapes, "--messages", "legacy.v1.Order", "--formats", "protobuf")
	if r.code != 0 || strings.TrimSpace(r.stderr) != "check: 1 message × 1 format ok, 0 skipped" {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}
