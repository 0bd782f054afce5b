package config

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Differences names each setting in which got differs from want, as
// "approvers: [mallory], not none": how publish and approve modes say
// that a report's own rules are not the base's. Source (where a file was
// read) is no setting.
func Differences(got, want Config) []string {
	var out []string
	g, w := reflect.ValueOf(got), reflect.ValueOf(want)
	for i := range g.NumField() {
		f := g.Type().Field(i)
		if f.Name == "Source" {
			continue
		}
		a, b := setting(g.Field(i).Interface()), setting(w.Field(i).Interface())
		if a != b {
			out = append(out, fmt.Sprintf("%s: %s, not %s", jsonName(f), a, b))
		}
	}
	return out
}

// setting is a value as JSON, "none" for an empty list.
func setting(v any) string {
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice && rv.Len() == 0 {
		return "none"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}
