package record

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Paired are head's records made from the base's, so both sides of a
// comparison measure the same logical records.
type Paired struct {
	// Records are head's records: each base record carried to head's
	// schema by field number, with values for the fields head adds or
	// regenerates.
	Records []proto.Message
	// Same are Records without their added content (Strip): the same
	// information the base's records hold, under head's schema, every
	// other value (regenerated ones included) byte for byte as in
	// Records. Head on Same against the base is the regression gate's
	// comparison; head on Records against Same is what the added content
	// costs when filled.
	Same []proto.Message
	// Capped counts the records whose new values stopped at
	// MaxRecordBytes.
	Capped int
	Notes  Notes
}

// Notes say what head's records hold that the base's did not, and which
// of the base's fields head renamed or removed. Each list is in the order
// the fields are first reached from the root (shortest path first, then
// field number); a message type reached by several paths is reported at
// the first, its bytes counted at every one.
type Notes struct {
	// NewFields are head's fields with a number the base's message lacks:
	// generated as for a new message.
	NewFields []FieldNote
	// Regenerated are fields whose values cannot survive head's kind
	// (kinds.go): fresh values where the base had some, shaped by the
	// base's field name. Also fields head requires that the base did not:
	// filled where the base had none.
	Regenerated []FieldNote
	// NewOneofMembers are members added to a oneof the base already had:
	// every record keeps the member it held, so none holds these.
	NewOneofMembers []FieldNote
	// Renamed are fields kept by number under another name: no value
	// changed.
	Renamed []FieldNote
	// Removed are the base's fields head no longer has.
	Removed []FieldNote
	// OnlyAdded says that head's message differs from the base's only by
	// what it adds (onlyadds.go): what the same content costs more under
	// head's schema is then what the added fields cost even unset.
	OnlyAdded bool
	// Added says that some record holds added content: the same content
	// is not head's records whole (something was stripped).
	Added bool
}

// FieldNote is one field of a paired message. It has report.FieldNote's
// fields, so a conversion turns one into the other.
type FieldNote struct {
	Field  string // head's path of names from the message: "lines.notes" (the base's for Removed)
	Number string // the same path in field numbers: "5.4"
	From   string // Regenerated: the base's type ("string"); Renamed: the base's name
	To     string // Regenerated, NewFields, NewOneofMembers: head's type ("int64", "repeated string"); Renamed: head's name
	Was    string // Regenerated: the base's name, when head renamed the field too
	// ProtobufBytes is the mean protobuf bytes (tag and value) the field
	// adds per record on head (NewFields, Regenerated), or would add where
	// a record holds it (NewOneofMembers: the mean over every place a
	// record has the oneof's message; nil when there is none). Nil for
	// Renamed and Removed. The lengths of the messages around a nested
	// field may grow by a byte besides.
	ProtobufBytes *float64
	// Entries is the mean entries a record holds of a list or map field
	// head adds or regenerates (NewFields, Regenerated); nil otherwise.
	Entries *float64
	// Required marks a field head adds that head requires: every record
	// of head must hold it, so the same-content records keep it and it is
	// judged as changed content, not stated as added (split.go).
	Required bool
}

// Pair carries base, records of one message type, to head's schema of
// that message by field number, recursively into nested messages (matched
// by number, whatever their type is now called), lists and maps:
//
//   - A value whose field still exists with a kind its values survive
//     (kinds.go) keeps exactly its value.
//   - A field head adds (a number the base's message lacks) is generated
//     as for a new message: shaped by head's name, from its own stream
//     (seeded by Seed, the record's index and the path of numbers, as
//     Generate's), within MaxRecordBytes counted from the carried
//     record's size.
//   - A field whose values cannot survive head's kind gets fresh values
//     in the records where the base had one, shaped by the base's name.
//   - Oneofs follow their members' numbers: a record keeps the member it
//     held, and nothing is dealt again. A head oneof none of whose
//     members the base had is new and generated as usual; a member added
//     to an existing oneof is held by no record. Where two carried values
//     land in one head oneof, the lower number's stays.
//   - An Any keeps its type URL and packed bytes as they were: a payload
//     is opaque on the wire, and so a change to the packed message's
//     schema reaches no carried record.
//
// The same inputs give the same records, byte for byte.
func Pair(base []proto.Message, head protoreflect.MessageType) (*Paired, error) {
	if len(base) == 0 {
		return nil, fmt.Errorf("pair %s: no base records", head.Descriptor().FullName())
	}
	bd := base[0].ProtoReflect().Descriptor()
	for i, m := range base {
		if name := m.ProtoReflect().Descriptor().FullName(); name != bd.FullName() {
			return nil, fmt.Errorf("pair %s: base record %d is a %s, record 0 a %s", head.Descriptor().FullName(), i, name, bd.FullName())
		}
	}
	p := &pairer{mappings: map[[2]protoreflect.MessageDescriptor]*mapping{}}
	root := p.mapping(bd, head.Descriptor())
	out := &Paired{Records: make([]proto.Message, len(base)), Same: make([]proto.Message, len(base))}
	added := false
	for i, b := range base {
		c := &carrier{onPath: map[protoreflect.FullName]int{}}
		h := head.New()
		c.message(b.ProtoReflect(), h, root, string(head.Descriptor().FullName()), 0)
		g := &gen{seed: Seed, index: i, root: head.Descriptor(), used: proto.Size(h.Interface())}
		for _, task := range c.tasks {
			task(g)
		}
		out.Records[i] = h.Interface()
		out.Same[i] = proto.Clone(h.Interface())
		added = strip(out.Same[i].ProtoReflect(), root, false) || added
		if g.capped {
			out.Capped++
		}
	}
	out.Notes = notes(root, len(base))
	out.Notes.Added = added
	return out, nil
}

