package avroschema_test

import (
	"strings"
	"testing"

	"github.com/twmb/avro"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/wiregate/wiregate/harness/program/avroschema"
)

const orderV1 = `{"type": "record", "name": "Order", "namespace": "shop.v1", "fields": [
  {"name": "id", "type": "long"},
  {"name": "qty", "type": "int"},
  {"name": "price", "type": "double"},
  {"name": "note", "type": ["null", "string"], "default": null},
  {"name": "status", "type": {"type": "enum", "name": "Status", "symbols": ["NEW", "PAID"]}},
  {"name": "ship_to", "type": {"type": "record", "name": "Address", "fields": [{"name": "city", "type": "string"}]}},
  {"name": "bill_to", "type": ["null", "Address"], "default": null},
  {"name": "tags", "type": {"type": "array", "items": "string"}},
  {"name": "attrs", "type": {"type": "map", "values": "long"}},
  {"name": "lines", "type": {"type": "array", "items": {"type": "record", "name": "Line", "fields": [{"name": "sku", "type": "string"}]}}},
  {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}}
]}`

func parse(t *testing.T, text string) avroschema.Record {
	t.Helper()
	s, err := avro.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return avroschema.Record{File: "shop/order.avsc", Schema: s}
}

func files(t *testing.T, set *descriptorpb.FileDescriptorSet) protoreflect.MessageDescriptor {
	t.Helper()
	fs, err := protodesc.NewFiles(set)
	if err != nil {
		t.Fatalf("the synthesized files do not load: %v", err)
	}
	d, err := fs.FindDescriptorByName("shop.v1.Order")
	if err != nil {
		t.Fatal(err)
	}
	return d.(protoreflect.MessageDescriptor)
}

// Every supported Avro type becomes a proto field protobuf-go loads: the
// record's full name is the message's, scalars stay scalars, a nullable
// scalar has presence, records and enums are nested, arrays repeat, maps
// are maps, a logical type is its underlying type.
func TestSynthesizeMapsEveryType(t *testing.T) {
	syn := avroschema.Synthesize([]avroschema.Record{parse(t, orderV1)}, nil)
	set := syn.Set
	if len(syn.Unsupported) != 0 {
		t.Fatalf("skipped %+v", syn.Unsupported)
	}
	if syn.Names["shop.v1.Order.shop_v1_Address"] != "shop.v1.Address" || syn.Names["shop.v1.Order.shop_v1_Status_enum.Value"] != "shop.v1.Status" {
		t.Errorf("names %v", syn.Names)
	}
	if name := set.File[0].GetName(); !avroschema.IsSynthesized(name) || name != "wiregate/avro/shop/v1/Order.avsc.proto" {
		t.Fatalf("file %s", name)
	}
	md := files(t, set)
	want := map[string]string{"id": "int64", "qty": "int32", "price": "double", "note": "string optional", "status": "enum",
		"ship_to": "message", "bill_to": "message", "tags": "string repeated", "attrs": "map", "lines": "message repeated", "at": "int64"}
	for name, w := range want {
		f := md.Fields().ByName(protoreflect.Name(name))
		if f == nil {
			t.Fatalf("no field %s", name)
		}
		got := f.Kind().String()
		switch {
		case f.IsMap():
			got = "map"
		case f.IsList():
			got += " repeated"
		case f.HasOptionalKeyword():
			got += " optional"
		}
		if got != w {
			t.Errorf("%s: %s, want %s", name, got, w)
		}
	}
	if e := md.Fields().ByName("status").Enum(); e.Values().Get(0).Name() != "NEW" || e.Values().Len() != 2 {
		t.Errorf("status enum %v", e.Values())
	}
}

// Head keeps the base's numbers where a field's name or one of its aliases
// matches, gives a new field a new number, and keeps an enum symbol's
// number when another is inserted before it.
func TestSynthesizeNumbersByNameAndAlias(t *testing.T) {
	base := avroschema.Synthesize([]avroschema.Record{parse(t, orderV1)}, nil).Set
	headText := strings.Replace(orderV1, `{"name": "qty", "type": "int"}`, `{"name": "quantity", "aliases": ["qty"], "type": "long"}`, 1)
	headText = strings.Replace(headText, `"symbols": ["NEW", "PAID"]`, `"symbols": ["NEW", "HELD", "PAID"]`, 1)
	headText = strings.Replace(headText, `{"name": "id", "type": "long"},`, `{"name": "id", "type": "long"}, {"name": "channel", "type": "string", "default": "web"},`, 1)
	syn := avroschema.Synthesize([]avroschema.Record{parse(t, headText)}, base)
	head := syn.Set
	if len(syn.Unsupported) != 0 {
		t.Fatalf("skipped %+v", syn.Unsupported)
	}
	b, h := files(t, base), files(t, head)
	if b.Fields().ByName("qty").Number() != h.Fields().ByName("quantity").Number() {
		t.Error("the aliased rename changed its number")
	}
	if h.Fields().ByName("quantity").Kind() != protoreflect.Int64Kind {
		t.Error("int → long is not int64")
	}
	if n := h.Fields().ByName("channel").Number(); b.Fields().ByNumber(n) != nil {
		t.Errorf("the new field took the base's number %d", n)
	}
	for _, name := range []string{"id", "price", "lines", "at"} {
		if b.Fields().ByName(protoreflect.Name(name)).Number() != h.Fields().ByName(protoreflect.Name(name)).Number() {
			t.Errorf("%s moved", name)
		}
	}
	be, he := b.Fields().ByName("status").Enum(), h.Fields().ByName("status").Enum()
	if be.Values().ByName("PAID").Number() != he.Values().ByName("PAID").Number() || he.Values().ByName("HELD").Number() == be.Values().ByName("PAID").Number() {
		t.Errorf("enum numbers: base %v head %v", be.Values(), he.Values())
	}
}

// What proto cannot say is skipped with why; the other records go on.
func TestSynthesizeSkipsWhatItCannotSay(t *testing.T) {
	for _, c := range []struct{ field, want string }{
		{`{"name": "id", "type": {"type": "fixed", "name": "Id", "size": 16}}`, "field `id`: a fixed, which proto has no type for"},
		{`{"name": "v", "type": ["null", "string", "long"]}`, "field `v`: a union of several types"},
		{`{"name": "m", "type": {"type": "array", "items": {"type": "array", "items": "int"}}}`, "field `m`: an array of arrays"},
	} {
		bad := parse(t, `{"type": "record", "name": "Bad", "namespace": "shop.v1", "fields": [`+c.field+`]}`)
		syn := avroschema.Synthesize([]avroschema.Record{bad, parse(t, orderV1)}, nil)
		if len(syn.Unsupported) != 1 || syn.Unsupported[0].Record != "shop.v1.Bad" || syn.Unsupported[0].Reason != c.want || len(syn.Set.File) != 1 {
			t.Errorf("%s: skipped %+v, %d files", c.want, syn.Unsupported, len(syn.Set.File))
		}
	}
}
