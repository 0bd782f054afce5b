package avroschema

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/hamba/avro/v2"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wiregate/wiregate/harness/exitcode"
)

// Load parses one .avsc file. Bad JSON and invalid schemas are the user's
// input: one line naming the file.
func Load(path string) (avro.Schema, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, exitcode.BadInput("avro schema %s: %v", path, err)
	}
	return Parse(path, b)
}

// Parse parses one .avsc's contents; name is the file as the user knows it
// (a path, or path@version from git history).
func Parse(name string, data []byte) (avro.Schema, error) {
	var js any
	if err := json.Unmarshal(data, &js); err != nil {
		return nil, exitcode.BadInput("avro schema %s: not JSON (%v); fix the file", name, err)
	}
	// A fresh cache per file: two versions of one record must not share
	// named types through hamba's global cache.
	s, err := avro.ParseBytesWithCache(data, "", &avro.SchemaCache{})
	if err != nil {
		return nil, exitcode.BadInput("avro schema %s: not a valid Avro schema: %v", name, explainDefault(err, js))
	}
	return s, nil
}

// ForMessage picks md's Avro schema: the first of files whose record full
// name equals md's (checked against the message field by field), else the
// derived one. source is the file path or "derived".
func ForMessage(md protoreflect.MessageDescriptor, files []string) (s avro.Schema, source string, err error) {
	f, rec, err := UserFile(string(md.FullName()), files)
	if err != nil {
		return nil, "", err
	}
	if rec != nil {
		derived, err := Derive(md)
		if err != nil {
			return nil, "", err
		}
		if err := match(derived.(*avro.RecordSchema), rec, ""); err != nil {
			return nil, "", exitcode.BadInput("avro schema %s: %v; make the .avsc agree with %s", f, err, md.FullName())
		}
		return rec, f, nil
	}
	d, err := Derive(md)
	return d, "derived", err
}

// UserFile is the first of files whose record's full name is name: the
// .avsc the message of that name is measured with. A nil record: none of
// them, the message's Avro schema is derived from its descriptor.
func UserFile(name string, files []string) (path string, rec *avro.RecordSchema, err error) {
	for _, f := range files {
		us, err := Load(f)
		if err != nil {
			return "", nil, err
		}
		if rec, ok := us.(*avro.RecordSchema); ok && rec.FullName() == name {
			return f, rec, nil
		}
	}
	return "", nil, nil
}

// match checks the user's record against the derived one: same field names,
// same type shapes, recursively.
func match(want, got *avro.RecordSchema, prefix string) error {
	gotFields := map[string]*avro.Field{}
	for _, f := range got.Fields() {
		gotFields[f.Name()] = f
	}
	for _, wf := range want.Fields() {
		gf, ok := gotFields[wf.Name()]
		if !ok {
			return fmt.Errorf("field `%s%s` of the proto message is missing", prefix, wf.Name())
		}
		delete(gotFields, wf.Name())
		if ws, gs := typeShape(wf.Type(), 0), typeShape(gf.Type(), 0); ws != gs {
			return fmt.Errorf("field `%s%s` is %s in the .avsc but the proto field needs %s", prefix, wf.Name(), gs, ws)
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

// typeShape is a type's structure without names, docs and defaults: what decides
// whether the plain struct can be encoded with it.
func typeShape(s avro.Schema, depth int) string {
	if depth > 8 {
		return "…"
	}
	switch t := s.(type) {
	case *avro.RefSchema:
		return typeShape(t.Schema(), depth+1)
	case *avro.PrimitiveSchema:
		if l := t.Logical(); l != nil {
			return string(t.Type()) + "/" + string(l.Type())
		}
		return string(t.Type())
	case *avro.ArraySchema:
		return "array<" + typeShape(t.Items(), depth+1) + ">"
	case *avro.MapSchema:
		return "map<" + typeShape(t.Values(), depth+1) + ">"
	case *avro.UnionSchema:
		var parts []string
		for _, u := range t.Types() {
			parts = append(parts, typeShape(u, depth+1))
		}
		return "union<" + strings.Join(parts, ",") + ">"
	case *avro.EnumSchema:
		return "enum"
	case *avro.FixedSchema:
		return fmt.Sprintf("fixed(%d)", t.Size())
	case *avro.RecordSchema:
		var parts []string
		for _, f := range t.Fields() {
			parts = append(parts, f.Name()+":"+typeShape(f.Type(), depth+1))
		}
		sort.Strings(parts)
		return "record{" + strings.Join(parts, ",") + "}"
	}
	return string(s.Type())
}
