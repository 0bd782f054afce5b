package gate

import (
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/avroschema"
	"github.com/wiregate/wiregate/harness/program/exitcode"
)

// avroFirst is one side's Avro-first records: its .avsc files whose
// top-level record no proto message of the side's buf module measures,
// synthesized into proto messages of the same full names
// (avroschema.Synthesize) and added to the side's image (prepare.Extra),
// so they are measured like proto messages, in the plain formats.
type avroFirst struct {
	root  string          // the side's checkout: findings and skips name files from it
	set   *avroschema.Set // the side's .avsc files, read together
	noBuf bool            // the side has no buf module: its image is these records alone
	// ref is the base's synthesis of every one of its records: head's
	// fields keep their numbers by name and alias (nil for the base).
	ref *descriptorpb.FileDescriptorSet

	records []avroschema.Record
	skipped []avroschema.Unsupported
	// names are the Avro named types of the synthesized messages
	// (avroschema.Synthesis.Names).
	names map[string]string
}

func (a *avroFirst) NoBuf() bool { return a.noBuf }

// Files synthesizes the records no message in built already measures.
func (a *avroFirst) Files(built *protoregistry.Files) (*descriptorpb.FileDescriptorSet, error) {
	for _, r := range a.set.Records() {
		if _, err := built.FindDescriptorByName(protoreflect.FullName(r.FullName())); err == nil {
			continue // a proto message's Avro schema: measured with it
		}
		a.records = append(a.records, r)
	}
	if a.noBuf && len(a.records) == 0 {
		return nil, exitcode.BadInput("--buf-input %s: no buf.yaml there and no .avsc record to measure; point buf-input at the directory holding buf.yaml, or avro-schemas at the .avsc files", a.root)
	}
	syn := avroschema.Synthesize(a.records, a.ref)
	a.skipped, a.names = syn.Unsupported, syn.Names
	return syn.Set, nil
}

// reference is the base's synthesis of all its records, proto-named or
// not: only names are looked up in it.
func reference(set *avroschema.Set) *descriptorpb.FileDescriptorSet {
	return avroschema.Synthesize(set.Records(), nil).Set
}

// skips are a side's Avro-first records that cannot be measured.
func (a *avroFirst) skips(side string) []report.Skipped {
	var out []report.Skipped
	for _, u := range a.skipped {
		out = append(out, report.Skipped{Message: u.Record, File: u.File, Reason: "an Avro-first record wiregate cannot map to a message: " + u.Reason, Side: side})
	}
	return out
}
