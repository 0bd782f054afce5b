package plaingen

import (
	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wiregate/wiregate/harness/program/shape"
)

// fromProtoName is the converter from the protoc-gen-go type to the plain one.
func fromProtoName(m *protogen.Message) string { return mangle(m.Desc.FullName()) + "FromProto" }

// toProtoName is the converter back. A function rather than a method: a proto
// field named to_proto would otherwise collide with it.
func toProtoName(m *protogen.Message) string { return mangle(m.Desc.FullName()) + "ToProto" }

// toPlain is the expression converting one proto value x to its plain value.
func toPlain(g *protogen.GeneratedFile, f protoreflect.FieldDescriptor, msg *protogen.Message, x string) string {
	switch f.Kind() {
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return "int64(" + x + ")"
	case protoreflect.EnumKind:
		return x + ".String()"
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return fromProtoName(msg) + "(" + x + ")"
	}
	return x
}

// toProto is the expression converting one plain value x back to proto.
func toProto(g *protogen.GeneratedFile, f *protogen.Field, fd protoreflect.FieldDescriptor, enum *protogen.Enum, x string) string {
	switch fd.Kind() {
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return "uint32(" + x + ")"
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return "uint64(" + x + ")"
	case protoreflect.EnumKind:
		values := g.QualifiedGoIdent(enum.GoIdent.GoImportPath.Ident(enum.GoIdent.GoName + "_value"))
		return g.QualifiedGoIdent(enum.GoIdent) + "(" + values + "[" + x + "])"
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return toProtoName(f.Message) + "(" + x + ")"
	}
	return x
}

// keyToString and keyFromString carry non-string map keys as decimal text:
// Avro maps only have string keys.
func keyToString(g *protogen.GeneratedFile, k protoreflect.FieldDescriptor, x string) string {
	switch k.Kind() {
	case protoreflect.StringKind:
		return x
	case protoreflect.BoolKind:
		return g.QualifiedGoIdent(strconvPkg.Ident("FormatBool")) + "(" + x + ")"
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return g.QualifiedGoIdent(strconvPkg.Ident("FormatUint")) + "(uint64(" + x + "), 10)"
	}
	return g.QualifiedGoIdent(strconvPkg.Ident("FormatInt")) + "(int64(" + x + "), 10)"
}

func keyFromString(g *protogen.GeneratedFile, k *protogen.Field, x string) string {
	switch k.Desc.Kind() {
	case protoreflect.StringKind:
		return x
	case protoreflect.BoolKind:
		return x + ` == "true"`
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return "uint32(parseUint(" + x + "))"
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return "parseUint(" + x + ")"
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return "int32(parseInt(" + x + "))"
	}
	return "parseInt(" + x + ")"
}

var strconvPkg = protogen.GoImportPath("strconv")

