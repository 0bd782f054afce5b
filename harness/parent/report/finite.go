package report

import (
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// NonFinite lists the JSON paths of every float in v that is NaN or ±Inf
// ("messages[3].formats[0].metrics[1].mde_pct"): the floats encoding/json
// would refuse. A value that encodes itself (a json.Marshaler, such as
// Summary, which writes an unknown center as null and leaves an unknown
// bound out) is its own encoder's business: NonFinite does not look
// inside it.
func NonFinite(v any) []string {
	var out []string
	walkFloats(reflect.ValueOf(v), "", func(path string, f float64) {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			out = append(out, path)
		}
	})
	return out
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// encodesItself is whether encoding/json hands v to its own MarshalJSON
// or MarshalText rather than walking its fields.
func encodesItself(v reflect.Value) bool {
	t := v.Type()
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) {
		return true
	}
	pt := reflect.PointerTo(t)
	return v.CanAddr() && (pt.Implements(marshalerType) || pt.Implements(textMarshalerType))
}

// walkFloats calls visit with every float reachable from v and its JSON
// path, as encoding/json would meet it: it does not descend into a value
// that encodes itself.
func walkFloats(v reflect.Value, path string, visit func(string, float64)) {
	if !v.IsValid() || encodesItself(v) {
		return
	}
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
