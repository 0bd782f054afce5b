package prepare

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// fingerprints hashes each message's schema as the bench program sees it:
// the message's descriptor and, transitively, those of every message and
// enum its fields use, each with its file's syntax, edition and options
// (they decide presence, packing and UTF-8 validation). Comments, other
// messages of the same files and unused imports are left out: they do not
// change what the program does for this message. Two equal fingerprints
// (with the same harness) mean the generated code, the records and the
// derived Avro schema for the message are the same.
func fingerprints(files *protoregistry.Files, messages []string) (map[string]string, error) {
	out := map[string]string{}
	for _, name := range messages {
		d, err := files.FindDescriptorByName(protoreflect.FullName(name))
		if err != nil {
			return nil, fmt.Errorf("fingerprint %s: %w", name, err)
		}
		md, ok := d.(protoreflect.MessageDescriptor)
		if !ok {
			return nil, fmt.Errorf("fingerprint %s: not a message", name)
		}
		c := closure{parts: map[string][]byte{}}
		if err := c.message(md); err != nil {
			return nil, fmt.Errorf("fingerprint %s: %w", name, err)
		}
		out[name] = c.sum()
	}
	return out, nil
}

// Parts are what a message's fingerprint is made of: each descriptor in
// its closure ("message a.B", "enum a.Kind", "file a/b.proto"), hashed. Two
// sides' parts of a changed message say what in its closure changed: the
// message itself, or a message or enum it holds.
func (s *Schema) Parts(message string) (map[string]string, error) {
	md, err := s.Message(message)
	if err != nil {
		return nil, err
	}
	c := closure{parts: map[string][]byte{}}
	if err := c.message(md); err != nil {
		return nil, fmt.Errorf("fingerprint %s: %w", message, err)
	}
	out := make(map[string]string, len(c.parts))
	for k, b := range c.parts {
		h := sha256.Sum256(b)
		out[k] = hex.EncodeToString(h[:8])
	}
	return out, nil
}

// closure collects the serialized descriptors one message depends on, by
// a key naming what each is.
type closure struct {
	parts map[string][]byte
}

var deterministic = proto.MarshalOptions{Deterministic: true}

func (c *closure) add(key string, m proto.Message) error {
	b, err := deterministic.Marshal(m)
	if err != nil {
		return err
	}
	c.parts[key] = b
	return nil
}

func (c *closure) file(fd protoreflect.FileDescriptor) error {
	key := "file " + fd.Path()
	if _, seen := c.parts[key]; seen {
		return nil
	}
	full := protodesc.ToFileDescriptorProto(fd)
	return c.add(key, &descriptorpb.FileDescriptorProto{
		Package: full.Package, Syntax: full.Syntax, Edition: full.Edition, Options: full.Options,
	})
}

func (c *closure) message(md protoreflect.MessageDescriptor) error {
	key := "message " + string(md.FullName())
	if _, seen := c.parts[key]; seen {
		return nil
	}
	dp := protodesc.ToDescriptorProto(md)
	// Nested declarations count only when a field uses them (below).
	dp.NestedType, dp.EnumType = nil, nil
	if err := c.add(key, dp); err != nil {
		return err
	}
	if err := c.file(md.ParentFile()); err != nil {
		return err
	}
	fields := md.Fields()
	for i := 0; i < fields.Len(); i++ {
		f := fields.Get(i)
		if f.Message() != nil {
			if err := c.message(f.Message()); err != nil {
				return err
			}
		}
		if ed := f.Enum(); ed != nil {
			if err := c.add("enum "+string(ed.FullName()), protodesc.ToEnumDescriptorProto(ed)); err != nil {
				return err
			}
			if err := c.file(ed.ParentFile()); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *closure) sum() string {
	keys := make([]string, 0, len(c.parts))
	for k := range c.parts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s %d\n", k, len(c.parts[k]))
		h.Write(c.parts[k])
	}
	return hex.EncodeToString(h.Sum(nil))
}
