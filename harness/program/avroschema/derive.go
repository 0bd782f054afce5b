// Package avroschema gives each measured message its Avro schema: the user's
// .avsc when its record full name equals the proto message's, otherwise one
// derived from the descriptor with the mapping below (the same one
// protoc-gen-wiregate uses for the plain structs):
//
//	bool → boolean; int32, sint32, sfixed32 → int; int64, sint64, sfixed64,
//	uint32, fixed32, uint64, fixed64 → long (uint64 bit for bit); float →
//	float; double → double; string → string; bytes → bytes; enum → enum of
//	its value names; message → record (["null", record] when singular);
//	repeated T → array; map<K, V> → map (keys as decimal text when K is not
//	string); fields the plain struct makes pointers (see package shape:
//	messages, oneof members, scalars with explicit presence such as proto2
//	and proto3 `optional` or edition 2023's default) → ["null", T] with
//	default null; proto2 `required` → T. Records are named by the proto
//	full name.
package avroschema

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/twmb/avro"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wiregate/wiregate/harness/program/shape"
)

// Derive returns the Avro schema for md, parsed.
func Derive(md protoreflect.MessageDescriptor) (*avro.Schema, error) {
	d := deriver{defined: map[protoreflect.FullName]bool{}}
	b, err := json.Marshal(d.record(md))
	if err != nil {
		return nil, fmt.Errorf("derive avro schema for %s: %w", md.FullName(), err)
	}
	s, err := avro.Parse(string(b))
	if err != nil {
		return nil, fmt.Errorf("derive avro schema for %s: %w", md.FullName(), err)
	}
	return s, nil
}

type deriver struct {
	defined map[protoreflect.FullName]bool
}

func split(n protoreflect.FullName) (namespace, name string) {
	s := string(n)
	if i := strings.LastIndex(s, "."); i >= 0 {
		return s[:i], s[i+1:]
	}
	return "", s
}

func (d deriver) record(md protoreflect.MessageDescriptor) any {
	if d.defined[md.FullName()] {
		return string(md.FullName())
	}
	d.defined[md.FullName()] = true
	ns, name := split(md.FullName())
	fields := []map[string]any{}
	fs := md.Fields()
	for i := 0; i < fs.Len(); i++ {
		f := fs.Get(i)
		field := map[string]any{"name": string(f.Name())}
		switch {
		case f.IsMap():
			field["type"] = map[string]any{"type": "map", "values": d.value(f.MapValue())}
		case f.IsList():
			field["type"] = map[string]any{"type": "array", "items": d.value(f)}
		case shape.Of(f).Nullable():
			field["type"] = []any{"null", d.value(f)}
			field["default"] = nil
		default:
			field["type"] = d.value(f)
		}
		fields = append(fields, field)
	}
	rec := map[string]any{"type": "record", "name": name, "fields": fields}
	if ns != "" {
		rec["namespace"] = ns
	}
	return rec
}

// Primitive is the Avro primitive type a proto scalar kind is carried as:
// unsigned and fixed integers widen to long, as Avro has no unsigned types
// (uint64 bit for bit). "" for enums, messages and groups. The plain
// structs' Go types (plaingen) follow it.
func Primitive(k protoreflect.Kind) string {
	switch k {
	case protoreflect.BoolKind:
		return "boolean"
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return "int"
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind,
		protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return "long"
	case protoreflect.FloatKind:
		return "float"
	case protoreflect.DoubleKind:
		return "double"
	case protoreflect.StringKind:
		return "string"
	case protoreflect.BytesKind:
		return "bytes"
	}
	return ""
}

func (d deriver) value(f protoreflect.FieldDescriptor) any {
	if p := Primitive(f.Kind()); p != "" {
		return p
	}
	switch f.Kind() {
	case protoreflect.EnumKind:
		e := f.Enum()
		if d.defined[e.FullName()] {
			return string(e.FullName())
		}
		d.defined[e.FullName()] = true
		ns, name := split(e.FullName())
		var symbols []string
		for i := 0; i < e.Values().Len(); i++ {
			symbols = append(symbols, string(e.Values().Get(i).Name()))
		}
		en := map[string]any{"type": "enum", "name": name, "symbols": symbols}
		if ns != "" {
			en["namespace"] = ns
		}
		return en
	}
	return d.record(f.Message())
}
