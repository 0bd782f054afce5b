package sizes_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/wiregate/wiregate/harness/internal/codectest"
	"github.com/wiregate/wiregate/harness/program/batch"
	"github.com/wiregate/wiregate/harness/program/benchprog"
	"github.com/wiregate/wiregate/harness/program/cases"
	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/sizes"
)

// Encoders that write Go maps in random order write a record with a map
// (orders.v1.Order's meta) as other bytes on every encode; the compressed
// size is the same anyway, in every codec and format, because it measures
// the records with map entries in key order.
func TestCompressedIsTheSameOnEveryEncode(t *testing.T) {
	formats, err := codec.Parse("json,protobuf,avro,protojson,msgpack,cbor")
	if err != nil {
		t.Fatal(err)
	}
	cs, err := cases.Build(codectest.Subjects(t), formats, cases.From{})
	if err != nil {
		t.Fatal(err)
	}
	b := benchprog.Batching{Compression: batch.Codecs, BatchBytes: batch.DefaultBatchBytes}
	first, err := sizes.Measure(cs, b)
	if err != nil {
		t.Fatal(err)
	}
	moved := map[string]bool{}
	for range 3 {
		for _, c := range cs {
			encode, err := c.Codec.Encoder(c.Values)
			if err != nil {
				t.Fatal(err)
			}
			for i := range c.Values {
				enc, err := encode(i)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(enc, c.Encoded[i]) {
					moved[c.Format.Name] = true
				}
				c.Encoded[i] = enc
			}
		}
		again, err := sizes.Measure(cs, b)
		if err != nil {
			t.Fatal(err)
		}
		for i := range first {
			if !reflect.DeepEqual(first[i].Compressed, again[i].Compressed) {
				t.Errorf("%s/%s: %+v, then %+v", first[i].Message, first[i].Format, first[i].Compressed, again[i].Compressed)
			}
		}
	}
	// The test has teeth: these encoders did write other bytes.
	for _, f := range []string{"protobuf", "avro", "msgpack", "cbor"} {
		if !moved[f] {
			t.Errorf("%s wrote the same bytes on every encode: the map-order case is not exercised", f)
		}
	}
}
