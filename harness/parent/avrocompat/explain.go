package avrocompat

import (
	"fmt"
	"slices"
	"strings"

	"github.com/twmb/avro"

	"github.com/wiregate/wiregate/harness/program/avroschema"
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

// compatible is twmb/avro's verdict on whether reader reads what writer
// wrote (its schema resolution's own check, CheckCompatibility).
func compatible(reader, writer *avro.Schema) error {
	return avro.CheckCompatibility(writer, reader)
}

// nodesCompatible is the verdict on two parts of parsed schemas: twmb/avro
// turns a node of a Root tree back into a schema, named types it refers
// to included.
func nodesCompatible(reader, writer *avro.SchemaNode) error {
	r, err := reader.Schema()
	if err != nil {
		return err
	}
	w, err := writer.Schema()
	if err != nil {
		return err
	}
	return compatible(r, w)
}

// explainer walks reader and writer as Avro's resolution rules do and says
// where they part, naming the field path. It only explains: the verdict is
// twmb/avro's, asked again of every part so the walk goes down only where
// that verdict finds a problem.
type explainer struct {
	side side
	seen map[[2]string]bool // record pairs already walked (recursive schemas)
}

func explain(reader, writer *avro.Schema, s side) []string {
	e := explainer{side: s, seen: map[[2]string]bool{}}
	return e.walk(reader.Root(), writer.Root(), "")
}

func (e *explainer) walk(r, w *avro.SchemaNode, at string) []string {
	r, w = avroschema.Deref(r), avroschema.Deref(w)
	if nodesCompatible(r, w) == nil {
		return nil
	}
	rk, wk := avroschema.Kind(r), avroschema.Kind(w)
	if rk != wk {
		if wk == "union" {
			var out []string
			for i := range w.Branches {
				out = append(out, e.walk(r, &w.Branches[i], at)...)
			}
			return out
		}
		if rk == "union" {
			if b := readerBranch(r, w); b != nil {
				return e.walk(b, w, at)
			}
			return []string{fmt.Sprintf("%s: the %s union has no branch that reads the %s %s",
				e.where(at), e.side.reader, e.side.writer, typeName(w))}
		}
		return []string{fmt.Sprintf("%s: %s type %s cannot read %s type %s",
			e.where(at), e.side.reader, typeName(r), e.side.writer, typeName(w))}
	}
	switch rk {
	case "record":
		return e.record(r, w, at)
	case "array":
		return e.walk(r.Items, w.Items, at+"[]")
	case "map":
		return e.walk(r.Values, w.Values, at+"{}")
	case "enum":
		if msg := e.names(r, w, at); msg != "" {
			return []string{msg}
		}
		var missing []string
		for _, sym := range w.Symbols {
			if !slices.Contains(r.Symbols, sym) {
				missing = append(missing, "`"+sym+"`")
			}
		}
		return []string{fmt.Sprintf("%s: %s enum `%s` lacks symbol %s and has no default",
			e.where(at), e.side.reader, avroschema.FullName(r), strings.Join(missing, ", "))}
	case "fixed":
		if msg := e.names(r, w, at); msg != "" {
			return []string{msg}
		}
		if r.Size != w.Size {
			return []string{fmt.Sprintf("%s: fixed `%s` is %d bytes in the %s schema and %d in the %s",
				e.where(at), avroschema.FullName(r), r.Size, e.side.reader, w.Size, e.side.writer)}
		}
	case "union":
		var out []string
		for i := range w.Branches {
			out = append(out, e.walk(r, &w.Branches[i], at)...)
		}
		return out
	}
	if r.LogicalType == "decimal" && w.LogicalType == "decimal" {
		return []string{fmt.Sprintf("%s: decimal(%d,%d) in the %s schema cannot read decimal(%d,%d) in the %s (the specification matches decimals only with equal precision and scale)",
			e.where(at), r.Precision, r.Scale, e.side.reader, w.Precision, w.Scale, e.side.writer)}
	}
	return nil
}

func (e *explainer) record(r, w *avro.SchemaNode, at string) []string {
	if msg := e.names(r, w, at); msg != "" {
		return []string{msg}
	}
	key := [2]string{avroschema.FullName(r), avroschema.FullName(w)}
	if e.seen[key] {
		return nil
	}
	e.seen[key] = true
	var out []string
	for i := range r.Fields {
		f := &r.Fields[i]
		path := f.Name
		if at != "" {
			path = at + "." + f.Name
		}
		matched := fieldsOf(w, f)
		switch {
		case len(matched) == 0:
			if !f.HasDefault {
				out = append(out, e.missing(r, path))
			}
		case len(matched) > 1:
			out = append(out, fmt.Sprintf("record `%s`: field `%s` is both `%s` and `%s` in the %s schema (by its name and an alias); drop the alias or rename the %s field",
				avroschema.FullName(r), path, matched[0].Name, matched[1].Name, e.side.writer, e.side.writer))
		default:
			out = append(out, e.walk(&f.Type, &matched[0].Type, path)...)
		}
	}
	return out
}

// missing words a reader field the writer does not have and that has no default.
func (e *explainer) missing(r *avro.SchemaNode, path string) string {
	if e.side == newReadsOld {
		return fmt.Sprintf("record `%s`: field `%s` has no default, and the old schema does not have it; give it a default",
			avroschema.FullName(r), path)
	}
	return fmt.Sprintf("record `%s`: field `%s` has no default in the old schema, and the new schema does not have it; keep the field, or first give it a default",
		avroschema.FullName(r), path)
}

// names words a named type the reader cannot match to the writer's: by
// short name, or by an alias (qualified by specReader; ".x" is x in the
// null namespace).
func (e *explainer) names(r, w *avro.SchemaNode, at string) string {
	wf := avroschema.FullName(w)
	if short(avroschema.FullName(r)) == short(wf) || slices.Contains(r.Aliases, wf) || slices.Contains(r.Aliases, "."+wf) {
		return ""
	}
	return fmt.Sprintf("%s: %s `%s` does not match `%s` in the %s schema; add it as an alias",
		e.where(at), e.side.reader, avroschema.FullName(r), wf, e.side.writer)
}

func (e *explainer) where(at string) string {
	if at == "" {
		return "the top-level schema"
	}
	return "field `" + at + "`"
}

// fieldsOf finds the writer fields reader field f reads: by name, and by
// each of f's aliases, as Avro's resolution does. More than one is an
// ambiguity resolution refuses.
func fieldsOf(w *avro.SchemaNode, f *avro.SchemaField) []*avro.SchemaField {
	var out []*avro.SchemaField
	for i := range w.Fields {
		if wf := &w.Fields[i]; wf.Name == f.Name || slices.Contains(f.Aliases, wf.Name) {
			out = append(out, wf)
		}
	}
	return out
}

// readerBranch is the branch of reader union r that resolution reads
// writer type w with when w is named: the one of w's full name, else the
// first of its short name (the specification's "first schema in the
// reader's union that matches"). nil for other types, and when none
// matches: then no branch reads w at all.
func readerBranch(r, w *avro.SchemaNode) *avro.SchemaNode {
	switch avroschema.Kind(w) {
	case "record", "enum", "fixed":
	default:
		return nil
	}
	full := avroschema.FullName(w)
	var first *avro.SchemaNode
	for i := range r.Branches {
		b := avroschema.Deref(&r.Branches[i])
		if avroschema.Kind(b) != avroschema.Kind(w) {
			continue
		}
		if bf := avroschema.FullName(b); bf == full {
			return b
		} else if first == nil && short(bf) == short(full) {
			first = b
		}
	}
	return first
}

func short(name string) string { return name[strings.LastIndex(name, ".")+1:] }

// typeName spells a type for a finding: int, record `a.B`, union [null, long].
func typeName(n *avro.SchemaNode) string {
	n = avroschema.Deref(n)
	switch k := avroschema.Kind(n); k {
	case "record", "enum", "fixed":
		return fmt.Sprintf("%s `%s`", k, avroschema.FullName(n))
	case "union":
		parts := make([]string, len(n.Branches))
		for i := range n.Branches {
			b := avroschema.Deref(&n.Branches[i])
			switch avroschema.Kind(b) {
			case "record", "enum", "fixed":
				parts[i] = avroschema.FullName(b)
			default:
				parts[i] = avroschema.Kind(b)
			}
		}
		return "union [" + strings.Join(parts, ", ") + "]"
	default:
		return k
	}
}
