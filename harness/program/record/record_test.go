package record_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	ordersv1 "github.com/wiregate/wiregate/harness/internal/fixture/gen/orders/v1"
	pingpongv1 "github.com/wiregate/wiregate/harness/internal/fixture/gen/pingpong/v1"
	telemetryv1 "github.com/wiregate/wiregate/harness/internal/fixture/gen/telemetry/v1"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/record"
)

func TestGenerateIsDeterministicAndDistinct(t *testing.T) {
	mt := (&telemetryv1.TelemetryEvent{}).ProtoReflect().Type()
	a := record.Generate(mt, record.PoolSize, record.Seed)
	b := record.Generate(mt, record.PoolSize, record.Seed)
	distinct := map[string]bool{}
	for i := range a {
		if !proto.Equal(a[i], b[i]) {
			t.Fatalf("record %d differs between two generations", i)
		}
		k, _ := proto.MarshalOptions{Deterministic: true}.Marshal(a[i])
		distinct[string(k)] = true
	}
	if len(distinct) != record.PoolSize {
		t.Errorf("%d distinct records, want %d", len(distinct), record.PoolSize)
	}
}

func TestGeneratedValuesHaveRealisticShapes(t *testing.T) {
	mt := (&telemetryv1.TelemetryEvent{}).ProtoReflect().Type()
	for i, m := range record.Generate(mt, 64, record.Seed) {
		e := m.(*telemetryv1.TelemetryEvent)
		if !strings.HasPrefix(e.DeviceId, "device-") || len(e.DeviceId) != len("device-01234") {
			t.Fatalf("record %d device_id %q, want device-NNNNN", i, e.DeviceId)
		}
		if e.BatteryPct < 0 || e.BatteryPct > 100 || e.Humidity < 0 || e.Humidity > 100 {
			t.Fatalf("record %d out of range: %+v", i, e)
		}
		if e.Latitude < -90 || e.Latitude > 90 || e.Longitude < -180 || e.Longitude > 180 {
			t.Fatalf("record %d coordinates out of range", i)
		}
		if e.Timestamp < 1_700_000_000_000 || e.Timestamp > 1_900_000_000_000 {
			t.Fatalf("record %d timestamp %d not near now in ms", i, e.Timestamp)
		}
	}
	var lists, maps int
	for _, m := range record.Generate((&pingpongv1.PingPong{}).ProtoReflect().Type(), 64, record.Seed) {
		p := m.(*pingpongv1.PingPong)
		if len(p.Names) > 8 || len(p.Ints) > 8 {
			t.Fatalf("repeated field longer than 8: %d", len(p.Names))
		}
		lists += len(p.Names)
	}
	for _, m := range record.Generate((&ordersv1.Order{}).ProtoReflect().Type(), 64, record.Seed) {
		o := m.(*ordersv1.Order)
		if len(o.Meta) > 4 {
			t.Fatalf("map with %d entries, want ≤ 4", len(o.Meta))
		}
		if o.CreatedAt == nil || o.CreatedAt.AsTime().Year() != 2026 {
			t.Fatalf("created_at %v not near now", o.CreatedAt)
		}
		maps += len(o.Meta)
	}
	if lists == 0 || maps == 0 {
		t.Errorf("repeated/map fields never populated (lists %d, maps %d)", lists, maps)
	}
}

// Adding a field must not change any other field's values: base and head
// then differ by exactly the schema change.
func TestAddingAFieldLeavesOtherValuesAlone(t *testing.T) {
	fdp := protodesc.ToFileDescriptorProto(telemetryv1.File_telemetry_v1_telemetry_event_proto)
	msg := fdp.MessageType[0]
	msg.Field = append(msg.Field, &descriptorpb.FieldDescriptorProto{
		Name: proto.String("notes"), JsonName: proto.String("notes"), Number: proto.Int32(13),
		Type: descriptorpb.FieldDescriptorProto_TYPE_STRING.Enum(), Label: descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum(),
	})
	fd, err := protodesc.NewFile(fdp, nil)
	if err != nil {
		t.Fatal(err)
	}
	head := record.Generate(dynamicpb.NewMessageType(fd.Messages().Get(0)), 32, record.Seed)
	base := record.Generate((&telemetryv1.TelemetryEvent{}).ProtoReflect().Type(), 32, record.Seed)
	for i := range base {
		b, h := base[i].ProtoReflect(), head[i].ProtoReflect()
		b.Range(func(f protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			hv := h.Get(h.Descriptor().Fields().ByName(f.Name()))
			if !v.Equal(hv) {
				t.Fatalf("record %d field %s changed: %v → %v", i, f.Name(), v, hv)
			}
			return true
		})
	}
}

