// Package record makes the records wiregate measures: a deterministic pool
// generated from the message descriptor (Generate), head's records made
// from the base's (Pair), a records file written by the gate (ReadPool), or
// a user's protojson samples (LoadSamples). Pool picks one.
//
// Every generated field's value comes from its own random stream, seeded
// by the message name, the record's index and the field's number (the path
// of numbers for nested fields), and fields are filled in number order.
// So a change to one field (added, removed, retyped) leaves every other
// field's values as they were, and reordering declarations changes
// nothing. Generation alone still shapes values by field name (a rename to
// "email" looks like an email); Pair is what makes base and head the same
// logical records.
package record

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wiregate/wiregate/harness/program/shape"
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

// fill sets m's fields in field-number order, so the record cap is spent
// the same way whatever order the fields are declared in. parent is the
// message holding m (nil for the root and inside Any), for values that
// name their parent's fields (FieldMask).
func (g *gen) fill(m protoreflect.Message, path string, depth int, parent protoreflect.MessageDescriptor) {
	d := m.Descriptor()
	g.onPath[d.FullName()]++
	defer func() { g.onPath[d.FullName()]-- }()
	g.used += 2 // tag and length of a nested message
	if g.wellKnown(m, path, depth, parent) {
		return
	}
	chosen := g.choose(d, path, nil)
	for _, f := range byNumber(d.Fields()) {
		g.field(m, f, path, depth, chosen)
	}
}

// choose picks one member of each oneof of d that want accepts (every
// oneof when want is nil), from the oneof's own stream: the members in
// number order, so reordering their declarations keeps the choice.
func (g *gen) choose(d protoreflect.MessageDescriptor, path string, want func(protoreflect.OneofDescriptor) bool) map[protoreflect.FullName]protoreflect.FieldNumber {
	chosen := map[protoreflect.FullName]protoreflect.FieldNumber{}
	oneofs := d.Oneofs()
	for i := 0; i < oneofs.Len(); i++ {
		o := oneofs.Get(i)
		if o.IsSynthetic() || want != nil && !want(o) {
			continue
		}
		members := byNumber(o.Fields())
		chosen[o.FullName()] = members[g.rng(oneofPath(path, members[0])).IntN(len(members))].Number()
	}
	return chosen
}

// oneofPath keys a oneof's choice by its lowest member number, not its
// name: renaming the oneof keeps the choice.
func oneofPath(path string, lowest protoreflect.FieldDescriptor) string {
	return fmt.Sprintf("%s.oneof%d", path, lowest.Number())
}

// fieldPath is the stream path of field f of the message at path.
func fieldPath(path string, f protoreflect.FieldDescriptor) string {
	return fmt.Sprintf("%s.%d", path, f.Number())
}

// field decides whether f is set in this record (a oneof member when
// chosen, an explicit-presence field 4 times in 5, any other field always)
// and sets it.
func (g *gen) field(m protoreflect.Message, f protoreflect.FieldDescriptor, path string, depth int, chosen map[protoreflect.FullName]protoreflect.FieldNumber) {
	fp := fieldPath(path, f)
	r := g.rng(fp)
	switch shape.Of(f) {
	case shape.Member:
		if chosen[f.ContainingOneof().FullName()] != f.Number() {
			return
		}
	case shape.Optional:
		if r.IntN(5) == 0 { // explicit presence: set 80% of the time
			return
		}
	}
	g.value(m, f, f.Name(), fp, r, depth)
}

// value sets field f of m, the message at depth, to generated values from
// stream r; name shapes its strings and numbers (a field's own name, or
// the base's name for a field Pair regenerates).
func (g *gen) value(m protoreflect.Message, f protoreflect.FieldDescriptor, name protoreflect.Name, fp string, r *rand.Rand, depth int) {
	d := m.Descriptor()
	switch {
	case f.IsMap():
		mp := m.Mutable(f).Map()
		for j, n := 0, g.elements(f.MapValue(), r, 5, depth); j < n && g.room(); j++ {
			k := g.scalar(f.MapKey(), f.MapKey().Name(), r, fp, j)
			v := mp.NewValue()
			if f.MapValue().Message() != nil {
				g.fill(v.Message(), fmt.Sprintf("%s[%d]", fp, j), depth+1, d)
			} else {
				v = g.scalar(f.MapValue(), f.MapValue().Name(), r, fp, j)
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
				v := g.scalar(f, name, r, fp, j)
				g.spend(f, v)
				l.Append(v)
			}
		}
	case f.Message() != nil:
		if !g.nest(f, r, depth) {
			return
		}
		g.fill(m.Mutable(f).Message(), fp, depth+1, d)
	default:
		v := g.scalar(f, name, r, fp, 0)
		g.spend(f, v)
		m.Set(f, v)
	}
}

// scalar is one realistic value of field f's kind, shaped by name.
func (g gen) scalar(f protoreflect.FieldDescriptor, fieldName protoreflect.Name, r *rand.Rand, path string, elem int) protoreflect.Value {
	name := strings.ToLower(string(fieldName))
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
		return protoreflect.ValueOfString(stringValue(name, vocabularyKey(path, f.Number()), r))
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes(bytesValue(name, r))
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

// byNumber is fs in field-number order.
func byNumber(fs protoreflect.FieldDescriptors) []protoreflect.FieldDescriptor {
	out := make([]protoreflect.FieldDescriptor, fs.Len())
	for i := range out {
		out[i] = fs.Get(i)
	}
	slices.SortFunc(out, func(a, b protoreflect.FieldDescriptor) int { return cmp.Compare(a.Number(), b.Number()) })
	return out
}
