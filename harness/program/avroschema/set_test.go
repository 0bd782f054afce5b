package avroschema_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/twmb/avro"

	ordersv1 "github.com/wiregate/wiregate/harness/internal/fixture/gen/orders/v1"

	"github.com/wiregate/wiregate/harness/program/avroschema"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// A shared Address record with a Country enum in common.avsc, used by full
// name from two records in their own files (one of them in the same
// namespace, by short name).
const (
	commonAvsc = `{"type": "record", "name": "Common", "namespace": "geo.common", "fields": [
  {"name": "address", "type": {"type": "record", "name": "Address", "fields": [
    {"name": "street", "type": "string"},
    {"name": "country", "type": {"type": "enum", "name": "Country", "symbols": ["NL", "FR", "DE"]}},
    {"name": "floor", "type": "long", "default": 9007199254740993}
  ]}}
]}`
	customerAvsc = `{"type": "record", "name": "Customer", "namespace": "geo.crm", "fields": [
  {"name": "id", "type": "long"},
  {"name": "home", "type": "geo.common.Address"},
  {"name": "billing", "type": ["null", "geo.common.Address"], "default": null}
]}`
	depotAvsc = `{"type": "record", "name": "Depot", "namespace": "geo.common", "fields": [
  {"name": "code", "type": "string"},
  {"name": "site", "type": "Address"},
  {"name": "countries", "type": {"type": "array", "items": "Country"}}
]}`
)

func sources(kv ...string) []avroschema.Source {
	var out []avroschema.Source
	for i := 0; i < len(kv); i += 2 {
		out = append(out, avroschema.Source{Name: kv[i], Data: []byte(kv[i+1])})
	}
	return out
}

func TestSetResolvesNamedTypesAcrossFiles(t *testing.T) {
	set, err := avroschema.ParseSet(sources("common.avsc", commonAvsc, "crm/customer.avsc", customerAvsc, "depot.avsc", depotAvsc))
	if err != nil {
		t.Fatal(err)
	}
	file, cust := set.Record("geo.crm.Customer")
	if file != "crm/customer.avsc" || cust == nil {
		t.Fatalf("Customer: %q %v", file, cust)
	}
	// The schema stands alone: reparsed without the set, same form.
	again, err := avro.Parse(cust.String())
	if err != nil || string(again.Canonical()) != string(cust.Canonical()) {
		t.Fatalf("Customer is not self-contained: %v\n%s", err, cust.String())
	}
	if !strings.Contains(string(cust.Canonical()), `"name":"geo.common.Country","type":"enum"`) {
		t.Errorf("Customer's canonical form lacks the shared enum: %s", cust.Canonical())
	}
	// The default keeps all its digits through the splice (2^53+1).
	if !strings.Contains(cust.String(), "9007199254740993") {
		t.Errorf("floor's default changed: %s", cust.String())
	}
	// Records use it the way they would the type written inline.
	v := map[string]any{"id": int64(7), "home": map[string]any{"street": "Dam 1", "country": "NL", "floor": int64(2)}, "billing": nil}
	b, err := cust.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 1+1+5+1+1+1 { // id, len+"Dam 1", country, floor, union index
		t.Errorf("encoded %d bytes: %x", len(b), b)
	}
	if _, depot := set.Record("geo.common.Depot"); depot == nil {
		t.Fatal("no Depot")
	}
	if got := len(set.Records()); got != 3 {
		t.Errorf("%d records, want 3", got)
	}
}

// twmb/avro's own way with references, a SchemaCache fed in dependency
// order, gives every file the same schema the set does.
func TestSetAgreesWithSchemaCache(t *testing.T) {
	set, err := avroschema.ParseSet(sources("z/customer.avsc", customerAvsc, "a/depot.avsc", depotAvsc, "m/common.avsc", commonAvsc))
	if err != nil {
		t.Fatal(err)
	}
	var c avro.SchemaCache
	for _, src := range []struct{ name, data string }{{"m/common.avsc", commonAvsc}, {"a/depot.avsc", depotAvsc}, {"z/customer.avsc", customerAvsc}} {
		want, err := c.Parse(src.data)
		if err != nil {
			t.Fatal(err)
		}
		if got := set.Schema(src.name); got == nil || string(got.Canonical()) != string(want.Canonical()) {
			t.Errorf("%s: set %s\ncache %s", src.name, got.Canonical(), want.Canonical())
		}
	}
}