// Renaming a field (a JSON-only change) keeps every value, its own
// included: protobuf and Avro bytes stay equal and only JSON's keys move.
// Renumbering a field re-rolls that field alone.
func TestRenameKeepsValuesRenumberRerolls(t *testing.T) {
	base := record.Generate((&telemetryv1.TelemetryEvent{}).ProtoReflect().Type(), 32, record.Seed)
	variant := func(edit func(*descriptorpb.FieldDescriptorProto)) []proto.Message {
		fdp := protodesc.ToFileDescriptorProto(telemetryv1.File_telemetry_v1_telemetry_event_proto)
		for _, f := range fdp.MessageType[0].Field {
			if f.GetName() == "firmware" {
				edit(f)
			}
		}
		fd, err := protodesc.NewFile(fdp, nil)
		if err != nil {
			t.Fatal(err)
		}
		return record.Generate(dynamicpb.NewMessageType(fd.Messages().Get(0)), 32, record.Seed)
	}
	renamed := variant(func(f *descriptorpb.FieldDescriptorProto) {
		f.Name, f.JsonName = proto.String("firmware_release"), proto.String("firmwareRelease")
	})
	renumbered := variant(func(f *descriptorpb.FieldDescriptorProto) { f.Number = proto.Int32(99) })
	rerolled := 0
	for i := range base {
		b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(base[i])
		r, _ := proto.MarshalOptions{Deterministic: true}.Marshal(renamed[i])
		if string(b) != string(r) {
			t.Fatalf("record %d: renaming firmware changed the protobuf bytes", i)
		}
		old := base[i].ProtoReflect()
		n := renumbered[i].ProtoReflect()
		old.Range(func(f protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			nv := n.Get(n.Descriptor().Fields().ByName(f.Name()))
			if f.Name() == "firmware" {
				if !v.Equal(nv) {
					rerolled++
				}
			} else if !v.Equal(nv) {
				t.Fatalf("record %d: renumbering firmware changed %s", i, f.Name())
			}
			return true
		})
	}
	if rerolled == 0 {
		t.Error("renumbering firmware kept all its values; want them re-rolled")
	}
}

func TestSamplesAreReadAndBadLinesNamed(t *testing.T) {
	dir := t.TempDir()
	mt := (&telemetryv1.TelemetryEvent{}).ProtoReflect().Type()
	file := filepath.Join(dir, "telemetry.v1.TelemetryEvent.jsonl")
	os.WriteFile(file, []byte(`{"deviceId":"device-1","batteryPct":50}`+"\n\n"+`{"device_id":"device-2"}`+"\n"), 0o644)
	recs, src, err := record.Pool(mt, dir, false, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[1].(*telemetryv1.TelemetryEvent).DeviceId != "device-2" || !strings.HasPrefix(src, "samples") {
		t.Fatalf("got %d records from %s", len(recs), src)
	}
	os.WriteFile(file, []byte(`{"deviceId":"device-1"}`+"\n"+`{"deviceId": 12, }`+"\n"), 0o644)
	_, _, err = record.Pool(mt, dir, false, "")
	if err == nil || exitcode.Code(err) != 2 || !strings.Contains(err.Error(), file+":2") {
		t.Fatalf("want a bad-input error naming %s:2, got %v", file, err)
	}
	// No file for the message: generated records.
	recs, src, err = record.Pool((&ordersv1.Order{}).ProtoReflect().Type(), dir, false, "")
	if err != nil || len(recs) != record.PoolSize || !strings.HasPrefix(src, "generated") {
		t.Fatalf("fallback: %d records from %s, %v", len(recs), src, err)
	}
}

// Samples written for head hold fields the base lacks: the base's program
// drops them and measures the rest, while a strict LoadSamples (the gate's reading
// against head's schema) names a field no side has, with its line.
func TestSamplesOfAFieldTheSchemaLacks(t *testing.T) {
	dir := t.TempDir()
	mt := (&telemetryv1.TelemetryEvent{}).ProtoReflect().Type()
	file := filepath.Join(dir, "telemetry.v1.TelemetryEvent.jsonl")
	os.WriteFile(file, []byte(`{"deviceId":"device-1"}`+"\n"+`{"deviceId":"device-2","eventName":"boot"}`+"\n"), 0o644)
	recs, _, err := record.Pool(mt, dir, true, "")
	if err != nil || len(recs) != 2 || recs[1].(*telemetryv1.TelemetryEvent).DeviceId != "device-2" {
		t.Fatalf("got %d records, %v", len(recs), err)
	}
	_, _, err = record.LoadSamples(dir, mt, false)
	if err == nil || exitcode.Code(err) != 2 || !strings.Contains(err.Error(), file+":2") || !strings.Contains(err.Error(), "eventName") {
		t.Fatalf("want a bad-input error naming %s:2 and eventName, got %v", file, err)
	}
	// Not loose (every reading but the gate's base side): the same error.
	if _, _, err := record.Pool(mt, dir, false, ""); err == nil || !strings.Contains(err.Error(), file+":2") {
		t.Fatalf("strict pool: want a bad-input error naming %s:2, got %v", file, err)
	}
	os.WriteFile(file, []byte(`{"deviceId":"device-1"}`+"\n"), 0o644)
	if _, _, err := record.LoadSamples(dir, mt, false); err != nil {
		t.Fatal(err)
	}
}
