package prepare

import (
	"testing"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Two files as buf would describe them: a.v1.Event uses a.v1.Kind (an enum
// in its own file) and b.v1.Place (a message of another file, with its own
// dependency b.v1.Point); a.v1.Other sits next to Event and uses nothing.
const fingerprintBase = `
file {
  name: "b/v1/place.proto" package: "b.v1" syntax: "proto3"
  message_type { name: "Point" field { name: "x" number: 1 label: LABEL_OPTIONAL type: TYPE_DOUBLE json_name: "x" } }
  message_type { name: "Place"
    field { name: "name" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING json_name: "name" }
    field { name: "at" number: 2 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".b.v1.Point" json_name: "at" } }
  message_type { name: "Unused" field { name: "u" number: 1 label: LABEL_OPTIONAL type: TYPE_INT32 json_name: "u" } }
}
file {
  name: "a/v1/kind.proto" package: "a.v1" syntax: "proto3"
  enum_type { name: "Kind" value { name: "KIND_UNSPECIFIED" number: 0 } value { name: "KIND_A" number: 1 } }
}
file {
  name: "a/v1/event.proto" package: "a.v1" syntax: "proto3"
  dependency: "a/v1/kind.proto" dependency: "b/v1/place.proto"
  message_type { name: "Event"
    field { name: "id" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING json_name: "id" }
    field { name: "kind" number: 2 label: LABEL_OPTIONAL type: TYPE_ENUM type_name: ".a.v1.Kind" json_name: "kind" }
    field { name: "place" number: 3 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".b.v1.Place" json_name: "place" }
    field { name: "tags" number: 4 label: LABEL_REPEATED type: TYPE_MESSAGE type_name: ".a.v1.Event.TagsEntry" json_name: "tags" }
    nested_type { name: "TagsEntry" options { map_entry: true }
      field { name: "key" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING json_name: "key" }
      field { name: "value" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING json_name: "value" } }
    nested_type { name: "Unrelated" field { name: "z" number: 1 label: LABEL_OPTIONAL type: TYPE_INT64 json_name: "z" } } }
  message_type { name: "Other" field { name: "o" number: 1 label: LABEL_OPTIONAL type: TYPE_BOOL json_name: "o" } }
}`

// prints loads the set after edit and fingerprints both messages.
func prints(t *testing.T, edit func(set *descriptorpb.FileDescriptorSet)) map[string]string {
	t.Helper()
	set := &descriptorpb.FileDescriptorSet{}
	if err := prototext.Unmarshal([]byte(fingerprintBase), set); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(set)
	}
	files, err := protodesc.NewFiles(set)
	if err != nil {
		t.Fatal(err)
	}
	fp, err := fingerprints(files, []string{"a.v1.Event", "a.v1.Other"})
	if err != nil {
		t.Fatal(err)
	}
	return fp
}

func file(set *descriptorpb.FileDescriptorSet, name string) *descriptorpb.FileDescriptorProto {
	for _, f := range set.File {
		if f.GetName() == name {
			return f
		}
	}
	panic(name)
}

func TestFingerprintCoversTheMessageClosureOnly(t *testing.T) {
	base := prints(t, nil)
	if base["a.v1.Event"] == base["a.v1.Other"] || len(base["a.v1.Event"]) != 64 {
		t.Fatalf("fingerprints %v", base)
	}
	if again := prints(t, nil); again["a.v1.Event"] != base["a.v1.Event"] {
		t.Fatal("the same descriptors hash differently")
	}
	for _, c := range []struct {
		what         string
		edit         func(set *descriptorpb.FileDescriptorSet)
		event, other bool // changed?
	}{
		{"a field of Event renamed (its JSON key)", func(s *descriptorpb.FileDescriptorSet) {
			f := file(s, "a/v1/event.proto").MessageType[0].Field[0]
			f.Name, f.JsonName = ptr("ident"), ptr("ident")
		}, true, false},
		{"an enum value Event uses added", func(s *descriptorpb.FileDescriptorSet) {
			e := file(s, "a/v1/kind.proto").EnumType[0]
			e.Value = append(e.Value, &descriptorpb.EnumValueDescriptorProto{Name: ptr("KIND_B"), Number: ptrInt(2)})
		}, true, false},
		{"a field of a message two levels down", func(s *descriptorpb.FileDescriptorSet) {
			file(s, "b/v1/place.proto").MessageType[0].Field[0].Type = descriptorpb.FieldDescriptorProto_TYPE_FLOAT.Enum()
		}, true, false},
		{"the map entry's value type", func(s *descriptorpb.FileDescriptorSet) {
			file(s, "a/v1/event.proto").MessageType[0].NestedType[0].Field[1].Type = descriptorpb.FieldDescriptorProto_TYPE_BYTES.Enum()
		}, true, false},
		{"Other's field", func(s *descriptorpb.FileDescriptorSet) {
			file(s, "a/v1/event.proto").MessageType[1].Field[0].Type = descriptorpb.FieldDescriptorProto_TYPE_INT32.Enum()
		}, false, true},
		{"an unused message in a file Event depends on", func(s *descriptorpb.FileDescriptorSet) {
			file(s, "b/v1/place.proto").MessageType[2].Field[0].Type = descriptorpb.FieldDescriptorProto_TYPE_INT64.Enum()
		}, false, false},
		{"a nested message Event declares but no field uses", func(s *descriptorpb.FileDescriptorSet) {
			file(s, "a/v1/event.proto").MessageType[0].NestedType[1].Field[0].Type = descriptorpb.FieldDescriptorProto_TYPE_INT32.Enum()
		}, false, false},
		{"proto2 in the file of a dependency (presence)", func(s *descriptorpb.FileDescriptorSet) {
			f := file(s, "b/v1/place.proto")
			f.Syntax = ptr("proto2")
		}, true, false},
	} {
		got := prints(t, c.edit)
		if changed := got["a.v1.Event"] != base["a.v1.Event"]; changed != c.event {
			t.Errorf("%s: Event changed = %v, want %v", c.what, changed, c.event)
		}
		if changed := got["a.v1.Other"] != base["a.v1.Other"]; changed != c.other {
			t.Errorf("%s: Other changed = %v, want %v", c.what, changed, c.other)
		}
	}
}

func ptr(s string) *string  { return &s }
func ptrInt(i int32) *int32 { return &i }
