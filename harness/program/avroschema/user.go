package avroschema

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/twmb/avro"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// Parse parses one .avsc's contents alone; name is the file as the user
// knows it (a path, or path@version from git history). A side's files are
// read together (ReadSet).
func Parse(name string, data []byte) (*avro.Schema, error) {
	var js any
	if err := json.Unmarshal(data, &js); err != nil {
		return nil, exitcode.BadInput("avro schema %s: not JSON (%v); fix the file", name, err)
	}
	return parseValid(name, data, js)
}

// parseValid parses data, whose JSON is js: an invalid schema is one line
// naming the file.
func parseValid(name string, data []byte, js any) (*avro.Schema, error) {
	s, err := avro.Parse(string(data))
	if err != nil {
		return nil, exitcode.BadInput("avro schema %s: not a valid Avro schema: %v", name, explainDefault(err, js))
	}
	return s, nil
}

// ForMessage picks md's Avro schema: the record of set whose full name
// equals md's (checked against the message field by field), else the
// derived one. source is the file's name or "derived".
func ForMessage(md protoreflect.MessageDescriptor, set *Set) (s *avro.Schema, source string, err error) {
	f, rec := set.Record(string(md.FullName()))
	if IsSynthesized(md.ParentFile().Path()) {
		// The message was made from this very record: nothing to check.
		if rec == nil {
			n := 0
			if set != nil {
				n = len(set.Files)
			}
			return nil, "", exitcode.BadInput("avro schema for %s: no .avsc among %d declares it; pass the Avro-first record's .avsc (--avro)", md.FullName(), n)
		}
		return rec, f, nil
	}
	if rec != nil {
		if err := Disagreement(md, rec); err != nil {
			return nil, "", exitcode.BadInput("avro schema %s: %v; make the .avsc agree with %s", f, err, md.FullName())
		}
		return rec, f, nil
	}
	d, err := Derive(md)
	return d, "derived", err
}

// Disagreement says how the record rec, a proto message's own .avsc,
// disagrees with md (a field one lacks, a type the other cannot hold), or
// nil when the plain struct can be encoded with it.
func Disagreement(md protoreflect.MessageDescriptor, rec *avro.Schema) error {
	derived, err := Derive(md)
	if err != nil {
		return err
	}
	return match(derived.Root(), rec.Root(), "")
}

// match checks the user's record against the derived one: same field names,
// same type shapes, recursively.
func match(want, got *avro.SchemaNode, prefix string) error {
	gotFields := map[string]*avro.SchemaField{}
	for i := range got.Fields {
		gotFields[got.Fields[i].Name] = &got.Fields[i]
	}
	for _, wf := range want.Fields {
		gf, ok := gotFields[wf.Name]
		if !ok {
			return fmt.Errorf("field `%s%s` of the proto message is missing", prefix, wf.Name)
		}
		delete(gotFields, wf.Name)
		if ws, gs := typeShape(&wf.Type, 0), typeShape(&gf.Type, 0); ws != gs {
			return fmt.Errorf("field `%s%s` is %s in the .avsc but the proto field needs %s", prefix, wf.Name, gs, ws)
		}
	}
	var extra []string
	for n := range gotFields {
		extra = append(extra, n)
	}
	sort.Strings(extra)
	if len(extra) > 0 {
		return fmt.Errorf("field `%s%s` has no proto field of that name", prefix, extra[0])
	}
	return nil
}

// typeShape is a type's structure without names, docs and defaults: what
// decides whether the plain struct can be encoded with it. A logical type
// is part of the shape: the plain struct holds the underlying value, which
// the codec must then not convert.
func typeShape(n *avro.SchemaNode, depth int) string {
	if depth > 8 {
		return "…"
	}
	n = Deref(n)
	switch Kind(n) {
	case "array":
		return "array<" + typeShape(n.Items, depth+1) + ">"
	case "map":
		return "map<" + typeShape(n.Values, depth+1) + ">"
	case "union":
		var parts []string
		for i := range n.Branches {
			parts = append(parts, typeShape(&n.Branches[i], depth+1))
		}
		return "union<" + strings.Join(parts, ",") + ">"
	case "enum":
		return "enum"
	case "fixed":
		return fmt.Sprintf("fixed(%d)", n.Size)
	case "record":
		var parts []string
		for i := range n.Fields {
			parts = append(parts, n.Fields[i].Name+":"+typeShape(&n.Fields[i].Type, depth+1))
		}
		sort.Strings(parts)
		return "record{" + strings.Join(parts, ",") + "}"
	}
	if logicalTypes[n.LogicalType] {
		return n.Type + "/" + n.LogicalType
	}
	return n.Type
}
