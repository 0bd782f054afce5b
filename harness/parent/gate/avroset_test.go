package gate_test

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// An Avro-only repository laid out as teams do: a shared Address record
// (with a Country enum) in common.avsc, used by full name from a Shipment
// and a Warehouse record in their own files.
const (
	setCommon = `{"type": "record", "name": "Address", "namespace": "geo.v1", "fields": [
  {"name": "street", "type": "string"},
  {"name": "country", "type": {"type": "enum", "name": "Country", "symbols": ["NL", "BE", "DE"]}}
]}
`
	setShipment = `{"type": "record", "name": "Shipment", "namespace": "geo.v1", "fields": [
  {"name": "id", "type": "long"},
  {"name": "weight_g", "type": "int"},
  {"name": "from", "type": "geo.v1.Address"},
  {"name": "to", "type": "Address"}
]}
`
	setWarehouse = `{"type": "record", "name": "Warehouse", "namespace": "geo.v1", "fields": [
  {"name": "code", "type": "string"},
  {"name": "site", "type": "geo.v1.Address"},
  {"name": "serves", "type": {"type": "array", "items": "geo.v1.Country"}}
]}
`
)

// setRepo writes the three files under names that sort as given: the
// common file's name decides whether it is read before or after the
// records that use it.
func setRepo(t *testing.T, commonName, common, shipment, warehouse string) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "geo"), 0o755)
	for name, data := range map[string]string{commonName: common, "shipment.avsc": shipment, "warehouse.avsc": warehouse} {
		if err := os.WriteFile(filepath.Join(dir, "geo", name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A field with a default added to one record measures that record alone
// (its Avro bytes grow on the same records by the new field's), and the
// files' order decides nothing: with the shared type's file read first
// or last, every figure and verdict is the same.
func TestAvroSetFieldInOneRecord(t *testing.T) {
	grown := strings.Replace(setShipment, `{"name": "weight_g", "type": "int"},`, `{"name": "weight_g", "type": "int"}, {"name": "carrier", "type": "string", "default": "post"},`, 1)
	var first *report.Report
	for _, common := range []string{"a_common.avsc", "z_common.avsc"} {
		base := setRepo(t, common, setCommon, setShipment, setWarehouse)
		head := setRepo(t, common, setCommon, grown, setWarehouse)
		r := avroGate(t, base, head, nil)
		if len(r.Errors) != 0 || len(r.Violations) != 0 {
			t.Fatalf("%s: errors %v, violations %+v; an addition fails nothing at the defaults", common, r.Errors, r.Violations)
		}
		if !slices.Equal(r.Change.Changed, []string{"geo.v1.Shipment"}) || !slices.Equal(r.Change.Unchanged, []string{"geo.v1.Address", "geo.v1.Warehouse"}) {
			t.Fatalf("%s: change %+v", common, r.Change)
		}
		if len(r.Messages) != 1 {
			t.Fatalf("%s: measured %d messages, want Shipment alone", common, len(r.Messages))
		}
		m := r.Messages[0]
		if m.Records == nil || len(m.Records.NewFields) != 1 || m.Records.NewFields[0].Field != "carrier" {
			t.Fatalf("%s: records %+v", common, m.Records)
		}
		avro := sizeOf(t, r, "geo.v1.Shipment", "avro")
		fig := addedFigure(m, "avro", report.AddedSize)
		if want := *m.Records.NewFields[0].ProtobufBytes - 2; avro.Head-avro.Base != 1 || fig == nil || fig.With-fig.Without != want || want <= 0 {
			t.Fatalf("%s: avro's same content grew %.4f B/msg (want the empty carrier's 1), its added content %+v (want %.4f)", common, avro.Head-avro.Base, fig, want)
		}
		if first == nil {
			first = r
			continue
		}
		for _, f := range m.Formats {
			if was := sizeOf(t, first, m.Name, f.Format); !reflect.DeepEqual(was, f.Size) {
				t.Errorf("%s: %s moved with the file order: %+v, was %+v", m.Name, f.Format, *f.Size, *was)
			}
		}
		if r.Result != first.Result || r.ExitCode != first.ExitCode || len(r.Violations) != len(first.Violations) {
			t.Errorf("verdict moved with the file order: %s %d, was %s %d", r.Result, len(r.Violations), first.Result, len(first.Violations))
		}
		for i, v := range r.Violations {
			if w := first.Violations[i]; v.ID != w.ID || v.Detail != w.Detail {
				t.Errorf("violation %d moved with the file order: %+v, was %+v", i, v, w)
			}
		}
	}
}

// A field without a default added to the shared type changes every record
// using it, one group under the type's full name, and is a BACKWARD
// violation for each of them.
func TestAvroSetSharedTypeChange(t *testing.T) {
	base := setRepo(t, "common.avsc", setCommon, setShipment, setWarehouse)
	head := setRepo(t, "common.avsc", strings.Replace(setCommon, `{"name": "street", "type": "string"},`, `{"name": "street", "type": "string"}, {"name": "zip", "type": "string"},`, 1), setShipment, setWarehouse)
	r := avroGate(t, base, head, nil)
	if len(r.Errors) != 0 {
		t.Fatalf("errors %v", r.Errors)
	}
	all := []string{"geo.v1.Address", "geo.v1.Shipment", "geo.v1.Warehouse"}
	if !slices.Equal(r.Change.Changed, all) {
		t.Fatalf("changed %v", r.Change.Changed)
	}
	if len(r.Change.Groups) != 1 || !slices.Equal(r.Change.Groups[0].Cause, []string{"geo.v1.Address"}) || !slices.Equal(r.Change.Groups[0].Messages, all) {
		t.Fatalf("groups %+v", r.Change.Groups)
	}
	var files []string
	for _, v := range r.Violations {
		if v.Kind == report.KindAvro && strings.Contains(v.Detail, "zip") {
			files = append(files, v.File)
		}
	}
	slices.Sort(files)
	if !slices.Equal(files, []string{"geo/common.avsc", "geo/shipment.avsc", "geo/warehouse.avsc"}) || r.ExitCode != 1 {
		t.Fatalf("exit %d, avro violations in %v: %+v", r.ExitCode, files, r.Violations)
	}
}

// A type used and defined nowhere, and a type two files define
// differently, each stop the gate with one line naming the files (exit 2),
// before anything is built; the report is still written.
func TestAvroSetBadSets(t *testing.T) {
	base := setRepo(t, "common.avsc", setCommon, setShipment, setWarehouse)
	conflicting := strings.Replace(setWarehouse, `"type": "geo.v1.Address"`, `"type": {"type": "record", "name": "Address", "fields": [{"name": "street", "type": "string"}]}`, 1)
	for _, tc := range []struct {
		name, shipment, warehouse string
		want                      []string
	}{
		{"missing", strings.Replace(setShipment, `"type": "Address"`, `"type": "Adress"`, 1), setWarehouse,
			[]string{"geo/shipment.avsc: uses geo.v1.Adress, which no .avsc of the set defines"}},
		{"conflicting", setShipment, conflicting,
			[]string{"geo/common.avsc and geo/warehouse.avsc both define geo.v1.Address, differently, and geo/shipment.avsc uses it"}},
	} {
		head := setRepo(t, "common.avsc", setCommon, tc.shipment, tc.warehouse)
		r := avroGate(t, base, head, nil)
		if r.ExitCode != 2 || len(r.Errors) != 1 || strings.Contains(r.Errors[0], "\n") {
			t.Errorf("%s: exit %d, errors %q; want exit 2 and one line", tc.name, r.ExitCode, r.Errors)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(r.Errors[0], w) {
				t.Errorf("%s: %q, want %q", tc.name, r.Errors[0], w)
			}
		}
		for _, st := range r.Stages {
			if st.Name == "prepare" || st.Name == "schemas" {
				t.Errorf("%s: stage %s ran", tc.name, st.Name)
			}
		}
	}
}
