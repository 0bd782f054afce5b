package record_test

import (
	"bytes"
	"slices"
	"testing"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/wiregate/wiregate/harness/program/record"
)

// shopProto is an order event as a new user's schema looks: nested
// messages, a list of them, a map, an enum, a oneof, a timestamp and a
// proto3 optional field.
const shopProto = `name: "shop.proto" package: "shop.v1" syntax: "proto3"
dependency: "google/protobuf/timestamp.proto"
message_type { name: "Order"
  field { name: "order_id" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "currency" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "amount" number: 3 label: LABEL_OPTIONAL type: TYPE_DOUBLE }
  field { name: "customer" number: 4 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".shop.v1.Customer" }
  field { name: "lines" number: 5 label: LABEL_REPEATED type: TYPE_MESSAGE type_name: ".shop.v1.Line" }
  field { name: "labels" number: 6 label: LABEL_REPEATED type: TYPE_MESSAGE type_name: ".shop.v1.Order.LabelsEntry" }
  field { name: "status" number: 7 label: LABEL_OPTIONAL type: TYPE_ENUM type_name: ".shop.v1.Status" }
  field { name: "card" number: 8 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".shop.v1.Card" oneof_index: 0 }
  field { name: "bank_transfer" number: 9 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".shop.v1.BankTransfer" oneof_index: 0 }
  field { name: "quantity" number: 10 label: LABEL_OPTIONAL type: TYPE_INT32 }
  field { name: "retries" number: 11 label: LABEL_OPTIONAL type: TYPE_UINT32 }
  field { name: "created_at" number: 12 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".google.protobuf.Timestamp" }
  field { name: "note" number: 13 label: LABEL_OPTIONAL type: TYPE_STRING oneof_index: 1 proto3_optional: true }
  field { name: "sent_at" number: 14 label: LABEL_OPTIONAL type: TYPE_STRING }
  nested_type { name: "LabelsEntry" options { map_entry: true }
    field { name: "key" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
    field { name: "value" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING } }
  oneof_decl { name: "payment" }
  oneof_decl { name: "_note" } }
message_type { name: "Customer"
  field { name: "customer_id" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "email" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "country" number: 3 label: LABEL_OPTIONAL type: TYPE_STRING } }
message_type { name: "Line"
  field { name: "sku_id" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "quantity" number: 2 label: LABEL_OPTIONAL type: TYPE_INT64 }
  field { name: "price" number: 3 label: LABEL_OPTIONAL type: TYPE_DOUBLE }
  field { name: "discount_pct" number: 4 label: LABEL_OPTIONAL type: TYPE_INT32 } }
message_type { name: "Card"
  field { name: "card_id" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "holder_name" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING } }
message_type { name: "BankTransfer"
  field { name: "account_id" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "bank_name" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING } }
message_type { name: "Voucher"
  field { name: "voucher_id" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING } }
enum_type { name: "Status"
  value { name: "STATUS_UNSPECIFIED" number: 0 } value { name: "STATUS_OPEN" number: 1 }
  value { name: "STATUS_PAID" number: 2 } value { name: "STATUS_SHIPPED" number: 3 } }`

// schema builds text (a FileDescriptorProto) after edit, and returns its
// message name as a dynamic type.
func schema(t *testing.T, text, message string, edit func(*descriptorpb.FileDescriptorProto)) protoreflect.MessageType {
	t.Helper()
	fd, _ := dynamicFile(t, text, edit)
	return msgType(fd, message)
}

// addField appends the field declared by text to message msg of fdp, at
// position at (-1: the end).
func addField(t *testing.T, fdp *descriptorpb.FileDescriptorProto, msg string, at int, text string) {
	t.Helper()
	f := new(descriptorpb.FieldDescriptorProto)
	if err := prototext.Unmarshal([]byte(text), f); err != nil {
		t.Fatal(err)
	}
	m := message(fdp, msg)
	if at < 0 {
		at = len(m.Field)
	}
	m.Field = slices.Insert(m.Field, at, f)
}

// field is message msg's field name in fdp.
func field(t *testing.T, fdp *descriptorpb.FileDescriptorProto, msg, name string) *descriptorpb.FieldDescriptorProto {
	t.Helper()
	for _, m := range fdp.MessageType {
		for _, f := range m.Field {
			if m.GetName() == msg && f.GetName() == name {
				return f
			}
		}
	}
	t.Fatalf("no field %s.%s", msg, name)
	return nil
}

