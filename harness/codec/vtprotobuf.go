package codec

import (
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wiregate/wiregate/harness/exitcode"
	"github.com/wiregate/wiregate/harness/subject"
)

// vtMessage is what protoc-gen-go-vtproto adds to generated messages.
type vtMessage interface {
	MarshalVT() ([]byte, error)
	UnmarshalVT([]byte) error
	Reset() // protoc-gen-go's; UnmarshalVT merges, so reset first
}

type vtCodec struct{}

func (vtCodec) Encode(v any) ([]byte, error) {
	m, ok := v.(vtMessage)
	if !ok {
		return nil, typeError("vtprotobuf", v)
	}
	return m.MarshalVT()
}

func (vtCodec) Decode(b []byte, v any) error {
	m, ok := v.(vtMessage)
	if !ok {
		return typeError("vtprotobuf", v)
	}
	m.Reset()
	return m.UnmarshalVT(b)
}

// groupField finds a group-encoded field reachable from md: vtproto's
// generated decoder reads the wrong wire type inside a group and fails.
func groupField(md protoreflect.MessageDescriptor, seen map[protoreflect.FullName]bool) protoreflect.FieldDescriptor {
	if seen[md.FullName()] {
		return nil
	}
	seen[md.FullName()] = true
	for i := 0; i < md.Fields().Len(); i++ {
		f := md.Fields().Get(i)
		if f.Kind() == protoreflect.GroupKind {
			return f
		}
		if f.Message() != nil {
			if g := groupField(f.Message(), seen); g != nil {
				return g
			}
		}
	}
	return nil
}

func init() {
	register(Format{Name: "vtprotobuf",
		About:  "planetscale/vtprotobuf generated MarshalVT/UnmarshalVT",
		Plugin: "protoc-gen-go-vtproto", NoEditions: true,
		New: func(s *subject.Subject) (Codec, error) {
			// The generated code is the program's record of whether it was
			// prepared for this format.
			if _, ok := s.Type.New().Interface().(vtMessage); !ok {
				return nil, exitcode.BadInput("--formats vtprotobuf: this bench program was prepared without it (%s has no vtproto code); prepare again with vtprotobuf in --formats", s.Name())
			}
			if g := groupField(s.Type.Descriptor(), map[protoreflect.FullName]bool{}); g != nil {
				return nil, exitcode.BadInput("--formats vtprotobuf: protoc-gen-go-vtproto v0.6.0 decodes groups wrongly (field %s of %s is one); measure %s without vtprotobuf",
					g.Name(), g.ContainingMessage().FullName(), s.Name())
			}
			return vtCodec{}, nil
		}})
}
