package prepare

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/types/descriptorpb"
)

// Skip is a message of the user's files that wiregate cannot measure, and
// why. The rest of the schemas are measured without it.
type Skip struct {
	Message string `json:"message"`
	File    string `json:"file"`
	Reason  string `json:"reason"`
}

func (s Skip) String() string { return fmt.Sprintf("%s (%s) is %s", s.Message, s.File, s.Reason) }

// dropUnmeasurable removes from set the messages protobuf-go cannot load (a
// MessageSet, a weak field: legacy proto1 features it supports only when
// built with the protolegacy tag), every message nested in or holding one,
// and the extensions and rpcs that refer to them, so that the rest of the
// image loads, generates and is measured (one such message used to stop
// every message of the module). It returns the dropped messages of own
// files, and whether set changed.
func dropUnmeasurable(set *descriptorpb.FileDescriptorSet, own map[string]bool) (skips []Skip, changed bool) {
	type decl struct {
		file string
		msg  *descriptorpb.DescriptorProto
	}
	decls := map[string]decl{} // ".pkg.Msg" → its declaration
	var order []string
	var walk func(file, prefix string, ms []*descriptorpb.DescriptorProto)
	walk = func(file, prefix string, ms []*descriptorpb.DescriptorProto) {
		for _, m := range ms {
			name := prefix + "." + m.GetName()
			decls[name] = decl{file, m}
			order = append(order, name)
			walk(file, name, m.GetNestedType())
		}
	}
	for _, f := range set.GetFile() {
		prefix := ""
		if f.GetPackage() != "" {
			prefix = "." + f.GetPackage()
		}
		walk(f.GetName(), prefix, f.GetMessageType())
	}

	why := map[string]string{} // dropped message → reason
	for _, n := range order {
		m := decls[n].msg
		if m.GetOptions().GetMessageSetWireFormat() {
			why[n] = "a MessageSet (option message_set_wire_format): a legacy proto1 wire format protobuf-go no longer supports"
			continue
		}
		for _, f := range m.GetField() {
			//lint:ignore SA1019 finding the deprecated legacy feature is the point
			if f.GetOptions().GetWeak() {
				why[n] = fmt.Sprintf("a message with weak field `%s`: a legacy proto1 feature protobuf-go no longer supports", f.GetName())
				break
			}
		}
	}
	if len(why) == 0 {
		return nil, false
	}
	// A message nested in or holding a dropped one cannot load either.
	cause := map[string]string{}
	for n := range why {
		cause[n] = n
	}
	for grew := true; grew; {
		grew = false
		for _, n := range order {
			if _, ok := why[n]; ok {
				continue
			}
			parent := n[:strings.LastIndexByte(n, '.')]
			if c, ok := cause[parent]; ok {
				why[n], cause[n], grew = fmt.Sprintf("nested in %s, which cannot be measured: %s is %s", parent[1:], c[1:], why[c]), c, true
				continue
			}
			for _, f := range decls[n].msg.GetField() {
				if c, ok := cause[f.GetTypeName()]; ok {
					why[n], cause[n], grew = fmt.Sprintf("a message whose field `%s` holds %s, %s", f.GetName(), c[1:], why[c]), c, true
					break
				}
			}
		}
	}

	dropped := func(typeName string) bool { _, ok := why[typeName]; return ok }
	keepExtensions := func(xs []*descriptorpb.FieldDescriptorProto) []*descriptorpb.FieldDescriptorProto {
		var out []*descriptorpb.FieldDescriptorProto
		for _, x := range xs {
			if !dropped(x.GetExtendee()) && !dropped(x.GetTypeName()) {
				out = append(out, x)
			}
		}
		return out
	}
	var keepMessages func(prefix string, ms []*descriptorpb.DescriptorProto) []*descriptorpb.DescriptorProto
	keepMessages = func(prefix string, ms []*descriptorpb.DescriptorProto) []*descriptorpb.DescriptorProto {
		var out []*descriptorpb.DescriptorProto
		for _, m := range ms {
			name := prefix + "." + m.GetName()
			if dropped(name) {
				continue
			}
			m.NestedType = keepMessages(name, m.GetNestedType())
			m.Extension = keepExtensions(m.GetExtension())
			out = append(out, m)
		}
		return out
	}
	for _, f := range set.GetFile() {
		prefix := ""
		if f.GetPackage() != "" {
			prefix = "." + f.GetPackage()
		}
		f.MessageType = keepMessages(prefix, f.GetMessageType())
		f.Extension = keepExtensions(f.GetExtension())
		for _, s := range f.GetService() {
			var methods []*descriptorpb.MethodDescriptorProto
			for _, m := range s.GetMethod() {
				if !dropped(m.GetInputType()) && !dropped(m.GetOutputType()) {
					methods = append(methods, m)
				}
			}
			s.Method = methods
		}
		// Source locations are paths of indexes, which removals shift; they
		// only carry comments, so drop them rather than misplace them.
		f.SourceCodeInfo = nil
	}

	for _, n := range order {
		d := decls[n]
		if r, ok := why[n]; ok && own[d.file] && !d.msg.GetOptions().GetMapEntry() {
			skips = append(skips, Skip{Message: n[1:], File: d.file, Reason: r})
		}
	}
	return skips, true
}