// carrier carries one record. Carrying comes first and generating after
// (tasks, in field-number order depth first), so the record cap counts
// every carried value and nothing carried depends on what is generated.
type carrier struct {
	onPath map[protoreflect.FullName]int // head's message types from the root to here
	tasks  []func(*gen)
}

// message carries base message b into head message h by pl.
func (c *carrier) message(b, h protoreflect.Message, pl *mapping, path string, depth int) {
	name := h.Descriptor().FullName()
	c.onPath[name]++
	defer func() { c.onPath[name]-- }()
	for _, fp := range pl.fields {
		c.field(b, h, fp, path, depth)
	}
}

// field carries one field, or leaves a task that generates it.
func (c *carrier) field(b, h protoreflect.Message, fp *fieldMapping, path string, depth int) {
	hf := fp.head
	switch fp.action {
	case fresh:
		c.later(func(g *gen) {
			g.field(h, hf, path, depth, g.choose(h.Descriptor(), path, func(o protoreflect.OneofDescriptor) bool {
				return o == hf.ContainingOneof()
			}))
			fp.count(h)
		})
	case unheld:
		c.later(func(g *gen) {
			trial, scratch, p := *g, h.Type().New(), fieldPath(path, hf)
			trial.value(scratch, hf, hf.Name(), p, trial.rng(p), depth)
			fp.bytes += float64(fieldSize(scratch, hf))
			fp.held++
		})
	case regenerate:
		if b.Has(fp.base) {
			c.later(func(g *gen) { fp.regenerate(g, h, path, depth) })
		}
	case carry:
		switch {
		case !b.Has(fp.base):
			if fp.fillUnset {
				c.later(func(g *gen) { fp.regenerate(g, h, path, depth) })
			}
		case heldOneof(h, hf) == nil:
			c.carry(b, h, fp, path, depth)
		}
	}
}

// later leaves a task for after carrying, in the state of the path here.
func (c *carrier) later(task func(*gen)) {
	onPath := maps.Clone(c.onPath)
	c.tasks = append(c.tasks, func(g *gen) {
		g.onPath = onPath
		task(g)
	})
}

// carry copies field fp.base of b into fp.head of h, converted.
func (c *carrier) carry(b, h protoreflect.Message, fp *fieldMapping, path string, depth int) {
	bf, hf := fp.base, fp.head
	bv, p := b.Get(bf), fieldPath(path, hf)
	switch {
	case hf.IsMap():
		bm, hm := bv.Map(), h.Mutable(hf).Map()
		for j, k := range sortedKeys(bm) {
			v := bm.Get(k)
			if fp.nested != nil {
				nv := hm.NewValue()
				c.message(v.Message(), nv.Message(), fp.nested, fmt.Sprintf("%s[%d]", p, j), depth+1)
				v = nv
			} else {
				v = fp.conv(v)
			}
			hm.Set(fp.key(k.Value()).MapKey(), v)
		}
	case hf.IsList():
		elems := []protoreflect.Value{bv} // singular → repeated: one element
		if bf.IsList() {
			elems = make([]protoreflect.Value, bv.List().Len())
			for j := range elems {
				elems[j] = bv.List().Get(j)
			}
		}
		hl := h.Mutable(hf).List()
		for j, e := range elems {
			if fp.nested != nil {
				ne := hl.NewElement()
				c.message(e.Message(), ne.Message(), fp.nested, fmt.Sprintf("%s[%d]", p, j), depth+1)
				hl.Append(ne)
			} else {
				hl.Append(fp.conv(e))
			}
		}
	case fp.nested != nil:
		c.message(bv.Message(), h.Mutable(hf).Message(), fp.nested, p, depth+1)
	default:
		h.Set(hf, fp.conv(bv))
	}
}

// regenerate gives field fp.head of h fresh values shaped by the base's
// name, unless its oneof already holds a carried member.
func (fp *fieldMapping) regenerate(g *gen, h protoreflect.Message, path string, depth int) {
	if heldOneof(h, fp.head) != nil {
		return
	}
	p := fieldPath(path, fp.head)
	g.value(h, fp.head, fp.base.Name(), p, g.rng(p), depth)
	fp.count(h)
}

// count adds what field fp.head now holds in h to its bytes and entries.
func (fp *fieldMapping) count(h protoreflect.Message) {
	if h.Has(fp.head) {
		fp.bytes += float64(fieldSize(h, fp.head))
		fp.entries += entries(h, fp.head)
	}
}

// heldOneof is the member h holds of f's oneof (nil: none, or f is in no
// oneof).
func heldOneof(h protoreflect.Message, f protoreflect.FieldDescriptor) protoreflect.FieldDescriptor {
	if o := f.ContainingOneof(); o != nil && !o.IsSynthetic() {
		return h.WhichOneof(o)
	}
	return nil
}

// fieldSize is the protobuf bytes of field f of m: tag and value.
func fieldSize(m protoreflect.Message, f protoreflect.FieldDescriptor) int {
	only := m.Type().New()
	only.Set(f, m.Get(f))
	return proto.Size(only.Interface())
}

// sortedKeys are m's keys in order, so carrying a map is deterministic.
func sortedKeys(m protoreflect.Map) []protoreflect.MapKey {
	var keys []protoreflect.MapKey
	m.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
		keys = append(keys, k)
		return true
	})
	slices.SortFunc(keys, func(a, b protoreflect.MapKey) int {
		switch a.Interface().(type) {
		case int32, int64:
			return cmp.Compare(a.Int(), b.Int())
		case uint32, uint64:
			return cmp.Compare(a.Uint(), b.Uint())
		}
		return cmp.Compare(a.String(), b.String()) // strings; bools as "false" < "true"
	})
	return keys
}
