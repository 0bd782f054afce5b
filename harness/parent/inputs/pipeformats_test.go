package inputs

import (
	"reflect"
	"slices"
	"testing"

	"github.com/wiregate/wiregate/harness/program/codec"
)

// Each message is drained in the formats pipeline-formats picks of those it
// is measured in: auto its wire format, all every one, a list those it has.
func TestPipelineFormatsPickEachMessagesRows(t *testing.T) {
	proto := []string{"json", "protobuf", "avro"}
	avroFirst := []string{"json", "avro"}
	for _, c := range []struct {
		input    string
		measured []string
		want     []string
		perMsg   int
	}{
		{"auto", proto, []string{"protobuf"}, 1},
		{"auto", avroFirst, []string{"avro"}, 1},
		{"auto", []string{"json", "vtprotobuf", "avro"}, []string{"vtprotobuf"}, 1},
		{"auto", []string{"json"}, []string{"json"}, 1},
		{"all", proto, proto, 3},
		{"all", avroFirst, avroFirst, 3},
		{"avro, json", proto, []string{"json", "avro"}, 2},
		{"protobuf", avroFirst, []string{"avro"}, 1}, // has none listed: as auto
	} {
		s, err := Parse(Map(map[string]string{"pipeline-formats": c.input}))
		if err != nil {
			t.Fatalf("%s: %v", c.input, err)
		}
		if got := s.PipelineFormats.Of(c.measured); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s of %v: drains %v, want %v", c.input, c.measured, got, c.want)
		}
		if got := s.PipelineFormats.PerMessage(s.Formats); got != c.perMsg {
			t.Errorf("%s: %d rows a message in the family, want %d", c.input, got, c.perMsg)
		}
	}
	if s := Defaults(); s.PipelineFormats.String() != "auto" {
		t.Errorf("default pipeline-formats %q", s.PipelineFormats)
	}
}

// auto's order names only formats there are, and every one of them: a
// format added to the codecs must be placed in it.
func TestWireOrderNamesEveryFormat(t *testing.T) {
	known := codec.Names()
	if !reflect.DeepEqual(slices.Sorted(slices.Values(wireOrder)), slices.Sorted(slices.Values(known))) {
		t.Fatalf("wireOrder %v, formats %v", wireOrder, known)
	}
}
