// Package record makes the records wiregate measures: a deterministic pool
// generated from the message descriptor, or a user's protojson samples.
//
// Every field's value comes from its own random stream, seeded by the
// message name, the record's index and the field's number (the path of
// numbers for nested fields). So a change to one field (added, removed,
// retyped) leaves every other field's values as they were, and size deltas
// between base and head are the schema change's own, not reshuffled
// randomness. Renaming a field keeps its values (JSON's keys change, the
// binary formats' bytes do not), unless the new name asks for another
// shape (an "email" looks like an email); renumbering re-rolls them.
package record

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wiregate/wiregate/harness/shape"
)

// PoolSize is how many distinct records a loop rotates through.
const PoolSize = 256

// Seed is the fixed seed of generated records.
const Seed = 20261121

// epoch is "now" for generated timestamps: fixed, so records are reproducible.
var epoch = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// Generate returns n records of mt.
func Generate(mt protoreflect.MessageType, n int, seed uint64) []proto.Message {
	out, _ := generate(mt, n, seed)
	return out
}

// generate returns n records of mt and how many of them reached MaxRecordBytes.
func generate(mt protoreflect.MessageType, n int, seed uint64) (out []proto.Message, capped int) {
	out = make([]proto.Message, n)
	for i := range out {
		m := mt.New()
		g := &gen{seed: seed, index: i, root: mt.Descriptor(), onPath: map[protoreflect.FullName]int{}}
		g.fill(m, string(mt.Descriptor().FullName()), 0, nil)
		out[i] = m.Interface()
		if g.capped {
			capped++
		}
	}
	return out, capped
}

// gen makes one record.
type gen struct {
	seed  uint64
	index int
	root  protoreflect.MessageDescriptor // Any packs a message of the root's file
	// onPath counts each message type on the path from the root to the
	// message being filled: a type already there makes a recursive field.
	onPath map[protoreflect.FullName]int
	used   int  // approximate protobuf bytes of the record so far
	capped bool // the record reached MaxRecordBytes
}

// rng is the random stream of one field path in this record.
func (g gen) rng(path string) *rand.Rand {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s#%d", path, g.index)
	return rand.New(rand.NewPCG(g.seed, h.Sum64()))
}

// fill sets m's fields. parent is the message holding m (nil for the root
// and inside Any), for values that name their parent's fields (FieldMask).
func (g *gen) fill(m protoreflect.Message, path string, depth int, parent protoreflect.MessageDescriptor) {
	d := m.Descriptor()
	g.onPath[d.FullName()]++
	defer func() { g.onPath[d.FullName()]-- }()
	g.used += 2 // tag and length of a nested message
	if g.wellKnown(m, path, depth, parent) {
		return
	}
	// One member of each oneof, chosen by the oneof's own stream.
	chosen := map[protoreflect.FullName]protoreflect.Name{}
	oneofs := d.Oneofs()
	for i := 0; i < oneofs.Len(); i++ {
		o := oneofs.Get(i)
		if o.IsSynthetic() {
			continue
		}
		f := o.Fields().Get(g.rng(oneofPath(path, o)).IntN(o.Fields().Len()))
		chosen[o.FullName()] = f.Name()
	}
	fields := d.Fields()
	for i := 0; i < fields.Len(); i++ {
		f := fields.Get(i)
		fp := fmt.Sprintf("%s.%d", path, f.Number())
		r := g.rng(fp)
		switch shape.Of(f) {
		case shape.Member:
			if chosen[f.ContainingOneof().FullName()] != f.Name() {
				continue
			}
		case shape.Optional:
			if r.IntN(5) == 0 { // explicit presence: set 80% of the time
				continue
			}
		}
		switch {
		case f.IsMap():
			mp := m.Mutable(f).Map()
			for j, n := 0, g.elements(f.MapValue(), r, 5, depth); j < n && g.room(); j++ {
				k := g.scalar(f.MapKey(), r, fp, j)
				v := mp.NewValue()
				if f.MapValue().Message() != nil {
					g.fill(v.Message(), fmt.Sprintf("%s[%d]", fp, j), depth+1, d)
				} else {
					v = g.scalar(f.MapValue(), r, fp, j)
				}
				g.spend(f.MapKey(), k)
				g.spend(f.MapValue(), v)
				mp.Set(k.MapKey(), v)
			}
		case f.IsList():
			l := m.Mutable(f).List()
			for j, n := 0, g.elements(f, r, 9, depth); j < n && g.room(); j++ {
				if f.Message() != nil {
					v := l.NewElement()
					g.fill(v.Message(), fmt.Sprintf("%s[%d]", fp, j), depth+1, d)
					l.Append(v)
				} else {
					v := g.scalar(f, r, fp, j)
					g.spend(f, v)
					l.Append(v)
				}
			}
		case f.Message() != nil:
			if !g.nest(f, r, depth) {
				continue
			}
			g.fill(m.Mutable(f).Message(), fp, depth+1, d)
		default:
			v := g.scalar(f, r, fp, 0)
			g.spend(f, v)
			m.Set(f, v)
		}
	}
}

// oneofPath keys a oneof's choice by its lowest member number, not its
// name: renaming the oneof keeps the choice.
func oneofPath(path string, o protoreflect.OneofDescriptor) string {
	lowest := o.Fields().Get(0).Number()
	for i := 1; i < o.Fields().Len(); i++ {
		lowest = min(lowest, o.Fields().Get(i).Number())
	}
	return fmt.Sprintf("%s.oneof%d", path, lowest)
}

// scalar is one realistic value for a field, shaped by its name.
func (g gen) scalar(f protoreflect.FieldDescriptor, r *rand.Rand, path string, elem int) protoreflect.Value {
	name := strings.ToLower(string(f.Name()))
	switch f.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(r.IntN(10) < 7)
	case protoreflect.EnumKind:
		vals := f.Enum().Values()
		if vals.Len() > 1 && vals.Get(0).Number() == 0 {
			return protoreflect.ValueOfEnum(vals.Get(1 + r.IntN(vals.Len()-1)).Number())
		}
		return protoreflect.ValueOfEnum(vals.Get(r.IntN(vals.Len())).Number())
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(stringValue(name, r, g.index))
	case protoreflect.BytesKind:
		b := make([]byte, 16+r.IntN(49))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return protoreflect.ValueOfBytes(b)
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(float32(floatValue(name, r)))
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(floatValue(name, r))
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(intValue(name, r, g.index, math.MaxInt32)))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(intValue(name, r, g.index, math.MaxInt32)))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(intValue(name, r, g.index, math.MaxInt64))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(uint64(intValue(name, r, g.index, math.MaxInt64)))
	}
	panic(fmt.Sprintf("record: no generator for %s (%s)", path, f.Kind()))
}
