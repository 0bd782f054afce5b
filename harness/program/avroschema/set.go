package avroschema

import (
	"bytes"
	"encoding/json"
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
// name no file defines, or when two files define one name differently.
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
		if err := d.Decode(&trees[i]); err != nil {
			return nil, exitcode.BadInput("avro schema %s: not JSON (%v); fix the file", s.Name, err)
		}
	}
	defs := map[string][]definition{}
	for i, t := range trees {
		(&visitor{define: func(full string, def map[string]any) {
			defs[full] = append(defs[full], definition{file: srcs[i].Name, def: explicit(def, full)})
		}}).walk(deepCopy(t), "")
	}
	if err := sameDefinitions(defs); err != nil {
		return nil, err
	}
	set := &Set{}
	for i, s := range srcs {
		sch, err := parseSpliced(s.Name, s.Data, trees[i], defs)
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

// sameDefinitions checks that every name several files define is defined
// the same way in each: the same schema, docs and defaults included, up to
// JSON spelling (twmb/avro's SchemaCache draws the line there too).
func sameDefinitions(defs map[string][]definition) error {
	names := make([]string, 0, len(defs))
	for n := range defs {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		ds := defs[n]
		if len(ds) < 2 {
			continue
		}
		first := ""
		for i, d := range ds {
			s, err := parseSpliced(d.file, nil, deepCopy(d.def), defs)
			if err != nil {
				break // the file's own parse says what is wrong
			}
			if i == 0 {
				first = s.String()
				continue
			}
			if s.String() != first {
				return exitcode.BadInput("avro schemas %s and %s both define %s, differently; define it in one file and use it by name in the other", ds[0].file, d.file, n)
			}
		}
	}
	return nil
}

// parseSpliced parses tree (the JSON of data, which may be nil) with the
// definitions of the names it uses but does not define spliced in at their
// first use. A file that uses nothing from another is parsed as written.
func parseSpliced(name string, data []byte, tree any, defs map[string][]definition) (*avro.Schema, error) {
	local := map[string]bool{}
	(&visitor{define: func(full string, _ map[string]any) { local[full] = true }}).walk(deepCopy(tree), "")
	seen := map[string]bool{}
	spliced, missing := false, ""
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
				if ds := defs[c]; len(ds) > 0 {
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
	for _, f := range s.Files {
		if f.Name == name {
			return f.Schema
		}
	}
	return nil
}
