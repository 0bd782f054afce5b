package record_test

import (
	"bytes"
	"compress/flate"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/wiregate/wiregate/harness/program/record"
)

// spanProto is a span and a log record as tracing and logging systems
// write them: random ids beside names that repeat.
const spanProto = `name: "obs.proto" package: "obs.v1" syntax: "proto3"
message_type { name: "Span"
  field { name: "trace_id" number: 1 label: LABEL_OPTIONAL type: TYPE_BYTES }
  field { name: "span_id" number: 2 label: LABEL_OPTIONAL type: TYPE_BYTES }
  field { name: "event_name" number: 3 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "start_time" number: 4 label: LABEL_OPTIONAL type: TYPE_INT64 }
  field { name: "bytes_sent" number: 5 label: LABEL_OPTIONAL type: TYPE_INT64 }
  field { name: "request_uuid" number: 6 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "content_hash" number: 7 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "message" number: 8 label: LABEL_OPTIONAL type: TYPE_STRING } }
message_type { name: "LogRecord"
  field { name: "body" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING }
  field { name: "event_name" number: 9 label: LABEL_OPTIONAL type: TYPE_STRING } }`

// column is field name's value in each of n generated records of message.
func column(t *testing.T, message, name string) []protoreflect.Value {
	t.Helper()
	fd, _ := dynamicFile(t, spanProto)
	mt := msgType(fd, message)
	f := mt.Descriptor().Fields().ByName(protoreflect.Name(name))
	var out []protoreflect.Value
	for _, m := range record.Generate(mt, record.PoolSize, record.Seed) {
		out = append(out, m.ProtoReflect().Get(f))
	}
	return out
}

// deflated is b's size after DEFLATE at its best: what any codec could
// at most save on it.
func deflated(t *testing.T, b []byte) int {
	t.Helper()
	var out bytes.Buffer
	w, _ := flate.NewWriter(&out, flate.BestCompression)
	w.Write(b)
	w.Close()
	return out.Len()
}

// joined is the values' bytes back to back, and how many distinct values
// there are.
func joined(vs []protoreflect.Value) (all []byte, distinct int) {
	seen := map[string]bool{}
	for _, v := range vs {
		b, ok := v.Interface().([]byte)
		if !ok {
			b = []byte(v.String())
		}
		all = append(all, b...)
		seen[string(b)] = true
	}
	return all, len(seen)
}
