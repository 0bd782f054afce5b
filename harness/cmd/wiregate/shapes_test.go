package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/sizes"
)

// The shapes module (testdata/shapes) has a schema for every shape real
// APIs use: proto2 presence (presence.v1), a MessageSet next to normal
// messages (legacy.v1), every well-known type (wkt.v1), recursion
// (tree.v1), mostly-optional messages (sparse.v1) and a big batch message
// (batch.v1). Tests share its bench programs: they are prepared for the
// same messages and plugins wherever they can be. The shapes
// protoc-gen-go-vtproto cannot generate, editions and groups, are in their
// own module (testdata/editions-and-groups).
const (
	shapes      = "testdata/shapes"
	noVTProto   = "testdata/editions-and-groups"
	everyShape  = "batch.v1.Attribute,batch.v1.LogBatch,batch.v1.LogRecord,batch.v1.ScopeLogs,batch.v1.ServiceLogs,legacy.v1.Order,legacy.v1.Retry,presence.v1.Location,presence.v1.Reading,sparse.v1.Address,sparse.v1.Heartbeat,sparse.v1.Profile,tree.v1.Attr,tree.v1.AttrList,tree.v1.Node,tree.v1.Sprawl,wkt.v1.Envelope,wkt.v1.Update"
	noVTMessage = "ed.v1.Explicit,ed.v1.Implicit,grouped.v1.Calibrated"
)

// allFormatsBut lists every format except the named ones.
func allFormatsBut(except ...string) string {
	var out []string
	for _, n := range codec.Names() {
		if !strings.Contains(","+strings.Join(except, ",")+",", ","+n+",") {
			out = append(out, n)
		}
	}
	return strings.Join(out, ",")
}

func wantOK(t *testing.T, r result, messages []string, formats string) {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, m := range messages {
		for _, f := range strings.Split(formats, ",") {
			if !strings.Contains(r.stdout, "ok "+m+"/"+f+" ") {
				t.Errorf("no ok line for %s/%s", m, f)
			}
		}
	}
}

// The shapes real APIs use: proto2 presence, every well-known type,
// recursive and big messages, mostly-optional messages round-trip exactly
// in all seven formats, through real buf and generated code. The skipped
// MessageSet messages are not measured.
func TestShapesRoundTripInEveryFormat(t *testing.T) {
	all := strings.Join(codec.Names(), ",")
	r := runWiregate(t, "check", "-v", "--buf-input", shapes, "--formats", all)
	wantOK(t, r, strings.Split(everyShape, ","), all)
	for _, skipped := range []string{"legacy.v1.Options/", "legacy.v1.Wrapped/"} {
		if strings.Contains(r.stdout, skipped) {
			t.Errorf("%s was measured", skipped)
		}
	}
	if n := strings.Count(r.stdout, "\nok ") + 1; n != len(strings.Split(everyShape, ","))*len(codec.Names()) {
		t.Errorf("%d ok lines: %s", n, r.stdout)
	}
}

// Item 3: a MessageSet and the message holding one are skipped by name,
// file and reason; the rest of the same file is measured; asking for a
// skipped message is an error with the reason.
func TestUnmeasurableMessagesAreSkippedByName(t *testing.T) {
	r := runWiregate(t, "prepare", "--buf-input", shapes)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var res prepare.Result
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	want := map[string]string{
		"legacy.v1.Options": "MessageSet (option message_set_wire_format)",
		"legacy.v1.Wrapped": "field `options` holds legacy.v1.Options, a MessageSet",
	}
	for _, s := range res.Skipped {
		if w, ok := want[s.Message]; ok && s.File == "legacy/v1/envelope.proto" && strings.Contains(s.Reason, w) {
			delete(want, s.Message)
		}
	}
	if len(want) > 0 || len(res.Skipped) != 2 {
		t.Errorf("skipped %+v; missing %v", res.Skipped, want)
	}
	if m := strings.Join(res.Messages, ","); !strings.Contains(m, "legacy.v1.Order") || !strings.Contains(m, "legacy.v1.Retry") || strings.Contains(m, "Options") {
		t.Errorf("messages %s", m)
	}
	if strings.Join(res.Plugins, ",") != "protoc-gen-go,protoc-gen-wiregate" {
		t.Errorf("default formats ran plugins %v", res.Plugins)
	}

	wantBadInput(t, runWiregate(t, "check", "--buf-input", shapes, "--messages", "legacy.v1.Order,legacy.v1.Options"),
		"legacy.v1.Options in legacy/v1/envelope.proto cannot be measured", "MessageSet")

	// The program prepared without vtproto says so when asked for it.
	out, err := exec.Command(res.Binary, "check", "--formats", "vtprotobuf", "--messages", "legacy.v1.Order").CombinedOutput()
	if code := exitCode(err); code != 2 || !strings.Contains(string(out), "prepared without it") {
		t.Errorf("exit %d: %s", code, out)
	}
}

