package avroschema

import (
	"strings"

	"github.com/twmb/avro/atype"
)

// A side's .avsc files are read as one set (Set): a named type one file
// defines may be used by name in any other. This file walks a parsed .avsc
// JSON tree the way an Avro parser does — depth first, fields in order,
// each named type in the namespace the specification gives it — to find
// what a file defines and what it uses, and to splice the definition of a
// type another file holds in at its first use (as twmb/avro's SchemaCache
// does for registry references), so each file becomes one self-contained
// schema that twmb/avro parses alone.

// primitives are the type names that are never a reference.
var primitives = map[string]bool{
	atype.Null: true, atype.Boolean: true, atype.Int: true, atype.Long: true, atype.Float: true,
	atype.Double: true, atype.Bytes: true, atype.String: true,
}

// namedKinds are the kinds that define a name.
var namedKinds = map[string]bool{atype.Record: true, atype.Error: true, atype.Enum: true, atype.Fixed: true}

// fullNameIn is the full name a definition obj declares in the enclosing
// namespace ns: a dotted name is full; otherwise its own namespace (""
// being the null namespace) or the enclosing one.
func fullNameIn(obj map[string]any, ns string) string {
	name, _ := obj["name"].(string)
	if strings.Contains(name, ".") {
		return strings.TrimPrefix(name, ".")
	}
	if own, ok := obj["namespace"].(string); ok {
		ns = own
	}
	if ns == "" {
		return name
	}
	return ns + "." + name
}

// namespaceOf is the namespace of a full name.
func namespaceOf(full string) string {
	if i := strings.LastIndex(full, "."); i >= 0 {
		return full[:i]
	}
	return ""
}

// candidates are the full names a reference written in namespace ns may
// mean, most specific first: a dotted name is full (a leading dot is the
// null namespace); a bare one is qualified by ns, then, as twmb/avro and
// Java also try, taken as it is.
func candidates(ref, ns string) []string {
	if strings.Contains(ref, ".") {
		return []string{strings.TrimPrefix(ref, ".")}
	}
	if ns != "" {
		return []string{ns + "." + ref, ref}
	}
	return []string{ref}
}

// refOf is the name a node uses, if it is a reference: a bare string
// that is no primitive, or {"type": "X"} with no structure of its own.
func refOf(node any) (string, bool) {
	switch v := node.(type) {
	case string:
		return v, !primitives[v] && !namedKinds[v] && v != atype.Array && v != atype.Map
	case map[string]any:
		t, ok := v["type"].(string)
		if !ok || primitives[t] || namedKinds[t] || t == atype.Array || t == atype.Map {
			return "", false
		}
		return t, true
	}
	return "", false
}

// visitor is called for each definition and each reference, in the order
// a parser meets them. use may return a node to put in the reference's
// place (a spliced definition, which the walk then enters).
type visitor struct {
	define func(full string, def map[string]any)
	use    func(ref, ns string) (replace any)
	// redefine may turn a definition inside a spliced copy into a
	// reference (to a type the file defines itself, or that is already
	// defined before it): a non-nil result replaces it.
	redefine func(full string) (replace any)
	splicing int // >0 while inside a spliced copy
}

// walk visits node (a schema in namespace ns) and returns it, or what
// replaced it.
func (v *visitor) walk(node any, ns string) any {
	if ref, ok := refOf(node); ok {
		if v.use != nil {
			if r := v.use(ref, ns); r != nil {
				v.splicing++
				defer func() { v.splicing-- }()
				return v.walk(r, ns)
			}
		}
		return node
	}
	switch n := node.(type) {
	case []any: // a union
		for i := range n {
			n[i] = v.walk(n[i], ns)
		}
	case map[string]any:
		switch t := n["type"].(type) {
		case string:
			switch {
			case namedKinds[t]:
				full := fullNameIn(n, ns)
				if v.redefine != nil && v.splicing > 0 {
					if r := v.redefine(full); r != nil {
						return r
					}
				}
				if v.define != nil {
					v.define(full, n)
				}
				if fields, ok := n["fields"].([]any); ok {
					for _, f := range fields {
						if fo, ok := f.(map[string]any); ok {
							fo["type"] = v.walk(fo["type"], namespaceOf(full))
						}
					}
				}
			case t == atype.Array:
				n["items"] = v.walk(n["items"], ns)
			case t == atype.Map:
				n["values"] = v.walk(n["values"], ns)
			}
		case map[string]any, []any: // {"type": {...}} or {"type": [...]}
			n["type"] = v.walk(t, ns)
		}
	}
	return node
}

// explicit is a copy of def (a definition whose full name is full) that
// means the same wherever it is spliced: its namespace written out, ""
// for the null namespace.
func explicit(def map[string]any, full string) map[string]any {
	cp := deepCopy(def).(map[string]any)
	cp["name"] = full[strings.LastIndex(full, ".")+1:]
	cp["namespace"] = namespaceOf(full)
	return cp
}

func deepCopy(node any) any {
	switch v := node.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		s := make([]any, len(v))
		for i, e := range v {
			s[i] = deepCopy(e)
		}
		return s
	}
	return node
}
