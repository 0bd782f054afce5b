package record_test

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wiregate/wiregate/harness/program/record"
)

// kindsProto3 holds field x (%s: its declaration) and other_name beside it.
const kindsProto3 = `name: "k.proto" package: "k" syntax: "proto3"
dependency: "google/protobuf/timestamp.proto"
message_type { name: "M"
  %s
  field { name: "other_name" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING }
}
message_type { name: "Part" field { name: "part_id" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING } }
message_type { name: "Piece" field { name: "piece_id" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING } }
enum_type { name: "Open" value { name: "OPEN_UNSPECIFIED" number: 0 } value { name: "OPEN_ONE" number: 1 } value { name: "OPEN_TWO" number: 2 } }`

// kindsProto2: closed enums and groups.
const kindsProto2 = `name: "c.proto" package: "c" syntax: "proto2"
message_type { name: "M"
  %s
  field { name: "other_name" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING }
  nested_type { name: "X" field { name: "part_id" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING } } }
message_type { name: "Piece" field { name: "piece_id" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING } }
enum_type { name: "Abc" value { name: "A" number: 1 } value { name: "B" number: 2 } value { name: "C" number: 3 } }
enum_type { name: "Ab" value { name: "AB_A" number: 1 } value { name: "AB_B" number: 2 } }
enum_type { name: "Abcd" value { name: "D_A" number: 1 } value { name: "D_B" number: 2 } value { name: "D_C" number: 3 } value { name: "D_D" number: 4 } }`

// x declares field x: "int32", "repeated string", "message .k.Part",
// "enum .k.Open", "map string int32", "group .c.M.X", "required string".
func x(decl string) string {
	label, typ := "LABEL_OPTIONAL", decl
	if l, rest, ok := strings.Cut(decl, " "); ok && (l == "repeated" || l == "required") {
		label, typ = "LABEL_"+strings.ToUpper(l), rest
	}
	kind, name, _ := strings.Cut(typ, " ")
	if kind == "map" {
		k, v, _ := strings.Cut(name, " ")
		return fmt.Sprintf(`field { name: "x" number: 1 label: LABEL_REPEATED type: TYPE_MESSAGE type_name: "XEntry" }
  nested_type { name: "XEntry" options { map_entry: true }
    field { name: "key" number: 1 label: LABEL_OPTIONAL type: TYPE_%s }
    field { name: "value" number: 2 label: LABEL_OPTIONAL type: TYPE_%s } }`, strings.ToUpper(k), strings.ToUpper(v))
	}
	if name != "" {
		name = fmt.Sprintf("type_name: %q", name)
	}
	return fmt.Sprintf(`field { name: "x" number: 1 label: %s type: TYPE_%s %s }`, label, strings.ToUpper(kind), name)
}

// values are field x's values in m as text, so values of different kinds
// compare: list elements in order, map entries by key, a message by its
// field 1.
func values(m protoreflect.Message) []string {
	f := m.Descriptor().Fields().ByNumber(1)
	if !m.Has(f) {
		return nil
	}
	v := m.Get(f)
	switch {
	case f.IsMap():
		var out []string
		v.Map().Range(func(k protoreflect.MapKey, e protoreflect.Value) bool {
			out = append(out, text(k.Value())+"="+text(e))
			return true
		})
		slices.Sort(out)
		return out
	case f.IsList():
		out := make([]string, v.List().Len())
		for i := range out {
			out[i] = text(v.List().Get(i))
		}
		return out
	}
	return []string{text(v)}
}

func text(v protoreflect.Value) string {
	switch x := v.Interface().(type) {
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 64)
	case []byte:
		return string(x)
	case protoreflect.Message:
		return x.Get(x.Descriptor().Fields().ByNumber(1)).String()
	}
	return fmt.Sprint(v.Interface())
}

