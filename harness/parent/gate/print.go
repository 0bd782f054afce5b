package gate

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/program/avroschema"
	"github.com/wiregate/wiregate/harness/program/record"
)

// schemaPrint hashes everything on one side that decides what the bench
// program does for message: its descriptor closure (prepare's
// fingerprint), the Avro schema it is measured with (self-contained: a
// named type another .avsc defines is part of it), and its samples file.
// "" when the side lacks it or a file cannot be read (then it counts as
// changed: measuring a message needlessly is safe, not measuring a real
// change is not).
func schemaPrint(s *prepare.Schema, message string, avsc *avroschema.Set, samples string) string {
	if s == nil || s.Fingerprints[message] == "" {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "descriptors %s\n", s.Fingerprints[message])
	_, rec := avsc.Record(message)
	switch md, err := s.Message(message); {
	case rec == nil:
		fmt.Fprintf(h, "avro none\n")
	case err == nil && avroschema.IsSynthesized(md.ParentFile().Path()):
		// An Avro-first record: its Parsing Canonical Form, so a doc, an
		// alias or a default changes nothing that is measured.
		fmt.Fprintf(h, "avro canonical %s\n", rec.Canonical())
	default:
		fmt.Fprintf(h, "avro schema %s\n", rec.String())
	}
	if samples != "" && !content(h, "samples", record.SamplesFile(samples, protoreflect.FullName(message))) {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// content hashes a file's bytes under a label: "none" for no file (an
// empty path: the Avro schema is derived; a missing samples file: records
// are generated). False when the file exists but cannot be read.
func content(h io.Writer, label, path string) bool {
	if path == "" {
		fmt.Fprintf(h, "%s none\n", label)
		return true
	}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(h, "%s none\n", label)
		return true
	case err != nil:
		return false
	}
	fmt.Fprintf(h, "%s %d\n", label, len(b))
	h.Write(b)
	return true
}
