package record_test

import (
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

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
