package avrocompat

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// A shared Address record in common.avsc, used by a Customer and a Depot
// record in their own files.
func address(fields string) string {
	return `{"type": "record", "name": "Common", "namespace": "geo.common", "fields": [
  {"name": "address", "type": {"type": "record", "name": "Address", "fields": [` + fields + `]}}]}`
}

const (
	street   = `{"name": "street", "type": "string"}`
	customer = `{"type": "record", "name": "Customer", "namespace": "geo.crm", "fields": [
  {"name": "id", "type": "long"}, {"name": "home", "type": "geo.common.Address"}]}`
	depot = `{"type": "record", "name": "Depot", "namespace": "geo.common", "fields": [
  {"name": "site", "type": "Address"}]}`
)

func writeSet(t *testing.T, dir, common string) {
	t.Helper()
	write(t, dir, "schemas/common.avsc", []byte(common))
	write(t, dir, "schemas/crm/customer.avsc", []byte(customer))
	write(t, dir, "schemas/depot.avsc", []byte(depot))
}

func filesOf(fs []report.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.File)
	}
	return out
}

// A field without a default added to the shared type breaks BACKWARD for
// every record using it; with a default it breaks nothing.
func TestSharedTypeIsCheckedInEveryRecordUsingIt(t *testing.T) {
	base, head := t.TempDir(), t.TempDir()
	writeSet(t, base, address(street))
	writeSet(t, head, address(street+`, {"name": "zone", "type": "int"}`))
	fs, err := CheckDirs(base, head, []string{"schemas/**/*.avsc"}, Backward, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(filesOf(fs), " ")
	for _, want := range []string{"schemas/crm/customer.avsc", "schemas/depot.avsc"} {
		if !strings.Contains(got, want) {
			t.Errorf("no finding for %s: %v", want, messages(fs))
		}
	}
	if !strings.Contains(messages(fs), "zone") {
		t.Errorf("findings do not name the field: %s", messages(fs))
	}
	writeSet(t, head, address(street+`, {"name": "zone", "type": "int", "default": 0}`))
	if fs, err := CheckDirs(base, head, []string{"schemas/**/*.avsc"}, Full, nil); err != nil || len(fs) != 0 {
		t.Errorf("with a default: %v %v", messages(fs), err)
	}
	// A set that does not resolve is bad input naming the file.
	write(t, head, "schemas/common.avsc", []byte(`{"type": "enum", "name": "geo.common.Other", "symbols": ["A"]}`))
	if _, err := CheckDirs(base, head, []string{"schemas/**/*.avsc"}, Backward, nil); err == nil ||
		!strings.Contains(err.Error(), "schemas/crm/customer.avsc: uses geo.common.Address, which no .avsc of the set defines") {
		t.Errorf("missing type: %v", err)
	}
}

// The transitive levels see an edit of the shared type as a version of
// every record using it, though the records' own files never changed; in
// a directory below the repository's top too.
func TestTransitiveThroughASharedTypesHistory(t *testing.T) {
	top, run := gitRepo(t)
	dir := filepath.Join(top, "svc")
	zone := `{"name": "zone", "type": "int"`
	for i, common := range []string{address(street), address(street + ", " + zone + `, "default": 0}`)} {
		writeSet(t, dir, common)
		run("add", ".")
		run("commit", "-q", "-m", "v"+string(rune('1'+i)))
	}
	base := t.TempDir()
	writeSet(t, base, address(street+", "+zone+`, "default": 0}`))
	writeSet(t, dir, address(street+", "+zone+"}")) // head: the default dropped
	globs := []string{"schemas/**/*.avsc"}
	if fs, err := CheckDirs(base, dir, globs, Backward, nil); err != nil || len(fs) != 0 {
		t.Fatalf("against the base alone it reads: %v %v", messages(fs), err)
	}
	history, why := GitHistory(context.Background(), dir, "HEAD", globs)
	if history == nil {
		t.Fatal(why)
	}
	fs, err := CheckDirs(base, dir, globs, BackwardTransitive, history)
	if err != nil {
		t.Fatal(err)
	}
	// common.avsc's own Common record uses it too.
	if got := strings.Join(filesOf(fs), " "); got != "schemas/common.avsc schemas/crm/customer.avsc schemas/depot.avsc" ||
		strings.Count(messages(fs), "(against earlier version 1 of 2)") != 3 {
		t.Errorf("want every record against version 1 of 2: %v %s", filesOf(fs), messages(fs))
	}
}
