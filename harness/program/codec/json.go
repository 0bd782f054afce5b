package codec

import (
	"encoding/json"

	"github.com/wiregate/wiregate/harness/program/subject"
)

func init() {
	register(Format{Name: "json", Plain: true, Default: true,
		About: "encoding/json on the plain struct (json tags = proto field names)",
		New:   func(*subject.Subject) (Codec, error) { return Plain(json.Marshal, json.Unmarshal), nil }})
}
