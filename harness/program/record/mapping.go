package record

import (
	"strconv"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// mapping is how one base message type becomes one head message type: decided
// once from the two descriptors, followed by every record.
type mapping struct {
	fields  []*fieldMapping                // head's fields, in number order
	removed []protoreflect.FieldDescriptor // the base's fields head lacks, in number order
}

// action is what happens to one head field.
type action int

const (
	carry      action = iota // the base's values, converted (kinds.go)
	regenerate               // fresh values where the base had one, shaped by the base's name
	fresh                    // a field head adds: generated as for a new message
	unheld                   // a member added to an existing oneof: no record holds it
)

// fieldMapping is one head field's action, and what it added over the records.
type fieldMapping struct {
	head, base protoreflect.FieldDescriptor // base: nil for fresh and unheld
	action     action
	conv       conversion // carry: one scalar (or map value)
	key        conversion // carry: one map key
	nested     *mapping   // carry: the mapping of message values
	fillUnset  bool       // carry: head requires what the base did not
	bytes      float64    // protobuf bytes generated (or tried, unheld)
	entries    float64    // list elements or map keys generated (or found, Split)
	held       int        // unheld: how many values were tried (or found held, Split)
}

// pairer holds the mappings of one Pair: one per pair of message types, so
// recursive messages end.
type pairer struct {
	mappings map[[2]protoreflect.MessageDescriptor]*mapping
}

// mapping is how base message type b becomes head message type h.
func (p *pairer) mapping(b, h protoreflect.MessageDescriptor) *mapping {
	k := [2]protoreflect.MessageDescriptor{b, h}
	if pl := p.mappings[k]; pl != nil {
		return pl
	}
	pl := &mapping{}
	p.mappings[k] = pl
	for _, hf := range byNumber(h.Fields()) {
		fp := &fieldMapping{head: hf, base: b.Fields().ByNumber(hf.Number())}
		pl.fields = append(pl.fields, fp)
		if fp.base == nil {
			fp.action = fresh
			if o := hf.ContainingOneof(); o != nil && !o.IsSynthetic() && hadOneof(b, o) {
				fp.action = unheld
			}
			continue
		}
		conv, ok := convert(fp.base, hf)
		if !ok {
			fp.action = regenerate
			continue
		}
		fp.conv = conv
		fp.fillUnset = hf.Cardinality() == protoreflect.Required && fp.base.Cardinality() != protoreflect.Required
		if hf.IsMap() {
			fp.key = convertKey(fp.base, hf)
		}
		if bm, hm := valueMessage(fp.base), valueMessage(hf); hm != nil {
			fp.nested = p.mapping(bm, hm)
		}
	}
	for _, bf := range byNumber(b.Fields()) {
		if h.Fields().ByNumber(bf.Number()) == nil {
			pl.removed = append(pl.removed, bf)
		}
	}
	return pl
}

// hadOneof reports whether the base's message b has a field numbered as
// one of head oneof o's members: then o is not new, whatever it is called.
func hadOneof(b protoreflect.MessageDescriptor, o protoreflect.OneofDescriptor) bool {
	for i := 0; i < o.Fields().Len(); i++ {
		if b.Fields().ByNumber(o.Fields().Get(i).Number()) != nil {
			return true
		}
	}
	return false
}

// valueMessage is the message type of f's values (a map's values), or nil.
func valueMessage(f protoreflect.FieldDescriptor) protoreflect.MessageDescriptor {
	if f.IsMap() {
		return f.MapValue().Message()
	}
	return f.Message()
}

// notes walks the mappings from root breadth first (field-number order within
// a message), each once, and says what every field became. records is how
// many records the bytes were counted over.
func notes(root *mapping, records int) Notes {
	type visit struct {
		pl                       *mapping
		names, baseNames, number string
	}
	join := func(path, s string) string {
		if path == "" {
			return s
		}
		return path + "." + s
	}
	mean := func(sum float64, n int) *float64 {
		if n == 0 {
			return nil
		}
		m := sum / float64(n)
		return &m
	}
	n := Notes{OnlyAdded: root.onlyAdds(map[*mapping]bool{})}
	seen := map[*mapping]bool{root: true}
	for queue := []visit{{pl: root}}; len(queue) > 0; queue = queue[1:] {
		v := queue[0]
		for _, fp := range v.pl.fields {
			hf := fp.head
			note := FieldNote{Field: join(v.names, string(hf.Name())), Number: join(v.number, strconv.Itoa(int(hf.Number())))}
			renamed := fp.base != nil && fp.base.Name() != hf.Name()
			// Renamed lists only what a rename is all of: the same kind,
			// every value carried as it was. A field renamed and retyped
			// is said once, where its values are (regenerated, with the
			// name it had).
			if renamed && fp.action == carry && !fp.fillUnset && sameKind(fp.base, hf) {
				r := note
				r.From, r.To = string(fp.base.Name()), string(hf.Name())
				n.Renamed = append(n.Renamed, r)
			}
			switch {
			case fp.action == fresh:
				note.ProtobufBytes = mean(fp.bytes, records)
				note.Entries = fp.meanEntries(records)
				note.Required = hf.Cardinality() == protoreflect.Required
				note.To = describe(hf)
				n.NewFields = append(n.NewFields, note)
			case fp.action == unheld:
				note.ProtobufBytes = mean(fp.bytes, fp.held)
				note.To = describe(hf)
				n.NewOneofMembers = append(n.NewOneofMembers, note)
			case fp.action == regenerate || fp.fillUnset:
				note.From, note.To = describe(fp.base), describe(hf)
				if renamed {
					note.Was = string(fp.base.Name())
				}
				note.ProtobufBytes = mean(fp.bytes, records)
				note.Entries = fp.meanEntries(records)
				n.Regenerated = append(n.Regenerated, note)
			}
			if fp.nested != nil && !seen[fp.nested] {
				seen[fp.nested] = true
				queue = append(queue, visit{fp.nested, note.Field, join(v.baseNames, string(fp.base.Name())), note.Number})
			}
		}
		for _, bf := range v.pl.removed {
			n.Removed = append(n.Removed, FieldNote{Field: join(v.baseNames, string(bf.Name())), Number: join(v.number, strconv.Itoa(int(bf.Number())))})
		}
	}
	return n
}

// meanEntries is the mean entries a record of the field's lists or maps
// held, over records; nil for a singular field.
func (fp *fieldMapping) meanEntries(records int) *float64 {
	if !fp.head.IsList() && !fp.head.IsMap() || records == 0 {
		return nil
	}
	m := fp.entries / float64(records)
	return &m
}

// sameKind is whether a and b hold values of the same kind: the same
// scalar, or messages (enums) of the same shape whatever their type is now
// called (a nested type's own fields are its own mapping's).
func sameKind(a, b protoreflect.FieldDescriptor) bool {
	if describe(a) == describe(b) {
		return true
	}
	named := func(f protoreflect.FieldDescriptor) bool {
		return f.Kind() == protoreflect.MessageKind || f.Kind() == protoreflect.GroupKind || f.Kind() == protoreflect.EnumKind
	}
	if a.IsMap() || b.IsMap() {
		return a.IsMap() && b.IsMap() && sameKind(a.MapKey(), b.MapKey()) && sameKind(a.MapValue(), b.MapValue())
	}
	return named(a) && a.Kind() == b.Kind() && a.IsList() == b.IsList() && a.Cardinality() == b.Cardinality()
}