func message(fdp *descriptorpb.FileDescriptorProto, name string) *descriptorpb.DescriptorProto {
	for _, m := range fdp.MessageType {
		if m.GetName() == name {
			return m
		}
	}
	return nil
}

// wire is m's protobuf bytes, as generated code writes them.
func wire(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := record.MarshalNumbered(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// shop is the base pool and a head schema made by edit.
func shop(t *testing.T, edit func(*descriptorpb.FileDescriptorProto)) ([]proto.Message, *record.Paired) {
	t.Helper()
	base := record.Generate(schema(t, shopProto, "Order", nil), record.PoolSize, record.Seed)
	p, err := record.Pair(base, schema(t, shopProto, "Order", edit))
	if err != nil {
		t.Fatal(err)
	}
	return base, p
}

// sameBytes fails unless every record of got marshals as want's.
func sameBytes(t *testing.T, what string, want, got []proto.Message) {
	t.Helper()
	for i := range want {
		if !bytes.Equal(wire(t, want[i]), wire(t, got[i])) {
			t.Fatalf("%s: record %d's protobuf bytes changed", what, i)
		}
	}
}

// noNotes fails when n says anything but what allow names.
func noNotes(t *testing.T, n record.Notes, allow ...string) {
	t.Helper()
	lists := map[string][]record.FieldNote{"new": n.NewFields, "regenerated": n.Regenerated, "new members": n.NewOneofMembers, "renamed": n.Renamed, "removed": n.Removed}
	for name, l := range lists {
		if len(l) > 0 && !slices.Contains(allow, name) {
			t.Errorf("%s: %+v", name, l)
		}
	}
}

func TestPairUnchangedSchemaKeepsEveryByte(t *testing.T) {
	base, p := shop(t, nil)
	sameBytes(t, "records", base, p.Records)
	sameBytes(t, "same", base, p.Same)
	noNotes(t, p.Notes)
}

// Neither protobuf nor Avro puts names on the wire: a rename moves no byte,
// and the name-shaped value (currency codes) stays the base's.
func TestPairRenameKeepsEveryByte(t *testing.T) {
	base, p := shop(t, func(fdp *descriptorpb.FileDescriptorProto) {
		field(t, fdp, "Order", "currency").Name = proto.String("currency_code")
		field(t, fdp, "Customer", "email").Name = proto.String("contact")
	})
	sameBytes(t, "records", base, p.Records)
	noNotes(t, p.Notes, "renamed")
	want := []record.FieldNote{{Field: "currency_code", Number: "2", From: "currency", To: "currency_code"},
		{Field: "customer.contact", Number: "4.2", From: "email", To: "contact"}}
	if !equalNotes(p.Notes.Renamed, want) {
		t.Errorf("renamed %+v, want %+v", p.Notes.Renamed, want)
	}
}

func TestPairWideningKeepsEveryByte(t *testing.T) {
	base, p := shop(t, func(fdp *descriptorpb.FileDescriptorProto) {
		field(t, fdp, "Order", "quantity").Type = descriptorpb.FieldDescriptorProto_TYPE_INT64.Enum()
		field(t, fdp, "Order", "retries").Type = descriptorpb.FieldDescriptorProto_TYPE_UINT64.Enum()
		field(t, fdp, "Line", "discount_pct").Type = descriptorpb.FieldDescriptorProto_TYPE_INT64.Enum()
	})
	sameBytes(t, "records", base, p.Records)
	noNotes(t, p.Notes)
}

// reorder reverses the declarations of every message's fields (oneof
// members too), and adds comments and options that do not touch the wire.
func reorder(fdp *descriptorpb.FileDescriptorProto) {
	for _, m := range fdp.MessageType {
		slices.Reverse(m.Field)
		m.Options = &descriptorpb.MessageOptions{Deprecated: proto.Bool(true)}
		m.Field[0].Options = &descriptorpb.FieldOptions{Deprecated: proto.Bool(true)}
	}
	fdp.SourceCodeInfo = &descriptorpb.SourceCodeInfo{Location: []*descriptorpb.SourceCodeInfo_Location{
		{Path: []int32{4, 0}, Span: []int32{1, 0, 9}, LeadingComments: proto.String(" An order, reordered.\n")}}}
}

// Declaration order, comments and options are not on the wire: neither
// records generated from the edited schema nor records paired to it change
// a byte. Wide's records reach the record cap, which is spent in number
// order.
func TestReorderingDeclarationsChangesNoByte(t *testing.T) {
	base, p := shop(t, reorder)
	sameBytes(t, "paired", base, p.Records)
	noNotes(t, p.Notes)
	sameBytes(t, "generated", base, record.Generate(schema(t, shopProto, "Order", reorder), record.PoolSize, record.Seed))

	wide := record.Generate(schema(t, treeProto, "Wide", nil), 32, record.Seed)
	reordered := record.Generate(schema(t, treeProto, "Wide", reorder), 32, record.Seed)
	capped := 0
	for i := range wide {
		if proto.Size(wide[i]) >= record.MaxRecordBytes*3/4 {
			capped++
		}
	}
	if capped == 0 {
		t.Fatal("no Wide record came near the cap")
	}
	sameBytes(t, "capped", wide, reordered)
}

// A field added at the end adds exactly its own bytes to each record, and
// ProtobufBytes is their mean; nothing else moves.
func TestPairAddedFieldAddsExactlyItsBytes(t *testing.T) {
	base, p := shop(t, func(fdp *descriptorpb.FileDescriptorProto) {
		addField(t, fdp, "Order", -1, `name: "tags" number: 15 label: LABEL_REPEATED type: TYPE_STRING`)
	})
	sameBytes(t, "same", base, p.Same)
	noNotes(t, p.Notes, "new")
	tags := p.Records[0].ProtoReflect().Descriptor().Fields().ByNumber(15)
	var sum, set int
	for i := range base {
		delta := len(wire(t, p.Records[i])) - len(wire(t, base[i]))
		l := p.Records[i].ProtoReflect().Get(tags).List()
		own := 0
		for j := 0; j < l.Len(); j++ {
			own += protowire.SizeTag(15) + protowire.SizeBytes(len(l.Get(j).String()))
		}
		if delta != own {
			t.Fatalf("record %d grew by %d bytes, its tags are %d", i, delta, own)
		}
		sum += delta
		if l.Len() > 0 {
			set++
		}
	}
	if set == 0 {
		t.Fatal("no record got tags")
	}
	want := float64(sum) / float64(len(base))
	if n := p.Notes.NewFields; len(n) != 1 || n[0].Field != "tags" || n[0].Number != "15" || n[0].ProtobufBytes == nil || *n[0].ProtobufBytes != want {
		t.Errorf("new fields %+v, want tags 15 with %v bytes", n, want)
	}
}

// A field added to a message nested in a list is named by its path, and
// fills the elements the base's records already have.
func TestPairNestedNewField(t *testing.T) {
	base, p := shop(t, func(fdp *descriptorpb.FileDescriptorProto) {
		addField(t, fdp, "Line", -1, giftNote)
	})
	sameBytes(t, "same", base, p.Same)
	n := p.Notes.NewFields
	if len(n) != 1 || n[0].Field != "lines.gift_note" || n[0].Number != "5.5" || n[0].ProtobufBytes == nil || *n[0].ProtobufBytes <= 0 {
		t.Fatalf("new fields %+v", n)
	}
	lines := p.Records[0].ProtoReflect().Descriptor().Fields().ByNumber(5)
	for i := range base {
		l := p.Records[i].ProtoReflect().Get(lines).List()
		for j := 0; j < l.Len(); j++ {
			if l.Get(j).Message().Get(lines.Message().Fields().ByNumber(5)).String() == "" {
				t.Fatalf("record %d line %d has no gift_note", i, j)
			}
		}
	}
}

const giftNote = `name: "gift_note" number: 5 label: LABEL_OPTIONAL type: TYPE_STRING`

// held is the number of the payment member each record holds (0: none).
func held(recs []proto.Message) []protoreflect.FieldNumber {
	out := make([]protoreflect.FieldNumber, len(recs))
	for i, m := range recs {
		r := m.ProtoReflect()
		if f := r.WhichOneof(r.Descriptor().Oneofs().ByName("payment")); f != nil {
			out[i] = f.Number()
		}
	}
	return out
}

// addVoucher adds a member to the payment oneof (declared with the
// others, as protoc requires).
func addVoucher(t *testing.T) func(*descriptorpb.FileDescriptorProto) {
	return func(fdp *descriptorpb.FileDescriptorProto) {
		addField(t, fdp, "Order", 9, `name: "voucher" number: 15 oneof_index: 0 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".shop.v1.Voucher"`)
	}
}

// A new member of an existing oneof is held by no record: every record
// keeps its member, and the note states the member's own cost.
func TestPairNewOneofMemberIsNeverDealt(t *testing.T) {
	base, p := shop(t, addVoucher(t))
	sameBytes(t, "records", base, p.Records)
	if !slices.Equal(held(base), held(p.Records)) {
		t.Fatal("a record's payment member changed")
	}
	// Generating head afresh deals the members again: what pairing avoids.
	if slices.Equal(held(base), held(record.Generate(schema(t, shopProto, "Order", addVoucher(t)), record.PoolSize, record.Seed))) {
		t.Error("generating head kept every member: this test shows nothing")
	}
	// voucher_id is "voucher-NNNNN": 13 bytes, 15 with its tag and length;
	// 17 as field 15 of Order.
	n := p.Notes.NewOneofMembers
	if len(n) != 1 || n[0].Field != "voucher" || n[0].Number != "15" || n[0].ProtobufBytes == nil || *n[0].ProtobufBytes != 17 {
		t.Fatalf("new oneof members %+v, want voucher 15 costing 17 bytes", n)
	}
	noNotes(t, p.Notes, "new members")
}

// A oneof none of whose members the base had is new: each record holds
// one of its members, generated as usual.
func TestPairNewOneofIsGenerated(t *testing.T) {
	_, p := shop(t, func(fdp *descriptorpb.FileDescriptorProto) {
		m := message(fdp, "Order")
		// Real oneofs are declared before synthetic ones (note's).
		m.OneofDecl = slices.Insert(m.OneofDecl, 1, &descriptorpb.OneofDescriptorProto{Name: proto.String("contact")})
		field(t, fdp, "Order", "note").OneofIndex = proto.Int32(2)
		addField(t, fdp, "Order", -1, `name: "phone" number: 16 oneof_index: 1 label: LABEL_OPTIONAL type: TYPE_STRING`)
		addField(t, fdp, "Order", -1, `name: "contact_email" number: 17 oneof_index: 1 label: LABEL_OPTIONAL type: TYPE_STRING`)
	})
	count := map[protoreflect.Name]int{}
	for i, m := range p.Records {
		r := m.ProtoReflect()
		f := r.WhichOneof(r.Descriptor().Oneofs().ByName("contact"))
		if f == nil {
			t.Fatalf("record %d holds no contact", i)
		}
		count[f.Name()]++
	}
	if count["phone"] == 0 || count["contact_email"] == 0 {
		t.Errorf("members held %v, want both", count)
	}
	if n := p.Notes.NewFields; len(n) != 2 || n[0].Field != "phone" || n[1].Field != "contact_email" {
		t.Errorf("new fields %+v", n)
	}
}

// without is m's protobuf bytes without field number n.
func without(t *testing.T, m proto.Message, n protoreflect.FieldNumber) []byte {
	c := proto.Clone(m).ProtoReflect()
	c.Clear(c.Descriptor().Fields().ByNumber(n))
	return wire(t, c.Interface())
}

// string → int64 cannot keep a value: that field alone gets fresh values,
// shaped by the base's name (sent_at: a timestamp in milliseconds), where
// the base had one.
func TestPairStringToInt64RegeneratesThatFieldOnly(t *testing.T) {
	base, p := shop(t, func(fdp *descriptorpb.FileDescriptorProto) {
		f := field(t, fdp, "Order", "sent_at")
		f.Type, f.Name = descriptorpb.FieldDescriptorProto_TYPE_INT64.Enum(), proto.String("sent")
	})
	for i := range base {
		if !bytes.Equal(without(t, base[i], 14), without(t, p.Records[i], 14)) {
			t.Fatalf("record %d: a field other than sent changed", i)
		}
		if !bytes.Equal(wire(t, p.Records[i]), wire(t, p.Same[i])) {
			t.Fatalf("record %d: the same content lost the regenerated field (changed content, not added)", i)
		}
		v := p.Records[i].ProtoReflect().Get(p.Records[i].ProtoReflect().Descriptor().Fields().ByNumber(14)).Int()
		if v < 1_700_000_000_000 || v > 1_900_000_000_000 {
			t.Fatalf("record %d: sent is %d, want milliseconds near now (shaped by the base's name sent_at)", i, v)
		}
	}
	r := p.Notes.Regenerated
	if len(r) != 1 || r[0].Field != "sent" || r[0].Number != "14" || r[0].From != "string" || r[0].To != "int64" || r[0].ProtobufBytes == nil || *r[0].ProtobufBytes != 7 {
		t.Errorf("regenerated %+v, want sent 14 string → int64, 7 bytes (tag and a 6-byte varint)", r)
	}
	// Renamed and retyped: said once, where its values are (regenerated,
	// with the name it had), never as "renamed, no value changed".
	if len(r) == 1 && r[0].Was != "sent_at" {
		t.Errorf("regenerated %+v: want was sent_at", r[0])
	}
	noNotes(t, p.Notes, "regenerated")
}

// Nested messages are matched by number whatever their types are now
// called or where they are declared; a retyped nested field keeps values.
func TestPairNestedMessagesMatchByNumber(t *testing.T) {
	base, p := shop(t, func(fdp *descriptorpb.FileDescriptorProto) {
		fdp.Package = proto.String("shop.v2")
		order := message(fdp, "Order")
		for _, m := range fdp.MessageType {
			for _, f := range m.Field {
				if f.TypeName != nil && f.GetTypeName() != ".google.protobuf.Timestamp" {
					f.TypeName = proto.String(".shop.v2." + (*f.TypeName)[len(".shop.v1."):])
				}
			}
		}
		// Customer moves into Order as Buyer.
		cust := message(fdp, "Customer")
		cust.Name = proto.String("Buyer")
		order.NestedType = append(order.NestedType, cust)
		fdp.MessageType = slices.DeleteFunc(fdp.MessageType, func(m *descriptorpb.DescriptorProto) bool { return m == cust })
		field(t, fdp, "Order", "customer").TypeName = proto.String(".shop.v2.Order.Buyer")
		message(fdp, "Line").Name = proto.String("Item")
		field(t, fdp, "Order", "lines").TypeName = proto.String(".shop.v2.Item")
	})
	sameBytes(t, "records", base, p.Records)
	noNotes(t, p.Notes)

	base, p = shop(t, func(fdp *descriptorpb.FileDescriptorProto) {
		field(t, fdp, "Line", "quantity").Type = descriptorpb.FieldDescriptorProto_TYPE_SINT64.Enum()
	})
	noNotes(t, p.Notes)
	lines := base[0].ProtoReflect().Descriptor().Fields().ByNumber(5)
	changed := 0
	for i := range base {
		b, h := base[i].ProtoReflect().Get(lines).List(), p.Records[i].ProtoReflect().Get(p.Records[i].ProtoReflect().Descriptor().Fields().ByNumber(5)).List()
		for j := 0; j < b.Len(); j++ {
			bq := b.Get(j).Message().Get(lines.Message().Fields().ByNumber(2)).Int()
			hm := h.Get(j).Message()
			if hq := hm.Get(hm.Descriptor().Fields().ByNumber(2)).Int(); hq != bq {
				t.Fatalf("record %d line %d: quantity %d became %d", i, j, bq, hq)
			}
		}
		if !bytes.Equal(wire(t, base[i]), wire(t, p.Records[i])) {
			changed++
		}
	}
	if changed == 0 {
		t.Error("int64 → sint64 changed no record's bytes: the retyped field was not carried as sint64")
	}
}

func TestPairRemovedFieldIsNamed(t *testing.T) {
	base, p := shop(t, func(fdp *descriptorpb.FileDescriptorProto) {
		c := message(fdp, "Customer")
		c.Field = slices.DeleteFunc(c.Field, func(f *descriptorpb.FieldDescriptorProto) bool { return f.GetName() == "email" })
		field(t, fdp, "Order", "customer").Name = proto.String("buyer")
	})
	want := []record.FieldNote{{Field: "customer.email", Number: "4.2"}}
	if !equalNotes(p.Notes.Removed, want) {
		t.Errorf("removed %+v, want %+v", p.Notes.Removed, want)
	}
	noNotes(t, p.Notes, "removed", "renamed")
	for i := range base {
		if len(wire(t, p.Records[i])) >= len(wire(t, base[i])) {
			t.Fatalf("record %d did not lose the email", i)
		}
	}
}

func TestPairIsDeterministic(t *testing.T) {
	edit := func(fdp *descriptorpb.FileDescriptorProto) {
		addVoucher(t)(fdp)
		field(t, fdp, "Order", "sent_at").Type = descriptorpb.FieldDescriptorProto_TYPE_INT64.Enum()
		addField(t, fdp, "Line", -1, `name: "labels" number: 6 label: LABEL_REPEATED type: TYPE_STRING`)
	}
	_, a := shop(t, edit)
	_, b := shop(t, edit)
	sameBytes(t, "records", a.Records, b.Records)
	sameBytes(t, "same", a.Same, b.Same)
	if !equalNotes(a.Notes.NewFields, b.Notes.NewFields) || !equalNotes(a.Notes.Regenerated, b.Notes.Regenerated) ||
		!equalNotes(a.Notes.NewOneofMembers, b.Notes.NewOneofMembers) {
		t.Errorf("notes differ: %+v, %+v", a.Notes, b.Notes)
	}
}

func TestPairRejectsMixedOrNoRecords(t *testing.T) {
	head := schema(t, shopProto, "Order", nil)
	if _, err := record.Pair(nil, head); err == nil {
		t.Error("no base records: no error")
	}
	mixed := append(record.Generate(head, 2, record.Seed), record.Generate(schema(t, shopProto, "Line", nil), 1, record.Seed)...)
	if _, err := record.Pair(mixed, head); err == nil {
		t.Error("base records of two types: no error")
	}
}

func equalNotes(a, b []record.FieldNote) bool {
	return slices.EqualFunc(a, b, func(x, y record.FieldNote) bool {
		return x.Field == y.Field && x.Number == y.Number && x.From == y.From && x.To == y.To &&
			(x.ProtobufBytes == nil) == (y.ProtobufBytes == nil) && (x.ProtobufBytes == nil || *x.ProtobufBytes == *y.ProtobufBytes)
	})
}

// nodeLabels is the protobuf bytes of every label (field 5) in the Node
// tree m: at the root, in children, in links' values, in the parent.
func nodeLabels(m protoreflect.Message) int {
	n := 0
	m.Range(func(f protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case f.Number() == 5:
			n += protowire.SizeTag(5) + protowire.SizeBytes(len(v.String()))
		case f.IsMap():
			v.Map().Range(func(_ protoreflect.MapKey, e protoreflect.Value) bool { n += nodeLabels(e.Message()); return true })
		case f.IsList():
			for i := 0; i < v.List().Len(); i++ {
				n += nodeLabels(v.List().Get(i).Message())
			}
		case f.Message() != nil:
			n += nodeLabels(v.Message())
		}
		return true
	})
	return n
}

// A field added to a recursive message fills it at every depth, is noted
// once (at its shortest path) and its bytes count every depth.
func TestPairRecursiveMessageNewField(t *testing.T) {
	base := record.Generate(schema(t, treeProto, "Node", nil), 64, record.Seed)
	p, err := record.Pair(base, schema(t, treeProto, "Node", func(fdp *descriptorpb.FileDescriptorProto) {
		addField(t, fdp, "Node", -1, `name: "label" number: 5 label: LABEL_OPTIONAL type: TYPE_STRING`)
	}))
	if err != nil {
		t.Fatal(err)
	}
	sameBytes(t, "same", base, p.Same)
	total, deep := 0, 0
	for _, m := range p.Records {
		r := m.ProtoReflect()
		n := nodeLabels(r)
		total += n
		if own := r.Get(r.Descriptor().Fields().ByNumber(5)).String(); n > protowire.SizeTag(5)+protowire.SizeBytes(len(own)) {
			deep++ // labels below the root
		}
	}
	want := float64(total) / float64(len(base))
	if n := p.Notes.NewFields; len(n) != 1 || n[0].Field != "label" || n[0].ProtobufBytes == nil || *n[0].ProtobufBytes != want {
		t.Fatalf("new fields %+v, want label once with %v bytes", n, want)
	}
	if deep == 0 {
		t.Error("no record has a nested Node with a label")
	}
}

// A rename lists a field only when the rename is all that changed: one
// renamed and widened keeps its values but not its kind, so the rename
// line does not claim it; one renamed into a moved message type is still
// just renamed.
func TestPairRenamedListsOnlyWhatKeptItsKind(t *testing.T) {
	_, p := shop(t, func(fdp *descriptorpb.FileDescriptorProto) {
		q := field(t, fdp, "Order", "quantity")
		q.Type, q.Name = descriptorpb.FieldDescriptorProto_TYPE_INT64.Enum(), proto.String("count")
		field(t, fdp, "Order", "currency").Name = proto.String("currency_code")
	})
	want := []record.FieldNote{{Field: "currency_code", Number: "2", From: "currency", To: "currency_code"}}
	if !equalNotes(p.Notes.Renamed, want) {
		t.Errorf("renamed %+v, want %+v", p.Notes.Renamed, want)
	}
}
