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

// A bytes field named trace_id holds 16 random bytes a record: every
// value distinct, and all of them together compress not at all.
func TestTraceIDBytesAreIncompressible(t *testing.T) {
	for _, c := range []struct {
		name string
		size int
	}{{"trace_id", 16}, {"span_id", 8}} {
		vs := column(t, "Span", c.name)
		all, distinct := joined(vs)
		if len(all) != c.size*record.PoolSize || distinct != record.PoolSize {
			t.Fatalf("%s: %d bytes, %d distinct of %d records; want %d bytes each, all distinct", c.name, len(all), distinct, record.PoolSize, c.size)
		}
		if z := deflated(t, all); z < len(all) {
			t.Errorf("%s: %d random bytes deflate to %d", c.name, len(all), z)
		}
	}
}

// A string field named event_name draws from a small vocabulary: its
// values repeat, a few of them often, and deflate to a fraction of
// their size; free text (a log message) repeats its templates.
func TestEventNameValuesRepeat(t *testing.T) {
	vs := column(t, "Span", "event_name")
	all, distinct := joined(vs)
	counts := map[string]int{}
	top := 0
	for _, v := range vs {
		counts[v.String()]++
		top = max(top, counts[v.String()])
	}
	if distinct > 16 || distinct < 4 || top < record.PoolSize/8 {
		t.Fatalf("event_name: %d distinct values, the commonest %d times, in %d records; want 4 to 16, one at least %d times", distinct, top, record.PoolSize, record.PoolSize/8)
	}
	if z := deflated(t, all); z*4 > len(all) {
		t.Errorf("event_name: %d bytes deflate to %d, want under a quarter", len(all), z)
	}
	if _, d := joined(column(t, "Span", "message")); d > 48 || d < 16 {
		t.Errorf("message: %d distinct sentences, want 16 to 48", d)
	}
}

// A field's vocabulary is its name's: event_name draws the same values in
// another message under another number, so a field added on head holds
// what it would hold anywhere.
func TestVocabularyIsTheFieldNames(t *testing.T) {
	set := func(vs []protoreflect.Value) map[string]bool {
		s := map[string]bool{}
		for _, v := range vs {
			s[v.String()] = true
		}
		return s
	}
	span, log := set(column(t, "Span", "event_name")), set(column(t, "LogRecord", "event_name"))
	for v := range log {
		if !span[v] {
			t.Fatalf("LogRecord.event_name holds %q, which Span.event_name never does", v)
		}
	}
	if body := set(column(t, "LogRecord", "body")); body[firstKey(span)] {
		t.Errorf("body shares event_name's value %q", firstKey(span))
	}
}

func firstKey(m map[string]bool) string {
	for k := range m {
		return k
	}
	return ""
}

// String ids are random and printed the way services print them: a uuid
// in its 8-4-4-4-12 form, a hash as 64 hex digits, every value distinct.
func TestStringIDsAreRandomAndShaped(t *testing.T) {
	for _, c := range []struct {
		name    string
		length  int
		hyphens int
	}{{"request_uuid", 36, 4}, {"content_hash", 64, 0}} {
		all, distinct := joined(column(t, "Span", c.name))
		if distinct != record.PoolSize || len(all) != c.length*record.PoolSize || bytes.Count(all, []byte("-")) != c.hyphens*record.PoolSize {
			t.Fatalf("%s: %d distinct, %d bytes: %.80q", c.name, distinct, len(all), all)
		}
	}
}