// The kind table (kinds.go): each change keeps every value, or regenerates
// field x alone and says so with the two types.
func TestKindTable(t *testing.T) {
	for _, c := range []struct {
		file, from, to string
		keeps          bool
	}{
		{kindsProto3, "int32", "int64", true},
		{kindsProto3, "int32", "sint32", true},
		{kindsProto3, "int32", "sfixed64", true},
		{kindsProto3, "sint64", "int64", true},
		{kindsProto3, "sfixed64", "sint64", true},
		{kindsProto3, "uint32", "uint64", true},
		{kindsProto3, "fixed32", "uint32", true},
		{kindsProto3, "uint32", "int64", true},
		{kindsProto3, "uint64", "fixed64", true},
		{kindsProto3, "float", "double", true},
		{kindsProto3, "string", "bytes", true},
		{kindsProto3, "enum .k.Open", "int32", true},
		{kindsProto3, "enum .k.Open", "int64", true},
		{kindsProto3, "int32", "enum .k.Open", true},
		{kindsProto3, "int32", "repeated int64", true},
		{kindsProto3, "message .k.Part", "repeated message .k.Piece", true},
		{kindsProto3, "repeated int32", "repeated sint64", true},
		{kindsProto3, "map string int32", "map string int64", true},
		{kindsProto3, "message .k.Part", "message .k.Piece", true},
		{kindsProto3, "int64", "int32", false},
		{kindsProto3, "double", "float", false},
		{kindsProto3, "int32", "uint32", false},
		{kindsProto3, "int64", "uint64", false},
		{kindsProto3, "uint64", "int64", false},
		{kindsProto3, "bytes", "string", false},
		{kindsProto3, "bool", "int32", false},
		{kindsProto3, "int32", "bool", false},
		{kindsProto3, "int32", "double", false},
		{kindsProto3, "enum .k.Open", "uint32", false},
		{kindsProto3, "string", "message .k.Part", false},
		{kindsProto3, "message .k.Part", "string", false},
		{kindsProto3, "repeated string", "string", false},
		{kindsProto3, "map string string", "repeated string", false},
		{kindsProto3, "repeated message .k.Part", "map string string", false},
		{kindsProto3, "map string string", "map int32 string", false},
		{kindsProto3, "message .k.Part", "message .google.protobuf.Timestamp", false},
		{kindsProto2, "enum .c.Abc", "enum .c.Abcd", true},
		{kindsProto2, "message .c.Piece", "group .c.M.X", true},
		{kindsProto2, "enum .c.Abc", "enum .c.Ab", false},
		{kindsProto2, "int32", "enum .c.Abc", false},
	} {
		t.Run(c.from+" → "+c.to, func(t *testing.T) {
			base := record.Generate(schema(t, fmt.Sprintf(c.file, x(c.from)), "M", nil), 64, record.Seed)
			p, err := record.Pair(base, schema(t, fmt.Sprintf(c.file, x(c.to)), "M", nil))
			if err != nil {
				t.Fatal(err)
			}
			had, kept := 0, 0
			for i := range base {
				b, h := base[i].ProtoReflect(), p.Records[i].ProtoReflect()
				if !bytes.Equal(without(t, base[i], 1), without(t, p.Records[i], 1)) {
					t.Fatalf("record %d: other_name changed", i)
				}
				if bv := values(b); len(bv) > 0 {
					had++
					if slices.Equal(bv, values(h)) {
						kept++
					}
				}
			}
			if had == 0 {
				t.Fatal("no base record has x")
			}
			r := p.Notes.Regenerated
			if c.keeps {
				if kept != had || len(r) > 0 {
					t.Errorf("kept %d of %d values, regenerated %+v", kept, had, r)
				}
				return
			}
			// (Fresh values may equal the base's: a stream gives the
			// same numbers to int64 as to int32.)
			if len(r) != 1 || r[0].Field != "x" || r[0].From == "" || r[0].To == "" || r[0].From == r[0].To {
				t.Errorf("regenerated %+v, want x", r)
			}
		})
	}
}

func TestRegeneratedNamesBothTypes(t *testing.T) {
	for _, c := range []struct{ from, to, wantFrom, wantTo string }{
		{"repeated string", "string", "repeated string", "string"},
		{"map string string", "map int32 string", "map<string, string>", "map<int32, string>"},
		{"message .k.Part", "message .google.protobuf.Timestamp", "k.Part", "google.protobuf.Timestamp"},
	} {
		base := record.Generate(schema(t, fmt.Sprintf(kindsProto3, x(c.from)), "M", nil), 8, record.Seed)
		p, err := record.Pair(base, schema(t, fmt.Sprintf(kindsProto3, x(c.to)), "M", nil))
		if err != nil {
			t.Fatal(err)
		}
		if r := p.Notes.Regenerated; len(r) != 1 || r[0].From != c.wantFrom || r[0].To != c.wantTo {
			t.Errorf("%s → %s: regenerated %+v, want %s → %s", c.from, c.to, r, c.wantFrom, c.wantTo)
		}
	}
}

// A field head requires that the base did not is filled where the base's
// records lack it (else they would not marshal), keeping the base's values
// elsewhere.
func TestPairFillsNewlyRequiredFields(t *testing.T) {
	base := record.Generate(schema(t, fmt.Sprintf(kindsProto2, x("string")), "M", nil), 64, record.Seed)
	p, err := record.Pair(base, schema(t, fmt.Sprintf(kindsProto2, x("required string")), "M", nil))
	if err != nil {
		t.Fatal(err)
	}
	filled := 0
	for i := range base {
		if err := proto.CheckInitialized(p.Records[i]); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		if bv := values(base[i].ProtoReflect()); bv == nil {
			filled++
		} else if !slices.Equal(bv, values(p.Records[i].ProtoReflect())) {
			t.Fatalf("record %d: x changed", i)
		}
	}
	if filled == 0 {
		t.Fatal("every base record had x: nothing was filled")
	}
	if r := p.Notes.Regenerated; len(r) != 1 || r[0].From != "string" || r[0].To != "required string" || r[0].ProtobufBytes == nil {
		t.Errorf("regenerated %+v", r)
	}
}
