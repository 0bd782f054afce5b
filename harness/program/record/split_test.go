package record_test

import (
	"bytes"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/wiregate/wiregate/harness/program/record"
)

// A release that adds a list and retypes a field: the same content keeps
// the retyped field's fresh values (changed content, gated) byte for byte
// as head's records hold them, and only the added list goes; the note
// says how many entries a record holds.
func TestSameContentDropsOnlyWhatHeadAdds(t *testing.T) {
	_, p := shop(t, func(fdp *descriptorpb.FileDescriptorProto) {
		addField(t, fdp, "Order", -1, `name: "tags" number: 15 label: LABEL_REPEATED type: TYPE_STRING`)
		f := field(t, fdp, "Order", "sent_at")
		f.Type = descriptorpb.FieldDescriptorProto_TYPE_INT64.Enum()
	})
	var entries float64
	for i := range p.Records {
		full := proto.Clone(p.Records[i]).ProtoReflect()
		tags := full.Descriptor().Fields().ByNumber(15)
		entries += float64(full.Get(tags).List().Len())
		full.Clear(tags)
		if !bytes.Equal(wire(t, full.Interface()), wire(t, p.Same[i])) {
			t.Fatalf("record %d: the same content is not head's record less tags", i)
		}
	}
	n := p.Notes.NewFields
	if len(n) != 1 || n[0].Entries == nil || *n[0].Entries != entries/float64(len(p.Records)) || n[0].Required {
		t.Fatalf("new fields %+v, want tags with %v entries a record", n, entries/float64(len(p.Records)))
	}
	if r := p.Notes.Regenerated; len(r) != 1 || r[0].Entries != nil {
		t.Errorf("regenerated %+v, want sent_at (a singular field: no entries)", r)
	}
}

// A field head adds and requires (proto2 required) stays in the same
// content: a record of head without it cannot be encoded.
func TestARequiredNewFieldStaysInTheSameContent(t *testing.T) {
	text := `name: "p2.proto" package: "p2.v1" syntax: "proto2"
message_type { name: "Event"
  field { name: "id" number: 1 label: LABEL_REQUIRED type: TYPE_STRING }
  field { name: "size" number: 2 label: LABEL_OPTIONAL type: TYPE_INT32 } }`
	baseT := schema(t, text, "Event", nil)
	base := record.Generate(baseT, 16, record.Seed)
	p, err := record.Pair(base, schema(t, text, "Event", func(fdp *descriptorpb.FileDescriptorProto) {
		addField(t, fdp, "Event", -1, `name: "region" number: 3 label: LABEL_REQUIRED type: TYPE_STRING`)
		addField(t, fdp, "Event", -1, `name: "zone" number: 4 label: LABEL_OPTIONAL type: TYPE_STRING`)
	}))
	if err != nil {
		t.Fatal(err)
	}
	for i := range p.Same {
		m := p.Same[i].ProtoReflect()
		if !m.Has(m.Descriptor().Fields().ByNumber(3)) || m.Has(m.Descriptor().Fields().ByNumber(4)) {
			t.Fatalf("record %d: same content %v, want region kept and zone dropped", i, m)
		}
		if _, err := proto.Marshal(p.Same[i]); err != nil {
			t.Fatalf("record %d of the same content does not encode: %v", i, err)
		}
	}
	if n := p.Notes.NewFields; len(n) != 2 || !n[0].Required || n[1].Required {
		t.Errorf("new fields %+v, want region required, zone not", n)
	}
}

// The user's samples split the same way: what head adds (a new field, a
// new member of a oneof held by a sample, a field added to the nested
// lines) is cleared in the same content and counted in the notes; the
// samples themselves are left whole; no field is called regenerated.
func TestSplitClearsWhatSamplesHoldOfHeadsNewFields(t *testing.T) {
	headT := schema(t, shopProto, "Order", func(fdp *descriptorpb.FileDescriptorProto) {
		addField(t, fdp, "Order", -1, `name: "tags" number: 15 label: LABEL_REPEATED type: TYPE_STRING`)
		addField(t, fdp, "Order", 9, `name: "voucher" number: 16 oneof_index: 0 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".shop.v1.Voucher"`)
		addField(t, fdp, "Line", -1, giftNote)
		f := field(t, fdp, "Order", "sent_at")
		f.Type = descriptorpb.FieldDescriptorProto_TYPE_INT64.Enum()
	})
	baseD := schema(t, shopProto, "Order", nil).Descriptor()
	samples := record.Generate(headT, 8, record.Seed)
	voucher := headT.Descriptor().Fields().ByNumber(16)
	v := samples[0].ProtoReflect().NewField(voucher)
	v.Message().Set(voucher.Message().Fields().ByNumber(1), protoreflect.ValueOfString("V-1"))
	samples[0].ProtoReflect().Set(voucher, v)
	before := make([][]byte, len(samples))
	for i := range samples {
		before[i] = wire(t, samples[i])
	}
	same, notes, err := record.Split(samples, baseD)
	if err != nil {
		t.Fatal(err)
	}
	lines := headT.Descriptor().Fields().ByNumber(5)
	for i := range samples {
		if !bytes.Equal(before[i], wire(t, samples[i])) {
			t.Fatalf("sample %d changed", i)
		}
		m := same[i].ProtoReflect()
		fs := m.Descriptor().Fields()
		if m.Has(fs.ByNumber(15)) || m.Has(voucher) || !m.Has(fs.ByNumber(14)) && samples[i].ProtoReflect().Has(fs.ByNumber(14)) {
			t.Fatalf("same content %d: %v", i, m)
		}
		l := m.Get(lines).List()
		for j := 0; j < l.Len(); j++ {
			if l.Get(j).Message().Has(lines.Message().Fields().ByNumber(5)) {
				t.Fatalf("same content %d line %d keeps gift_note", i, j)
			}
		}
	}
	if n := notes.NewFields; len(n) != 2 || n[0].Field != "tags" || n[1].Field != "lines.gift_note" || *n[0].ProtobufBytes <= 0 || *n[1].ProtobufBytes <= 0 {
		t.Errorf("new fields %+v", n)
	}
	if m := notes.NewOneofMembers; len(m) != 1 || m[0].Field != "voucher" || m[0].ProtobufBytes == nil || *m[0].ProtobufBytes <= 0 {
		t.Errorf("new oneof members %+v", m)
	}
	if len(notes.Regenerated) != 0 {
		t.Errorf("regenerated %+v: the samples' values are the user's", notes.Regenerated)
	}
}

