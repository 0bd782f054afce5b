// Package avrohamba is the opt-in `avro-hamba` format: the plain struct
// through github.com/hamba/avro/v2, archived by its maintainers in January
// 2026 with advisories that have no upstream fix. It is its own Go module
// so that only a bench program prepared with avro-hamba in --formats links
// hamba/avro (prepare imports this package for that format alone); the
// harness's go.mod does not require it. The format itself (name, what the
// report says of it) is declared in package codec; this package supplies
// the codec.
package avrohamba

import (
	"fmt"

	"github.com/hamba/avro/v2"

	"github.com/wiregate/wiregate/harness/program/codec"
	"github.com/wiregate/wiregate/harness/program/subject"
)

// Name is the format this package supplies.
const Name = "avro-hamba"

func init() { codec.Provide(Name, New) }

// New parses the message's Avro schema (subject.Avro, as twmb/avro parsed
// it for the `avro` format) with hamba/avro, in a fresh cache: two schemas
// naming the same record must not share it through hamba's global one.
func New(s *subject.Subject) (codec.Codec, error) {
	if s.Avro == nil {
		return nil, fmt.Errorf("%s: %s has no Avro schema", Name, s.Name())
	}
	sch, err := avro.ParseBytesWithCache([]byte(s.Avro.String()), "", &avro.SchemaCache{})
	if err != nil {
		return nil, fmt.Errorf("%s: %s: hamba/avro cannot parse the Avro schema: %w", Name, s.Name(), err)
	}
	c := hambaCodec{schema: sch, api: avro.DefaultConfig}
	return codec.Plain(c.marshal, c.unmarshal), nil
}

// hambaCodec uses hamba/avro's default configuration, as teams that ship
// it do: arrays and maps are written in blocks of at most 100 items, each
// a negative count followed by the block's size in bytes (the
// specification allows both that and a plain count, which twmb/avro and
// Java's default encoder write).
type hambaCodec struct {
	schema avro.Schema
	api    avro.API
}

func (c hambaCodec) marshal(v any) ([]byte, error) { return c.api.Marshal(c.schema, v) }

func (c hambaCodec) unmarshal(b []byte, v any) error { return c.api.Unmarshal(c.schema, b, v) }
