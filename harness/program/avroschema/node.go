package avroschema

import (
	"strings"

	"github.com/twmb/avro"
	"github.com/twmb/avro/atype"
)

// kinds are the type names a SchemaNode's Type holds for a definition or a
// primitive; any other Type is a reference to a named type by its name.
var kinds = map[string]bool{
	atype.Null: true, atype.Boolean: true, atype.Int: true, atype.Long: true, atype.Float: true,
	atype.Double: true, atype.Bytes: true, atype.String: true, atype.Record: true, atype.Error: true,
	atype.Enum: true, atype.Fixed: true, atype.Array: true, atype.Map: true, atype.Union: true,
}

// logicalTypes are the logical types twmb/avro converts (to time.Time,
// *big.Rat, …); it ignores others, as the specification says, and reads
// the underlying type.
var logicalTypes = map[string]bool{
	atype.Date: true, atype.TimeMillis: true, atype.TimeMicros: true, atype.TimestampMillis: true,
	atype.TimestampMicros: true, atype.TimestampNanos: true, atype.LocalTimestampMillis: true,
	atype.LocalTimestampMicros: true, atype.LocalTimestampNanos: true, atype.Decimal: true,
	atype.BigDecimal: true, atype.UUID: true, atype.Duration: true,
}

// FullName is a named type's full name as the specification builds it: a
// dotted name is already full, otherwise the namespace (which Root fills
// in for every named type) and the name.
func FullName(n *avro.SchemaNode) string {
	if strings.Contains(n.Name, ".") || n.Namespace == "" {
		return n.Name
	}
	return n.Namespace + "." + n.Name
}

// Deref returns the definition a reference node stands for: twmb/avro's
// Root tree writes a named type's second and later uses as its bare name.
// Other nodes come back unchanged. The reference is resolved by twmb/avro
// itself (SchemaNode.Schema carries the definition along).
func Deref(n *avro.SchemaNode) *avro.SchemaNode {
	if kinds[n.Type] {
		return n
	}
	s, err := n.Schema()
	if err != nil {
		return n // a parsed schema's references resolve; keep the node rather than guess
	}
	return s.Root()
}

// Kind is n's Avro type after following a reference: "record", "int", …
func Kind(n *avro.SchemaNode) string {
	k := Deref(n).Type
	if k == atype.Error {
		return atype.Record
	}
	return k
}
