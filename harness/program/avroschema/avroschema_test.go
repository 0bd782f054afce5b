package avroschema_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twmb/avro"
	"google.golang.org/protobuf/reflect/protoreflect"

	ordersv1 "github.com/wiregate/wiregate/harness/internal/fixture/gen/orders/v1"
	telemetryv1 "github.com/wiregate/wiregate/harness/internal/fixture/gen/telemetry/v1"
	"github.com/wiregate/wiregate/harness/program/avroschema"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

func TestDeriveMapsTimestampAndMap(t *testing.T) {
	s, err := avroschema.Derive((&ordersv1.Order{}).ProtoReflect().Descriptor())
	if err != nil {
		t.Fatal(err)
	}
	rec := s.Root()
	if avroschema.FullName(rec) != "orders.v1.Order" {
		t.Errorf("record name %s", avroschema.FullName(rec))
	}
	types := map[string]string{}
	for _, f := range rec.Fields {
		sub, err := f.Type.Schema()
		if err != nil {
			t.Fatal(err)
		}
		types[f.Name] = string(sub.Canonical())
	}
	if !strings.HasPrefix(types["created_at"], `["null",{"name":"google.protobuf.Timestamp"`) {
		t.Errorf("created_at: %s", types["created_at"])
	}
	if types["meta"] != `{"type":"map","values":"string"}` || types["quantity"] != `"int"` {
		t.Errorf("meta %s quantity %s", types["meta"], types["quantity"])
	}
}

func TestRepoAvscIsUsedForTelemetry(t *testing.T) {
	path := "../../../schemas/telemetry/v1/telemetry_event.avsc"
	_, src, err := forFiles((&telemetryv1.TelemetryEvent{}).ProtoReflect().Descriptor(), path)
	if err != nil || src != path {
		t.Fatalf("source %q, err %v", src, err)
	}
}

func TestBadAvscIsNamedWithTheFix(t *testing.T) {
	md := (&telemetryv1.TelemetryEvent{}).ProtoReflect().Descriptor()
	orig, err := os.ReadFile("../../../schemas/telemetry/v1/telemetry_event.avsc")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct{ name, content, want string }{
		{"notjson", `{"type": "record",`, "not JSON"},
		{"unknown", `{"type": "record", "name": "X", "fields": [{"name": "a", "type": "strang"}]}`, "uses strang, which no .avsc of the set defines"},
		{"invalid", `{"type": "record", "name": "X", "fields": [{"name": "a", "type": {"type": "enum", "name": "E"}}]}`, "not a valid Avro schema"},
		{"wrongtype", strings.Replace(string(orig), `{"name": "region", "type": "string"}`, `{"name": "region", "type": "int"}`, 1), "field `region` is int in the .avsc"},
		{"missing", strings.Replace(string(orig), `,
    {"name": "region", "type": "string"}`, "", 1), "field `region` of the proto message is missing"},
		{"extra", strings.Replace(string(orig), `{"name": "region", "type": "string"}`, `{"name": "region", "type": "string"}, {"name": "zone", "type": "string"}`, 1), "field `zone` has no proto field"},
	} {
		path := filepath.Join(dir, tc.name+".avsc")
		os.WriteFile(path, []byte(tc.content), 0o644)
		_, _, err := forFiles(md, path)
		if err == nil || exitcode.Code(err) != 2 || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want a bad-input error naming %s and saying %q", tc.name, err, path, tc.want)
		}
	}
}

// A bad default is shown as the .avsc spells it, with the field's type;
// twmb/avro alone says "expected number, got <nil>" for null and "expected
// string, got json.Number" for 1.5. A union's default may be a value of any
// of its types (Avro 1.12's specification; Java agrees): 5 for ["null",
// "int"] is valid, "x" is not.
func TestBadDefaultShowsTheOffendingValue(t *testing.T) {
	for _, tc := range []struct{ field, want string }{
		{`{"name": "a", "type": "int", "default": null}`, "field `a`: default null is not a valid \"int\""},
		{`{"name": "u", "type": ["null", "int"], "default": "x"}`, "field `u`: default \"x\" is not a valid [\"null\",\"int\"] (a union's default must be a value of one of its types)"},
		{`{"name": "r", "type": {"type": "record", "name": "Y", "fields": [{"name": "s", "type": "string", "default": 1.5}]}}`, "field `s`: default 1.5 is not a valid \"string\""},
		{`{"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["A", "B"]}, "default": "C"}`, "field `e`: default \"C\" is not a valid enum E (symbols: A, B)"},
	} {
		_, err := avroschema.Parse("x.avsc", []byte(`{"type": "record", "name": "X", "fields": [`+tc.field+`]}`))
		if err == nil || exitcode.Code(err) != 2 || !strings.Contains(err.Error(), "x.avsc") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
	}
	if _, err := avroschema.Parse("x.avsc", []byte(`{"type": "record", "name": "X", "fields": [{"name": "u", "type": ["null", "int"], "default": 5}]}`)); err != nil {
		t.Errorf("a union default of its second type: %v", err)
	}
}

// forFiles is ForMessage over the set of paths.
func forFiles(md protoreflect.MessageDescriptor, paths ...string) (*avro.Schema, string, error) {
	set, err := avroschema.ReadSet("", paths)
	if err != nil {
		return nil, "", err
	}
	return avroschema.ForMessage(md, set)
}
