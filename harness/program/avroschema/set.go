package avroschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/twmb/avro"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// Set is a side's .avsc files read together, as avro-maven-plugin's
// imports, Java's Schema.Parser over several files and a schema registry's
// references read them: a named type (record, enum, fixed) one file defines
// is usable by name in any other, whatever the order of the files. Each
// file becomes one self-contained schema (the definitions it uses from
// other files spliced in at their first use), so everything downstream —
// compatibility, change prints, synthesis, the codecs — reads it as if the
// file had written them out.
type Set struct {
	Files []SetFile // by name
}

// SetFile is one .avsc of a set.
type SetFile struct {
	Name   string       // as the user knows it (errors and findings name it)
	Schema *avro.Schema // self-contained
}

// Source is one .avsc's contents under the name the user knows it by.
type Source struct {
	Name string
	Data []byte
}

// ReadSet reads and parses paths as one set; each is named relative to
// root (slash-separated) when root is not empty.
func ReadSet(root string, paths []string) (*Set, error) {
	srcs := make([]Source, 0, len(paths))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, exitcode.BadInput("avro schema %s: %v", p, err)
		}
		name := p
		if root != "" {
			if rel, err := filepath.Rel(root, p); err == nil {
				name = filepath.ToSlash(rel)
			}
		}
		srcs = append(srcs, Source{Name: name, Data: b})
	}
	return ParseSet(srcs)
}

// ParseSet parses srcs as one set. A set is bad, with one line naming the
// file(s), when a file is not JSON or not a valid schema, when it uses a
// name no file defines, or a name two files define differently.
// (Avro lets named types recurse only through records, the only kind that
// refers to others, so a cycle across files is always such a recursion,
// and resolves as it does within one file.)
func ParseSet(srcs []Source) (*Set, error) {
	srcs = slices.Clone(srcs)
	slices.SortStableFunc(srcs, func(a, b Source) int { return strings.Compare(a.Name, b.Name) })
	trees := make([]any, len(srcs))
	for i, s := range srcs {
		d := json.NewDecoder(bytes.NewReader(s.Data))
		d.UseNumber() // a long default keeps every digit through a splice
		err := d.Decode(&trees[i])
		if _, more := d.Token(); err == nil && more != io.EOF {
			err = errors.New("more after the schema's JSON value")
		}
		if err != nil {
			return nil, exitcode.BadInput("avro schema %s: not JSON (%v); fix the file", s.Name, err)
		}
	}
	r := &resolver{defs: map[string][]definition{}, agreed: map[string]error{}}
	for i, t := range trees {
		(&visitor{define: func(full string, def map[string]any) {
			r.defs[full] = append(r.defs[full], definition{file: srcs[i].Name, def: explicit(def, full)})
		}}).walk(deepCopy(t), "")
	}
	set := &Set{}
	for i, s := range srcs {
		sch, err := r.parse(s.Name, s.Data, trees[i])
		if err != nil {
			return nil, err
		}
		set.Files = append(set.Files, SetFile{Name: s.Name, Schema: sch})
	}
	return set, nil
}

// definition is one file's definition of a named type, its namespace
// written out (explicit).
type definition struct {
	file string
	def  map[string]any
}

// resolver splices the set's definitions into the files that use them.
type resolver struct {
	defs   map[string][]definition // every named type of the set, by full name
	agreed map[string]error        // whether the files defining a name agree, once asked
}

// agree checks that the files defining name, when several do, define it
// the same way: the same schema, docs, aliases and defaults included, in
// any spelling of its names and keys (sameForm). Only a name
// another file uses must agree: files that each define what they use and
// use only that (two versions of a record side by side) stand alone.
func (r *resolver) agree(name, user string) error {
	if err, ok := r.agreed[name]; ok {
		return err
	}
	r.agreed[name] = nil // a recursive use while checking: the answer is pending
	ds := r.defs[name]
	first := ""
	var err error
	for i, d := range ds {
		s, perr := r.parse(d.file, nil, deepCopy(d.def))
		if perr != nil {
			break // the defining file's own parse says what is wrong
		}
		if i == 0 {
			first = sameForm(s)
		} else if sameForm(s) != first {
			err = exitcode.BadInput("avro schemas %s and %s both define %s, differently, and %s uses it; define it in one file and use it by name in the others", ds[0].file, d.file, name, user)
			break
		}
	}
	r.agreed[name] = err
	return err
}

// parse parses tree (the JSON of data, which may be nil) with the
// definitions of the names it uses but does not define spliced in at their
// first use. A file that uses nothing from another is parsed as written.
func (r *resolver) parse(name string, data []byte, tree any) (*avro.Schema, error) {
	local := map[string]bool{}
	(&visitor{define: func(full string, _ map[string]any) { local[full] = true }}).walk(deepCopy(tree), "")
	seen := map[string]bool{}
	spliced, missing := false, ""
	var conflict error
	v := &visitor{
		define: func(full string, _ map[string]any) { seen[full] = true },
		redefine: func(full string) any {
			if local[full] || seen[full] {
				return full
			}
			return nil
		},
		use: func(ref, ns string) any {
			cs := candidates(ref, ns)
			for _, c := range cs {
				if local[c] || seen[c] {
					return nil
				}
				if ds := r.defs[c]; len(ds) > 0 {
					if err := r.agree(c, name); err != nil && conflict == nil {
						conflict = err
					}
					spliced = true
					return deepCopy(ds[0].def)
				}
			}
			if missing == "" {
				missing = cs[0]
			}
			return nil
		},
	}
	tree = v.walk(tree, "")
	if conflict != nil {
		return nil, conflict
	}
	if missing != "" {
		return nil, exitcode.BadInput("avro schema %s: uses %s, which no .avsc of the set defines; define it, or add the file that does to avro-schemas", name, missing)
	}
	if spliced || data == nil {
		b, err := json.Marshal(tree)
		if err != nil {
			return nil, exitcode.BadInput("avro schema %s: %v", name, err)
		}
		data = b
	}
	return parseValid(name, data, tree)
}

// Record is the set's top-level record of full name name and the file
// that holds it (the first by name), or "", nil.
func (s *Set) Record(name string) (file string, rec *avro.Schema) {
	if s == nil {
		return "", nil
	}
	for _, f := range s.Files {
		if root := f.Schema.Root(); Kind(root) == "record" && FullName(root) == name {
			return f.Name, f.Schema
		}
	}
	return "", nil
}

// Records are the set's top-level records, one per file that holds one.
func (s *Set) Records() []Record {
	if s == nil {
		return nil
	}
	var out []Record
	for _, f := range s.Files {
		if Kind(f.Schema.Root()) == "record" {
			out = append(out, Record{File: f.Name, Schema: f.Schema})
		}
	}
	return out
}

// Schema is the named file's schema, or nil.
func (s *Set) Schema(name string) *avro.Schema {
	if s == nil {
		return nil
	}
	for _, f := range s.Files {
		if f.Name == name {
			return f.Schema
		}
	}
	return nil
}
