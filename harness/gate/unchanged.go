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

	"github.com/wiregate/wiregate/harness/avroschema"
	"github.com/wiregate/wiregate/harness/record"
)

// markUnchanged finds the messages whose schema is byte-identical on both
// sides: their descriptor closure (prepare's fingerprint), the .avsc they
// are measured with, and their samples file. Both sides' programs are
// built from the same harness, so for such a message they run the same
// code on the same records: its time deltas are code layout and the
// runner, never the change. The report marks it (the verdict does not gate
// its timings, the comment says why) and the budget planner cuts its
// timing first (g.unchanged).
func (g *run) markUnchanged() {
	for _, m := range g.head.prep.Messages {
		b, h := g.base.schemaPrint(m), g.head.schemaPrint(m)
		if b != "" && b == h {
			g.unchanged[m] = true
			g.r.Message(m).UnchangedSchema = true
		}
	}
}

// byChange splits messages, in order, into those whose schema changed and
// those whose schema is identical on both sides.
func (g *run) byChange(messages []string) (changed, unchanged []string) {
	for _, m := range messages {
		if g.unchanged[m] {
			unchanged = append(unchanged, m)
		} else {
			changed = append(changed, m)
		}
	}
	return changed, unchanged
}

// schemaPrint hashes everything on this side that decides what the bench
// program does for message; "" when the side lacks it or a file cannot be
// read (then it counts as changed: gating a message's time too often is
// safe, not gating a real change is not).
func (s *side) schemaPrint(message string) string {
	if s.prep == nil || s.prep.Fingerprints[message] == "" {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "descriptors %s\n", s.prep.Fingerprints[message])
	avsc, _, err := avroschema.UserFile(message, s.sel.Avro)
	if err != nil {
		return ""
	}
	if !content(h, "avro", avsc) {
		return ""
	}
	if s.sel.Samples != "" && !content(h, "samples", record.SamplesFile(s.sel.Samples, protoreflect.FullName(message))) {
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
