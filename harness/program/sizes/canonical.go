package sizes

import (
	"bytes"
	"fmt"

	"github.com/fxamacker/cbor/v2"
	"github.com/vmihailenco/msgpack/v5"
	"google.golang.org/protobuf/proto"

	"github.com/wiregate/wiregate/harness/program/avroschema"
	"github.com/wiregate/wiregate/harness/program/cases"
)

// canonical is c's records as the compressed size measures them: the
// bytes c's encoder wrote, with every map's entries in key order. Several
// encoders write a Go map in Go's random iteration order (protobuf's,
// twmb/avro's, msgpack's and cbor's defaults), so the same record is
// other bytes on each encode: its raw size stays the same, but what a
// batch codec makes of it moves. In key order it is the same bytes on any
// run, and every record keeps its exact length. JSON (encoding/json) and
// protojson write keys in order already; avro-hamba (opt-in) is measured
// as written, so its compressed figure can move on a message with a map.
func canonical(c *cases.Case) ([][]byte, error) {
	var enc func(i int) ([]byte, error)
	switch c.Format.Name {
	case "protobuf", "vtprotobuf":
		opts := proto.MarshalOptions{Deterministic: true}
		enc = func(i int) ([]byte, error) { return opts.Marshal(c.Records[i]) }
	case "avro":
		enc = func(i int) ([]byte, error) { return avroschema.CanonicalBinary(c.Subject.Avro, c.Encoded[i]) }
	case "msgpack":
		enc = func(i int) ([]byte, error) {
			var b bytes.Buffer
			e := msgpack.NewEncoder(&b)
			e.SetSortMapKeys(true)
			err := e.Encode(c.Values[i])
			return b.Bytes(), err
		}
	case "cbor":
		mode, err := cbor.EncOptions{Sort: cbor.SortBytewiseLexical}.EncMode()
		if err != nil {
			return nil, err
		}
		enc = func(i int) ([]byte, error) { return mode.Marshal(c.Values[i]) }
	default:
		return c.Encoded, nil
	}
	out := make([][]byte, len(c.Encoded))
	for i := range out {
		b, err := enc(i)
		if err != nil {
			return nil, fmt.Errorf("record %d in key order: %w", i, err)
		}
		if len(b) != len(c.Encoded[i]) {
			return nil, fmt.Errorf("record %d is %d bytes in key order, %d as written", i, len(b), len(c.Encoded[i]))
		}
		out[i] = b
	}
	return out, nil
}
