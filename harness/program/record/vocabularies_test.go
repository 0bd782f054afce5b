package record_test

import (
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/wiregate/wiregate/harness/program/record"
)

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

// A field's vocabulary is its own (message and number), not its name's:
// generated apart, a renamed event_name draws the very same values, and
// the body of another message draws others.
func TestVocabularySurvivesARename(t *testing.T) {
	renamed := func(fdp *descriptorpb.FileDescriptorProto) {
		for _, f := range fdp.MessageType[0].Field {
			if f.GetName() == "event_name" {
				f.Name, f.JsonName = proto.String("operation_name"), proto.String("operationName")
			}
		}
	}
	fd, _ := dynamicFile(t, spanProto, renamed)
	mt := msgType(fd, "Span")
	after := record.Generate(mt, record.PoolSize, record.Seed)
	f := mt.Descriptor().Fields().ByName("operation_name")
	before := column(t, "Span", "event_name")
	for i, m := range after {
		if got := m.ProtoReflect().Get(f).String(); got != before[i].String() {
			t.Fatalf("record %d: event_name %q, renamed %q", i, before[i].String(), got)
		}
	}
	body := map[string]bool{}
	for _, v := range column(t, "LogRecord", "body") {
		body[v.String()] = true
	}
	if body[before[0].String()] {
		t.Errorf("LogRecord.body shares Span.event_name's value %q", before[0].String())
	}
}
