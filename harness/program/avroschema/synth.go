package avroschema

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/twmb/avro"
	"github.com/twmb/avro/atype"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// An Avro-first record — an .avsc whose top-level record no proto message
// measures — is measured like a proto message: Synthesize gives it a proto
// message of the same full name, and the whole harness (records, plain
// structs, the codecs) works on that, while the avro format encodes with the
// user's .avsc itself. The message only carries the record's structure; it
// is never measured in a protobuf format (IsSynthesized), and its numbers
// only say which fields are the same on both sides: a field keeps the
// number of the base's field its name or one of its aliases names, as
// Avro's schema resolution matches them, so pairing records by number
// (package record) pairs them as a consumer reading old data would.
//
//	boolean → bool; int → int32; long → int64; float → float; double →
//	double; string → string; bytes → bytes; a logical type → its
//	underlying type; record → message; enum → enum (in a message of its
//	own, so two enums' symbols never collide); array<T> → repeated T;
//	map<V> → map<string, V>; ["null", T] (either order) → optional T.
//
// What proto cannot say the same way is not measured, and says why
// (Unsupported): fixed, unions of several types, arrays or maps of arrays,
// maps or nullable values.

// SynthSuffix ends the name of every synthesized file: a bench program
// measures their messages in the plain formats only.
const SynthSuffix = ".avsc.proto"

// IsSynthesized says whether a file is one Synthesize made.
func IsSynthesized(file string) bool { return strings.HasSuffix(file, SynthSuffix) }

// Record is one Avro-first record: its .avsc and the schema parsed from it.
type Record struct {
	File   string // as the user knows it (relative to the checkout)
	Schema *avro.Schema
}

// FullName is the record's full name: the message it is measured as.
func (r Record) FullName() string { return FullName(r.Schema.Root()) }

// Unsupported is a record Synthesize cannot measure, and why.
type Unsupported struct {
	Record, File, Reason string
}

// Synthesis is what Synthesize made of some records.
type Synthesis struct {
	Set *descriptorpb.FileDescriptorSet
	// Names are the Avro named types the synthesized messages stand for,
	// by the messages' proto full names: what changed, in the user's words.
	Names       map[string]string
	Unsupported []Unsupported
}

// Synthesize makes one proto3 file per record. ref is the other side's
// synthesis of the same records (nil for the base): its field and enum
// numbers are kept where names or aliases match.
func Synthesize(records []Record, ref *descriptorpb.FileDescriptorSet) Synthesis {
	out := Synthesis{Set: &descriptorpb.FileDescriptorSet{}, Names: map[string]string{}}
	refMsgs := messagesOf(ref)
	for _, r := range records {
		s := synth{ref: refMsgs, nested: map[string]*descriptorpb.DescriptorProto{}, names: map[string]string{}}
		f, err := s.file(r)
		if err != nil {
			out.Unsupported = append(out.Unsupported, Unsupported{Record: r.FullName(), File: r.File, Reason: err.Error()})
			continue
		}
		out.Set.File = append(out.Set.File, f)
		for k, v := range s.names {
			out.Names[k] = v
		}
	}
	return out
}

// synth is one record's synthesis: its nested types by the mangled full
// name of the named type each stands for.
type synth struct {
	ref    map[string]*descriptorpb.DescriptorProto // the other side's messages by full proto name
	nested map[string]*descriptorpb.DescriptorProto
	names  map[string]string // Synthesis.Names
	top    *descriptorpb.DescriptorProto
	prefix string // the top message's full proto name, with a leading dot
}

func (s *synth) file(r Record) (*descriptorpb.FileDescriptorProto, error) {
	root := r.Schema.Root()
	if Kind(root) != atype.Record {
		return nil, fmt.Errorf("its top-level schema is a %s, not a record", Kind(root))
	}
	full := FullName(root)
	ns, name := split(protoreflect.FullName(full))
	s.top = &descriptorpb.DescriptorProto{Name: proto.String(name)}
	s.prefix = "." + full
	if err := s.fields(s.top, root, full); err != nil {
		return nil, err
	}
	return &descriptorpb.FileDescriptorProto{
		Name:        proto.String(path.Join("wiregate", "avro", strings.ReplaceAll(ns, ".", "/"), name+SynthSuffix)),
		Package:     proto.String(ns),
		Syntax:      proto.String("proto3"),
		MessageType: []*descriptorpb.DescriptorProto{s.top},
	}, nil
}

