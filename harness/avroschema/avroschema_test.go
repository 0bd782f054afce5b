package avroschema_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hamba/avro/v2"

	"github.com/wiregate/wiregate/harness/avroschema"
	"github.com/wiregate/wiregate/harness/exitcode"
	ordersv1 "github.com/wiregate/wiregate/harness/internal/fixture/gen/orders/v1"
	telemetryv1 "github.com/wiregate/wiregate/harness/internal/fixture/gen/telemetry/v1"
)

func TestDeriveMapsTimestampAndMap(t *testing.T) {
	s, err := avroschema.Derive((&ordersv1.Order{}).ProtoReflect().Descriptor())
	if err != nil {
		t.Fatal(err)
	}
	rec := s.(*avro.RecordSchema)
	if rec.FullName() != "orders.v1.Order" {
		t.Errorf("record name %s", rec.FullName())
	}
	types := map[string]string{}
	for _, f := range rec.Fields() {
		types[f.Name()] = f.Type().String()
	}
	if !strings.HasPrefix(types["created_at"], `["null",{"name":"google.protobuf.Timestamp"`) {
		t.Errorf("created_at: %s", types["created_at"])
	}
	if types["meta"] != `{"type":"map","values":"string"}` || types["quantity"] != `"int"` {
		t.Errorf("meta %s quantity %s", types["meta"], types["quantity"])
	}
}

func TestRepoAvscIsUsedForTelemetry(t *testing.T) {
	path := "../../schemas/telemetry/v1/telemetry_event.avsc"
	_, src, err := avroschema.ForMessage((&telemetryv1.TelemetryEvent{}).ProtoReflect().Descriptor(), []string{path})
	if err != nil || src != path {
		t.Fatalf("source %q, err %v", src, err)
	}
}

func TestBadAvscIsNamedWithTheFix(t *testing.T) {
	md := (&telemetryv1.TelemetryEvent{}).ProtoReflect().Descriptor()
	orig, err := os.ReadFile("../../schemas/telemetry/v1/telemetry_event.avsc")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct{ name, content, want string }{
		{"notjson", `{"type": "record",`, "not JSON"},
		{"invalid", `{"type": "record", "name": "X", "fields": [{"name": "a", "type": "strang"}]}`, "not a valid Avro schema"},
		{"wrongtype", strings.Replace(string(orig), `{"name": "region", "type": "string"}`, `{"name": "region", "type": "int"}`, 1), "field `region` is int in the .avsc"},
		{"missing", strings.Replace(string(orig), `,
    {"name": "region", "type": "string"}`, "", 1), "field `region` of the proto message is missing"},
		{"extra", strings.Replace(string(orig), `{"name": "region", "type": "string"}`, `{"name": "region", "type": "string"}, {"name": "zone", "type": "string"}`, 1), "field `zone` has no proto field"},
	} {
		path := filepath.Join(dir, tc.name+".avsc")
		os.WriteFile(path, []byte(tc.content), 0o644)
		_, _, err := avroschema.ForMessage(md, []string{path})
		if err == nil || exitcode.Code(err) != 2 || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want a bad-input error naming %s and saying %q", tc.name, err, path, tc.want)
		}
	}
}
