package record

import (
	"math/rand/v2"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// How big generated records get. Lists hold 0–8 elements and maps 0–4
// entries, and every singular message field is set, except where these
// limits say otherwise. A record that stays within them is generated
// exactly as without them (each field from its own stream).
const (
	// maxDepth bounds message nesting below the root.
	maxDepth = 8
	// maxRepeats bounds recursion: a message type appears at most this
	// many times on one path from the root. A field leading back to a type
	// already on the path is set half the time, and as a list or map holds
	// 0–2 elements, so recursive records stay near their first levels.
	maxRepeats = 3
	// MaxRecordBytes caps a record's approximate protobuf size: once a
	// record reaches it, no more list or map elements and no more optional
	// nested messages are added (required fields still are). Without it a
	// message with many recursive fields (protobuf's own conformance
	// messages) generated records of 150–300 KB.
	MaxRecordBytes = 8 << 10
	// requiredDepth stops a chain of required message fields that can never
	// end (such a message has no valid record; encoding it then fails).
	requiredDepth = 64
)

// elements is how many elements a list (0 to max-1) or map field f gets.
func (g *gen) elements(f protoreflect.FieldDescriptor, r *rand.Rand, max, depth int) int {
	if md := f.Message(); md != nil {
		if !g.canNest(md, depth) {
			return 0
		}
		if g.onPath[md.FullName()] > 0 {
			return r.IntN(3)
		}
	}
	return r.IntN(max)
}

// nest reports whether the singular message field f of a message at depth
// is set.
func (g *gen) nest(f protoreflect.FieldDescriptor, r *rand.Rand, depth int) bool {
	if f.Cardinality() == protoreflect.Required {
		return depth < requiredDepth
	}
	md := f.Message()
	if !g.canNest(md, depth) || !g.room() {
		return false
	}
	if g.onPath[md.FullName()] > 0 {
		return r.IntN(2) == 0
	}
	return true
}

// canNest reports whether a message of type md may be added below depth.
func (g *gen) canNest(md protoreflect.MessageDescriptor, depth int) bool {
	return depth < maxDepth && g.onPath[md.FullName()] < maxRepeats
}

// room reports whether the record is still under MaxRecordBytes, and
// remembers when it was not.
func (g *gen) room() bool {
	if g.used < MaxRecordBytes {
		return true
	}
	g.capped = true
	return false
}

// spend counts the approximate protobuf size of value v of field f.
func (g *gen) spend(f protoreflect.FieldDescriptor, v protoreflect.Value) {
	n := protowire.SizeTag(f.Number())
	switch f.Kind() {
	case protoreflect.StringKind:
		n += protowire.SizeBytes(len(v.String()))
	case protoreflect.BytesKind:
		n += protowire.SizeBytes(len(v.Bytes()))
	case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind, protoreflect.FloatKind:
		n += 4
	case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind, protoreflect.DoubleKind:
		n += 8
	case protoreflect.MessageKind, protoreflect.GroupKind:
		// fill counts the message's own bytes
	default:
		n += 5 // a varint: 1–10 bytes
	}
	g.used += n
}
