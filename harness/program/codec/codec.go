// Package codec holds the wire formats wiregate measures. Each format is a
// thin shim over its library's own Marshal/Unmarshal, so a measurement
// through the harness costs what calling the library directly costs (the
// overhead benchmark in this package shows the ratio).
package codec

import (
	"fmt"
	"sort"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/wiregate/wiregate/harness/program/avroschema"
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/subject"
)

// Codec encodes and decodes one message type's values in one format.
type Codec interface {
	// Decode resets v and decodes data into it, once (loading saved
	// records, each into a value of its own).
	Decode(data []byte, v any) error
	// Encoder and Decoder are the measured operations (the loops, the
	// pool's encoding, the correctness gate, the pipeline's consumer):
	// Encoder's returns the wire bytes of vals[i], Decoder's resets into
	// and decodes b into it. Each converts its values to the library's
	// interfaces once, when built, so an operation asserts no type: Go
	// fills a type-assertion site's cache on a random 1 in 1,024 of its
	// slow calls, and a site that sees every message type of a batch is a
	// counted loop's least settled code (docs/design/slow-paths.md).
	Encoder(vals []any) (func(i int) ([]byte, error), error)
	Decoder(into any) (func(b []byte) error, error)
}

// Format is one registered wire format.
type Format struct {
	Name string
	// Plain formats work on the plain struct (encoding/json, the Avro
	// libraries, msgpack, cbor); the others on the protoc-gen-go message.
	Plain bool
	// Aliasing decoders point decoded strings into the input buffer
	// instead of copying them. None of the registered formats does (the
	// string-policy test in this package checks each); the flag reaches
	// the report so a format that does is marked.
	Aliasing bool
	// Avro formats encode with the message's Avro schema (subject.Avro),
	// which the runner loads or derives only when one is asked for.
	Avro bool
	// Default formats are measured unless the user picks formats.
	Default bool
	// About is one line for the report: library and how it is used.
	About string
	// Plugin is the protoc plugin whose generated code the format needs
	// besides protoc-gen-go's and protoc-gen-wiregate's; prepare runs it
	// only when the format is asked for.
	Plugin string
	// NoEditions: Plugin cannot generate files written in an edition.
	NoEditions bool
	// NoGroups: Plugin's code for group-encoded fields (proto2 groups,
	// editions DELIMITED) does not compile or decodes wrongly.
	NoGroups bool
	// Module is the Go module whose package supplies the codec (see
	// optin.go): linked into a bench program only when the format is
	// asked for, so no other program carries its dependencies. Empty: the
	// codec is in this package.
	Module string
	New    func(s *subject.Subject) (Codec, error)
}

// registry is the only package-level state: formats register in init.
var registry = map[string]Format{}

func register(f Format) { registry[f.Name] = f }

// Lookup returns the named format.
func Lookup(name string) (Format, bool) {
	f, ok := registry[name]
	return f, ok
}

// Names lists every format, sorted.
func Names() []string {
	var ns []string
	for n := range registry {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// DefaultNames is the formats measured when none are asked for.
const DefaultNames = "json,protobuf,avro"

// Parse turns "json,protobuf" into formats, rejecting unknown names with
// the list of valid ones.
func Parse(list string) ([]Format, error) {
	var out []Format
	seen := map[string]bool{}
	for _, n := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == '\n' || r == ' ' }) {
		n = strings.ToLower(strings.TrimSpace(n))
		f, ok := registry[n]
		if !ok {
			return nil, exitcode.BadInput("--formats: unknown format %q; valid formats: %s", n, strings.Join(Names(), ", "))
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, exitcode.BadInput("--formats: no format given; valid formats: %s", strings.Join(Names(), ", "))
	}
	return out, nil
}

// Measures says whether f measures s: an Avro-first record (a message
// synthesized from an .avsc, avroschema.Synthesize) is measured in the
// plain formats only, since nobody ships its protobuf encoding; a message
// whose .avsc disagrees with it is not measured in the Avro formats.
func (f Format) Measures(s *subject.Subject) bool {
	if f.Avro && s.NoAvro {
		return false
	}
	return f.Plain || !avroschema.IsSynthesized(s.Type.Descriptor().ParentFile().Path())
}

// Value is record m as the value format f works on.
func (f Format) Value(s *subject.Subject, m proto.Message) any {
	if f.Plain {
		return s.ToPlain(m)
	}
	return m
}

// NewValue is an empty value for f to decode into.
func (f Format) NewValue(s *subject.Subject) any {
	if f.Plain {
		return s.NewPlain()
	}
	return s.Type.New().Interface()
}

// ToProto turns a value f decoded back into the message, for comparison.
func (f Format) ToProto(s *subject.Subject, v any) proto.Message {
	if f.Plain {
		return s.ToProto(v)
	}
	return v.(proto.Message)
}

// resetter is implemented by the generated plain structs.
type resetter interface{ Reset() }

func reset(v any) {
	if r, ok := v.(resetter); ok {
		r.Reset()
	}
}

// resetOf is v's Reset, found once (a no-op when v has none).
func resetOf(v any) func() {
	if r, ok := v.(resetter); ok {
		return r.Reset
	}
	return func() {}
}

// Plain is the codec of a library that encodes and decodes the plain
// struct through `any` (encoding/json, msgpack, cbor, the Avro libraries):
// marshal and unmarshal as the library spells them; Decode resets the
// value first.
func Plain(marshal func(v any) ([]byte, error), unmarshal func(b []byte, v any) error) Codec {
	return plain{marshal, unmarshal}
}

type plain struct {
	marshal   func(v any) ([]byte, error)
	unmarshal func(b []byte, v any) error
}

func (p plain) Decode(b []byte, v any) error { reset(v); return p.unmarshal(b, v) }

func (p plain) Encoder(vals []any) (func(i int) ([]byte, error), error) {
	return func(i int) ([]byte, error) { return p.marshal(vals[i]) }, nil
}

func (p plain) Decoder(into any) (func(b []byte) error, error) {
	reset := resetOf(into)
	return func(b []byte) error { reset(); return p.unmarshal(b, into) }, nil
}

// convertAll is vals as T, each converted once, or the first that is not
// one.
func convertAll[T any](format string, vals []any) ([]T, error) {
	out := make([]T, len(vals))
	for i, v := range vals {
		m, ok := v.(T)
		if !ok {
			return nil, typeError(format, v)
		}
		out[i] = m
	}
	return out, nil
}

func typeError(format string, v any) error {
	return fmt.Errorf("%s codec: unexpected value type %T", format, v)
}
