package avroschema

import (
	"slices"

	"github.com/twmb/avro"
	"github.com/twmb/avro/atype"
)

// OnlyAdds says whether head's Avro schema of a record differs from the
// base's only by what head adds: every field of the base's records under
// the same name with the same type (followed into records, arrays, maps,
// unions), enums holding every symbol they held where they held it, and
// any field head adds. Docs, aliases and defaults, which no encoding
// writes, are not compared. nil on either side is no Avro schema of the
// user's: nothing to compare, so true.
func OnlyAdds(base, head *avro.Schema) bool {
	if base == nil || head == nil {
		return true
	}
	return nodeOnlyAdds(base.Root(), head.Root(), map[string]bool{})
}

func nodeOnlyAdds(b, h *avro.SchemaNode, seen map[string]bool) bool {
	b, h = Deref(b), Deref(h)
	if Kind(b) != Kind(h) || b.LogicalType != h.LogicalType {
		return false
	}
	switch Kind(b) {
	case atype.Record:
		name := FullName(b)
		if seen[name] {
			return true // a recursive record: its first visit answers
		}
		seen[name] = true
		for _, bf := range b.Fields {
			i := slices.IndexFunc(h.Fields, func(f avro.SchemaField) bool { return f.Name == bf.Name })
			if i < 0 || !nodeOnlyAdds(&bf.Type, &h.Fields[i].Type, seen) {
				return false
			}
		}
		return slices.IsSortedFunc(fieldOrder(b, h), func(x, y int) int { return x - y })
	case atype.Array:
		return nodeOnlyAdds(b.Items, h.Items, seen)
	case atype.Map:
		return nodeOnlyAdds(b.Values, h.Values, seen)
	case atype.Union:
		if len(b.Branches) != len(h.Branches) {
			return false
		}
		for i := range b.Branches {
			if !nodeOnlyAdds(&b.Branches[i], &h.Branches[i], seen) {
				return false
			}
		}
		return true
	case atype.Enum:
		return len(h.Symbols) >= len(b.Symbols) && slices.Equal(h.Symbols[:len(b.Symbols)], b.Symbols)
	case atype.Fixed:
		return b.Size == h.Size
	}
	return true
}

// fieldOrder is where each of the base record's fields sits in head's:
// Avro writes fields in order, so the base's must keep theirs.
func fieldOrder(b, h *avro.SchemaNode) []int {
	out := make([]int, len(b.Fields))
	for i, bf := range b.Fields {
		out[i] = slices.IndexFunc(h.Fields, func(f avro.SchemaField) bool { return f.Name == bf.Name })
	}
	return out
}