// fields fills m with rec's fields; full is the proto full name of m.
func (s *synth) fields(m *descriptorpb.DescriptorProto, rec *avro.SchemaNode, full string) error {
	ref := s.refFor(full, rec)
	used := map[int32]bool{}
	for _, f := range ref.GetField() {
		used[f.GetNumber()] = true
	}
	next := int32(1)
	number := func(f avro.SchemaField) int32 {
		for _, rf := range ref.GetField() {
			if rf.GetName() == f.Name || slices.Contains(f.Aliases, rf.GetName()) {
				return rf.GetNumber()
			}
		}
		for used[next] {
			next++
		}
		used[next] = true
		return next
	}
	for _, f := range rec.Fields {
		fd := &descriptorpb.FieldDescriptorProto{Name: proto.String(f.Name), JsonName: proto.String(f.Name), Number: proto.Int32(number(f))}
		if err := s.field(m, fd, &f.Type); err != nil {
			return fmt.Errorf("field `%s`: %w", f.Name, err)
		}
		m.Field = append(m.Field, fd)
	}
	return nil
}

// refFor is the other side's message for the record of proto full name
// full: by that name, or by one of the record's aliases.
func (s *synth) refFor(full string, rec *avro.SchemaNode) *descriptorpb.DescriptorProto {
	if m := s.ref[full]; m != nil {
		return m
	}
	for _, a := range rec.Aliases {
		if m := s.ref[strings.TrimSuffix(full, mangle(FullName(rec)))+mangle(a)]; m != nil {
			return m
		}
	}
	return nil
}

// field sets fd's label and type for the Avro type t.
func (s *synth) field(m *descriptorpb.DescriptorProto, fd *descriptorpb.FieldDescriptorProto, t *avro.SchemaNode) error {
	fd.Label = descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum()
	switch Kind(t) {
	case atype.Union:
		inner, ok := nullable(Deref(t))
		if !ok {
			return fmt.Errorf("a union of several types")
		}
		if err := s.single(fd, inner); err != nil {
			return err
		}
		if fd.GetType() != descriptorpb.FieldDescriptorProto_TYPE_MESSAGE {
			fd.Proto3Optional = proto.Bool(true)
			m.OneofDecl = append(m.OneofDecl, &descriptorpb.OneofDescriptorProto{Name: proto.String("_" + fd.GetName())})
			fd.OneofIndex = proto.Int32(int32(len(m.OneofDecl) - 1))
		}
		return nil
	case atype.Array:
		fd.Label = descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
		items := Deref(t).Items
		if k := Kind(items); k == atype.Array || k == atype.Map || k == atype.Union {
			return fmt.Errorf("an array of %ss", k)
		}
		return s.single(fd, items)
	case atype.Map:
		values := Deref(t).Values
		if k := Kind(values); k == atype.Array || k == atype.Map || k == atype.Union {
			return fmt.Errorf("a map of %ss", k)
		}
		entry := &descriptorpb.DescriptorProto{Name: proto.String(entryName(fd.GetName())), Options: &descriptorpb.MessageOptions{MapEntry: proto.Bool(true)}}
		key := &descriptorpb.FieldDescriptorProto{Name: proto.String("key"), JsonName: proto.String("key"), Number: proto.Int32(1),
			Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(), Type: descriptorpb.FieldDescriptorProto_TYPE_STRING.Enum()}
		value := &descriptorpb.FieldDescriptorProto{Name: proto.String("value"), JsonName: proto.String("value"), Number: proto.Int32(2),
			Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum()}
		if err := s.single(value, values); err != nil {
			return err
		}
		entry.Field = []*descriptorpb.FieldDescriptorProto{key, value}
		m.NestedType = append(m.NestedType, entry)
		fd.Label = descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
		fd.Type = descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum()
		fd.TypeName = proto.String(s.fullOf(m) + "." + entry.GetName())
		return nil
	}
	return s.single(fd, t)
}

// single sets fd's type to one non-union, non-container Avro type.
func (s *synth) single(fd *descriptorpb.FieldDescriptorProto, t *avro.SchemaNode) error {
	n := Deref(t)
	scalars := map[string]descriptorpb.FieldDescriptorProto_Type{
		atype.Boolean: descriptorpb.FieldDescriptorProto_TYPE_BOOL, atype.Int: descriptorpb.FieldDescriptorProto_TYPE_INT32,
		atype.Long: descriptorpb.FieldDescriptorProto_TYPE_INT64, atype.Float: descriptorpb.FieldDescriptorProto_TYPE_FLOAT,
		atype.Double: descriptorpb.FieldDescriptorProto_TYPE_DOUBLE, atype.String: descriptorpb.FieldDescriptorProto_TYPE_STRING,
		atype.Bytes: descriptorpb.FieldDescriptorProto_TYPE_BYTES,
	}
	switch k := Kind(n); k {
	case atype.Record:
		fd.Type = descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum()
		name, err := s.record(n)
		fd.TypeName = proto.String(name)
		return err
	case atype.Enum:
		fd.Type = descriptorpb.FieldDescriptorProto_TYPE_ENUM.Enum()
		fd.TypeName = proto.String(s.enum(n))
		return nil
	case atype.Fixed:
		return fmt.Errorf("a fixed, which proto has no type for")
	case atype.Null:
		return fmt.Errorf("null alone")
	default:
		t, ok := scalars[k]
		if !ok {
			return fmt.Errorf("a %s", k)
		}
		fd.Type = t.Enum()
		return nil
	}
}

