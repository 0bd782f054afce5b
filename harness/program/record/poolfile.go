package record

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// A records file holds a pool made elsewhere (the gate pairs base and head
// records in one process, and each bench program reads its side's): each
// record length-delimited protobuf, one after the other.

// PoolFile is where a message's records file lives in a records directory.
func PoolFile(dir string, name protoreflect.FullName) string {
	return filepath.Join(dir, string(name)+".binpb")
}

// WritePool writes recs to path, deterministically: the same records give
// the same bytes.
func WritePool(path string, recs []proto.Message) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("records %s: %w", path, err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("records %s: %w", path, cerr)
		}
	}()
	w := bufio.NewWriter(f)
	opts := protodelim.MarshalOptions{MarshalOptions: proto.MarshalOptions{Deterministic: true}}
	for i, m := range recs {
		if _, err := opts.MarshalTo(w, m); err != nil {
			return fmt.Errorf("records %s: record %d: %w", path, i, err)
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("records %s: %w", path, err)
	}
	return nil
}

// ReadPool reads the records file at path as records of mt. A record that
// does not parse, or holds a field mt lacks (the file was written for
// another version of the schema), is an error naming the file.
func ReadPool(path string, mt protoreflect.MessageType) ([]proto.Message, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, exitcode.BadInput("records %s: %w", path, err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	var recs []proto.Message
	for {
		m := mt.New().Interface()
		err := protodelim.UnmarshalFrom(r, m)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, exitcode.BadInput("records %s: record %d is not a %s: %v; write the file again", path, len(recs), mt.Descriptor().FullName(), err)
		}
		if unknown(m.ProtoReflect()) {
			return nil, exitcode.BadInput("records %s: record %d holds fields %s lacks: the file is for another version of the schema; write it again",
				path, len(recs), mt.Descriptor().FullName())
		}
		recs = append(recs, m)
	}
	if len(recs) == 0 {
		return nil, exitcode.BadInput("records %s: no records; write the file again or remove it", path)
	}
	return recs, nil
}

// unknown reports whether m, or a message in it, holds unknown fields.
func unknown(m protoreflect.Message) bool {
	found := len(m.GetUnknown()) > 0
	m.Range(func(f protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case f.IsMap() && f.MapValue().Message() != nil:
			v.Map().Range(func(_ protoreflect.MapKey, e protoreflect.Value) bool {
				found = found || unknown(e.Message())
				return !found
			})
		case f.IsList() && f.Message() != nil:
			for i := 0; i < v.List().Len() && !found; i++ {
				found = unknown(v.List().Get(i).Message())
			}
		case !f.IsMap() && !f.IsList() && f.Message() != nil:
			found = found || unknown(v.Message())
		}
		return !found
	})
	return found
}