func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// Item 2 and proto2 groups: edition 2023 with presence explicit (the
// default, with a required and a delimited field) and implicit (file-wide,
// one field back to explicit), and groups, in every format whose code
// generator can do them. vtprotobuf's cannot: one line naming the format
// and the file or field, before any build.
func TestEditionsAndGroupsMeasureWithoutVTProtobuf(t *testing.T) {
	six := allFormatsBut("vtprotobuf")
	wantOK(t, runWiregate(t, "check", "-v", "--buf-input", noVTProto, "--formats", six), strings.Split(noVTMessage, ","), six)
	wantBadInput(t, runWiregate(t, "check", "--buf-input", noVTProto, "--formats", "json,vtprotobuf"),
		"--formats vtprotobuf", "protoc-gen-go-vtproto", "ed/v1/explicit.proto is edition 2023")
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "grouped", "v1"), 0o755)
	data, _ := os.ReadFile(filepath.Join(noVTProto, "grouped", "v1", "calibrated.proto"))
	os.WriteFile(filepath.Join(dir, "grouped", "v1", "calibrated.proto"), data, 0o644)
	os.WriteFile(filepath.Join(dir, "buf.yaml"), []byte("version: v2\n"), 0o644)
	wantBadInput(t, runWiregate(t, "check", "--buf-input", dir, "--formats", "vtprotobuf"),
		"--formats vtprotobuf", "groups", "grouped.v1.Calibrated.calibration in grouped/v1/calibrated.proto")
}

// Items 5 and 8 on sizes (exact, deterministic): recursive and big
// messages stay well under 16 KiB of protobuf; plain JSON of a
// mostly-optional message is no bigger than protojson's (it wrote a null
// for every unset field); an empty message's 0% of JSON is reported.
func TestShapeSizes(t *testing.T) {
	r := runWiregate(t, "sizes", "--buf-input", shapes, "--formats", "json,protobuf,protojson", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var rows []sizes.Size
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	by := map[string]sizes.Size{}
	for _, s := range rows {
		by[s.Message+"/"+s.Format] = s
	}
	for _, m := range []string{"tree.v1.Node", "tree.v1.AttrList", "tree.v1.Sprawl", "wkt.v1.Envelope", "batch.v1.LogBatch"} {
		if s := by[m+"/protobuf"]; s.BytesMean <= 0 || s.BytesMean > 12<<10 || s.BytesMax > 16<<10 {
			t.Errorf("%s protobuf: mean %.0f B, max %d B; want a mean well under 16 KiB", m, s.BytesMean, s.BytesMax)
		}
	}
	if s := by["tree.v1.Node/protobuf"]; s.BytesMax < 1000 {
		t.Errorf("tree.v1.Node records never recurse: max %d B", s.BytesMax)
	}
	for _, m := range []string{"sparse.v1.Profile", "presence.v1.Reading"} {
		j, pj := by[m+"/json"], by[m+"/protojson"]
		if j.BytesMean == 0 || j.BytesMean > 1.05*pj.BytesMean {
			t.Errorf("%s: json %.1f B against protojson %.1f B: unset fields written", m, j.BytesMean, pj.BytesMean)
		}
	}
	var raw []map[string]any
	json.Unmarshal([]byte(r.stdout), &raw)
	for _, row := range raw {
		if row["message"] == "sparse.v1.Heartbeat" && row["format"] == "protobuf" {
			if v, ok := row["vs_json"]; !ok || v != 0.0 || row["bytes_mean"] != 0.0 {
				t.Errorf("empty message's protobuf row: %v", row)
			}
		}
	}
}

// An enum, a service, an rpc, a field or a package given as a message says
// what it is; an imported message says it is not the input's own.
func TestNonMessageNamesSayWhatTheyAre(t *testing.T) {
	for name, want := range map[string]string{
		"presence.v1.Reading.Unit":               "presence.v1.Reading.Unit is an enum, not a message",
		"sparse.v1.ProfileService":               "sparse.v1.ProfileService is a service, not a message",
		"sparse.v1.ProfileService.GetProfile":    "is an rpc of service sparse.v1.ProfileService (its request is sparse.v1.Profile)",
		"sparse.v1.Profile.email":                "is a field of sparse.v1.Profile",
		"sparse.v1":                              "sparse.v1 is a package, not a message; name its messages (sparse.v1.Address",
		"google.protobuf.Timestamp":              "declared in google/protobuf/timestamp.proto, which the schemas import",
		"presence.v1.Reading.Unit.KELVIN_DEGREE": `"presence.v1.Reading.Unit.KELVIN_DEGREE" is not a message`,
	} {
		wantBadInput(t, runWiregate(t, "check", "--buf-input", shapes, "--messages", name), want)
	}
}

// A module with registry deps says what an offline runner needs: a
// buf.lock, or the deps' cache. registry.invalid never resolves.
func TestBufDepsNeedALockAndACache(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "d"), 0o755)
	os.WriteFile(filepath.Join(dir, "buf.yaml"), []byte("version: v2\ndeps:\n  - registry.invalid/acme/common\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "d", "d.proto"), []byte("syntax = \"proto3\";\npackage d;\nimport \"acme/common.proto\";\nmessage M { acme.Common c = 1; }\n"), 0o644)
	wantBadInput(t, runWiregate(t, "check", "--buf-input", dir), "registry.invalid/acme/common", "no buf.lock", "buf dep update")

	os.WriteFile(filepath.Join(dir, "buf.lock"), []byte("version: v2\ndeps:\n  - name: registry.invalid/acme/common\n    commit: 61b203b9a9164be9a834f58c37be6f5f\n    digest: b5:"+strings.Repeat("ab", 64)+"\n"), 0o644)
	wantBadInput(t, runWiregate(t, "check", "--buf-input", dir), "could not reach the registry", "registry.invalid/acme/common", "vendored", "buf.lock plus buf's module cache")
}