// record is the proto full name of the message for named record n: the
// top message for the record itself, else a message nested in it.
func (s *synth) record(n *avro.SchemaNode) (string, error) {
	full := FullName(n)
	if "."+full == s.prefix {
		return s.prefix, nil
	}
	key := mangle(full)
	if s.nested[key] == nil {
		m := &descriptorpb.DescriptorProto{Name: proto.String(key)}
		s.nested[key] = m
		s.names[strings.TrimPrefix(s.prefix, ".")+"."+key] = full
		s.top.NestedType = append(s.top.NestedType, m)
		if err := s.fields(m, n, strings.TrimPrefix(s.prefix, ".")+"."+key); err != nil {
			return "", err
		}
	}
	return s.prefix + "." + key, nil
}

// enum is the proto full name of the enum for named enum n, in a message
// of its own: its symbols, numbered as the other side's where a symbol is
// the same, so pairing keeps a record's symbol; the symbol numbered 0
// comes first, as proto3 wants.
func (s *synth) enum(n *avro.SchemaNode) string {
	key := mangle(FullName(n))
	wrapper := key + "_enum"
	full := s.prefix + "." + wrapper + ".Value"
	if s.nested[wrapper] != nil {
		return full
	}
	var ref *descriptorpb.EnumDescriptorProto
	if w := s.ref[strings.TrimPrefix(s.prefix, ".")+"."+wrapper]; w != nil && len(w.EnumType) == 1 {
		ref = w.EnumType[0]
	}
	numbers := map[string]int32{}
	used := map[int32]bool{}
	for _, v := range ref.GetValue() {
		if slices.Contains(n.Symbols, v.GetName()) {
			numbers[v.GetName()], used[v.GetNumber()] = v.GetNumber(), true
		}
	}
	if !used[0] { // no symbol kept number 0: number them afresh, in order
		numbers, used = map[string]int32{}, map[int32]bool{}
	}
	next := int32(0)
	e := &descriptorpb.EnumDescriptorProto{Name: proto.String("Value")}
	for _, sym := range n.Symbols {
		num, ok := numbers[sym]
		if !ok {
			for used[next] {
				next++
			}
			num, used[next] = next, true
		}
		e.Value = append(e.Value, &descriptorpb.EnumValueDescriptorProto{Name: proto.String(sym), Number: proto.Int32(num)})
	}
	slices.SortStableFunc(e.Value, func(a, b *descriptorpb.EnumValueDescriptorProto) int {
		return boolInt(b.GetNumber() == 0) - boolInt(a.GetNumber() == 0)
	})
	m := &descriptorpb.DescriptorProto{Name: proto.String(wrapper), EnumType: []*descriptorpb.EnumDescriptorProto{e}}
	s.nested[wrapper] = m
	s.names[strings.TrimPrefix(full, ".")] = FullName(n)
	s.top.NestedType = append(s.top.NestedType, m)
	return full
}

// fullOf is m's proto full name (the top message or one nested in it).
func (s *synth) fullOf(m *descriptorpb.DescriptorProto) string {
	if m == s.top {
		return s.prefix
	}
	return s.prefix + "." + m.GetName()
}

// nullable is T of a union ["null", T] or [T, "null"].
func nullable(u *avro.SchemaNode) (*avro.SchemaNode, bool) {
	if len(u.Branches) != 2 {
		return nil, false
	}
	for i := range u.Branches {
		if Kind(&u.Branches[i]) == atype.Null {
			other := &u.Branches[1-i]
			return other, Kind(other) != atype.Null && Kind(other) != atype.Union
		}
	}
	return nil, false
}

// mangle is a named type's full name as one proto identifier.
func mangle(full string) string { return strings.ReplaceAll(full, ".", "_") }

// entryName is the map entry message's name protoc gives field f's.
func entryName(f string) string {
	var b strings.Builder
	up := true
	for _, r := range f {
		if r == '_' {
			up = true
			continue
		}
		if up && r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		up = false
		b.WriteRune(r)
	}
	return b.String() + "Entry"
}

// messagesOf indexes a synthesized set's messages by proto full name
// (without the leading dot).
func messagesOf(set *descriptorpb.FileDescriptorSet) map[string]*descriptorpb.DescriptorProto {
	out := map[string]*descriptorpb.DescriptorProto{}
	for _, f := range set.GetFile() {
		for _, m := range f.GetMessageType() {
			full := m.GetName()
			if f.GetPackage() != "" {
				full = f.GetPackage() + "." + full
			}
			out[full] = m
			for _, n := range m.GetNestedType() {
				out[full+"."+n.GetName()] = n
			}
		}
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
