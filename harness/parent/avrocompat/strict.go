package avrocompat

import (
	"strings"

	"github.com/twmb/avro"

	"github.com/wiregate/wiregate/harness/program/avroschema"
)

// specReader is reader rewritten so that twmb/avro's compatibility check
// reads it as the Avro specification and Java's SchemaCompatibility (which
// Confluent's registry runs) do, where twmb/avro deliberately reads more
// leniently. Two places, each a rewrite that changes nothing else in
// resolution:
//
//   - twmb/avro gives a field of type ["null", T] without a default an
//     implicit default of null, so a new such reader field passes against a
//     writer that lacks it. The specification: "if the reader's record
//     schema has a field with no default value, and writer's schema does
//     not have a field with the same name, an error is flagged". The
//     implicit default applies only where null is the union's first branch,
//     so null moves after the other branches of every such field (null is
//     neither named nor a promotion target: the same writer branch still
//     meets the same reader branch).
//   - twmb/avro matches an alias written without a dot against the short
//     name of a writer type in any namespace. The specification qualifies
//     it with the namespace of the type it is an alias for ("if a type
//     named "a.b" has aliases of "c" and "x.y", then the fully qualified
//     names of its aliases are "a.c" and "x.y""), so every such alias is
//     written qualified (".c" in the null namespace).
func specReader(reader *avro.Schema) (*avro.Schema, error) {
	root := reader.Root()
	if !rewrite(root) {
		return reader, nil
	}
	return root.Schema()
}

// rewrite rewrites n in place and reports whether it changed anything.
func rewrite(n *avro.SchemaNode) bool {
	changed := qualifyAliases(n)
	for i := range n.Fields {
		f := &n.Fields[i]
		if t := &f.Type; !f.HasDefault && t.Type == "union" && len(t.Branches) >= 2 && t.Branches[0].Type == "null" {
			t.Branches = append(t.Branches[1:], t.Branches[0])
			changed = true
		}
		changed = rewrite(&f.Type) || changed
	}
	for i := range n.Branches {
		changed = rewrite(&n.Branches[i]) || changed
	}
	if n.Items != nil {
		changed = rewrite(n.Items) || changed
	}
	if n.Values != nil {
		changed = rewrite(n.Values) || changed
	}
	return changed
}

// qualifyAliases writes the aliases of a named type's definition with
// their namespace.
func qualifyAliases(n *avro.SchemaNode) bool {
	switch n.Type {
	case "record", "error", "enum", "fixed":
	default:
		return false
	}
	full := avroschema.FullName(n)
	ns := full[:max(strings.LastIndex(full, "."), 0)]
	changed := false
	for i, a := range n.Aliases {
		if !strings.Contains(a, ".") {
			n.Aliases[i] = ns + "." + a
			changed = true
		}
	}
	return changed
}
