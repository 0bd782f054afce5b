package prepare

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// A MessageSet, what nests in or holds one, and the extensions and rpcs
// that name them are removed; everything else, in the same file, loads.
func TestDropUnmeasurableLeavesALoadableRest(t *testing.T) {
	var set descriptorpb.FileDescriptorSet
	if err := prototext.Unmarshal([]byte(`file {
  name: "m/legacy.proto" package: "m" syntax: "proto2"
  message_type { name: "Set" options { message_set_wire_format: true } extension_range { start: 4 end: 2147483647 }
    nested_type { name: "Inner" field { name: "x" number: 1 label: LABEL_OPTIONAL type: TYPE_INT32 } } }
  message_type { name: "Holder" field { name: "set" number: 1 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".m.Set" } }
  message_type { name: "Outer" field { name: "h" number: 1 label: LABEL_REPEATED type: TYPE_MESSAGE type_name: ".m.Holder" } }
  message_type { name: "Payload" field { name: "s" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
    extension { name: "ext" number: 1000 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".m.Payload" extendee: ".m.Set" } }
  message_type { name: "Keep" field { name: "p" number: 1 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".m.Payload" } }
  service { name: "Svc"
    method { name: "Bad" input_type: ".m.Holder" output_type: ".m.Keep" }
    method { name: "Good" input_type: ".m.Keep" output_type: ".m.Keep" } }
}`), &set); err != nil {
		t.Fatal(err)
	}
	if _, err := protodesc.NewFiles(&set); err == nil || !strings.Contains(err.Error(), "MessageSet") {
		t.Fatalf("the set should not load as it is: %v", err)
	}
	skips, changed := dropUnmeasurable(&set, map[string]bool{"m/legacy.proto": true})
	if !changed {
		t.Fatal("nothing dropped")
	}
	want := map[string]string{
		"m.Set":       "a MessageSet",
		"m.Set.Inner": "nested in m.Set",
		"m.Holder":    "field `set` holds m.Set, a MessageSet",
		"m.Outer":     "field `h` holds m.Set, a MessageSet",
	}
	for _, s := range skips {
		if w, ok := want[s.Message]; !ok || !strings.Contains(s.Reason, w) || s.File != "m/legacy.proto" {
			t.Errorf("skip %+v", s)
		}
		delete(want, s.Message)
	}
	if len(want) > 0 {
		t.Errorf("not skipped: %v", want)
	}
	files, err := protodesc.NewFiles(&set)
	if err != nil {
		t.Fatalf("the rest does not load: %v", err)
	}
	for _, name := range []string{"m.Payload", "m.Keep", "m.Svc.Good"} {
		if _, err := files.FindDescriptorByName(protoreflect.FullName(name)); err != nil {
			t.Errorf("%s was dropped: %v", name, err)
		}
	}
	for _, name := range []string{"m.Svc.Bad", "m.Payload.ext"} {
		if _, err := files.FindDescriptorByName(protoreflect.FullName(name)); err == nil {
			t.Errorf("%s refers to a dropped message but was kept", name)
		}
	}

	// A set without legacy messages is left as it is.
	if skips, changed := dropUnmeasurable(&set, nil); changed || skips != nil {
		t.Errorf("second pass changed the set: %v", skips)
	}
}
