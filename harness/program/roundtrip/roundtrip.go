// Package roundtrip is the correctness gate: before any timing, every codec
// must decode every record it encoded back to exactly the same message. No
// number is reported for a codec that fails it.
package roundtrip

import (
	"fmt"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wiregate/wiregate/harness/program/cases"
)

// Check round-trips every record of every case and returns the first
// mismatch as an error naming message, format, record index and field.
// Each record decodes into a fresh value through the operation the counts
// and benchmarks measure (codec.Decoder; cases.Build encoded the pool
// with codec.Encoder); decoding the pool is timed on the way (the case's
// Cold.DecodeNs), as building it timed encoding.
func Check(cs []*cases.Case) error {
	for _, c := range cs {
		got := make([]any, len(c.Encoded))
		decs := make([]func([]byte) error, len(c.Encoded))
		for i := range got {
			got[i] = c.Format.NewValue(c.Subject)
			dec, err := c.Codec.Decoder(got[i])
			if err != nil {
				return fmt.Errorf("correctness: %s/%s: %w", c.Subject.Name(), c.Format.Name, err)
			}
			decs[i] = dec
		}
		var err error
		c.Cold.DecodeNs, err = cases.ColdPerOp(len(c.Encoded), func(i int) error {
			if err := decs[i](c.Encoded[i]); err != nil {
				return fmt.Errorf("correctness: %s/%s record %d does not decode: %w", c.Subject.Name(), c.Format.Name, i, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for i, v := range got {
			if m := c.Format.ToProto(c.Subject, v); !proto.Equal(c.Records[i], m) {
				return fmt.Errorf("correctness: %s/%s record %d does not round-trip: %s",
					c.Subject.Name(), c.Format.Name, i, FirstDiff(c.Records[i].ProtoReflect(), m.ProtoReflect(), ""))
			}
		}
	}
	return nil
}

// FirstDiff names the first field where a and b differ, with both values.
func FirstDiff(a, b protoreflect.Message, prefix string) string {
	fields := a.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		f := fields.Get(i)
		path := prefix + string(f.Name())
		av, bv := a.Get(f), b.Get(f)
		if a.Has(f) != b.Has(f) && !(f.IsList() || f.IsMap()) {
			return fmt.Sprintf("field %s: want %s, got %s", path, show(a, f), show(b, f))
		}
		switch {
		case f.IsList() || f.IsMap():
			if !equalValue(a, b, f) {
				return fmt.Sprintf("field %s: want %s, got %s", path, show(a, f), show(b, f))
			}
		case f.Message() != nil:
			if a.Has(f) && !proto.Equal(av.Message().Interface(), bv.Message().Interface()) {
				return FirstDiff(av.Message(), bv.Message(), path+".")
			}
		case !av.Equal(bv):
			return fmt.Sprintf("field %s: want %s, got %s", path, show(a, f), show(b, f))
		}
	}
	return "messages differ in unknown fields"
}

// equalValue compares field f of a and b alone. An empty list or map is
// left unset: Get returns it read-only, and Set refuses that.
func equalValue(a, b protoreflect.Message, f protoreflect.FieldDescriptor) bool {
	x, y := a.Type().New(), b.Type().New()
	if a.Has(f) {
		x.Set(f, a.Get(f))
	}
	if b.Has(f) {
		y.Set(f, b.Get(f))
	}
	return proto.Equal(x.Interface(), y.Interface())
}

func show(m protoreflect.Message, f protoreflect.FieldDescriptor) string {
	if !m.Has(f) && !(f.IsList() || f.IsMap()) {
		return "(unset)"
	}
	s := fmt.Sprintf("%v", m.Get(f).Interface())
	if f.Kind() == protoreflect.StringKind && !f.IsList() && !f.IsMap() {
		s = fmt.Sprintf("%q", m.Get(f).String())
	}
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}
