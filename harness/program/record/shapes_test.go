package record_test

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/wiregate/wiregate/harness/program/record"
)

// dynamicFile builds a file from its descriptor in text form (after edit,
// when there is one), with the well-known types as possible imports, and
// registers its messages in a resolver of their own.
func dynamicFile(t *testing.T, text string, edit ...func(*descriptorpb.FileDescriptorProto)) (protoreflect.FileDescriptor, *protoregistry.Types) {
	t.Helper()
	var fdp descriptorpb.FileDescriptorProto
	if err := prototext.Unmarshal([]byte(text), &fdp); err != nil {
		t.Fatal(err)
	}
	for _, e := range edit {
		if e != nil {
			e(&fdp)
		}
	}
	deps := new(protoregistry.Files)
	for _, d := range []protoreflect.FileDescriptor{anypb.File_google_protobuf_any_proto, durationpb.File_google_protobuf_duration_proto,
		emptypb.File_google_protobuf_empty_proto, fieldmaskpb.File_google_protobuf_field_mask_proto, structpb.File_google_protobuf_struct_proto,
		timestamppb.File_google_protobuf_timestamp_proto, wrapperspb.File_google_protobuf_wrappers_proto} {
		deps.RegisterFile(d)
	}
	fd, err := protodesc.NewFile(&fdp, deps)
	if err != nil {
		t.Fatal(err)
	}
	types := new(protoregistry.Types)
	for i := 0; i < fd.Messages().Len(); i++ {
		types.RegisterMessage(dynamicpb.NewMessageType(fd.Messages().Get(i)))
	}
	return fd, types
}

func msgType(fd protoreflect.FileDescriptor, name string) protoreflect.MessageType {
	return dynamicpb.NewMessageType(fd.Messages().ByName(protoreflect.Name(name)))
}

const treeProto = `name: "t.proto" package: "t" syntax: "proto3"
message_type { name: "Node"
  field { name: "name" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "children" number: 2 label: LABEL_REPEATED type: TYPE_MESSAGE type_name: ".t.Node" }
  field { name: "links" number: 3 label: LABEL_REPEATED type: TYPE_MESSAGE type_name: ".t.Node.LinksEntry" }
  field { name: "parent" number: 4 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".t.Node" }
  nested_type { name: "LinksEntry" options { map_entry: true }
    field { name: "key" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
    field { name: "value" number: 2 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".t.Node" } } }
message_type { name: "Wide"
  field { name: "texts" number: 1 label: LABEL_REPEATED type: TYPE_STRING }
  field { name: "blobs" number: 2 label: LABEL_REPEATED type: TYPE_BYTES }
  field { name: "numbers" number: 3 label: LABEL_REPEATED type: TYPE_INT64 }
  field { name: "self" number: 4 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".t.Wide" }
  field { name: "many" number: 5 label: LABEL_REPEATED type: TYPE_MESSAGE type_name: ".t.Wide" }
  field { name: "inner" number: 6 label: LABEL_REPEATED type: TYPE_MESSAGE type_name: ".t.Inner" } }
message_type { name: "Inner"
  field { name: "texts" number: 1 label: LABEL_REPEATED type: TYPE_STRING }
  field { name: "back" number: 2 label: LABEL_REPEATED type: TYPE_MESSAGE type_name: ".t.Wide" } }`

// depth is how many times a Node nests in a Node on the deepest path.
func depth(m protoreflect.Message) int {
	d := 0
	m.Range(func(f protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case f.IsMap():
			v.Map().Range(func(_ protoreflect.MapKey, e protoreflect.Value) bool { d = max(d, 1+depth(e.Message())); return true })
		case f.IsList():
			for i := 0; i < v.List().Len(); i++ {
				d = max(d, 1+depth(v.List().Get(i).Message()))
			}
		default:
			if f.Message() != nil {
				d = max(d, 1+depth(v.Message()))
			}
		}
		return true
	})
	return d
}

// A message that contains itself (list, map, single field) nests at most
// twice below the root, and does nest.
func TestRecursionIsBounded(t *testing.T) {
	fd, _ := dynamicFile(t, treeProto)
	deepest := 0
	for _, m := range record.Generate(msgType(fd, "Node"), record.PoolSize, record.Seed) {
		deepest = max(deepest, depth(m.ProtoReflect()))
	}
	if deepest != 2 {
		t.Errorf("Node records nest %d deep, want exactly 2 (a type at most 3 times on a path)", deepest)
	}
}

// A wide message with many ways back to itself reaches the record size
// cap: records stop growing there, and the pool says how many were capped.
func TestRecordSizeIsCapped(t *testing.T) {
	fd, _ := dynamicFile(t, treeProto)
	recs, source, err := record.Pool(msgType(fd, "Wide"), "", false, "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(source, "capped at 8 KiB") {
		t.Errorf("source %q does not say records were capped", source)
	}
	for i, m := range recs {
		if n := proto.Size(m); n > record.MaxRecordBytes+2048 {
			t.Fatalf("record %d is %d bytes, cap %d", i, n, record.MaxRecordBytes)
		}
	}
	if _, src, _ := record.Pool(msgType(fd, "Node"), "", false, ""); strings.Contains(src, "capped") {
		t.Errorf("Node records were capped: %s", src)
	}
}

