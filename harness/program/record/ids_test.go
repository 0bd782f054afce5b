package record_test

import (
	"bytes"
	"testing"

	"github.com/wiregate/wiregate/harness/program/record"
)

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
