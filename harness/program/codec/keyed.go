package codec

import (
	"github.com/fxamacker/cbor/v2"
	"github.com/vmihailenco/msgpack/v5"

	"github.com/wiregate/wiregate/harness/program/subject"
)

// MessagePack and CBOR are binary but keyed: every record carries its field
// names. Next to Protobuf and Avro they show how much of the speed-up is
// "binary" and how much is "no keys".
func init() {
	register(Format{Name: "msgpack", Plain: true,
		About: "vmihailenco/msgpack/v5 on the plain struct",
		New:   func(*subject.Subject) (Codec, error) { return Plain(msgpack.Marshal, msgpack.Unmarshal), nil }})
	register(Format{Name: "cbor", Plain: true,
		About: "fxamacker/cbor/v2 on the plain struct",
		New:   func(*subject.Subject) (Codec, error) { return Plain(cbor.Marshal, cbor.Unmarshal), nil }})
}
