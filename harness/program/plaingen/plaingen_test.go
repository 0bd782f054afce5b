package plaingen_test

import (
	"regexp"
	"strings"
	"testing"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/wiregate/wiregate/harness/program/plaingen"
)

// generated runs plaingen on one file given as descriptor text.
func generated(t *testing.T, file string) string {
	t.Helper()
	var fdp descriptorpb.FileDescriptorProto
	if err := prototext.Unmarshal([]byte(file), &fdp); err != nil {
		t.Fatal(err)
	}
	gen, err := protogen.Options{}.New(&pluginpb.CodeGeneratorRequest{
		FileToGenerate: []string{fdp.GetName()},
		ProtoFile:      []*descriptorpb.FileDescriptorProto{&fdp},
		Parameter:      proto.String("M" + fdp.GetName() + "=example.com/gen/x"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := plaingen.Generate(gen, ""); err != nil {
		t.Fatal(err)
	}
	resp := gen.Response()
	if resp.Error != nil || len(resp.File) != 1 {
		t.Fatalf("response: %v", resp)
	}
	return resp.File[0].GetContent()
}

// The JSON shape rule: pointers (explicit-presence scalars, oneof members,
// messages) are omitted by the keyed formats when nil; plain values,
// required fields, lists and maps are always written; Avro has no
// omitempty. proto2 required is a plain value, optional bytes a pointer.
func TestStructTagsOmitOnlyWhatCanBeUnset(t *testing.T) {
	src := generated(t, `name: "x.proto" package: "x" syntax: "proto2"
message_type { name: "M"
  field { name: "plain_req" number: 1 label: LABEL_REQUIRED type: TYPE_INT32 }
  field { name: "opt" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "blob" number: 3 label: LABEL_OPTIONAL type: TYPE_BYTES }
  field { name: "sub" number: 4 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".x.M" }
  field { name: "a" number: 5 label: LABEL_OPTIONAL type: TYPE_STRING oneof_index: 0 }
  field { name: "list" number: 6 label: LABEL_REPEATED type: TYPE_INT64 }
  field { name: "to_proto" number: 7 label: LABEL_OPTIONAL type: TYPE_BOOL }
  oneof_decl { name: "pick" } }`)
	for field, want := range map[string]string{
		"PlainReq": "int32 `json:\"plain_req\" avro:\"plain_req\" msgpack:\"plain_req\" cbor:\"plain_req\"`",
		"Opt":      "*string `json:\"opt,omitempty\" avro:\"opt\" msgpack:\"opt,omitempty\" cbor:\"opt,omitempty\"`",
		"Blob":     "*[]byte `json:\"blob,omitempty\"",
		"Sub":      "*X_M `json:\"sub,omitempty\"",
		"A":        "*string `json:\"a,omitempty\"",
		"List":     "[]int64 `json:\"list\" avro:\"list\"",
		// A field named to_proto does not collide with the converter.
		"ToProto": "*bool `json:\"to_proto,omitempty\"",
	} {
		re := regexp.MustCompile(`(?m)^\t` + field + `\s+(.*)$`)
		m := re.FindStringSubmatch(src)
		if m == nil || !strings.HasPrefix(strings.Join(strings.Fields(m[1]), " "), want) {
			t.Errorf("field %s: got %q, want %s…", field, m, want)
		}
	}
	if !strings.Contains(src, "func X_MToProto(p *X_M) *x.M {") {
		t.Error("no X_MToProto converter function")
	}
}
