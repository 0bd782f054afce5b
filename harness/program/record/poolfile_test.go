package record_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	telemetryv1 "github.com/wiregate/wiregate/harness/internal/fixture/gen/telemetry/v1"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/record"
)

// A pool written by the gate (dynamic types) reads back as the same
// records, in a bench program's generated type too; writing is
// deterministic.
func TestPoolFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	mt := schema(t, shopProto, "Order", nil)
	recs := record.Generate(mt, record.PoolSize, record.Seed)
	path := record.PoolFile(dir, mt.Descriptor().FullName())
	if path != filepath.Join(dir, "shop.v1.Order.binpb") {
		t.Errorf("pool file %s", path)
	}
	if err := record.WritePool(path, recs); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(path)
	back, err := record.ReadPool(path, mt)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(recs) {
		t.Fatalf("read %d records, wrote %d", len(back), len(recs))
	}
	for i := range recs {
		if !proto.Equal(recs[i], back[i]) {
			t.Fatalf("record %d changed through the file", i)
		}
	}
	if err := record.WritePool(path, back); err != nil {
		t.Fatal(err)
	}
	if second, _ := os.ReadFile(path); !bytes.Equal(first, second) {
		t.Error("writing the same records twice gave other bytes")
	}

	generated := (&telemetryv1.TelemetryEvent{}).ProtoReflect().Type()
	tpath := record.PoolFile(dir, generated.Descriptor().FullName())
	if err := record.WritePool(tpath, record.Generate(dynamicpb.NewMessageType(generated.Descriptor()), 16, record.Seed)); err != nil {
		t.Fatal(err)
	}
	typed, err := record.ReadPool(tpath, generated)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range record.Generate(generated, 16, record.Seed) {
		if !proto.Equal(want, typed[i]) {
			t.Fatalf("telemetry record %d differs from the generated type's own", i)
		}
	}
}

// A bad records file is an error naming the file, exit code 2: never a
// silent pass on records of another schema.
func TestReadPoolNamesBadFiles(t *testing.T) {
	dir := t.TempDir()
	mt := schema(t, shopProto, "Order", nil)
	path := record.PoolFile(dir, mt.Descriptor().FullName())
	if _, err := record.ReadPool(path, mt); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), path) {
		t.Errorf("missing file: %v", err)
	}
	if err := record.WritePool(path, record.Generate(mt, 4, record.Seed)); err != nil {
		t.Fatal(err)
	}
	whole, _ := os.ReadFile(path)
	newer := schema(t, shopProto, "Order", func(fdp *descriptorpb.FileDescriptorProto) { addField(t, fdp, "Line", -1, giftNote) })
	p, err := record.Pair(record.Generate(mt, 4, record.Seed), newer)
	if err != nil {
		t.Fatal(err)
	}
	otherPath := filepath.Join(dir, "newer.binpb")
	if err := record.WritePool(otherPath, p.Records); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		path, content, want string
	}{
		"truncated":      {path, string(whole[:len(whole)-1]), "record 3 is not a shop.v1.Order"},
		"empty":          {path, "", "no records"},
		"another schema": {otherPath, "", "holds fields shop.v1.Order lacks"},
	} {
		if c.path == path {
			os.WriteFile(path, []byte(c.content), 0o644)
		}
		_, err := record.ReadPool(c.path, mt)
		if err == nil || exitcode.Code(err) != 2 || !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), c.want) ||
			strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: want one line naming %s and %q, got %v", name, c.path, c.want, err)
		}
	}
}

// Pool: the gate's records file first (it wrote one only for a changed
// message: paired records, or the samples split into their same and
// added content), then the user's samples, then generated records; a bad
// records file is an error, not a fallback.
func TestPoolPrefersTheRecordsFileThenSamples(t *testing.T) {
	samples, records := t.TempDir(), t.TempDir()
	mt := (&telemetryv1.TelemetryEvent{}).ProtoReflect().Type()
	name := mt.Descriptor().FullName()
	if err := record.WritePool(record.PoolFile(records, name), record.Generate(mt, 7, record.Seed)); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(record.SamplesFile(samples, name), []byte(`{"deviceId":"device-1"}`+"\n"), 0o644)
	for _, c := range []struct {
		samples, records, source string
		n                        int
	}{
		{samples, records, "records file (7 records)", 7},
		{samples, t.TempDir(), "samples (1 records)", 1},
		{"", records, "records file (7 records)", 7},
		{samples + "/none", records, "records file (7 records)", 7},
		{"", t.TempDir(), "generated (256 records, seed 20261121)", record.PoolSize},
		{"", "", "generated (256 records, seed 20261121)", record.PoolSize},
	} {
		recs, source, err := record.Pool(mt, c.samples, false, c.records)
		if err != nil || source != c.source || len(recs) != c.n {
			t.Errorf("Pool(%q, %q): %d records from %q, %v; want %d from %q", c.samples, c.records, len(recs), source, err, c.n, c.source)
		}
	}
	os.WriteFile(record.PoolFile(records, name), []byte{0x05, 0x0a}, 0o644)
	if _, _, err := record.Pool(mt, "", false, records); err == nil || exitcode.Code(err) != 2 {
		t.Errorf("bad records file: %v", err)
	}
}