func writeFromProto(g *protogen.GeneratedFile, m *protogen.Message) {
	name := mangle(m.Desc.FullName())
	pb := g.QualifiedGoIdent(m.GoIdent)
	g.P("// ", fromProtoName(m), " converts the protoc-gen-go message to its plain struct.")
	g.P("func ", fromProtoName(m), "(m *", pb, ") *", name, " {")
	g.P("if m == nil { return nil }")
	g.P("p := &", name, "{}")
	for _, f := range m.Fields {
		bytes := f.Desc.Kind() == protoreflect.BytesKind
		switch shape.Of(f.Desc) {
		case shape.Map:
			k, v := f.Message.Fields[0], f.Message.Fields[1]
			g.P("if len(m.", f.GoName, ") > 0 {")
			g.P("p.", f.GoName, " = make(", fieldType(g, f), ", len(m.", f.GoName, "))")
			g.P("for k, v := range m.", f.GoName, " {")
			if v.Message != nil {
				g.P("if c := ", toPlain(g, v.Desc, v.Message, "v"), "; c != nil { p.", f.GoName, "[", keyToString(g, k.Desc, "k"), "] = *c } else { p.", f.GoName, "[", keyToString(g, k.Desc, "k"), "] = ", mangle(v.Message.Desc.FullName()), "{} }")
			} else {
				g.P("p.", f.GoName, "[", keyToString(g, k.Desc, "k"), "] = ", toPlain(g, v.Desc, nil, "v"))
			}
			g.P("}")
			g.P("}")
		case shape.List:
			g.P("if len(m.", f.GoName, ") > 0 {")
			g.P("p.", f.GoName, " = make(", fieldType(g, f), ", 0, len(m.", f.GoName, "))")
			g.P("for _, x := range m.", f.GoName, " {")
			if f.Message != nil {
				g.P("if c := ", toPlain(g, f.Desc, f.Message, "x"), "; c != nil { p.", f.GoName, " = append(p.", f.GoName, ", *c) } else { p.", f.GoName, " = append(p.", f.GoName, ", ", mangle(f.Message.Desc.FullName()), "{}) }")
			} else {
				g.P("p.", f.GoName, " = append(p.", f.GoName, ", ", toPlain(g, f.Desc, nil, "x"), ")")
			}
			g.P("}")
			g.P("}")
		case shape.Member:
			g.P("if x, ok := m.", f.Oneof.GoName, ".(*", g.QualifiedGoIdent(f.GoIdent), "); ok {")
			if f.Message != nil {
				g.P("p.", f.GoName, " = ", toPlain(g, f.Desc, f.Message, "x."+f.GoName))
				g.P("if p.", f.GoName, " == nil { p.", f.GoName, " = &", mangle(f.Message.Desc.FullName()), "{} }")
			} else {
				g.P("v := ", toPlain(g, f.Desc, nil, "x."+f.GoName), "; p.", f.GoName, " = &v")
			}
			g.P("}")
		case shape.Optional:
			// protoc-gen-go keeps bytes with presence as a slice (nil when
			// unset), every other scalar as a pointer.
			x := "(*m." + f.GoName + ")"
			if bytes {
				x = "m." + f.GoName
			}
			g.P("if m.", f.GoName, " != nil { v := ", toPlain(g, f.Desc, nil, x), "; p.", f.GoName, " = &v }")
		case shape.Required:
			if bytes {
				g.P("p.", f.GoName, " = m.", f.GoName)
			} else {
				g.P("if m.", f.GoName, " != nil { p.", f.GoName, " = ", toPlain(g, f.Desc, nil, "(*m."+f.GoName+")"), " }")
			}
		default: // shape.Value, shape.Message
			g.P("p.", f.GoName, " = ", toPlain(g, f.Desc, f.Message, "m."+f.GoName))
		}
	}
	g.P("return p")
	g.P("}")
	g.P()
}

func writeToProto(g *protogen.GeneratedFile, m *protogen.Message) {
	name := mangle(m.Desc.FullName())
	pb := g.QualifiedGoIdent(m.GoIdent)
	g.P("// ", toProtoName(m), " converts the plain struct back to the protoc-gen-go message.")
	g.P("func ", toProtoName(m), "(p *", name, ") *", pb, " {")
	g.P("if p == nil { return nil }")
	g.P("m := &", pb, "{}")
	for _, f := range m.Fields {
		bytes := f.Desc.Kind() == protoreflect.BytesKind
		switch shape.Of(f.Desc) {
		case shape.Map:
			k, v := f.Message.Fields[0], f.Message.Fields[1]
			g.P("if len(p.", f.GoName, ") > 0 {")
			g.P("m.", f.GoName, " = make(map[", goScalar(g, k), "]", goElem(g, v), ", len(p.", f.GoName, "))")
			g.P("for k, v := range p.", f.GoName, " {")
			g.P("m.", f.GoName, "[", keyFromString(g, k, "k"), "] = ", toProto(g, v, v.Desc, v.Enum, addr(v, "v")))
			g.P("}")
			g.P("}")
		case shape.List:
			g.P("if len(p.", f.GoName, ") > 0 {")
			g.P("m.", f.GoName, " = make([]", goElem(g, f), ", 0, len(p.", f.GoName, "))")
			g.P("for i := range p.", f.GoName, " {")
			g.P("m.", f.GoName, " = append(m.", f.GoName, ", ", toProto(g, f, f.Desc, f.Enum, addr(f, "p."+f.GoName+"[i]")), ")")
			g.P("}")
			g.P("}")
		case shape.Member:
			x := "*p." + f.GoName
			if f.Message != nil {
				x = "p." + f.GoName
			}
			g.P("if p.", f.GoName, " != nil { m.", f.Oneof.GoName, " = &", g.QualifiedGoIdent(f.GoIdent), "{", f.GoName, ": ", toProto(g, f, f.Desc, f.Enum, x), "} }")
		case shape.Optional:
			if bytes {
				// Set but empty stays set: a non-nil empty slice.
				g.P("if p.", f.GoName, " != nil { m.", f.GoName, " = append([]byte{}, *p.", f.GoName, "...) }")
			} else {
				g.P("if p.", f.GoName, " != nil { v := ", toProto(g, f, f.Desc, f.Enum, "*p."+f.GoName), "; m.", f.GoName, " = &v }")
			}
		case shape.Required:
			// Always set: proto.Marshal rejects a message missing one.
			if bytes {
				g.P("m.", f.GoName, " = append([]byte{}, p.", f.GoName, "...)")
			} else {
				g.P("{ v := ", toProto(g, f, f.Desc, f.Enum, "p."+f.GoName), "; m.", f.GoName, " = &v }")
			}
		default: // shape.Value, shape.Message
			g.P("m.", f.GoName, " = ", toProto(g, f, f.Desc, f.Enum, "p."+f.GoName))
		}
	}
	g.P("return m")
	g.P("}")
	g.P()
}

