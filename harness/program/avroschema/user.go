package avroschema

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/twmb/avro"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// Load parses one .avsc file. Bad JSON and invalid schemas are the user's
// input: one line naming the file.
func Load(path string) (*avro.Schema, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, exitcode.BadInput("avro schema %s: %v", path, err)
	}
	return Parse(path, b)
}

// Parse parses one .avsc's contents; name is the file as the user knows it
// (a path, or path@version from git history).
func Parse(name string, data []byte) (*avro.Schema, error) {
	var js any
	if err := json.Unmarshal(data, &js); err != nil {
		return nil, exitcode.BadInput("avro schema %s: not JSON (%v); fix the file", name, err)
	}
	s, err := avro.Parse(string(data))
	if err != nil {
		return nil, exitcode.BadInput("avro schema %s: not a valid Avro schema: %v", name, explainDefault(err, js))
	}
	return s, nil
}

// ForMessage picks md's Avro schema: the first of files whose record full
// name equals md's (checked against the message field by field), else the
// derived one. source is the file path or "derived".
func ForMessage(md protoreflect.MessageDescriptor, files []string) (s *avro.Schema, source string, err error) {
	f, rec, err := UserFile(string(md.FullName()), files)
	if err != nil {
		return nil, "", err
	}
	if IsSynthesized(md.ParentFile().Path()) {
		// The message was made from this very record: nothing to check.
		if rec == nil {
			return nil, "", exitcode.BadInput("avro schema for %s: no .avsc among %d declares it; pass the Avro-first record's .avsc (--avro)", md.FullName(), len(files))
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

// UserFile is the first of files whose record's full name is name: the
// .avsc the message of that name is measured with. A nil schema: none of
// them, the message's Avro schema is derived from its descriptor.
func UserFile(name string, files []string) (path string, rec *avro.Schema, err error) {
	for _, f := range files {
		us, err := Load(f)
		if err != nil {
			return "", nil, err
		}
		if root := us.Root(); Kind(root) == "record" && FullName(root) == name {
			return f, us, nil
		}
	}
	return "", nil, nil
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