const wktProto = `name: "w.proto" package: "w" syntax: "proto3"
dependency: "google/protobuf/any.proto" dependency: "google/protobuf/duration.proto" dependency: "google/protobuf/empty.proto"
dependency: "google/protobuf/field_mask.proto" dependency: "google/protobuf/struct.proto" dependency: "google/protobuf/timestamp.proto"
dependency: "google/protobuf/wrappers.proto"
message_type { name: "Envelope"
  field { name: "event_id" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "payload" number: 2 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".google.protobuf.Any" }
  field { name: "update_mask" number: 3 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".google.protobuf.FieldMask" }
  field { name: "attributes" number: 4 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".google.protobuf.Struct" }
  field { name: "extra" number: 5 label: LABEL_REPEATED type: TYPE_MESSAGE type_name: ".google.protobuf.Value" }
  field { name: "items" number: 6 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".google.protobuf.ListValue" }
  field { name: "at" number: 7 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".google.protobuf.Timestamp" }
  field { name: "ttl" number: 8 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".google.protobuf.Duration" }
  field { name: "none" number: 9 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".google.protobuf.Empty" }
  field { name: "total" number: 10 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".google.protobuf.UInt64Value" }
  field { name: "ratio" number: 11 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".google.protobuf.FloatValue" }
  field { name: "token" number: 12 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".google.protobuf.BytesValue" }
  field { name: "Bad_Name" number: 13 label: LABEL_OPTIONAL type: TYPE_STRING } }
message_type { name: "Update"
  field { name: "user_id" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "payload" number: 2 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".google.protobuf.Any" } }`

// Generated well-known types are valid protojson: Any packs a message of
// the same file, FieldMask names the parent's fields (those protojson can
// write), every Value has a kind.
func TestWellKnownTypesAreValidProtojson(t *testing.T) {
	fd, types := dynamicFile(t, wktProto)
	mt := msgType(fd, "Envelope")
	packed := map[string]bool{}
	for i, m := range record.Generate(mt, 64, record.Seed) {
		b, err := protojson.MarshalOptions{Resolver: types}.Marshal(m)
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		back := mt.New().Interface()
		if err := (protojson.UnmarshalOptions{Resolver: types}).Unmarshal(b, back); err != nil {
			t.Fatalf("record %d: %v: %s", i, err, b)
		}
		if !proto.Equal(m, back) {
			t.Fatalf("record %d changed through protojson", i)
		}
		r := m.ProtoReflect()
		payload := r.Get(mt.Descriptor().Fields().ByName("payload")).Message()
		packed[payload.Get(payload.Descriptor().Fields().ByName("type_url")).String()] = true
		paths := r.Get(mt.Descriptor().Fields().ByName("update_mask")).Message()
		l := paths.Get(paths.Descriptor().Fields().ByName("paths")).List()
		for j := 0; j < l.Len(); j++ {
			if p := l.Get(j).String(); mt.Descriptor().Fields().ByName(protoreflect.Name(p)) == nil || p == "Bad_Name" {
				t.Errorf("record %d: FieldMask path %q", i, p)
			}
		}
	}
	// Envelope is on the path, so the Any packs Update.
	if len(packed) != 1 || !packed["type.googleapis.com/w.Update"] {
		t.Errorf("Any type URLs %v", packed)
	}
}

const proto2Proto = `name: "p.proto" package: "p" syntax: "proto2"
message_type { name: "Reading"
  field { name: "device_id" number: 1 label: LABEL_REQUIRED type: TYPE_STRING }
  field { name: "where" number: 2 label: LABEL_REQUIRED type: TYPE_MESSAGE type_name: ".p.Where" }
  field { name: "temperature" number: 3 label: LABEL_OPTIONAL type: TYPE_DOUBLE default_value: "20.5" }
  field { name: "payload" number: 4 label: LABEL_OPTIONAL type: TYPE_BYTES } }
message_type { name: "Where"
  field { name: "lat" number: 1 label: LABEL_REQUIRED type: TYPE_DOUBLE }
  field { name: "back" number: 2 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".p.Reading" } }`

// proto2: required fields are always set (also where nesting stops),
// optional ones are set in some records and not in others.
func TestProto2RequiredAlwaysOptionalSometimes(t *testing.T) {
	fd, _ := dynamicFile(t, proto2Proto)
	temp := fd.Messages().ByName("Reading").Fields().ByName("temperature")
	set := 0
	for i, m := range record.Generate(msgType(fd, "Reading"), record.PoolSize, record.Seed) {
		if err := proto.CheckInitialized(m); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		if m.ProtoReflect().Has(temp) {
			set++
		}
	}
	if set == 0 || set == record.PoolSize {
		t.Errorf("optional temperature set in %d of %d records", set, record.PoolSize)
	}
}
