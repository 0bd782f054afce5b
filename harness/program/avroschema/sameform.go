package avroschema

import (
	"encoding/json"
	"strings"

	"github.com/twmb/avro"
)

// sameForm is a schema written out with every named type by its full name
// and every alias qualified, docs, defaults and properties kept: two
// spellings of one definition (a namespace inherited or written, a name
// short or full, keys in any order) give one form, and any other
// difference gives two.
func sameForm(s *avro.Schema) string {
	root := s.Root() // a fresh tree: ours to rewrite
	fullRefs(root)
	fullDefs(root)
	b, err := json.Marshal(root)
	if err != nil { // a default JSON cannot hold (NaN): the schema as written
		return s.String()
	}
	return string(b)
}

// fullRefs writes each reference in n by the full name it resolves to,
// before any definition is renamed (resolution reads them).
func fullRefs(n *avro.SchemaNode) {
	if !kinds[n.Type] {
		if d := Deref(n); d != n {
			n.Type = FullName(d)
		}
		return
	}
	children(n, fullRefs)
}

// fullDefs writes each definition in n by its full name, aliases
// qualified, with no namespace left to inherit.
func fullDefs(n *avro.SchemaNode) {
	if namedKinds[n.Type] {
		full := FullName(n)
		ns := namespaceOf(full)
		n.Name, n.Namespace = full, ""
		for i, a := range n.Aliases {
			if !strings.Contains(a, ".") && ns != "" {
				n.Aliases[i] = ns + "." + a
			}
		}
	}
	children(n, fullDefs)
}

func children(n *avro.SchemaNode, f func(*avro.SchemaNode)) {
	for i := range n.Fields {
		f(&n.Fields[i].Type)
	}
	for i := range n.Branches {
		f(&n.Branches[i])
	}
	if n.Items != nil {
		f(n.Items)
	}
	if n.Values != nil {
		f(n.Values)
	}
}
