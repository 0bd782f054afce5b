package record

import "google.golang.org/protobuf/reflect/protoreflect"

// onlyAdds says whether head's message differs from the base's only by
// what head adds (fields whose numbers the base lacks, members added to a
// oneof, enum values), anywhere in what it holds: every field the base
// has is in head under the same name, kind, cardinality, presence,
// packing, oneof and default, and so are the messages and enums they
// hold. Then head's code runs the same content as the base's did, but
// for the fields it adds: whatever the same content costs more is what
// those fields cost unset (Notes.OnlyAdded).
func (pl *mapping) onlyAdds(seen map[*mapping]bool) bool {
	if seen[pl] {
		return true // a cycle: its other fields answer
	}
	seen[pl] = true
	if len(pl.removed) > 0 {
		return false
	}
	for _, fp := range pl.fields {
		switch fp.action {
		case fresh, unheld:
			continue
		case regenerate:
			return false
		}
		if fp.fillUnset || !sameField(fp.base, fp.head) || fp.nested != nil && !fp.nested.onlyAdds(seen) {
			return false
		}
	}
	return true
}

// sameField says whether b and h are the same field but for their types'
// names (which no format writes) and the fields their messages add (the
// nested mapping's to judge).
func sameField(b, h protoreflect.FieldDescriptor) bool {
	if b.Name() != h.Name() || b.JSONName() != h.JSONName() || b.Kind() != h.Kind() || b.Cardinality() != h.Cardinality() ||
		b.IsPacked() != h.IsPacked() || b.HasPresence() != h.HasPresence() || b.IsList() != h.IsList() || b.IsMap() != h.IsMap() ||
		b.HasDefault() != h.HasDefault() || b.HasDefault() && !b.Default().Equal(h.Default()) {
		return false
	}
	if (b.ContainingOneof() == nil) != (h.ContainingOneof() == nil) ||
		b.ContainingOneof() != nil && b.ContainingOneof().Name() != h.ContainingOneof().Name() {
		return false
	}
	if b.IsMap() {
		return sameField(b.MapKey(), h.MapKey()) && sameField(b.MapValue(), h.MapValue())
	}
	if b.Kind() == protoreflect.EnumKind {
		return enumOnlyAdds(b.Enum(), h.Enum())
	}
	return true
}

// enumOnlyAdds says whether head's enum holds every value of the base's
// under its name and number.
func enumOnlyAdds(b, h protoreflect.EnumDescriptor) bool {
	for i := 0; i < b.Values().Len(); i++ {
		bv := b.Values().Get(i)
		hv := h.Values().ByName(bv.Name())
		if hv == nil || hv.Number() != bv.Number() {
			return false
		}
	}
	return true
}
