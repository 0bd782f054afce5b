package record

import (
	"cmp"
	"fmt"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// marshalNumbered marshals m deterministically with every message's
// fields in number order, the bytes protoc-gen-go's code writes. A
// dynamicpb message's deterministic marshal writes oneof members after the
// other fields instead, so an Any packed from a dynamic message would hold
// other bytes than the same record packed by a bench program's generated
// type. AllowPartial: a message with required fields packed at the nesting
// limit stays empty rather than failing the record.
func marshalNumbered(m proto.Message) ([]byte, error) {
	b, err := proto.MarshalOptions{Deterministic: true, AllowPartial: true}.Marshal(m)
	if err != nil {
		return nil, err
	}
	return numberOrder(m.ProtoReflect().Descriptor(), b)
}

// numberOrder reorders b, the encoding of a message of type md, into field
// number order, recursively. The sort is stable: a repeated field's
// elements keep their order.
func numberOrder(md protoreflect.MessageDescriptor, b []byte) ([]byte, error) {
	type field struct {
		num  protowire.Number
		data []byte
	}
	var fields []field
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, fmt.Errorf("%s: %w", md.FullName(), protowire.ParseError(n))
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return nil, fmt.Errorf("%s field %d: %w", md.FullName(), num, protowire.ParseError(m))
		}
		data := b[:n+m]
		if f := md.Fields().ByNumber(num); f != nil && f.Message() != nil {
			switch typ {
			case protowire.BytesType:
				v, _ := protowire.ConsumeBytes(b[n:])
				inner, err := numberOrder(f.Message(), v)
				if err != nil {
					return nil, err
				}
				data = protowire.AppendBytes(protowire.AppendTag(nil, num, typ), inner)
			case protowire.StartGroupType:
				inner, err := numberOrder(f.Message(), b[n:n+m-protowire.SizeTag(num)])
				if err != nil {
					return nil, err
				}
				data = protowire.AppendTag(append(protowire.AppendTag(nil, num, typ), inner...), num, protowire.EndGroupType)
			}
		}
		fields = append(fields, field{num, data})
		b = b[n+m:]
	}
	slices.SortStableFunc(fields, func(a, b field) int { return cmp.Compare(a.num, b.num) })
	var out []byte
	for _, f := range fields {
		out = append(out, f.data...)
	}
	return out, nil
}
