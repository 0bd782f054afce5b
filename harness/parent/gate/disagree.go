package gate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wiregate/wiregate/harness/parent/prepare"
	"github.com/wiregate/wiregate/harness/parent/report"
	"github.com/wiregate/wiregate/harness/program/avroschema"
	"github.com/wiregate/wiregate/harness/program/codec"
)

// asksAvro says whether an Avro format is measured: only then does an
// .avsc that disagrees with its proto message matter to the gate.
func (g *run) asksAvro() bool {
	fs, err := codec.Parse(strings.Join(g.s.Formats, ","))
	return err == nil && slices.ContainsFunc(fs, func(f codec.Format) bool { return f.Avro })
}

// disagreements are head's proto messages whose own .avsc (the record of
// the same full name) disagrees with them, each a finding naming the file
// and the field: their Avro formats are not measured, every other format
// is, and the gate goes on.
func disagreements(head *prepare.Schema, avsc *avroschema.Set) (noAvro []string, findings []report.Finding) {
	for _, m := range head.Messages {
		md, err := head.Message(m)
		if err != nil || avroschema.IsSynthesized(md.ParentFile().Path()) {
			continue
		}
		file, rec := avsc.Record(m)
		if rec == nil {
			continue
		}
		why := avroschema.Disagreement(md, rec)
		if why == nil {
			continue
		}
		noAvro = append(noAvro, m)
		findings = append(findings, report.Finding{Kind: report.KindAvroMismatch, File: file,
			Message: fmt.Sprintf("record %s disagrees with its proto message: %v; make the .avsc agree (its Avro figures are not measured)", m, why)})
	}
	return noAvro, findings
}