// addr is x as the converter of f's values takes it: messages by pointer.
func addr(f *protogen.Field, x string) string {
	if f.Message != nil {
		return "&" + x
	}
	return x
}

// goScalar and goElem name the protoc-gen-go Go types of map keys and
// list/map elements.
func goScalar(g *protogen.GeneratedFile, f *protogen.Field) string {
	switch f.Desc.Kind() {
	case protoreflect.BoolKind:
		return "bool"
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return "int32"
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return "int64"
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return "uint32"
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return "uint64"
	case protoreflect.FloatKind:
		return "float32"
	case protoreflect.DoubleKind:
		return "float64"
	case protoreflect.StringKind:
		return "string"
	case protoreflect.BytesKind:
		return "[]byte"
	case protoreflect.EnumKind:
		return g.QualifiedGoIdent(f.Enum.GoIdent)
	}
	return "*" + g.QualifiedGoIdent(f.Message.GoIdent)
}

func goElem(g *protogen.GeneratedFile, f *protogen.Field) string { return goScalar(g, f) }

func writeSubjects(g *protogen.GeneratedFile, roots []*protogen.Message) {
	subject := protogen.GoImportPath("github.com/wiregate/wiregate/harness/program/subject")
	proto := protogen.GoImportPath("google.golang.org/protobuf/proto")
	g.P("// Subjects lists the messages this bench program measures.")
	g.P("func Subjects() []", g.QualifiedGoIdent(subject.Ident("Subject")), " {")
	g.P("return []", g.QualifiedGoIdent(subject.Ident("Subject")), "{")
	for _, m := range roots {
		name := mangle(m.Desc.FullName())
		pb := g.QualifiedGoIdent(m.GoIdent)
		msg := g.QualifiedGoIdent(proto.Ident("Message"))
		g.P("{")
		g.P("Type: (*", pb, ")(nil).ProtoReflect().Type(),")
		g.P("NewPlain: func() any { return new(", name, ") },")
		g.P("ToPlain: func(m ", msg, ") any { return ", fromProtoName(m), "(m.(*", pb, ")) },")
		g.P("ToProto: func(v any) ", msg, " { return ", toProtoName(m), "(v.(*", name, ")) },")
		g.P("},")
	}
	g.P("}")
	g.P("}")
	g.P()
	g.P("func parseInt(s string) int64 { v, _ := ", g.QualifiedGoIdent(strconvPkg.Ident("ParseInt")), "(s, 10, 64); return v }")
	g.P("func parseUint(s string) uint64 { v, _ := ", g.QualifiedGoIdent(strconvPkg.Ident("ParseUint")), "(s, 10, 64); return v }")
}
