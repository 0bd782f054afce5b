package avrocompat

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hamba/avro/v2"
)

// side names the two schemas of one check from the reader's point of view:
// reader "new", writer "old" for BACKWARD; the other way round for FORWARD.
type side struct{ reader, writer string }

var (
	newReadsOld = side{reader: "new", writer: "old"}
	oldReadsNew = side{reader: "old", writer: "new"}
)

// prefix is the start of every finding of this direction.
func (s side) prefix() string {
	return s.reader + " readers cannot read " + s.writer + " data"
}

// compatible is hamba's verdict, with a fresh instance every time: the
// instance caches by canonical fingerprint, which leaves out `default`, so
// a reused one would remember an earlier answer for a schema that differs
// only in defaults.
func compatible(reader, writer avro.Schema) error {
	return avro.NewSchemaCompatibility().Compatible(reader, writer)
}

// explainer walks reader and writer as Avro's resolution rules do and says
// where they part, naming the field path. It only explains: the verdict is
// hamba's.
type explainer struct {
	side side
	seen map[[2]string]bool // record pairs already walked (recursive schemas)
}

func explain(reader, writer avro.Schema, s side) []string {
	e := explainer{side: s, seen: map[[2]string]bool{}}
	return e.walk(reader, writer, "")
}

func (e *explainer) walk(r, w avro.Schema, at string) []string {
	r, w = deref(r), deref(w)
	if compatible(r, w) == nil {
		return nil
	}
	if r.Type() != w.Type() {
		if wu, ok := w.(*avro.UnionSchema); ok {
			var out []string
			for _, b := range wu.Types() {
				out = append(out, e.walk(r, b, at)...)
			}
			return out
		}
		if _, ok := r.(*avro.UnionSchema); ok {
			return []string{fmt.Sprintf("%s: the %s union has no branch that reads the %s %s",
				e.where(at), e.side.reader, e.side.writer, typeName(w))}
		}
		return []string{fmt.Sprintf("%s: %s type %s cannot read %s type %s",
			e.where(at), e.side.reader, typeName(r), e.side.writer, typeName(w))}
	}
	switch r := r.(type) {
	case *avro.RecordSchema:
		return e.record(r, w.(*avro.RecordSchema), at)
	case *avro.ArraySchema:
		return e.walk(r.Items(), w.(*avro.ArraySchema).Items(), at+"[]")
	case *avro.MapSchema:
		return e.walk(r.Values(), w.(*avro.MapSchema).Values(), at+"{}")
	case *avro.EnumSchema:
		we := w.(*avro.EnumSchema)
		if msg := e.names(r, we, at); msg != "" {
			return []string{msg}
		}
		var missing []string
		for _, sym := range we.Symbols() {
			if !slices.Contains(r.Symbols(), sym) {
				missing = append(missing, "`"+sym+"`")
			}
		}
		return []string{fmt.Sprintf("%s: %s enum `%s` lacks symbol %s and has no default",
			e.where(at), e.side.reader, r.FullName(), strings.Join(missing, ", "))}
	case *avro.FixedSchema:
		wf := w.(*avro.FixedSchema)
		if msg := e.names(r, wf, at); msg != "" {
			return []string{msg}
		}
		return []string{fmt.Sprintf("%s: fixed `%s` is %d bytes in the %s schema and %d in the %s",
			e.where(at), r.FullName(), r.Size(), e.side.reader, wf.Size(), e.side.writer)}
	case *avro.UnionSchema:
		var out []string
		for _, b := range w.(*avro.UnionSchema).Types() {
			out = append(out, e.walk(r, b, at)...)
		}
		return out
	}
	return nil
}

func (e *explainer) record(r, w *avro.RecordSchema, at string) []string {
	if msg := e.names(r, w, at); msg != "" {
		return []string{msg}
	}
	key := [2]string{r.FullName(), w.FullName()}
	if e.seen[key] {
		return nil
	}
	e.seen[key] = true
	var out []string
	for _, f := range r.Fields() {
		path := f.Name()
		if at != "" {
			path = at + "." + f.Name()
		}
		wf := fieldOf(w, f)
		if wf == nil {
			if !f.HasDefault() {
				out = append(out, e.missing(r, path))
			}
			continue
		}
		out = append(out, e.walk(f.Type(), wf.Type(), path)...)
	}
	return out
}

// missing words a reader field the writer does not have and that has no default.
func (e *explainer) missing(r *avro.RecordSchema, path string) string {
	if e.side == newReadsOld {
		return fmt.Sprintf("record `%s`: field `%s` has no default, and the old schema does not have it; give it a default",
			r.FullName(), path)
	}
	return fmt.Sprintf("record `%s`: field `%s` has no default in the old schema, and the new schema does not have it; keep the field, or first give it a default",
		r.FullName(), path)
}

func (e *explainer) names(r, w avro.NamedSchema, at string) string {
	if r.Name() == w.Name() || slices.Contains(r.Aliases(), w.FullName()) {
		return ""
	}
	return fmt.Sprintf("%s: %s `%s` does not match `%s` in the %s schema; add it as an alias",
		e.where(at), e.side.reader, r.FullName(), w.FullName(), e.side.writer)
}

func (e *explainer) where(at string) string {
	if at == "" {
		return "the top-level schema"
	}
	return "field `" + at + "`"
}

// fieldOf finds reader field f in writer w by name or by one of f's aliases,
// as Avro's resolution does.
func fieldOf(w *avro.RecordSchema, f *avro.Field) *avro.Field {
	for _, wf := range w.Fields() {
		if wf.Name() == f.Name() || slices.Contains(f.Aliases(), wf.Name()) {
			return wf
		}
	}
	return nil
}

func deref(s avro.Schema) avro.Schema {
	if ref, ok := s.(*avro.RefSchema); ok {
		return ref.Schema()
	}
	return s
}

func typeName(s avro.Schema) string {
	if n, ok := s.(avro.NamedSchema); ok {
		return fmt.Sprintf("%s `%s`", s.Type(), n.FullName())
	}
	if s.Type() == avro.Union {
		return "union " + s.String()
	}
	return string(s.Type())
}
