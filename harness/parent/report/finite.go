package report

import (
	"math"
	"reflect"
	"strconv"
	"strings"
)

// NonFinite lists the JSON paths of every float in v that is NaN or ±Inf
// ("messages[3].formats[0].metrics[1].mde_pct"): the one check that no
// figure reaching report.json is a number JSON cannot hold. A bound of a
// Summary that benchmath could not compute (±Inf) is not one: Summary
// encodes it as absent, on purpose.
func NonFinite(v any) []string {
	var out []string
	walkFloats(reflect.ValueOf(v), "", func(path string, f float64) {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			out = append(out, path)
		}
	})
	return out
}

var summaryType = reflect.TypeOf(Summary{})

// walkFloats calls visit with every float reachable from v and its JSON
// path, as encoding/json would meet it.
func walkFloats(v reflect.Value, path string, visit func(string, float64)) {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		visit(path, v.Float())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkFloats(v.Elem(), path, visit)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walkFloats(v.Index(i), path+"["+strconv.Itoa(i)+"]", visit)
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			walkFloats(iter.Value(), path+"["+strconv.Quote(iter.Key().String())+"]", visit)
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if t == summaryType && (f.Name == "Lo" || f.Name == "Hi") && math.IsInf(v.Field(i).Float(), 0) {
				continue // MarshalJSON leaves an unknown bound out
			}
			p := name
			if path != "" {
				p = path + "." + name
			}
			if f.Anonymous && f.Tag.Get("json") == "" {
				p = path
			}
			walkFloats(v.Field(i), p, visit)
		}
	}
}