// A release that only adds (a field, a oneof member, an enum value, a
// field of a nested message) is only additions; a rename, a retype, a
// removal, a field made packed or moved into a oneof is not.
func TestOnlyAddedTellsAnAdditionFromEveryOtherChange(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*descriptorpb.FileDescriptorProto)
		want bool
	}{
		{"nothing", func(*descriptorpb.FileDescriptorProto) {}, true},
		{"a field", func(fdp *descriptorpb.FileDescriptorProto) {
			addField(t, fdp, "Order", -1, `name: "tags" number: 15 label: LABEL_REPEATED type: TYPE_STRING`)
		}, true},
		{"a nested field and an enum value", func(fdp *descriptorpb.FileDescriptorProto) {
			addField(t, fdp, "Line", -1, giftNote)
			e := fdp.EnumType[0]
			e.Value = append(e.Value, &descriptorpb.EnumValueDescriptorProto{Name: proto.String("STATUS_LOST"), Number: proto.Int32(4)})
		}, true},
		{"a oneof member", addVoucher(t), true},
		{"a rename", func(fdp *descriptorpb.FileDescriptorProto) {
			f := field(t, fdp, "Order", "retries")
			f.Name, f.JsonName = proto.String("attempts"), nil
		}, false},
		{"a widening", func(fdp *descriptorpb.FileDescriptorProto) {
			field(t, fdp, "Order", "quantity").Type = descriptorpb.FieldDescriptorProto_TYPE_INT64.Enum()
		}, false},
		{"a nested retype", func(fdp *descriptorpb.FileDescriptorProto) {
			field(t, fdp, "Line", "quantity").Type = descriptorpb.FieldDescriptorProto_TYPE_SINT64.Enum()
		}, false},
		{"a removal", func(fdp *descriptorpb.FileDescriptorProto) {
			m := message(fdp, "Order")
			m.Field = m.Field[:len(m.Field)-1]
		}, false},
		{"unpacked", func(fdp *descriptorpb.FileDescriptorProto) {
			addField(t, fdp, "Order", -1, `name: "codes" number: 15 label: LABEL_REPEATED type: TYPE_INT32`)
			field(t, fdp, "Order", "codes").Options = &descriptorpb.FieldOptions{Packed: proto.Bool(false)}
		}, true},
	} {
		_, p := shop(t, c.edit)
		if p.Notes.OnlyAdded != c.want {
			t.Errorf("%s: only added %v, want %v", c.name, p.Notes.OnlyAdded, c.want)
		}
	}
}

// Notes.Added is what the split found: whether any record held added
// content, so that the same content differs from head's records whole.
// It agrees with comparing them record by record, for pairs and samples
// with and without added content.
func TestNotesAddedSaysWhetherTheSameContentDiffers(t *testing.T) {
	differs := func(same, whole []proto.Message) bool {
		return !slices.EqualFunc(same, whole, proto.Equal)
	}
	tags := func(fdp *descriptorpb.FileDescriptorProto) {
		addField(t, fdp, "Order", -1, `name: "tags" number: 15 label: LABEL_REPEATED type: TYPE_STRING`)
	}
	nestedNote := func(fdp *descriptorpb.FileDescriptorProto) { addField(t, fdp, "Line", -1, giftNote) }
	splitSaid := map[bool]bool{}
	for _, c := range []struct {
		name  string
		edit  func(*descriptorpb.FileDescriptorProto)
		added bool
	}{
		{"unchanged", nil, false},
		{"renamed", func(fdp *descriptorpb.FileDescriptorProto) {
			field(t, fdp, "Order", "sent_at").Name = proto.String("sent")
		}, false},
		{"a new oneof member (held by none)", addVoucher(t), false},
		{"a new list", tags, true},
		{"a new field of the nested lines", nestedNote, true},
	} {
		_, p := shop(t, c.edit)
		if p.Notes.Added != c.added || p.Notes.Added != differs(p.Same, p.Records) {
			t.Errorf("pair, %s: Added %v, want %v (the same content differs: %v)", c.name, p.Notes.Added, c.added, differs(p.Same, p.Records))
		}
		headT := schema(t, shopProto, "Order", c.edit)
		samples := record.Generate(headT, 8, record.Seed)
		same, n, err := record.Split(samples, schema(t, shopProto, "Order", nil).Descriptor())
		if err != nil {
			t.Fatal(err)
		}
		if n.Added != differs(same, samples) {
			t.Errorf("split, %s: Added %v, but the same content differs: %v", c.name, n.Added, differs(same, samples))
		}
		splitSaid[n.Added] = true
	}
	if !splitSaid[true] || !splitSaid[false] {
		t.Errorf("the splits all said %v: this test shows nothing", splitSaid)
	}
}
