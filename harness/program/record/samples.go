package record

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// SamplesFile is where a message's samples live in a samples directory.
func SamplesFile(dir string, name protoreflect.FullName) string {
	return filepath.Join(dir, string(name)+".jsonl")
}

// LoadSamples reads <dir>/<full.Message.Name>.jsonl: one protojson record a
// line, blank lines skipped. ok is false when the file does not exist (the
// caller then generates records). A field mt lacks is a bad-input error
// naming the line, unless loose: then it is dropped (the gate's base
// reading head's samples, which may hold a field the pull request adds;
// the gate reads them strictly against head's schema first).
func LoadSamples(dir string, mt protoreflect.MessageType, loose bool) (msgs []proto.Message, ok bool, err error) {
	path := SamplesFile(dir, mt.Descriptor().FullName())
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, exitcode.BadInput("samples %s: %v", path, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		m := mt.New().Interface()
		if err := (protojson.UnmarshalOptions{DiscardUnknown: loose}).Unmarshal([]byte(text), m); err != nil {
			return nil, false, exitcode.BadInput("samples %s:%d: not a valid protojson %s: %v; fix or remove that line",
				path, line, mt.Descriptor().FullName(), err)
		}
		msgs = append(msgs, m)
	}
	if err := sc.Err(); err != nil {
		return nil, false, exitcode.BadInput("samples %s:%d: %v", path, line+1, err)
	}
	if len(msgs) == 0 {
		return nil, false, exitcode.BadInput("samples %s: no records; add protojson lines or remove the file", path)
	}
	return msgs, true, nil
}
