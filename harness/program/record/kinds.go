package record

import (
	"fmt"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// convert says whether the base's values of field bf survive as values of
// head's field hf (the same number), and how one value becomes the other.
// A value survives when every value bf's kind can hold means the same in
// hf's kind, whatever the bytes on the wire become:
//
//	keeps                                              regenerates
//	the same kind                                      a narrowing: int64 → int32, double → float,
//	int32, sint32, sfixed32 → one another, or any of   uint64 → uint32
//	  int64, sint64, sfixed64                          a change of sign: int32 → uint32, int64 → uint64,
//	int64, sint64, sfixed64 → one another                uint64 → int64, uint32 → int32
//	uint32, fixed32 → one another, or any of           bool ↔ any number, integer ↔ float or double
//	  uint64, fixed64, int64, sint64, sfixed64         bytes → string (bytes need not be UTF-8)
//	uint64, fixed64 → one another                      an enum → uint32, uint64, fixed32, fixed64
//	float → double                                     int32 → a closed enum; an open enum → a closed
//	enum → int32, sint32, sfixed32, int64, sint64,       one; a closed enum → a closed enum lacking one
//	  sfixed64                                           of its values
//	int32, sint32, sfixed32 → an open enum             scalar ↔ message or group
//	enum → an open enum, or a closed one declaring     a message or group whose type becomes or stops
//	  every value of the base's closed enum              being a well-known type with value rules
//	string → bytes                                       (Timestamp, Duration, Any, FieldMask, Struct,
//	message ↔ group, any type: fields carried by         Value, ListValue) under another name
//	  number, recursively                              repeated → singular; map ↔ not a map
//	singular → repeated: the value, one element        a map whose key or value does not keep
//	map → map whose key and value kinds keep
//
// convert returns nil for a message value (Pair carries it field by
// field) and ok false where the values do not survive.
func convert(bf, hf protoreflect.FieldDescriptor) (conv conversion, ok bool) {
	switch {
	case bf.IsMap() != hf.IsMap(), bf.IsList() && !hf.IsList():
		return nil, false
	case bf.IsMap():
		if _, ok := convertValue(bf.MapKey(), hf.MapKey()); !ok {
			return nil, false
		}
		return convertValue(bf.MapValue(), hf.MapValue())
	}
	return convertValue(bf, hf)
}

// convertKey is convert for a map's keys (ok already checked).
func convertKey(bf, hf protoreflect.FieldDescriptor) conversion {
	conv, _ := convertValue(bf.MapKey(), hf.MapKey())
	return conv
}

// convertValue is convert for one value, cardinality aside.
func convertValue(bf, hf protoreflect.FieldDescriptor) (conversion, bool) {
	bm, hm := bf.Message(), hf.Message()
	switch {
	case bm != nil && hm != nil:
		return nil, bm.FullName() == hm.FullName() || !ruled[bm.FullName()] && !ruled[hm.FullName()]
	case bm != nil || hm != nil:
		return nil, false
	}
	from, to := familyOf(bf.Kind()), familyOf(hf.Kind())
	switch {
	case from == famEnum && to == famEnum:
		return same, enumKeeps(bf.Enum(), hf.Enum())
	case from == famInt32 && to == famEnum:
		return toEnum, !hf.Enum().IsClosed()
	case from == to:
		return same, true
	}
	conv, ok := across[[2]family{from, to}]
	return conv, ok
}

// conversion turns one base value into the head value it keeps as.
type conversion = func(protoreflect.Value) protoreflect.Value

func same(v protoreflect.Value) protoreflect.Value { return v }
func toEnum(v protoreflect.Value) protoreflect.Value {
	return protoreflect.ValueOfEnum(protoreflect.EnumNumber(v.Int()))
}

// across are the conversions between families that keep every value.
var across = map[[2]family]conversion{
	{famInt32, famInt64}:   func(v protoreflect.Value) protoreflect.Value { return protoreflect.ValueOfInt64(v.Int()) },
	{famUint32, famUint64}: func(v protoreflect.Value) protoreflect.Value { return protoreflect.ValueOfUint64(v.Uint()) },
	{famUint32, famInt64}:  func(v protoreflect.Value) protoreflect.Value { return protoreflect.ValueOfInt64(int64(v.Uint())) },
	{famFloat, famDouble}:  func(v protoreflect.Value) protoreflect.Value { return protoreflect.ValueOfFloat64(v.Float()) },
	{famString, famBytes}:  func(v protoreflect.Value) protoreflect.Value { return protoreflect.ValueOfBytes([]byte(v.String())) },
	{famEnum, famInt32}:    func(v protoreflect.Value) protoreflect.Value { return protoreflect.ValueOfInt32(int32(v.Enum())) },
	{famEnum, famInt64}:    func(v protoreflect.Value) protoreflect.Value { return protoreflect.ValueOfInt64(int64(v.Enum())) },
}

// ruled are the well-known types whose values have rules beyond their
// fields' types (wkt.go): a message of another type carried into one would
// break them, and one carried out of them means something else.
var ruled = map[protoreflect.FullName]bool{
	"google.protobuf.Timestamp": true, "google.protobuf.Duration": true, "google.protobuf.Any": true,
	"google.protobuf.FieldMask": true, "google.protobuf.Struct": true, "google.protobuf.Value": true,
	"google.protobuf.ListValue": true,
}

// enumKeeps reports whether every value of enum b is a value of enum h: h
// is open (it holds any int32), or both are closed and h declares every
// value b declares.
func enumKeeps(b, h protoreflect.EnumDescriptor) bool {
	if !h.IsClosed() {
		return true
	}
	if !b.IsClosed() {
		return false
	}
	for i := 0; i < b.Values().Len(); i++ {
		if h.Values().ByNumber(b.Values().Get(i).Number()) == nil {
			return false
		}
	}
	return true
}

// family groups the kinds whose values are the same Go values.
type family int

const (
	famBool family = iota
	famInt32
	famInt64
	famUint32
	famUint64
	famFloat
	famDouble
	famString
	famBytes
	famEnum
	famMessage
)

func familyOf(k protoreflect.Kind) family {
	switch k {
	case protoreflect.BoolKind:
		return famBool
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return famInt32
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return famInt64
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return famUint32
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return famUint64
	case protoreflect.FloatKind:
		return famFloat
	case protoreflect.DoubleKind:
		return famDouble
	case protoreflect.StringKind:
		return famString
	case protoreflect.BytesKind:
		return famBytes
	case protoreflect.EnumKind:
		return famEnum
	}
	return famMessage
}

// describe is f's type as a .proto file spells it: "int64",
// "repeated string", "map<string, shop.v1.Line>", "required bytes".
func describe(f protoreflect.FieldDescriptor) string {
	switch {
	case f.IsMap():
		return fmt.Sprintf("map<%s, %s>", describe(f.MapKey()), describe(f.MapValue()))
	case f.IsList():
		return "repeated " + typeName(f)
	case f.Cardinality() == protoreflect.Required:
		return "required " + typeName(f)
	}
	return typeName(f)
}

func typeName(f protoreflect.FieldDescriptor) string {
	switch {
	case f.Message() != nil:
		return string(f.Message().FullName())
	case f.Enum() != nil:
		return string(f.Enum().FullName())
	}
	return f.Kind().String()
}
