package verdict

import (
	"fmt"

	"github.com/wiregate/wiregate/harness/parent/report"
)

// UngatedGenerated is why a compressed-size growth on generated records
// is stated, not failed.
const UngatedGenerated = "on generated records; give samples to gate it"

// compressedGated is whether a compressed-size growth of m's past its
// threshold fails: when the records are the user's samples, or when raw
// size grew past its own threshold too (rawFails). Otherwise the growth is
// marked ungated (UngatedGenerated): what new bytes compress to is a
// property of the data, and generated values only approximate it
// (docs/verdicts.md), while raw size's tags, lengths and framing are
// exact whatever the text. The one rule for the same content
// (compressedSize) and for the added content's cost (added.go).
func compressedGated(m report.Message, rawFails bool) bool {
	return rawFails || (m.Records != nil && m.Records.FromSamples)
}

// compressedSize decides one codec's compressed size of a format: past
// the compressed-size threshold it fails when compressedGated, else it is
// marked ungated.
func (v *verdict) compressedSize(m report.Message, format string, c *report.CompressedSize, threshold float64, rawFails bool) {
	c.Ungated = ""
	subject := m.Name + "/" + format + "/compressed-size/" + c.Codec
	if c.DeltaPct == nil || c.Base == nil || !exceeds(*c.DeltaPct, threshold) || v.ignored(subject) {
		return
	}
	if !compressedGated(m, rawFails) {
		c.Ungated = UngatedGenerated
		return
	}
	detail := fmt.Sprintf("%s records grew by more than the compressed-size threshold after %s batch compression (%d-byte batches)", format, c.Codec, c.BatchBytes)
	if c.Reading != "" {
		detail += "; " + c.Reading
	}
	v.add(report.Violation{Kind: report.KindCompressedSize, Subject: subject, Unit: "B/record", Base: ptr(*c.Base), Head: ptr(c.Head),
		DeltaPct: ptr(*c.DeltaPct), ThresholdPct: ptr(threshold), Detail: detail})
}
