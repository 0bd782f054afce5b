package codec

import (
	"github.com/wiregate/wiregate/harness/program/exitcode"
	"github.com/wiregate/wiregate/harness/program/subject"
)

// Opt-in formats whose library must not reach every bench program (an
// archived library with open advisories, say) live in a Go module of their
// own. Their Format is declared here, so every command knows the name and
// what it measures; the module's package supplies the codec with Provide
// from its init, and prepare links that package into a bench program only
// when the format is asked for.

// provided holds the codecs opt-in modules linked into this program supply.
var provided = map[string]func(*subject.Subject) (Codec, error){}

// Provide is called by an opt-in module's init with its format's codec.
func Provide(name string, newCodec func(*subject.Subject) (Codec, error)) {
	provided[name] = newCodec
}

// Linked reports whether f's codec is in this program.
func (f Format) Linked() bool { return f.Module == "" || provided[f.Name] != nil }

func registerOptIn(f Format) {
	name := f.Name
	f.New = func(s *subject.Subject) (Codec, error) {
		newCodec := provided[name]
		if newCodec == nil {
			return nil, exitcode.BadInput("--formats %s: this bench program was prepared without it (it links %s only when asked); prepare again with %s in --formats", name, f.Module, name)
		}
		return newCodec(s)
	}
	register(f)
}

func init() {
	registerOptIn(Format{Name: "avro-hamba", Plain: true, Avro: true,
		About:  "hamba/avro/v2 on the plain struct (archived and unmaintained: opt-in, to compare with avro)",
		Module: "github.com/wiregate/wiregate/harness/program/codec/avrohamba"})
}
