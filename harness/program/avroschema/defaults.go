package avroschema

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// twmb/avro names the field of a bad default but describes the value the
// way Go sees it ("expected number, got <nil>" for null, "got json.Number"
// for 1.5).
var badDefault = regexp.MustCompile(`record field "([^"]+)": invalid default`)

// explainDefault rewrites twmb/avro's bad-default error with the field's
// default and type as the .avsc spells them; other errors pass through.
func explainDefault(err error, schema any) error {
	m := badDefault.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	field := findField(schema, m[1])
	if field == nil {
		return err
	}
	def, _ := json.Marshal(field["default"])
	msg := fmt.Sprintf("field `%s`: default %s is not a valid %s", m[1], def, typeLabel(field["type"]))
	switch t := field["type"].(type) {
	case []any:
		msg += " (a union's default must be a value of one of its types)"
	case map[string]any:
		if symbols, ok := t["symbols"].([]any); ok {
			names := make([]string, len(symbols))
			for i, sym := range symbols {
				names[i] = fmt.Sprint(sym)
			}
			msg += " (symbols: " + strings.Join(names, ", ") + ")"
		}
	}
	return fmt.Errorf("%s", msg)
}

// findField finds the field declaration named name that has a default,
// anywhere in the schema.
func findField(v any, name string) map[string]any {
	switch v := v.(type) {
	case map[string]any:
		if _, hasDefault := v["default"]; hasDefault && v["name"] == name {
			if _, hasType := v["type"]; hasType {
				return v
			}
		}
		for _, k := range []string{"fields", "type", "items", "values"} {
			if f := findField(v[k], name); f != nil {
				return f
			}
		}
	case []any:
		for _, e := range v {
			if f := findField(e, name); f != nil {
				return f
			}
		}
	}
	return nil
}

// typeLabel is a short spelling of an Avro type: "int", ["null","int"],
// record Y.
func typeLabel(t any) string {
	switch t := t.(type) {
	case string:
		return fmt.Sprintf("%q", t)
	case []any:
		parts := make([]string, len(t))
		for i, u := range t {
			parts[i] = typeLabel(u)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case map[string]any:
		if n, ok := t["name"].(string); ok {
			return fmt.Sprintf("%v %s", t["type"], n)
		}
		return fmt.Sprintf("%v", t["type"])
	}
	return fmt.Sprint(t)
}
