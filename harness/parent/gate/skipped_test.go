package gate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/gate"
	"github.com/wiregate/wiregate/harness/parent/report"
)

// vaultProto is a module with a MessageSet next to a message wiregate can
// measure.
const vaultProto = `syntax = "proto2";

package vault.v1;

// Envelope carries its payloads as a MessageSet, which protobuf-go no
// longer loads.
message Envelope {
  option message_set_wire_format = true;
  extensions 100 to max;
}

// Receipt sits in the same file and is measured.
message Receipt {
  optional string receipt_id = 1;
  optional int64 issued_at = 2;
  repeated uint32 line_totals = 3;
}
`

func vaultCheckouts(t *testing.T) (base, head string) {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"base", "head"} {
		dir := filepath.Join(root, d, "vault", "v1")
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(root, d, "buf.yaml"), []byte("version: v2\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "vault.proto"), []byte(vaultProto), 0o644)
	}
	return filepath.Join(root, "base"), filepath.Join(root, "head")
}

// Skipped messages through the gate: the MessageSet is listed in the report
// once, with its file and reason, and the message next to it is measured;
// asking for it is exit 2 in one line naming the message, file and reason;
// a message only the base cannot measure is listed as the base's. (buf
// cannot load a MessageSet either, so lint and breaking are off:
// bufcheck's test has what they say.)
func TestSkippedMessagesAreInTheReport(t *testing.T) {
	base, head := vaultCheckouts(t)
	all := func(in map[string]string, o *gate.Options) {
		in["messages"], in["formats"], in["lint"], in["breaking"], in["measure"] = "", "protobuf,json", "false", "false", "all"
		in["cpu-cost"] = "off" // what is skipped is decided before anything is counted
	}
	r := run(t, base, head, all)
	if len(r.Errors) != 0 || r.Result != "pass" {
		t.Fatalf("%s %v %+v", r.Result, r.Errors, r.Violations)
	}
	want := report.Skipped{Message: "vault.v1.Envelope", File: "vault/v1/vault.proto", Side: "head"}
	if len(r.Skipped) != 1 || r.Skipped[0].Message != want.Message || r.Skipped[0].File != want.File || r.Skipped[0].Side != want.Side ||
		!strings.Contains(r.Skipped[0].Reason, "MessageSet") {
		t.Errorf("skipped %+v, want one %+v with the MessageSet reason", r.Skipped, want)
	}
	if len(r.Messages) != 1 || r.Messages[0].Name != "vault.v1.Receipt" {
		t.Errorf("measured %+v, want vault.v1.Receipt only", r.Messages)
	}

	// Asked for the measurable one only: nothing left out of what was asked.
	r = run(t, base, head, func(in map[string]string, o *gate.Options) { all(in, o); in["messages"] = "vault.v1.Receipt" })
	if len(r.Errors) != 0 || len(r.Skipped) != 0 {
		t.Errorf("--messages vault.v1.Receipt: errors %v, skipped %+v", r.Errors, r.Skipped)
	}

	r = run(t, base, head, func(in map[string]string, o *gate.Options) {
		all(in, o)
		in["messages"] = "vault.v1.Receipt,vault.v1.Envelope"
	})
	if r.ExitCode != 2 || len(r.Errors) != 1 {
		t.Fatalf("asking for the MessageSet: exit %d, errors %q", r.ExitCode, r.Errors)
	}
	for _, w := range []string{"vault.v1.Envelope", "vault/v1/vault.proto", "MessageSet"} {
		if !strings.Contains(r.Errors[0], w) || strings.Contains(r.Errors[0], "\n") {
			t.Errorf("error %q does not say %q in one line", r.Errors[0], w)
		}
	}

	replaceIn(t, filepath.Join(head, "vault/v1/vault.proto"), "option message_set_wire_format = true;", "")
	r = run(t, base, head, all)
	if len(r.Skipped) != 1 || r.Skipped[0].Message != "vault.v1.Envelope" || r.Skipped[0].Side != "base" {
		t.Errorf("head measures the Envelope, the base cannot: skipped %+v", r.Skipped)
	}
}
