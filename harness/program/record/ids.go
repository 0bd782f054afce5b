package record

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// idShape is the random identifier a field's name says it holds: values
// nobody chose, which no codec can shrink. Every other field's values
// repeat (vocabularies.go, numbers.go).
type idShape int

const (
	notID   idShape = iota
	plainID         // "id", "*_id", "*_ids": a prefixed number, "device-01234"
	traceID         // "trace_id": 16 bytes (W3C trace context)
	spanID          // "span_id": 8 bytes
	hashID          // "*hash*", "*digest*", "*checksum*", "*fingerprint*": 32 bytes (SHA-256)
	uuidID          // "*uuid*", "*guid*": 16 bytes
)

// idShapeOf reads a lower-case field name.
func idShapeOf(name string) idShape {
	switch {
	case strings.Contains(name, "trace_id") || name == "traceid":
		return traceID
	case strings.Contains(name, "span_id") || name == "spanid":
		return spanID
	case strings.Contains(name, "hash") || strings.Contains(name, "digest") || strings.Contains(name, "checksum") || strings.Contains(name, "fingerprint"):
		return hashID
	case strings.Contains(name, "uuid") || strings.Contains(name, "guid"):
		return uuidID
	case name == "id" || strings.HasSuffix(name, "_id") || strings.HasSuffix(name, "_ids"):
		return plainID
	}
	return notID
}

// idBytes is how many random bytes an id of shape s holds (0: no fixed
// length).
func (s idShape) idBytes() int {
	switch s {
	case traceID, uuidID:
		return 16
	case spanID:
		return 8
	case hashID:
		return 32
	}
	return 0
}

// bytesValue is a bytes field's value: random, since a bytes field holds
// what is already encoded, encrypted or hashed; as long as its name's id
// says, else 16 to 64 bytes.
func bytesValue(name string, r *rand.Rand) []byte {
	n := idShapeOf(name).idBytes()
	if n == 0 {
		n = 16 + r.IntN(49)
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// idString is a string field's random id of shape s, as services print
// them: hex for traces, spans and hashes, the 8-4-4-4-12 form for uuids,
// the name's prefix and a number otherwise ("device-01234").
func idString(name string, s idShape, r *rand.Rand) string {
	switch s {
	case traceID, spanID, hashID:
		return fmt.Sprintf("%x", bytesValue(name, r))
	case uuidID:
		b := bytesValue(name, r)
		b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80 // version 4, RFC 4122 variant
		return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
	}
	prefix := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, "s"), "id"), "_")
	if prefix == "" {
		prefix = "id"
	}
	return fmt.Sprintf("%s-%05d", prefix, r.IntN(100000))
}
