// Package shape decides, in one place, how wiregate treats each proto field's
// presence: the plain struct's Go type and struct tags (plaingen), the
// derived Avro type (avroschema) and how records are generated (record) all
// follow Of. The rule is protobuf's own presence semantics, so proto2,
// proto3 and editions files need no special cases:
//
//	Value     implicit presence (proto3 scalars, editions IMPLICIT): T, always written
//	Required  proto2 `required`, editions LEGACY_REQUIRED scalars: T, always written
//	Optional  explicit presence (proto2 `optional`, proto3 `optional`,
//	          editions EXPLICIT, the 2023 default): *T, omitted when unset
//	Member    member of a (non-synthetic) oneof: *T, omitted unless set
//	Message   singular message or group: *M, omitted when nil
//	List      repeated: []T
//	Map       map<K, V>: map[string]V
package shape

import "google.golang.org/protobuf/reflect/protoreflect"

// Kind is a field's presence shape.
type Kind int

const (
	Value Kind = iota
	Required
	Optional
	Member
	Message
	List
	Map
)

// Of returns fd's shape.
func Of(fd protoreflect.FieldDescriptor) Kind {
	switch {
	case fd.IsMap():
		return Map
	case fd.IsList():
		return List
	case fd.ContainingOneof() != nil && !fd.ContainingOneof().IsSynthetic():
		return Member
	case fd.Message() != nil:
		return Message
	case fd.Cardinality() == protoreflect.Required:
		return Required
	case fd.HasPresence():
		return Optional
	}
	return Value
}

// Nullable reports whether the plain field is a pointer that is nil when
// the proto field is unset: omitted by the keyed formats (`omitempty`) and
// ["null", T] in Avro.
func (k Kind) Nullable() bool { return k == Optional || k == Member || k == Message }
