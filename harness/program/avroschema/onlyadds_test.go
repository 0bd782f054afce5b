package avroschema

import (
	"strings"
	"testing"

	"github.com/twmb/avro"
)

func TestOnlyAddsTellsAnAvroAdditionFromOtherChanges(t *testing.T) {
	const base = `{"type": "record", "name": "E", "namespace": "a.v1", "fields": [
  {"name": "id", "type": "string"},
  {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A", "B"]}},
  {"name": "lines", "type": {"type": "array", "items": {"type": "record", "name": "Line", "fields": [{"name": "qty", "type": "int"}]}}},
  {"name": "note", "type": ["null", "string"], "default": null}]}`
	parse := func(text string) *avro.Schema {
		t.Helper()
		s, err := Parse("e.avsc", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	b := parse(base)
	for _, c := range []struct {
		name, from, to string
		want           bool
	}{
		{"nothing", "", "", true},
		{"a field", `{"name": "id", "type": "string"},`, `{"name": "id", "type": "string"}, {"name": "rssi", "type": "int", "default": 0},`, true},
		{"a nested field", `[{"name": "qty", "type": "int"}]`, `[{"name": "qty", "type": "int"}, {"name": "sku", "type": "string", "default": ""}]`, true},
		{"an enum symbol at the end", `["A", "B"]`, `["A", "B", "C"]`, true},
		{"a doc", `"name": "E",`, `"name": "E", "doc": "an event",`, true},
		{"a widening", `[{"name": "qty", "type": "int"}]`, `[{"name": "qty", "type": "long"}]`, false},
		{"a rename", `{"name": "id", "type": "string"}`, `{"name": "ident", "type": "string"}`, false},
		{"an enum symbol first", `["A", "B"]`, `["Z", "A", "B"]`, false},
		{"a union branch", `["null", "string"]`, `["null", "string", "int"]`, false},
		{"a reorder", `{"name": "id", "type": "string"},
  {"name": "kind"`, `{"name": "kind"`, false},
	} {
		text := base
		if c.from != "" {
			text = replaceOnce(t, base, c.from, c.to)
		}
		if c.name == "a reorder" {
			text = replaceOnce(t, text, `{"name": "note"`, `{"name": "id", "type": "string"}, {"name": "note"`)
		}
		if got := OnlyAdds(b, parse(text)); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if !OnlyAdds(nil, b) || !OnlyAdds(b, nil) {
		t.Error("no Avro schema of the user's on a side: nothing to compare")
	}
}

func replaceOnce(t *testing.T, s, from, to string) string {
	t.Helper()
	i := strings.Index(s, from)
	if i < 0 {
		t.Fatalf("%q not in the schema", from)
	}
	return s[:i] + to + s[i+len(from):]
}