// Any order of the files gives every file the same schema.
func TestSetFileOrderChangesNothing(t *testing.T) {
	srcs := sources("common.avsc", commonAvsc, "customer.avsc", customerAvsc, "depot.avsc", depotAvsc)
	first, err := avroschema.ParseSet(srcs)
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range [][]int{{2, 1, 0}, {1, 0, 2}, {2, 0, 1}} {
		var shuffled []avroschema.Source
		for _, i := range order {
			shuffled = append(shuffled, srcs[i])
		}
		set, err := avroschema.ParseSet(shuffled)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range first.Files {
			if got := set.Schema(f.Name); got == nil || got.String() != f.Schema.String() {
				t.Errorf("order %v: %s differs", order, f.Name)
			}
		}
	}
}

// Records may recurse across files, as they may within one.
func TestSetRecursionThroughRecordsAcrossFiles(t *testing.T) {
	set, err := avroschema.ParseSet(sources(
		"node.avsc", `{"type": "record", "name": "t.Node", "fields": [{"name": "edges", "type": {"type": "array", "items": "t.Edge"}}]}`,
		"edge.avsc", `{"type": "record", "name": "t.Edge", "fields": [{"name": "to", "type": ["null", "t.Node"], "default": null}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, node := set.Record("t.Node")
	if _, err := avro.Parse(node.String()); err != nil {
		t.Fatalf("Node: %v\n%s", err, node.String())
	}
}

// The layout where each file writes out what it uses stays valid: a type
// defined the same way in several files, spelled differently.
func TestSetSameDefinitionTwiceIsOne(t *testing.T) {
	inline := strings.Replace(depotAvsc, `"type": "Address"`, `"type": {"type": "record", "name": "Address", "fields": [
    {"name": "street", "type": "string"},
    {"name": "country", "type": {"name": "Country", "namespace": "geo.common", "type": "enum", "symbols": ["NL", "FR", "DE"]}},
    {"name": "floor", "type": "long", "default": 9007199254740993}]}`, 1)
	set, err := avroschema.ParseSet(sources("common.avsc", commonAvsc, "customer.avsc", customerAvsc, "depot.avsc", inline))
	if err != nil {
		t.Fatal(err)
	}
	if _, d := set.Record("geo.common.Depot"); d == nil {
		t.Fatal("no Depot")
	}
}

// Two versions of one record side by side, neither used from another
// file, each stand alone.
func TestSetVersionsSideBySide(t *testing.T) {
	v2 := strings.Replace(depotAvsc, `{"name": "code", "type": "string"},`, `{"name": "code", "type": "string"}, {"name": "zone", "type": "int", "default": 0},`, 1)
	set, err := avroschema.ParseSet(sources("common.avsc", commonAvsc, "depot_v1.avsc", depotAvsc, "depot_v2.avsc", v2))
	if err != nil {
		t.Fatal(err)
	}
	if set.Schema("depot_v1.avsc").String() == set.Schema("depot_v2.avsc").String() {
		t.Error("the versions read the same")
	}
}

func TestBadSetsAreOneLineNamingTheFiles(t *testing.T) {
	conflicting := strings.Replace(depotAvsc, `"type": "Address"`, `"type": {"type": "record", "name": "Address", "fields": [{"name": "street", "type": "string"}]}`, 1)
	for _, tc := range []struct {
		name string
		srcs []avroschema.Source
		want []string
	}{
		{"missing", sources("customer.avsc", customerAvsc, "depot.avsc", depotAvsc),
			[]string{"customer.avsc: uses geo.common.Address, which no .avsc of the set defines"}},
		{"missing short name", sources("depot.avsc", depotAvsc),
			[]string{"depot.avsc: uses geo.common.Address"}},
		{"conflicting", sources("depot.avsc", conflicting, "common.avsc", commonAvsc, "customer.avsc", customerAvsc),
			[]string{"common.avsc and depot.avsc both define geo.common.Address, differently, and customer.avsc uses it"}},
		{"trailing", sources("x.avsc", `"int" "long"`), []string{"x.avsc: not JSON"}},
		{"another default", sources("common.avsc", commonAvsc, "customer.avsc", customerAvsc,
			"other.avsc", strings.Replace(strings.Replace(commonAvsc, "9007199254740993", "1", 1), `"name": "Common"`, `"name": "Other"`, 1)),
			[]string{"common.avsc and other.avsc both define geo.common.Address, differently, and customer.avsc uses it"}},
		{"not json", sources("common.avsc", commonAvsc, "x.avsc", `{"type":`), []string{"x.avsc: not JSON"}},
	} {
		_, err := avroschema.ParseSet(tc.srcs)
		if err == nil || exitcode.Code(err) != 2 || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line and exit 2", tc.name, err)
			continue
		}
		if !slices.ContainsFunc(tc.want, func(w string) bool { return strings.Contains(err.Error(), w) }) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// A proto message's own .avsc may use a type another file defines: the
// agreement with the message is checked on the whole record, the other
// file's type included.
func TestProtoAgreementReadsTheSet(t *testing.T) {
	md := (&ordersv1.Order{}).ProtoReflect().Descriptor()
	ts := func(nanos string) string {
		return `{"type": "record", "name": "Timestamp", "namespace": "google.protobuf", "fields": [{"name": "seconds", "type": "long"}, {"name": "nanos", "type": "` + nanos + `"}]}`
	}
	order := `{"type": "record", "name": "Order", "namespace": "orders.v1", "fields": [
  {"name": "id", "type": "string"}, {"name": "price", "type": "double"}, {"name": "quantity", "type": "int"},
  {"name": "user_id", "type": "string"}, {"name": "is_active", "type": "boolean"},
  {"name": "created_at", "type": ["null", "google.protobuf.Timestamp"], "default": null},
  {"name": "meta", "type": {"type": "map", "values": "string"}}]}`
	set, err := avroschema.ParseSet(sources("orders/order.avsc", order, "google/timestamp.avsc", ts("int")))
	if err != nil {
		t.Fatal(err)
	}
	if _, src, err := avroschema.ForMessage(md, set); err != nil || src != "orders/order.avsc" {
		t.Fatalf("source %q, err %v", src, err)
	}
	set, err = avroschema.ParseSet(sources("orders/order.avsc", order, "google/timestamp.avsc", ts("string")))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := avroschema.ForMessage(md, set); err == nil || !strings.Contains(err.Error(), "field `created_at` is union<null,record{nanos:string,seconds:long}> in the .avsc") {
		t.Fatalf("a shared type that disagrees: %v", err)
	}
}

// A type in the null namespace keeps it when spliced into a namespaced
// record, and so do the types it defines.
func TestSetNullNamespaceTypeInANamespacedRecord(t *testing.T) {
	set, err := avroschema.ParseSet(sources(
		"point.avsc", `{"type": "record", "name": "Point", "fields": [{"name": "unit", "type": {"type": "enum", "name": "Unit", "symbols": ["M"]}}]}`,
		"shape.avsc", `{"type": "record", "name": "Shape", "namespace": "geo.v1", "fields": [{"name": "at", "type": "Point"}, {"name": "u", "type": ".Unit"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, shape := set.Record("geo.v1.Shape")
	if c := string(shape.Canonical()); !strings.Contains(c, `{"name":"Point","type":"record"`) || !strings.Contains(c, `{"name":"Unit","type":"enum"`) {
		t.Errorf("canonical %s", c)
	}
}
