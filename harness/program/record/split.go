package record

import (
	"fmt"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The split of head's records into the same content and the added content
// is decided here, once, for generated (Pair) and user-given (Split)
// records alike: the verdicts, the report and the comment read it.
//
// Added content is what a field head adds holds: a field whose number the
// base's message lacks, a member added to a oneof the base already had.
// Everything else is the same content, regenerated fields included (the
// base's values could not survive head's kind, so fresh ones replace
// existing information: changed content, gated like any other). A field
// head adds that head requires stays too: proto.Marshal refuses a record
// without it, so every record of head must hold it (FieldNote.Required).

// strip clears m's added content by pl, in place, recursively through the
// nested messages, lists and maps of carried fields, and says whether it
// cleared anything (m held added content). With count, what it clears is
// added to each field's bytes, entries and held (records no generator
// counted: the user's samples).
func strip(m protoreflect.Message, pl *mapping, count bool) (cleared bool) {
	for _, fp := range pl.fields {
		hf := fp.head
		if !m.Has(hf) {
			continue
		}
		switch {
		case fp.action == fresh || fp.action == unheld:
			if hf.Cardinality() == protoreflect.Required {
				continue
			}
			if count {
				fp.bytes += float64(fieldSize(m, hf))
				fp.entries += entries(m, hf)
				fp.held++
			}
			m.Clear(hf)
			cleared = true
		case fp.nested != nil:
			v := m.Mutable(hf)
			switch {
			case hf.IsMap():
				v.Map().Range(func(_ protoreflect.MapKey, e protoreflect.Value) bool {
					cleared = strip(e.Message(), fp.nested, count) || cleared
					return true
				})
			case hf.IsList():
				for j := 0; j < v.List().Len(); j++ {
					cleared = strip(v.List().Get(j).Message(), fp.nested, count) || cleared
				}
			default:
				cleared = strip(v.Message(), fp.nested, count) || cleared
			}
		}
	}
	return cleared
}

// entries is how many entries field f of m holds: a list's elements, a
// map's keys; 0 for a singular field.
func entries(m protoreflect.Message, f protoreflect.FieldDescriptor) float64 {
	switch {
	case f.IsList():
		return float64(m.Get(f).List().Len())
	case f.IsMap():
		return float64(m.Get(f).Map().Len())
	}
	return 0
}

// Split is Pair's counterpart for records head already holds whole (the
// user's samples, read under head's schema): their same content against
// base, the base's message (Strip's rule above), and notes saying what
// they hold that the base's schema lacks. The records themselves are left
// as they are. Notes list no regenerated field: the values are the user's.
func Split(records []proto.Message, base protoreflect.MessageDescriptor) ([]proto.Message, Notes, error) {
	if len(records) == 0 {
		return nil, Notes{}, nil
	}
	hd := records[0].ProtoReflect().Descriptor()
	p := &pairer{mappings: map[[2]protoreflect.MessageDescriptor]*mapping{}}
	root := p.mapping(base, hd)
	same := make([]proto.Message, len(records))
	added := false
	for i, r := range records {
		if name := r.ProtoReflect().Descriptor().FullName(); name != hd.FullName() {
			return nil, Notes{}, fmt.Errorf("split %s: record %d is a %s", hd.FullName(), i, name)
		}
		same[i] = proto.Clone(r)
		added = strip(same[i].ProtoReflect(), root, true) || added
	}
	n := notes(root, len(records))
	n.Regenerated, n.Added = nil, added
	return same, n, nil
}
